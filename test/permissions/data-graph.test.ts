// The data permissions graph (v2, reference §9.1): its sparse shape, per database and per group, revisions with
// 409 on a stale one, force and skip-graph, validation, the 402 for enterprise-only keys, and the defaults of new
// groups and new databases.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';
import Database from '../../src/util/better-sqlite3.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FULL = {
  'view-data': 'unrestricted',
  'create-queries': 'query-builder-and-native',
  download: { schemas: 'full' },
  'data-model': { schemas: 'all' },
  details: 'yes',
};

forEachAppDb('data permissions graph', (server) => {
  let admin: Client;
  let user: Client;
  let sample: Sample;

  before(async () => {
    admin = await setupAdmin(server());
    user = (await createUserClient(server(), admin)).client;
    sample = await installSample(admin);
  });

  async function graph() {
    const response = await admin.get('/api/permissions/graph');
    assert.equal(response.status, 200, response.text);
    return response.body;
  }

  async function newGroup() {
    const response = await admin.post('/api/permissions/group', { name: uniqueName('Group') });
    assert.equal(response.status, 200, response.text);
    return response.body.id as number;
  }

  test('fresh install: All Users may query everything, admins are synthesized, least values left out', async () => {
    const g = await graph();
    assert.equal(typeof g.revision, 'number');
    assert.deepEqual(g.groups['1'][String(sample.id)], { 'view-data': 'unrestricted', 'create-queries': 'query-builder-and-native', download: { schemas: 'full' } });
    assert.deepEqual(g.groups['2'][String(sample.id)], FULL);
  });

  test('a new group can view but not query; per-group and per-database graphs are filtered', async () => {
    const id = await newGroup();
    const g = await graph();
    assert.deepEqual(g.groups[String(id)][String(sample.id)], { 'view-data': 'unrestricted' });
    const one = (await admin.get(`/api/permissions/graph/group/${id}`)).body;
    assert.deepEqual(Object.keys(one.groups), [String(id)]);
    assert.equal(one.revision, g.revision);
    const byDb = (await admin.get(`/api/permissions/graph/db/${sample.id}`)).body;
    for (const entry of Object.values(byDb.groups) as any[]) assert.deepEqual(Object.keys(entry), [String(sample.id)]);
    assert.equal((await admin.get('/api/permissions/graph/group/99999')).status, 404);
    assert.equal((await admin.get('/api/permissions/graph/db/99999')).status, 404);
  });

  test('superusers only', async () => {
    for (const path of ['/api/permissions/graph', `/api/permissions/graph/db/${sample.id}`, '/api/permissions/graph/group/1']) {
      assert.equal((await user.get(path)).status, 403);
      assert.equal((await server().anon.get(path)).status, 401);
    }
    assert.equal((await user.put('/api/permissions/graph', { revision: 0, groups: {} })).status, 403);
  });

  test('PUT: granular values collapse, the response holds the groups sent, stale revisions change nothing', async () => {
    const id = await newGroup();
    const before = await graph();
    const orders = sample.table('ORDERS');
    const people = sample.table('PEOPLE');
    const put = await admin.put('/api/permissions/graph', {
      revision: before.revision,
      groups: {
        [id]: {
          [sample.id]: {
            'create-queries': { '': { [orders]: 'query-builder', [people]: 'no' } },
            download: { schemas: { '': { [orders]: 'limited' } } },
          },
        },
      },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.revision, before.revision + 1);
    assert.deepEqual(Object.keys(put.body.groups), [String(id)]);
    assert.deepEqual(put.body.groups[String(id)][String(sample.id)], {
      'view-data': 'unrestricted',
      'create-queries': { '': { [orders]: 'query-builder' } },
      download: { schemas: { '': { [orders]: 'limited' } } },
    });
    // the same value for every table collapses to the database
    const all = Object.fromEntries(['ORDERS', 'PEOPLE', 'PRODUCTS', 'REVIEWS', 'ACCOUNTS', 'ANALYTIC_EVENTS', 'FEEDBACK', 'INVOICES'].map((t) => [sample.table(t), 'query-builder']));
    const collapsed = await admin.put('/api/permissions/graph', { revision: put.body.revision, groups: { [id]: { [sample.id]: { 'create-queries': { '': all } } } } });
    assert.equal(collapsed.status, 200, collapsed.text);
    assert.equal(collapsed.body.groups[String(id)][String(sample.id)]['create-queries'], 'query-builder');

    const stale = await admin.put('/api/permissions/graph', { revision: before.revision, groups: { [id]: { [sample.id]: { 'create-queries': 'no' } } } });
    assert.equal(stale.status, 409);
    assert.equal(stale.text, 'Looks like someone else edited the permissions and your data is out of date. Please fetch new data and try again.');
    const unchanged = (await admin.get(`/api/permissions/graph/group/${id}`)).body;
    assert.equal(unchanged.groups[String(id)][String(sample.id)]['create-queries'], 'query-builder');

    const forced = await admin.put('/api/permissions/graph', { revision: before.revision, groups: { [id]: { [sample.id]: { 'create-queries': 'no' } } } }, { query: { force: 'true', 'skip-graph': 'true' } });
    assert.equal(forced.status, 200, forced.text);
    assert.deepEqual(Object.keys(forced.body), ['revision']);
    // kinds left out of a PUT keep their values
    assert.deepEqual((await admin.get(`/api/permissions/graph/group/${id}`)).body.groups[String(id)][String(sample.id)], {
      'view-data': 'unrestricted',
      download: { schemas: { '': { [orders]: 'limited' } } },
    });
  });

  test('PUT: invalid graphs are a 400, enterprise-only keys a 402, administrators stay untouched', async () => {
    const id = await newGroup();
    const { revision } = await graph();
    const bad = async (entry: unknown) => admin.put('/api/permissions/graph', { revision, groups: { [id]: { [sample.id]: entry } } });
    for (const entry of [
      { 'create-queries': 'everything' },
      { 'create-queries': { '': 'query-builder-and-native' } },
      { 'view-data': 'blocked', 'create-queries': 'query-builder-and-native' },
      { download: { schemas: 'some' } },
      { data: { schemas: 'all' } },
    ]) {
      const response = await bad(entry);
      assert.equal(response.status, 400, JSON.stringify(entry));
      assert.match(response.text, /^Cannot parse permissions graph because it is invalid: /);
    }
    assert.equal((await bad({ 'view-data': 'sandboxed' })).status, 402);
    const sandboxes = await admin.put('/api/permissions/graph', { revision, groups: {}, sandboxes: [] });
    assert.equal(sandboxes.status, 402);
    assert.match(sandboxes.text, /paid feature/);
    assert.equal((await admin.put('/api/permissions/graph', { revision, groups: {}, impersonations: [] })).status, 402);
    assert.equal((await graph()).revision, revision, 'nothing was saved');
    const admins = await admin.put('/api/permissions/graph', { revision, groups: { 2: { [sample.id]: { 'create-queries': 'no' } } } });
    assert.equal(admins.status, 200);
    assert.deepEqual((await graph()).groups['2'][String(sample.id)], FULL);
  });

  test('every accepted PUT is a revision, also one that changes nothing: the revision it was built on is then stale', async () => {
    const id = await newGroup();
    const first = await graph();
    const entry = { [id]: { [sample.id]: { 'create-queries': 'query-builder' } } };
    const changed = await admin.put('/api/permissions/graph', { revision: first.revision, groups: entry }, { query: { 'skip-graph': 'true' } });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(changed.body.revision, first.revision + 1);
    // the same again changes nothing, and is still a revision
    const same = await admin.put('/api/permissions/graph', { revision: changed.body.revision, groups: entry }, { query: { 'skip-graph': 'true' } });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.revision, changed.body.revision + 1);
    const empty = await admin.put('/api/permissions/graph', { revision: same.body.revision, groups: {} });
    assert.equal(empty.status, 200, empty.text);
    assert.equal(empty.body.revision, same.body.revision + 1);
    assert.equal((await graph()).revision, empty.body.revision);
    // a client still holding an earlier revision is told to reload
    const stale = await admin.put('/api/permissions/graph', { revision: same.body.revision, groups: entry });
    assert.equal(stale.status, 409);
    assert.equal((await graph()).revision, empty.body.revision, 'a refused PUT is no revision');
  });

  test('PUT: blocking data takes query and download access with it; unknown schemas and misplaced tables are a 400', async () => {
    const id = await newGroup();
    const put = async (entry: unknown) => {
      const response = await admin.put('/api/permissions/graph', { revision: (await graph()).revision, groups: { [id]: { [sample.id]: entry } } });
      assert.equal(response.status, 200, response.text);
      return (await graph()).groups[String(id)][String(sample.id)];
    };
    const everything = { 'view-data': 'unrestricted', 'create-queries': 'query-builder-and-native', download: { schemas: 'full' } };
    assert.deepEqual(await put(everything), everything);
    assert.deepEqual(await put({ 'view-data': 'blocked' }), { 'view-data': 'blocked' }, 'a blocked database can be neither queried nor downloaded');
    await put(everything);
    const orders = String(sample.table('ORDERS'));
    const products = String(sample.table('PRODUCTS'));
    const partly = await put({ 'view-data': { '': { [orders]: 'blocked' } } });
    assert.equal(partly['view-data'][''][orders], 'blocked');
    // the blocked table lost both; the others keep their downloads and fall back from SQL to the query builder
    assert.equal(partly['create-queries'][''][orders], undefined);
    assert.equal(partly['create-queries'][''][products], 'query-builder');
    assert.equal(partly.download.schemas[''][orders], undefined);
    assert.equal(partly.download.schemas[''][products], 'full');
    const { revision } = await graph();
    for (const entry of [
      { 'create-queries': { NOPE: 'query-builder' } },
      { 'view-data': { nosuchschema: 'blocked' } },
      { 'create-queries': { '': { '999999': 'query-builder' } } },
    ]) {
      const response = await admin.put('/api/permissions/graph', { revision, groups: { [id]: { [sample.id]: entry } } });
      assert.equal(response.status, 400, JSON.stringify(entry));
      assert.match(response.text, /^Cannot parse permissions graph because it is invalid: /);
    }
    assert.equal((await graph()).revision, revision);
  });

  test('a new database gives each group its lowest level elsewhere; deleting a group drops its permissions', async () => {
    const id = await newGroup();
    const { revision } = await graph();
    await admin.put('/api/permissions/graph', { revision, groups: { [id]: { [sample.id]: { 'create-queries': 'query-builder', download: { schemas: 'limited' } } } } });
    const dir = mkdtempSync(join(tmpdir(), 'quarry-perm-'));
    const file = join(dir, 'tiny.sqlite');
    const tiny = new Database(file);
    tiny.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    tiny.close();
    const other = await admin.post('/api/database', { engine: 'sqlite', name: uniqueName('Tiny'), details: { db: file } });
    assert.equal(other.status, 200, other.text);
    const g = await graph();
    assert.deepEqual(g.groups[String(id)][String(other.body.id)], { 'view-data': 'unrestricted', 'create-queries': 'query-builder', download: { schemas: 'limited' } });
    assert.deepEqual(g.groups['1'][String(other.body.id)], { 'view-data': 'unrestricted', 'create-queries': 'query-builder-and-native', download: { schemas: 'full' } });
    assert.equal((await admin.delete(`/api/permissions/group/${id}`)).status, 204);
    assert.equal((await graph()).groups[String(id)], undefined);
    const left = await server().ctx.db.selectFrom('data_permission').select('id').where('group_id', '=', id).execute();
    assert.equal(left.length, 0);
    assert.equal((await admin.delete(`/api/database/${other.body.id}`)).status, 204);
  });
});
