// /api/user

import type { Routes } from '../http/route.js';
import { Respond } from '../http/route.js';
import { s } from '../http/schema.js';
import { pagingQuery, paging } from '../http/paging.js';
import { sessionCookies } from '../http/session-cookies.js';
import {
  changePassword,
  createUser,
  deactivateUser,
  getUser,
  listUsers,
  reactivateUser,
  recipients,
  setModalSeen,
  updateUser,
  MODALS,
} from '../users/users.js';
import { currentUser } from '../users/current-user.js';
import { MAX_PASSWORD_LENGTH, PASSWORD_MESSAGE } from '../users/password-policy.js';
import { availableLocale, isAvailableLocale, LOCALE_MESSAGE } from '../util/locales.js';
const memberships = s.maybe(
  s.array(s.object({ id: s.posInt(), is_group_manager: s.optional(s.bool()) }, 'map with :id and optional :is_group_manager')),
);
const id = { id: s.posInt() };

export function userRoutes(r: Routes) {
  r.get('/api/user/current', {}, ({ ctx, caller }) => currentUser(ctx, caller));

  r.get('/api/user/recipients', {}, ({ ctx, caller }) => recipients(ctx, caller));

  r.get(
    '/api/user',
    {
      query: {
        status: s.maybe(s.str()),
        query: s.maybe(s.str()),
        group_id: s.maybe(s.posInt()),
        include_deactivated: s.maybe(s.boolstr()),
        ...pagingQuery,
      },
    },
    ({ ctx, caller, query }) =>
      listUsers(ctx, caller, {
        status: query.status,
        query: query.query,
        groupId: query.group_id,
        includeDeactivated: query.include_deactivated,
        ...paging(query),
      }),
  );

  r.get('/api/user/:id', { params: id }, ({ ctx, caller, params }) => getUser(ctx, caller, params.id));

  r.post(
    '/api/user',
    {
      body: {
        email: s.email(),
        first_name: s.maybe(s.name()),
        last_name: s.maybe(s.name()),
        password: s.maybe(s.str(PASSWORD_MESSAGE)),
        user_group_memberships: memberships,
        login_attributes: s.maybe(s.map()),
      },
    },
    ({ ctx, caller, body }) => createUser(ctx, caller, body),
  );

  r.put(
    '/api/user/:id',
    {
      params: id,
      body: {
        email: s.maybe(s.email()),
        first_name: s.maybe(s.name()),
        last_name: s.maybe(s.name()),
        is_superuser: s.maybe(s.bool()),
        is_group_manager: s.maybe(s.bool()),
        locale: s.maybe(s.check<string>(LOCALE_MESSAGE, isAvailableLocale)),
        user_group_memberships: memberships,
        login_attributes: s.maybe(s.map()),
      },
    },
    ({ ctx, caller, params, body, bodyKeys }) =>
      updateUser(ctx, caller, params.id, { ...body, locale: body.locale ? availableLocale(body.locale) : body.locale }, bodyKeys),
  );

  r.put(
    '/api/user/:id/password',
    { params: id, body: { password: s.str(PASSWORD_MESSAGE), old_password: s.maybe(s.str(undefined, { max: MAX_PASSWORD_LENGTH })) } },
    async ({ ctx, caller, params, body, request }) => {
      const { sessionToken } = await changePassword(ctx, caller, params.id, body.password, body.old_password);
      if (!sessionToken) return null;
      return Respond.json({ success: true, session_id: sessionToken }, 200, await sessionCookies(ctx, request, sessionToken, false));
    },
  );

  r.put('/api/user/:id/reactivate', { params: id }, ({ ctx, caller, params }) => reactivateUser(ctx, caller, params.id));

  r.delete('/api/user/:id', { params: id }, ({ ctx, caller, params }) => deactivateUser(ctx, caller, params.id));

  r.put('/api/user/:id/modal/:modal', { params: { ...id, modal: s.enum(MODALS) } }, ({ ctx, caller, params }) =>
    setModalSeen(ctx, caller, params.id, params.modal),
  );
}
