// /api/permissions/group and /api/permissions/membership (the graph endpoints live with data permissions).

import type { Routes } from '../http/route.js';
import { s } from '../http/schema.js';
import {
  addMember,
  clearGroup,
  createGroup,
  deleteGroup,
  getGroup,
  listGroups,
  membershipMap,
  removeMember,
  renameGroup,
  updateMember,
} from '../users/groups.js';


export function permissionsGroupRoutes(r: Routes) {
  r.get('/api/permissions/group', {}, ({ ctx, caller }) => listGroups(ctx, caller));
  r.get('/api/permissions/group/:id', { params: { id: s.posInt() } }, ({ ctx, caller, params }) => getGroup(ctx, caller, params.id));
  r.post('/api/permissions/group', { body: { name: s.name() } }, ({ ctx, caller, body }) => createGroup(ctx, caller, body.name));
  r.put('/api/permissions/group/:group-id', { params: { 'group-id': s.posInt() }, body: { name: s.name() } }, ({ ctx, caller, params, body }) =>
    renameGroup(ctx, caller, params['group-id'], body.name),
  );
  r.delete('/api/permissions/group/:group-id', { params: { 'group-id': s.posInt() } }, async ({ ctx, caller, params }) => {
    await deleteGroup(ctx, caller, params['group-id']);
  });

  r.get('/api/permissions/membership', {}, ({ ctx, caller }) => membershipMap(ctx, caller));
  r.post(
    '/api/permissions/membership',
    { body: { group_id: s.posInt(), user_id: s.posInt(), is_group_manager: s.maybe(s.bool()) } },
    ({ ctx, caller, body }) => addMember(ctx, caller, body.group_id, body.user_id, body.is_group_manager ?? false),
  );
  r.delete('/api/permissions/membership/:id', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await removeMember(ctx, caller, params.id);
  });
  r.put('/api/permissions/membership/:id', { params: { id: s.posInt() }, body: { is_group_manager: s.bool() } }, ({ ctx, caller, params, body }) =>
    updateMember(ctx, caller, params.id, body.is_group_manager),
  );
  r.put('/api/permissions/membership/:id/clear', { params: { id: s.posInt() } }, async ({ ctx, caller, params }) => {
    await clearGroup(ctx, caller, params.id);
  });
}
