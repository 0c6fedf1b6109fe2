// /api/alert as a client sees it: shapes, Metabase's validation messages, who sees which alerts, what non-admins may
// change, unsubscribing, and the alert archived when nobody is left to tell.

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient } from '../helpers/server.js';
import { installSample, type Sample } from '../cards/sample.js';
import { createCollection } from '../cards/fixtures.js';
import { setAllUsersCollectionPerms } from '../dashboards/fixtures.js';
import type { Client } from '../helpers/client.js';
import { emailChannel, sampleCard } from './fixtures.js';

forEachAppDb('/api/alert', (server) => {
  let admin: Client;
  let adminId: number;
  let sample: Sample;
  let card: any;

  const alertBody = (cardId: number, recipients: any[], extra: Record<string, unknown> = {}) => ({
    alert_condition: 'rows',
    alert_first_only: false,
    alert_above_goal: null,
    card: { id: cardId, include_csv: false, include_xls: false, dashboard_card_id: null },
    channels: [emailChannel(recipients)],
    ...extra,
  });

  before(async () => {
    admin = await setupAdmin(server());
    adminId = (await admin.get('/api/user/current')).body.id;
    sample = await installSample(admin);
    card = await sampleCard(admin, sample);
  });

  test('create and read an alert in Metabase\'s shape', async () => {
    const created = await admin.post('/api/alert', alertBody(card.id, [{ id: adminId }]));
    assert.equal(created.status, 200, created.text);
    const alert = created.body;
    assert.equal(alert.name, null);
    assert.equal(alert.alert_condition, 'rows');
    assert.equal(alert.alert_first_only, false);
    assert.equal(alert.skip_if_empty, true);
    assert.equal(alert.dashboard_id, null);
    assert.deepEqual(alert.parameters, []);
    assert.equal(alert.card.id, card.id);
    assert.equal(alert.card.include_csv, true, 'a rows alert attaches its results');
    assert.equal(alert.cards, undefined);
    assert.equal(alert.channels[0].recipients[0].id, adminId);
    assert.equal(alert.can_write, true);
    assert.deepEqual((await admin.get(`/api/alert/${alert.id}`)).body, alert);
    assert.ok((await admin.get('/api/alert')).body.some((a: any) => a.id === alert.id));
    assert.deepEqual((await admin.get(`/api/alert/question/${card.id}`)).body.map((a: any) => a.id), [alert.id]);
    assert.equal((await admin.get(`/api/pulse/${alert.id}`)).status, 404, 'an alert is not a subscription');
    assert.ok(!(await admin.get('/api/pulse')).body.some((p: any) => p.id === alert.id));
    const goal = await admin.post('/api/alert', alertBody(card.id, [{ id: adminId }], { alert_condition: 'goal', alert_above_goal: false }));
    assert.equal(goal.body.alert_above_goal, false);
    assert.equal(goal.body.card.include_csv, false);
  });

  test('validation messages are Metabase\'s', async () => {
    const badCondition = await admin.post('/api/alert', alertBody(card.id, [{ id: adminId }], { alert_condition: 'not rows' }));
    assert.equal(badCondition.status, 400);
    assert.equal(badCondition.body.errors.alert_condition, 'enum of rows, goal');
    const noFirstOnly = await admin.post('/api/alert', { ...alertBody(card.id, [{ id: adminId }]), alert_first_only: undefined });
    assert.equal(noFirstOnly.body.errors.alert_first_only, 'boolean');
    const noCard = await admin.post('/api/alert', { ...alertBody(card.id, [{ id: adminId }]), card: undefined });
    assert.equal(noCard.body.errors.card, 'value must be a map with the keys `id`, `include_csv`, `include_xls`, and `dashboard_card_id`.');
    const noChannels = await admin.post('/api/alert', { ...alertBody(card.id, [{ id: adminId }]), channels: [] });
    assert.equal(noChannels.body.errors.channels, 'one or more map');
    const put = await admin.put('/api/alert/1', { alert_condition: 'sometimes' });
    assert.equal(put.status, 400);
    assert.equal(put.body.errors.alert_condition, 'nullable enum of rows, goal');
    assert.equal((await admin.post('/api/alert', alertBody(999999, [{ id: adminId }]))).status, 404);
  });

  test('who sees which alerts', async () => {
    const author = await createUserClient(server(), admin);
    const receiver = await createUserClient(server(), admin);
    const mine = (await author.client.post('/api/alert', alertBody(card.id, [{ id: author.user.id }]))).body;
    const forReceiver = (await admin.post('/api/alert', alertBody(card.id, [{ id: receiver.user.id }]))).body;
    const authorList = (await author.client.get('/api/alert')).body.map((a: any) => a.id);
    assert.ok(authorList.includes(mine.id));
    assert.ok(!authorList.includes(forReceiver.id));
    assert.ok((await receiver.client.get('/api/alert')).body.some((a: any) => a.id === forReceiver.id));
    const filtered = (await admin.get('/api/alert', { query: { user_id: receiver.user.id } })).body.map((a: any) => a.id);
    assert.deepEqual(filtered, [forReceiver.id]);
    // for a question: admins every alert, others only those they receive
    const forQuestion = (await author.client.get(`/api/alert/question/${card.id}`)).body.map((a: any) => a.id);
    assert.ok(forQuestion.includes(mine.id));
    assert.ok(!forQuestion.includes(forReceiver.id));

    // an alert on a question one can't read is neither listed nor readable
    const secret = await createCollection(admin);
    const secretCard = await sampleCard(admin, sample, { collection_id: secret.id });
    await setAllUsersCollectionPerms(admin, { [secret.id]: 'none' });
    const hidden = (await admin.post('/api/alert', alertBody(secretCard.id, [{ id: receiver.user.id }]))).body;
    assert.ok(!(await receiver.client.get('/api/alert')).body.some((a: any) => a.id === hidden.id));
    assert.equal((await receiver.client.get(`/api/alert/${hidden.id}`)).status, 403);
    assert.equal((await receiver.client.post('/api/alert', alertBody(secretCard.id, [{ id: receiver.user.id }]))).status, 403);
  });

  test('non-admins change only their own alerts, and only for themselves', async () => {
    const author = await createUserClient(server(), admin);
    const other = await createUserClient(server(), admin);
    const mine = (await author.client.post('/api/alert', alertBody(card.id, [{ id: author.user.id }]))).body;
    const notMine = (await admin.post('/api/alert', alertBody(card.id, [{ id: author.user.id }]))).body;
    const denied = await author.client.put(`/api/alert/${notMine.id}`, { alert_first_only: true });
    assert.equal(denied.status, 403);
    assert.equal(denied.text, 'Non-admin users without monitoring or subscription permissions are only allowed to update alerts that they created');
    assert.equal((await author.client.put(`/api/alert/${mine.id}`, { alert_first_only: true })).body.alert_first_only, true);
    const widen = await author.client.put(`/api/alert/${mine.id}`, { channels: [emailChannel([{ id: author.user.id }, { id: other.user.id }])] });
    assert.equal(widen.status, 403);
    assert.equal(widen.text, 'Non-admin users without monitoring or subscription permissions are not allowed to modify the channels for an alert');
    const own = await author.client.put(`/api/alert/${mine.id}`, { channels: [emailChannel([{ id: author.user.id }], { schedule_type: 'hourly' })] });
    assert.equal(own.status, 200, own.text);
    assert.equal(own.body.channels[0].schedule_type, 'hourly');
  });

  test('an alert left with nobody is archived; unsubscribing too', async () => {
    const member = await createUserClient(server(), admin);
    const alert = (await admin.post('/api/alert', alertBody(card.id, [{ id: adminId }]))).body;
    const emptied = await admin.put(`/api/alert/${alert.id}`, { channels: [emailChannel([])] });
    assert.equal(emptied.body.archived, true);
    assert.ok((await admin.get('/api/alert', { query: { archived: true } })).body.some((a: any) => a.id === alert.id));

    const shared = (await admin.post('/api/alert', alertBody(card.id, [{ id: member.user.id }]))).body;
    assert.equal((await member.client.delete(`/api/alert/${shared.id}/subscription`)).status, 204);
    const after = (await admin.get(`/api/alert/${shared.id}`)).body;
    assert.equal(after.archived, true);
    assert.equal((await member.client.delete(`/api/alert/${shared.id}/subscription`)).status, 404);
  });

  test('a body copied from GET (channels with ids, pulse_id, timestamps) creates a new alert with new channels', async () => {
    const original = (await admin.post('/api/alert', alertBody(card.id, [{ id: adminId }]))).body;
    const copied = await admin.post('/api/alert', original);
    assert.equal(copied.status, 200, copied.text);
    assert.notEqual(copied.body.id, original.id);
    assert.notEqual(copied.body.channels[0].id, original.channels[0].id);
    assert.equal(copied.body.channels[0].pulse_id, copied.body.id);
    assert.equal((await admin.get(`/api/alert/${original.id}`)).body.channels[0].id, original.channels[0].id);
  });
});
