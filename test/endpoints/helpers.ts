// Shared by the tests of the endpoints newer Metabase versions added: an admin, the Sample Database, a user who may
// query it and one whose groups may not, and multipart uploads.

import assert from 'node:assert/strict';
import { setupAdmin, createUserClient, type TestServer } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample } from '../databases/helpers.js';

export interface Callers {
  admin: Client;
  /** In a group that may query the Sample Database. */
  user: Client;
  userId: number;
  /** Only in All Users, which may not query it. */
  nodata: Client;
  sample: { id: number; metadata: any };
}

export function ok<T = any>(response: { status: number; text: string; body: T }, what: string): T {
  assert.ok(response.status >= 200 && response.status < 300, `${what}: ${response.status} ${response.text}`);
  return response.body;
}

export async function callers(t: TestServer): Promise<Callers> {
  const admin = await setupAdmin(t);
  const sample = await installSample(admin);
  const group = ok(await admin.post('/api/permissions/group', { name: `Analysts ${Date.now()}` }), 'group');
  const { client: user, user: userRow } = await createUserClient(t, admin);
  const { client: nodata } = await createUserClient(t, admin);
  ok(await admin.post('/api/permissions/membership', { group_id: group.id, user_id: userRow.id }), 'membership');
  const { revision } = ok(await admin.get('/api/permissions/graph'), 'graph');
  ok(
    await admin.put('/api/permissions/graph', {
      revision,
      groups: {
        1: { [sample.id]: { 'create-queries': 'no' } },
        [group.id]: { [sample.id]: { 'create-queries': 'query-builder-and-native' } },
      },
    }),
    'graph update',
  );
  return { admin, user, userId: userRow.id, nodata, sample };
}

/** POSTs a CSV file as the multipart field `file`. */
export async function postCsv(client: Client, path: string, filename: string, content: string | Buffer, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.append('file', new Blob([content], { type: 'text/csv' }), filename);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const response = await fetch(client.url(path), { method: 'POST', headers: client.session ? { 'X-Metabase-Session': client.session } : {}, body: form });
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain text or empty
  }
  return { status: response.status, body, text, headers: response.headers };
}
