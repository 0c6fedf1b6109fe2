// The "add a database" form, built from the engine's `details-fields` in /api/session/properties `engines`
// (what the server accepts in `details`), posted to POST /api/database.

import { Alert, Button, Checkbox, Group, NumberInput, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { api } from '../api/client';
import type { Database, DetailsField } from '../api/types';
import { useSession } from '../lib/session';
import { useAction } from '../lib/useAction';


const DRAWN = new Set([undefined, 'string', 'integer', 'password', 'boolean', 'select']);

function visible(field: DetailsField, details: Record<string, unknown>): boolean {
  return Object.entries(field['visible-if'] ?? {}).every(([key, value]) => (details[key] ?? false) === value);
}

function FieldInput({ field, value, onChange }: { field: DetailsField; value: unknown; onChange: (v: unknown) => void }) {
  const label = field['display-name'] ?? field.name;
  const common = { label, description: field['helper-text'], required: field.required, placeholder: field.placeholder === undefined ? undefined : String(field.placeholder) };
  switch (field.type) {
    case 'boolean':
      return <Checkbox label={label} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'integer':
      return <NumberInput {...common} value={typeof value === 'number' ? value : ''} onChange={(v) => onChange(typeof v === 'number' ? v : undefined)} allowDecimal={false} />;
    case 'password':
      return <PasswordInput {...common} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'select':
      return <Select {...common} data={(field.options ?? []).map((o) => ({ value: o.value, label: o.name }))} value={typeof value === 'string' ? value : null} onChange={(v) => onChange(v ?? undefined)} />;
    default:
      return <TextInput {...common} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}

export function DatabaseForm({ onAdded, extraActions }: { onAdded: (db: Database) => void; extraActions?: ReactNode }) {
  const { properties } = useSession();
  const engines = properties.engines ?? {};
  const [engine, setEngine] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [details, setDetails] = useState<Record<string, unknown>>({});
  const fields = useMemo(() => ((engine ? engines[engine]?.['details-fields'] : []) ?? []), [engine, engines]);

  const pickEngine = (next: string | null) => {
    setEngine(next);
    const defaults: Record<string, unknown> = {};
    for (const field of ((next ? engines[next]?.['details-fields'] : []) ?? [])) if (field.default !== undefined) defaults[field.name] = field.default;
    setDetails(defaults);
  };

  const { busy, error, run } = useAction(async () => {
    const sent = Object.fromEntries(Object.entries(details).filter(([key, value]) => value !== '' && value !== undefined && fields.some((f) => f.name === key)));
    onAdded(await api.post<Database>('/api/database', { engine, name: name.trim(), details: sent }));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (engine) void run();
  };

  return (
    <Stack component="form" onSubmit={submit}>
      <Select
        label="Database type"
        placeholder="Pick a database type"
        data={Object.entries(engines).map(([value, e]) => ({ value, label: e['driver-name'] ?? value }))}
        value={engine}
        onChange={pickEngine}
      />
      {engine && (
        <>
          <TextInput label="Display name" required value={name} onChange={(e) => setName(e.currentTarget.value)} placeholder="Our data" />
          {fields
            .filter((field) => DRAWN.has(field.type) && visible(field, details))
            .map((field) => (
              <FieldInput key={field.name} field={field} value={details[field.name]} onChange={(v) => setDetails((d) => ({ ...d, [field.name]: v }))} />
            ))}
        </>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        {extraActions}
        <Button type="submit" loading={busy} disabled={!engine}>
          Connect database
        </Button>
      </Group>
    </Stack>
  );
}
