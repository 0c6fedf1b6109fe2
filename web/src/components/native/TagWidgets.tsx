// The widgets a person fills before running: a box per variable (text, number, a date picker) and, for a field
// filter, the field's values to pick from (GET /api/field/:id/values) when the server knows them.

import { Group, MultiSelect, TextInput } from '@mantine/core';
import { nativeApi } from './api';
import { useApi } from '../../lib/useApi';
import type { TagValues, TemplateTag } from './types';

interface WidgetProps {
  tag: TemplateTag;
  value: string | string[] | undefined;
  onChange(value: string | string[]): void;
}

const text = (value: WidgetProps['value']) => (Array.isArray(value) ? value.join(', ') : (value ?? ''));

function FieldValuesWidget({ tag, value, onChange, fieldId }: WidgetProps & { fieldId: number }) {
  const values = useApi((signal) => nativeApi.fieldValues(fieldId, signal), [fieldId]);
  const options = (values.data?.values ?? []).map((row) => String(row[0])).filter((v, i, all) => v !== 'null' && all.indexOf(v) === i);
  if (options.length === 0)
    return <TextInput label={tag['display-name']} placeholder="Values, separated by commas" value={text(value)} onChange={(e) => onChange(e.currentTarget.value.split(',').map((v) => v.trim()).filter(Boolean))} w={220} />;
  return <MultiSelect label={tag['display-name']} placeholder="Any" data={options} value={Array.isArray(value) ? value : value ? [value] : []} onChange={onChange} searchable clearable w={260} />;
}

function Widget({ tag, value, onChange }: WidgetProps) {
  const widget = tag['widget-type'] ?? '';
  if (tag.type === 'dimension' && tag.dimension) {
    if (widget === 'date/single') return <TextInput type="date" label={tag['display-name']} value={text(value)} onChange={(e) => onChange(e.currentTarget.value)} w={180} />;
    if (widget === 'date/all-options') return <TextInput label={tag['display-name']} placeholder="past30days, 2024-01-01~2024-03-31" value={text(value)} onChange={(e) => onChange(e.currentTarget.value)} w={240} />;
    return <FieldValuesWidget tag={tag} value={value} onChange={onChange} fieldId={tag.dimension[1]} />;
  }
  if (tag.type === 'dimension') return <TextInput label={tag['display-name']} disabled placeholder="Pick its field first" w={180} />;
  if (tag.type === 'date') return <TextInput type="date" label={tag['display-name']} value={text(value)} onChange={(e) => onChange(e.currentTarget.value)} w={180} />;
  return <TextInput label={tag['display-name']} inputMode={tag.type === 'number' ? 'decimal' : undefined} placeholder={tag.default !== undefined && tag.default !== null ? String(tag.default) : tag.type === 'number' ? 'A number' : 'Any'} value={text(value)} onChange={(e) => onChange(e.currentTarget.value)} w={180} />;
}

export function TagWidgets({ tags, values, onChange }: { tags: TemplateTag[]; values: TagValues; onChange(name: string, value: string | string[]): void }) {
  if (tags.length === 0) return null;
  return (
    <Group gap="md" align="flex-end" role="group" aria-label="Parameters" data-testid="tag-widgets">
      {tags.map((tag) => (
        <Widget key={tag.id} tag={tag} value={values[tag.name]} onChange={(v) => onChange(tag.name, v)} />
      ))}
    </Group>
  );
}
