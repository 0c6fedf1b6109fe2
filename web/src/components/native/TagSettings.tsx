// The settings of each variable the SQL uses: its label, its type (text, number, date, field filter) and, for a
// field filter, the field it filters on and the kind of widget.

import { Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import type { DatabaseMetadata } from './api';
import { FieldPicker } from './FieldPicker';
import { defaultWidgetType, withDefault, withType } from './template-tags';
import type { TagType, TemplateTag } from './types';

const TYPES: Array<{ value: TagType; label: string }> = [
  { value: 'text', label: 'Text' },
  { value: 'number', label: 'Number' },
  { value: 'date', label: 'Date' },
  { value: 'dimension', label: 'Field filter' },
];

const WIDGETS = [
  { value: 'category', label: 'Category (pick from values)' },
  { value: 'string/=', label: 'Text is' },
  { value: 'string/contains', label: 'Text contains' },
  { value: 'number/=', label: 'Number equals' },
  { value: 'date/single', label: 'Single date' },
  { value: 'date/all-options', label: 'Date (relative or range)' },
];

function OneTag({ tag, metadata, onChange }: { tag: TemplateTag; metadata: DatabaseMetadata | undefined; onChange(tag: TemplateTag): void }) {
  return (
    <Paper withBorder p="sm" data-testid={`tag-settings-${tag.name}`}>
      <Stack gap="xs">
        <Text ff="monospace" fw={600}>{`{{${tag.name}}}`}</Text>
        <TextInput size="xs" label={`Label of ${tag.name}`} value={tag['display-name']} onChange={(e) => onChange({ ...tag, 'display-name': e.currentTarget.value })} />
        <Select size="xs" label={`Type of ${tag.name}`} data={TYPES} value={tag.type} allowDeselect={false} onChange={(type) => type && onChange(withType(tag, type as TagType))} />
        {tag.type !== 'dimension' && (
          <TextInput
            size="xs"
            label={`Default of ${tag.name}`}
            description="Used when the widget is left empty"
            type={tag.type === 'date' ? 'date' : 'text'}
            value={tag.default === undefined || tag.default === null ? '' : String(tag.default)}
            onChange={(e) => onChange(withDefault(tag, e.currentTarget.value))}
          />
        )}
        {tag.type === 'dimension' && (
          <>
            <FieldPicker
              label={`Field of ${tag.name}`}
              metadata={metadata}
              fieldId={tag.dimension?.[1] ?? null}
              onChange={(field) => onChange({ ...tag, dimension: ['field', field.id, null], 'widget-type': tag.dimension ? (tag['widget-type'] ?? defaultWidgetType(field.base_type)) : defaultWidgetType(field.base_type) })}
            />
            {tag.dimension && <Select size="xs" label={`Widget of ${tag.name}`} data={WIDGETS} value={tag['widget-type'] ?? 'category'} allowDeselect={false} onChange={(w) => w && onChange({ ...tag, 'widget-type': w })} />}
          </>
        )}
      </Stack>
    </Paper>
  );
}

export function TagSettings({ tags, metadata, onChange }: { tags: TemplateTag[]; metadata: DatabaseMetadata | undefined; onChange(tag: TemplateTag): void }) {
  if (tags.length === 0) return null;
  return (
    <Stack gap="sm" aria-label="Variables">
      <Title order={5}>Variables</Title>
      {tags.map((tag) => (
        <OneTag key={tag.id} tag={tag} metadata={metadata} onChange={onChange} />
      ))}
    </Stack>
  );
}
