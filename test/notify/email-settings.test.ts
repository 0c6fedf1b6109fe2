// Setting up email over the API against a real SMTP server on loopback: settings are saved only once the server
// accepts them, with clear errors for a wrong host/port or a refused login, the security corrected when another
// works; the test email and the password-reset mail go out over SMTP.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin, createUserClient, ADMIN } from '../helpers/server.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { freePort } from '../helpers/free-port.js';
import { systemMailer } from '../../src/notify/mailer.js';
import { sendMail } from '../../src/notify/email/smtp.js';
import { TransientError } from '../../src/tasks/scheduler.js';
import type { Client } from '../helpers/client.js';

forEachAppDb('email settings', (server) => {
  let admin: Client;
  let sink: SmtpSink;
  let guarded: SmtpSink;

  before(async () => {
    admin = await setupAdmin(server());
    sink = await startSmtpSink();
    guarded = await startSmtpSink({ username: 'mailer', password: 'right-password' });
    // this file checks real delivery: the test helper's capturing mailer is put back to the server's own
    server().ctx.mailer = systemMailer(server().ctx);
  });
  after(async () => {
    await sink.close();
    await guarded.close();
  });

  test('an unreachable server is refused with "Wrong host or port" and nothing is saved', async () => {
    const port = await freePort();
    const response = await admin.put('/api/email', { ...sink.settings(), 'email-smtp-port': port });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { errors: { 'email-smtp-host': 'Wrong host or port', 'email-smtp-port': 'Wrong host or port' } });
    assert.equal((await admin.get('/api/session/properties')).body['email-configured?'], false);
    assert.equal((await admin.get('/api/setting/email-smtp-host')).status, 204);
  });

  test('a refused login is "Wrong username or password"', async () => {
    const response = await admin.put('/api/email', { ...guarded.settings(), 'email-smtp-password': 'wrong' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { errors: { 'email-smtp-username': 'Wrong username or password', 'email-smtp-password': 'Wrong username or password' } });
  });

  test('a bad value is a 400 before anything is tried', async () => {
    const bad = await admin.put('/api/email', { ...sink.settings(), 'email-smtp-security': 'quantum' });
    assert.equal(bad.status, 400);
    assert.ok(bad.body.errors['email-smtp-security']);
    assert.equal((await admin.put('/api/email', { ...sink.settings(), 'email-from-address': 'not an address' })).status, 400);
    assert.equal((await admin.put('/api/email', { ...sink.settings(), 'email-smtp-port': 70000 })).status, 400);
  });

  test('good settings are saved (the security corrected when another works), and the test email arrives', async () => {
    const saved = await admin.put('/api/email', { ...guarded.settings(), 'email-smtp-security': 'ssl', 'email-from-name': 'Quarry Reports', 'email-reply-to': ['help@quarry.test'] });
    assert.equal(saved.status, 200, saved.text);
    assert.equal(saved.body['email-smtp-host'], '127.0.0.1');
    assert.equal(saved.body['email-smtp-port'], guarded.port);
    assert.equal(saved.body['email-smtp-security'], 'tls');
    assert.deepEqual(saved.body['with-corrections'], { 'email-smtp-security': 'security was autocorrected to TLS' });
    assert.equal(saved.body['email-smtp-password'], '**********rd', 'the password is not echoed');
    assert.equal((await admin.get('/api/session/properties')).body['email-configured?'], true);

    const sent = await admin.post('/api/email/test');
    assert.deepEqual(sent.body, { ok: true });
    const [mail] = await guarded.waitFor(1);
    assert.equal(mail.subject, 'Metabase Test Email');
    assert.deepEqual(mail.recipients, [ADMIN.email]);
    assert.equal(mail.from, 'reports@quarry.test');
    assert.match(mail.headers.from, /Quarry Reports/);
    assert.match(mail.headers['reply-to'], /help@quarry\.test/);
    assert.match(mail.text!, /Your Metabase emails are working — hooray!/);

    // an obfuscated password sent back means "keep the stored one"
    const again = await admin.put('/api/email', { ...guarded.settings(), 'email-smtp-password': '**********rd' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body['with-corrections'], undefined);
  });

  test('the password-reset link goes out over SMTP once email is configured', async () => {
    const { user } = await createUserClient(server(), admin);
    const before = guarded.messages.length;
    assert.equal((await server().anon.post('/api/session/forgot_password', { email: user.email })).status, 204);
    const messages = await guarded.waitFor(before + 1);
    const mail = messages[messages.length - 1];
    assert.deepEqual(mail.recipients, [user.email]);
    assert.match(mail.text!, /reset_password\//);
  });

  test('a 4xx answer is a transient failure (retried), a 5xx a permanent one', async () => {
    guarded.refuseNext(451);
    await assert.rejects(sendMail(server().ctx, { to: ['x@quarry.test'], subject: 's', text: 't' }), (e) => e instanceof TransientError);
    guarded.refuseNext(550);
    await assert.rejects(sendMail(server().ctx, { to: ['x@quarry.test'], subject: 's', text: 't' }), (e) => !(e instanceof TransientError) && /550|mailbox/i.test(String(e)));
  });

  test('only admins manage email; DELETE forgets the settings', async () => {
    const { client } = await createUserClient(server(), admin);
    assert.equal((await client.put('/api/email', sink.settings())).status, 403);
    assert.equal((await client.post('/api/email/test')).status, 403);
    assert.equal((await client.delete('/api/email')).status, 403);
    assert.equal((await admin.delete('/api/email')).status, 204);
    assert.equal((await admin.get('/api/session/properties')).body['email-configured?'], false);
    const test = await admin.post('/api/email/test');
    assert.equal(test.status, 400);
  });
});
