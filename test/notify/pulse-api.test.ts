// /api/pulse as a client sees it: Metabase's shapes, validation messages and permission rules — who may see,
// create, edit and archive a subscription, what a recipient without collection access sees, creator_or_recipient,
// unsubscribing oneself (and the cascade), form_input.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import { installSample, type Sample } from '../cards/sample.js';
import { createCollection } from '../cards/fixtures.js';
import { setAllUsersCollectionPerms } from '../dashboards/fixtures.js';
import type { Client } from '../helpers/client.js';
import { byCategory, dashboardWith, emailChannel, sampleCard, subscriptionBody } from './fixtures.js';

forEachAppDb('/api/pulse', (server) => {
  let admin: Client;
  let adminId: number;
  let sample: Sample;
  let dashboard: any;
  let card: any;

  before(async () => {
    admin = await setupAdmin(server());
    adminId = (await admin.get('/api/user/current')).body.id;
    sample = await installSample(admin);
    card = await sampleCard(admin, sample, { display: 'bar', query: byCategory(sample) });
    dashboard = await dashboardWith(admin, sample, [card]);
  });

  test('create, read and list a dashboard subscription in Metabase\'s shape', async () => {
    const { user } = await createUserClient(server(), admin);
    const body = subscriptionBody(dashboard, [emailChannel([{ id: adminId }, { id: user.id }, { email: 'outside@example.com' }], { schedule_type: 'weekly', schedule_hour: 8, schedule_day: 'mon' })], {
      parameters: [{ id: 'cat', name: 'Category', slug: 'category', type: 'string/=', value: ['Gizmo'] }],
    });
    const created = await admin.post('/api/pulse', body);
    assert.equal(created.status, 200, created.text);
    const pulse = created.body;
    assert.equal(pulse.name, dashboard.name);
    assert.equal(pulse.dashboard_id, dashboard.id);
    assert.equal(pulse.collection_id, null);
    assert.equal(pulse.archived, false);
    assert.equal(pulse.alert_condition, null);
    assert.equal(pulse.creator_id, adminId);
    assert.equal(pulse.creator.email, 'admin@example.com');
    assert.equal(typeof pulse.entity_id, 'string');
    assert.deepEqual(pulse.parameters, body.parameters);
    assert.equal(pulse.can_write, true);
    const [c] = pulse.cards;
    assert.deepEqual(
      { id: c.id, name: c.name, display: c.display, include_csv: c.include_csv, include_xls: c.include_xls, format_rows: c.format_rows, dashboard_card_id: c.dashboard_card_id, dashboard_id: c.dashboard_id },
      { id: card.id, name: card.name, display: 'bar', include_csv: false, include_xls: false, format_rows: true, dashboard_card_id: dashboard.dashcards[0].id, dashboard_id: dashboard.id },
    );
    assert.equal(c.parameter_mappings.length, 1);
    const [ch] = pulse.channels;
    assert.equal(ch.channel_type, 'email');
    assert.equal(ch.schedule_type, 'weekly');
    assert.equal(ch.schedule_hour, 8);
    assert.equal(ch.schedule_day, 'mon');
    assert.equal(ch.schedule_frame, null);
    assert.equal(ch.enabled, true);
    assert.deepEqual(ch.details, {});
    assert.deepEqual(ch.recipients.map((r: any) => r.id ?? r.email), [adminId, user.id, 'outside@example.com']);
    assert.equal(ch.recipients[1].common_name, `${user.first_name} ${user.last_name}`);

    assert.deepEqual((await admin.get(`/api/pulse/${pulse.id}`)).body, pulse);
    const listed = (await admin.get('/api/pulse')).body;
    assert.ok(listed.some((p: any) => p.id === pulse.id));
    assert.deepEqual((await admin.get('/api/pulse', { query: { dashboard_id: dashboard.id } })).body.map((p: any) => p.id), [pulse.id]);
    assert.ok(!(await admin.get('/api/pulse', { query: { archived: true } })).body.some((p: any) => p.id === pulse.id));
  });

  test('schedules are normalized, and bad ones are a 400 that says why', async () => {
    const hourly = await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }], { schedule_type: 'hourly', schedule_hour: 9, schedule_day: 'mon' })]));
    assert.equal(hourly.status, 200, hourly.text);
    assert.deepEqual(
      (({ schedule_type, schedule_hour, schedule_day, schedule_frame }) => ({ schedule_type, schedule_hour, schedule_day, schedule_frame }))(hourly.body.channels[0]),
      { schedule_type: 'hourly', schedule_hour: null, schedule_day: null, schedule_frame: null },
    );
    const monthly = await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }], { schedule_type: 'monthly', schedule_hour: 6, schedule_day: 'fri', schedule_frame: 'last' })]));
    assert.equal(monthly.body.channels[0].cron_schedule, '0 0 6 ? * 6L *');
    for (const [schedule, message] of [
      [{ schedule_type: 'yearly', schedule_hour: 8 }, /schedule_type/],
      [{ schedule_type: 'daily' }, /schedule_hour/],
      [{ schedule_type: 'daily', schedule_hour: 24 }, /schedule_hour/],
      [{ schedule_type: 'weekly', schedule_hour: 8 }, /schedule_day/],
      [{ schedule_type: 'monthly', schedule_hour: 8, schedule_frame: 'mid', schedule_day: 'mon' }, /mid-month/],
    ] as const) {
      const response = await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }], schedule)]));
      assert.equal(response.status, 400, JSON.stringify(schedule));
      assert.match(response.body.errors.channels, message);
    }
  });

  test('validation messages are Metabase\'s', async () => {
    const empty = await admin.post('/api/pulse', {});
    assert.equal(empty.status, 400);
    assert.equal(empty.body.errors.name, 'value must be a non-blank string.');
    const noChannels = await admin.post('/api/pulse', subscriptionBody(dashboard, []));
    assert.equal(noChannels.status, 400);
    assert.deepEqual(noChannels.body.errors, { channels: 'one or more map' });
    const badCards = await admin.post('/api/pulse', { ...subscriptionBody(dashboard, [emailChannel([{ id: adminId }])]), cards: [{ id: card.id }] });
    assert.equal(badCards.status, 400);
    assert.match(badCards.body.errors.cards, /^one or more value must be a map with the following keys/);
    const badPut = await admin.put('/api/pulse/1', { channels: 'nope' });
    assert.ok([400, 404].includes(badPut.status));
    const unknownUser = await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: 999999 }])]));
    assert.equal(unknownUser.status, 404);
    assert.equal(unknownUser.text, 'User 999999 does not exist.');
    const wrongEmail = await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId, email: 'someone@else.com' } as any])]));
    assert.equal(wrongEmail.status, 403);
    assert.equal(wrongEmail.text, `Wrong email address for User ${adminId}.`);
    const badParams = await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }])], { parameters: [{ name: 'no id' }] }));
    assert.equal(badParams.status, 400);
    const webhook = await admin.post('/api/pulse', subscriptionBody(dashboard, [{ channel_type: 'http', channel_id: 1, schedule_type: 'daily', schedule_hour: 8, recipients: [] }]));
    assert.equal(webhook.status, 400);
    assert.equal((await admin.get('/api/pulse/abc')).status, 404);
  });

  test('non-admins: create with read access to every card, see and change only their own; recipients see a stripped copy', async () => {
    const owner = await createUserClient(server(), admin);
    const recipient = await createUserClient(server(), admin);
    const stranger = await createUserClient(server(), admin);
    const created = await owner.client.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: owner.user.id }, { id: recipient.user.id }])]));
    assert.equal(created.status, 200, created.text);
    const id = created.body.id;
    assert.ok((await owner.client.get('/api/pulse')).body.some((p: any) => p.id === id));
    assert.ok(!(await recipient.client.get('/api/pulse')).body.some((p: any) => p.id === id), 'the default list is what one can change');
    const theirs = (await recipient.client.get('/api/pulse', { query: { creator_or_recipient: true } })).body.find((p: any) => p.id === id);
    assert.ok(theirs);
    assert.equal(theirs.can_write, false);
    assert.equal((await recipient.client.get(`/api/pulse/${id}`)).status, 200);
    assert.equal((await stranger.client.get(`/api/pulse/${id}`)).status, 403);
    assert.equal((await recipient.client.put(`/api/pulse/${id}`, { name: 'Mine now' })).status, 403);
    assert.equal((await owner.client.put(`/api/pulse/${id}`, { name: 'Renamed' })).body.name, 'Renamed');
    assert.ok((await admin.get('/api/pulse')).body.some((p: any) => p.id === id), 'admins see every subscription');

    // a dashboard in a collection the recipient can't read: they still get the subscription, without cards or recipients
    const secret = await createCollection(admin);
    const secretCard = await sampleCard(admin, sample, { collection_id: secret.id });
    const secretDashboard = await dashboardWith(admin, sample, [secretCard], { collection_id: secret.id });
    await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
    const hidden = await admin.post('/api/pulse', subscriptionBody(secretDashboard, [emailChannel([{ id: recipient.user.id }, { id: adminId }])]));
    assert.equal(hidden.status, 200, hidden.text);
    assert.equal(hidden.body.collection_id, secret.id, 'a dashboard subscription lives in its dashboard\'s collection');
    const stripped = (await recipient.client.get(`/api/pulse/${hidden.body.id}`)).body;
    assert.equal(stripped.cards, undefined);
    assert.equal(stripped.channels[0].recipients, undefined);
    assert.equal(stripped.name, secretDashboard.name);
    const listedStripped = (await recipient.client.get('/api/pulse', { query: { creator_or_recipient: true } })).body.find((p: any) => p.id === hidden.body.id);
    assert.equal(listedStripped.cards, undefined);
    // and may not subscribe others to it
    assert.equal((await recipient.client.post('/api/pulse', subscriptionBody(secretDashboard, [emailChannel([{ id: recipient.user.id }])]))).status, 403);
  });

  test('PUT is a patch: cards and channels are the whole list when sent; archiving turns channels off and on', async () => {
    const created = (await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }]), { channel_type: 'slack', enabled: true, schedule_type: 'hourly', details: { channel: '#sales' } }]))).body;
    const [email, slack] = created.channels;
    const kept = await admin.put(`/api/pulse/${created.id}`, { skip_if_empty: true });
    assert.equal(kept.body.skip_if_empty, true);
    assert.equal(kept.body.name, created.name);
    assert.equal(kept.body.channels.length, 2);

    const oneChannel = await admin.put(`/api/pulse/${created.id}`, { channels: [{ ...email, schedule_type: 'daily', schedule_hour: 18, recipients: [{ email: 'a@b.co' }] }] });
    assert.equal(oneChannel.status, 200, oneChannel.text);
    assert.deepEqual(oneChannel.body.channels.map((c: any) => [c.id, c.schedule_hour, c.recipients]), [[email.id, 18, [{ email: 'a@b.co' }]]]);
    assert.ok(!oneChannel.body.channels.some((c: any) => c.id === slack.id), 'a channel left out is deleted');

    const archived = await admin.put(`/api/pulse/${created.id}`, { archived: true });
    assert.equal(archived.body.archived, true);
    assert.ok(archived.body.channels.every((c: any) => c.enabled === false));
    assert.ok((await admin.get('/api/pulse', { query: { archived: true } })).body.some((p: any) => p.id === created.id));
    const back = await admin.put(`/api/pulse/${created.id}`, { archived: false });
    assert.ok(back.body.channels.every((c: any) => c.enabled === true));

    assert.equal((await admin.put(`/api/pulse/${created.id}`, { dashboard_id: 999 })).status, 400);
    assert.equal((await admin.put(`/api/pulse/${created.id}`, { collection_id: (await createCollection(admin)).id })).text, 'collection ID of a dashboard subscription cannot be directly modified');
  });

  test('unsubscribing oneself, and the cascade when nobody is left', async () => {
    const member = await createUserClient(server(), admin);
    const created = (await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: member.user.id }])]))).body;
    assert.equal((await member.client.delete(`/api/pulse/${created.id}/subscription`)).status, 204);
    assert.equal((await member.client.delete(`/api/pulse/${created.id}/subscription`)).status, 404);
    const after = (await admin.get(`/api/pulse/${created.id}`)).body;
    assert.equal(after.channels.length, 0, 'the channel with nobody left is deleted');
    assert.equal(after.archived, true, 'and the subscription with no channel is archived');
    const other = (await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: member.user.id }, { email: 'x@y.co' }])]))).body;
    await member.client.delete(`/api/pulse/${other.id}/subscription`);
    assert.deepEqual((await admin.get(`/api/pulse/${other.id}`)).body.channels[0].recipients, [{ email: 'x@y.co' }]);
  });

  test('form_input says which channels are configured', async () => {
    const { client } = await createUserClient(server(), admin);
    const form = (await client.get('/api/pulse/form_input')).body;
    assert.deepEqual(Object.keys(form.channels), ['email', 'slack', 'http']);
    assert.deepEqual(form.channels.email, { type: 'email', name: 'Email', allows_recipients: true, recipients: ['user', 'email'], schedules: ['hourly', 'daily', 'weekly', 'monthly'], configured: false });
    assert.equal(form.channels.slack.configured, false);
    assert.deepEqual(form.channels.slack.fields, [{ name: 'channel', type: 'select', displayName: 'Post to', options: [], required: true }]);
    assert.equal(form.channels.http.configured, false);
    const hook = await admin.post('/api/channel', { name: `Hook ${Date.now()}`, type: 'channel/http', details: { url: 'https://example.com/hook', 'auth-method': 'none' } });
    assert.equal(hook.status, 200, hook.text);
    assert.equal((await client.get('/api/pulse/form_input')).body.channels.http.configured, true);
    assert.equal((await server().anon.get('/api/pulse/form_input')).status, 401);
  });

  test('a body copied from GET (channels with ids, pulse_id, timestamps) creates a new subscription with new channels', async () => {
    const original = (await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }, { email: 'copy@example.com' }])]))).body;
    const copied = await admin.post('/api/pulse', { ...original, name: `${original.name} (copy)` });
    assert.equal(copied.status, 200, copied.text);
    assert.notEqual(copied.body.id, original.id);
    assert.notEqual(copied.body.channels[0].id, original.channels[0].id);
    assert.equal(copied.body.channels[0].pulse_id, copied.body.id);
    assert.deepEqual(copied.body.channels[0].recipients.map((r: any) => r.id ?? r.email), [adminId, 'copy@example.com']);
    // the original keeps its channel
    assert.equal((await admin.get(`/api/pulse/${original.id}`)).body.channels[0].id, original.channels[0].id);
  });

  test('deactivating a user archives what they created and takes them off the recipients of the rest', async () => {
    const member = await createUserClient(server(), admin);
    const shared = (await admin.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: adminId }, { id: member.user.id }])]))).body;
    const alert = await member.client.post('/api/alert', { alert_condition: 'rows', alert_first_only: false, card: { id: card.id, include_csv: false, include_xls: false }, channels: [emailChannel([{ id: member.user.id }], { schedule_type: 'hourly' })] });
    assert.equal(alert.status, 200, alert.text);
    const theirs = await member.client.post('/api/pulse', subscriptionBody(dashboard, [emailChannel([{ id: member.user.id }, { id: adminId }])]));
    assert.equal(theirs.status, 200, theirs.text);

    assert.deepEqual((await admin.delete(`/api/user/${member.user.id}`)).body, { success: true });
    assert.deepEqual((await admin.get(`/api/pulse/${shared.id}`)).body.channels[0].recipients.map((r: any) => r.id), [adminId]);
    assert.equal((await admin.get(`/api/alert/${alert.body.id}`)).body.archived, true);
    const archived = (await admin.get(`/api/pulse/${theirs.body.id}`)).body;
    assert.equal(archived.archived, true);
    assert.equal(archived.channels[0].enabled, false);
    assert.ok(!(await admin.get('/api/pulse')).body.some((p: any) => p.id === theirs.body.id));
  });
});
