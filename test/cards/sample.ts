// The Sample Database for tests that run card queries: installed and synced through the API, with its table and
// field ids looked up by name.

import type { Client } from '../helpers/client.js';

export interface Sample {
  id: number;
  table(name: string): number;
  field(table: string, name: string): number;
}

export async function installSample(admin: Client): Promise<Sample> {
  const response = await admin.post('/api/database/sample_database');
  if (response.status !== 200) throw new Error(`sample database: ${response.status} ${response.text}`);
  const id = response.body.id as number;
  const metadata = (await admin.get(`/api/database/${id}/metadata`)).body;
  const tables = new Map<string, any>(metadata.tables.map((t: any) => [t.name, t]));
  return {
    id,
    table(name) {
      const t = tables.get(name);
      if (!t) throw new Error(`no sample table ${name}`);
      return t.id;
    },
    field(table, name) {
      const f = tables.get(table)?.fields.find((x: any) => x.name === name);
      if (!f) throw new Error(`no sample field ${table}.${name}`);
      return f.id;
    },
  };
}
