// The field a field filter filters on: the database's tables and their fields (GET /api/database/:id/metadata), one
// searchable list grouped by table.

import { Select } from '@mantine/core';
import { useMemo } from 'react';
import type { DatabaseMetadata } from './api';

export function FieldPicker({ metadata, fieldId, onChange, label }: { metadata: DatabaseMetadata | undefined; fieldId: number | null; onChange(field: { id: number; base_type: string }): void; label: string }) {
  const { groups, byId } = useMemo(() => {
    const byId = new Map<string, { id: number; base_type: string }>();
    const groups = (metadata?.tables ?? []).map((table) => ({
      group: table.display_name,
      items: table.fields.map((field) => {
        byId.set(String(field.id), field);
        return { value: String(field.id), label: `${table.name}.${field.name}` };
      }),
    }));
    return { groups, byId };
  }, [metadata]);
  return (
    <Select
      label={label}
      placeholder={metadata ? 'Pick a field' : 'Loading fields…'}
      data={groups}
      value={fieldId === null ? null : String(fieldId)}
      onChange={(value) => {
        const field = value ? byId.get(value) : undefined;
        if (field) onChange(field);
      }}
      searchable
      nothingFoundMessage="No such field"
      size="xs"
    />
  );
}
