// A TypeScript client generated from the document (openapi-typescript, used through openapi-fetch) signs in and runs
// a saved question against a live server — the way a user of the document would use it. The generated types are
// type-checked with a small client program, and a wrong call (a string where the document says integer) is refused.

import { before, after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { ADMIN, forEachAppDb, setupAdmin } from '../helpers/server.js';
import { installSample, tableOf } from '../databases/helpers.js';

const root = new URL('../..', import.meta.url).pathname;

/** The client a user would write against the generated types. */
const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './quarry-api.js';

export async function signInAndRun(baseUrl: string, username: string, password: string, cardId: number) {
  const anonymous = createClient<paths>({ baseUrl });
  const login = await anonymous.POST('/api/session', { body: { username, password } });
  if (!login.data) throw new Error('login failed: ' + login.response.status);
  const session: string = login.data.id;

  const client = createClient<paths>({ baseUrl, headers: { 'X-Metabase-Session': session } });
  const run = await client.POST('/api/card/{card-id}/query', { params: { path: { 'card-id': cardId } }, body: { ignore_cache: true } });
  if (!run.data) throw new Error('query refused: ' + run.response.status);
  const status: 'completed' | 'failed' = run.data.status;
  // A query that fails once the answer started is still a 202, with an error instead of data.
  if (!run.data.data) throw new Error('query failed: ' + run.data.error);
  const rows: unknown[][] = run.data.data.rows;
  const columns: string[] = run.data.data.cols.map((col) => col.name);
  return { httpStatus: run.response.status, status, rows, columns };
}
`;

/** Calls the generated types must refuse. */
const WRONG = `
import createClient from 'openapi-fetch';
import type { paths } from './quarry-api.js';

const client = createClient<paths>({ baseUrl: 'http://localhost:3000' });
await client.POST('/api/card/{card-id}/query', { params: { path: { 'card-id': 'not-a-number' } } });
await client.POST('/api/session', { body: { username: 'ada@example.com' } });
`;

forEachAppDb('a client generated from the OpenAPI document', (server) => {
  let dir: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-openapi-client-'));
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  test('its types compile with a client program, refuse wrong calls, and the client signs in and runs a question', async () => {
    const document = (await server().anon.get('/api/docs/openapi.json')).body;
    writeFileSync(join(dir, 'quarry-api.ts'), astToString(await openapiTS(document)));
    writeFileSync(join(dir, 'client.ts'), CLIENT);
    writeFileSync(join(dir, 'wrong.ts'), WRONG);

    const tsc = [join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext'];
    const checked = await promisify(execFile)(process.execPath, [...tsc, 'client.ts'], { cwd: dir }).catch((e: { stdout: string }) => e);
    assert.equal(checked.stdout, '', 'the client program type-checks against the generated types');
    const wrong = await promisify(execFile)(process.execPath, [...tsc, 'wrong.ts'], { cwd: dir }).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    const errors = wrong.split('\n').filter((line) => line.startsWith('wrong.ts('));
    assert.equal(errors.length, 2, wrong);
    assert.match(errors[0], /wrong\.ts\(6,/, 'a string card id');
    assert.match(errors[1], /wrong\.ts\(7,/, 'a login without its password');

    const admin = await setupAdmin(server());
    const sample = await installSample(admin);
    const card = await admin.post('/api/card', {
      name: 'Orders by count',
      display: 'scalar',
      visualization_settings: {},
      dataset_query: { database: sample.id, type: 'query', query: { 'source-table': tableOf(sample.metadata, 'ORDERS').id, aggregation: [['count']] } },
    });
    assert.equal(card.status, 200, card.text);
    const expected = await admin.post(`/api/card/${card.body.id}/query`, {});

    const { signInAndRun } = await import(pathToFileURL(join(dir, 'client.ts')).href);
    const result = await signInAndRun(server().url, ADMIN.email, ADMIN.password, card.body.id);
    assert.equal(result.httpStatus, 202);
    assert.equal(result.status, 'completed');
    assert.deepEqual(result.columns, ['count']);
    assert.deepEqual(result.rows, expected.body.data.rows);
    assert.ok((result.rows[0][0] as number) > 0);
  });
});
