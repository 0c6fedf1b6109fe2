// The filters a public or embed viewer may set (the server lists only those; a token's locked ones are absent),
// as text boxes: several values separated by commas, applied on Enter or when the box loses focus. Filters named in
// `#hide_parameters` are not shown, but their values (from the URL or their defaults) still apply.

import { Group, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Parameter } from '../../api/types';
import type { ParameterValues } from './source';

function ParameterInput({ parameter, values, onChange }: { parameter: Parameter; values: string[]; onChange: (values: string[]) => void }) {
  const shown = values.join(', ');
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const apply = () => {
    const next = text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    if (next.join(', ') !== shown) onChange(next);
  };
  return (
    <TextInput
      label={parameter.name}
      placeholder="Any"
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      onBlur={apply}
      onKeyDown={(e) => e.key === 'Enter' && apply()}
      data-testid={`parameter-${parameter.slug}`}
      w={200}
    />
  );
}

export function ParameterInputs({ parameters, values, hidden, onChange }: { parameters: Parameter[]; values: ParameterValues; hidden: Set<string>; onChange: (slug: string, values: string[]) => void }) {
  const shown = parameters.filter((p) => !hidden.has(p.slug));
  if (shown.length === 0) return null;
  return (
    <Group gap="md" align="flex-end" mb="md" role="group" aria-label="Filters">
      {shown.map((p) => (
        <ParameterInput key={p.id} parameter={p} values={values[p.slug] ?? []} onChange={(v) => onChange(p.slug, v)} />
      ))}
    </Group>
  );
}
