// One dashboard filter: a date filter takes Metabase's date strings (a list of the usual ones, or any it parses typed
// in: past30days, 2024-01-01~2024-02-01, Q1-2024, …); every other filter takes one or more values, offered from the
// filter's values (chain-filter endpoints, limited by linked filters) and searched as typed.

import { Autocomplete, TagsInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Parameter } from '../../api/types';
import { DATE_SUGGESTIONS, isDateParameter } from './parameters';
import { useParameterOptions } from './useParameterOptions';
import type { ValuesSource } from './valueSources';

interface WidgetProps {
  parameter: Parameter;
  values: string[];
  onChange(values: string[]): void;
}

function DateWidget({ parameter, values, onChange }: WidgetProps) {
  const shown = values[0] ?? '';
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const apply = (value: string) => {
    const next = value.trim();
    if (next !== shown) onChange(next ? [next] : []);
  };
  return (
    <Autocomplete
      label={parameter.name}
      placeholder="Any date"
      data={DATE_SUGGESTIONS.map((s) => s.value)}
      renderOption={({ option }) => DATE_SUGGESTIONS.find((s) => s.value === option.value)?.label ?? option.value}
      value={text}
      onChange={setText}
      onOptionSubmit={apply}
      onBlur={() => apply(text)}
      onKeyDown={(e) => e.key === 'Enter' && apply(text)}
      data-testid={`parameter-${parameter.slug}`}
      w={220}
    />
  );
}

function ValuesWidget({ parameter, values, onChange, source, constraints }: WidgetProps & { source: ValuesSource; constraints: Record<string, string[]> }) {
  const [typed, setTyped] = useState('');
  const [opened, setOpened] = useState(false);
  const { options, loading } = useParameterOptions(source, parameter, constraints, typed, opened);
  return (
    <TagsInput
      label={parameter.name}
      placeholder={values.length ? undefined : 'Any'}
      data={[...new Set([...options, ...values])]}
      value={values}
      onChange={onChange}
      searchValue={typed}
      onSearchChange={setTyped}
      onDropdownOpen={() => setOpened(true)}
      onFocus={() => setOpened(true)}
      limit={200}
      maxDropdownHeight={280}
      clearable
      data-loading={loading || undefined}
      data-testid={`parameter-${parameter.slug}`}
      w={240}
    />
  );
}

export function ParameterWidget(props: WidgetProps & { source: ValuesSource; constraints: Record<string, string[]> }) {
  return isDateParameter(props.parameter) ? <DateWidget {...props} /> : <ValuesWidget {...props} />;
}
