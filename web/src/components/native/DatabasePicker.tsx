// Which database the SQL runs on (GET /api/database).

import { Select } from '@mantine/core';
import type { Database } from '../../api/types';

export function DatabasePicker({ databases, value, onChange }: { databases: Database[]; value: number | null; onChange(database: Database): void }) {
  return (
    <Select
      label="Database"
      placeholder="Pick a database"
      data={databases.map((d) => ({ value: String(d.id), label: d.name }))}
      value={value === null ? null : String(value)}
      onChange={(v) => {
        const database = databases.find((d) => String(d.id) === v);
        if (database) onChange(database);
      }}
      allowDeselect={false}
      w={260}
      size="sm"
    />
  );
}
