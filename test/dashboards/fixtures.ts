// Builders for the dashboard tests: dashboards, dashcards as PUT takes them, and reading a dashboard back.

import assert from 'node:assert/strict';
import type { Client } from '../helpers/client.js';
import { uniqueName } from '../cards/fixtures.js';
import { ALL_USERS_GROUP_ID } from '../../src/users/memberships.js';

export async function createDashboard(client: Client, fields: Record<string, unknown> = {}) {
  const response = await client.post('/api/dashboard', { name: uniqueName('Dash'), ...fields });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

export function newDashcard(id: number, cardId: number | null, extra: Record<string, unknown> = {}) {
  return { id, card_id: cardId, row: 0, col: 0, size_x: 6, size_y: 4, parameter_mappings: [], visualization_settings: {}, series: [], ...extra };
}

/** A dashcard from GET, reduced to what PUT takes. */
export function asInput(dc: any, changes: Record<string, unknown> = {}) {
  return {
    id: dc.id,
    card_id: dc.card_id,
    dashboard_tab_id: dc.dashboard_tab_id,
    row: dc.row,
    col: dc.col,
    size_x: dc.size_x,
    size_y: dc.size_y,
    parameter_mappings: dc.parameter_mappings,
    visualization_settings: dc.visualization_settings,
    series: (dc.series ?? []).map((s: any) => ({ id: s.id })),
    ...changes,
  };
}

export async function putLayout(client: Client, id: number, dashcards: unknown[], tabs?: unknown[], extra: Record<string, unknown> = {}) {
  const response = await client.put(`/api/dashboard/${id}`, { dashcards, ...(tabs ? { tabs } : {}), ...extra });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

export async function getDashboard(client: Client, id: number) {
  const response = await client.get(`/api/dashboard/${id}`);
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** Sets what the All Users group (every user) may do in some collections, e.g. `{ [secret.id]: 'none' }`. */
export async function setAllUsersCollectionPerms(admin: Client, perms: Record<number, 'none' | 'read' | 'write'>) {
  const { revision } = (await admin.get('/api/collection/graph')).body;
  const response = await admin.put('/api/collection/graph', { revision, groups: { [ALL_USERS_GROUP_ID]: perms } });
  assert.equal(response.status, 200, response.text);
}
