// The assistant with a model configured, against a stand-in OpenAI-compatible server on loopback: the prompt
// carries the database's real metadata, a good answer becomes a card that runs, an upstream 401 is Metabase's 400,
// a 429 is retried, a malformed answer and an answer without SQL are clear errors, and a DELETE (or a table outside
// the database) is refused. The outbound address policy applies: loopback needs http-channel-host-strategy.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { forEachAppDb, setupAdmin } from '../helpers/server.js';
import type { Client } from '../helpers/client.js';
import { installSample, type Sample } from '../cards/sample.js';
import { uniqueName } from '../cards/fixtures.js';
import { answer, failure, startChatServer, type ChatServer } from './chat-server.js';

forEachAppDb('assistant with a model', (server) => {
  let admin: Client;
  let sample: Sample;
  let chat: ChatServer;
  const ask = (question: string) => admin.post(`/api/assistant/database/${sample.id}`, { question });

  before(async () => {
    admin = await setupAdmin(server());
    sample = await installSample(admin);
    chat = await startChatServer();
    const put = await admin.put('/api/setting', { 'openai-api-base-url': chat.baseUrl, 'openai-api-key': 'sk-test-secret-key', 'openai-model': 'test-model', 'http-channel-host-strategy': 'allow-all' });
    assert.equal(put.status, 204, put.text);
  });
  after(async () => {
    await chat?.close();
  });

  test('the key is a sensitive setting: masked for admins, never in session properties', async () => {
    const setting = (await admin.get('/api/setting')).body.find((s: any) => s.key === 'openai-api-key');
    assert.equal(setting.value, '**********ey');
    assert.equal(setting.is_env_setting, false);
    const properties = (await admin.get('/api/session/properties')).body;
    assert.equal(properties['openai-api-key'], undefined);
    assert.equal((await admin.put('/api/setting/openai-api-base-url', { value: 'ftp://x' })).status, 400);
  });

  test('a good answer: grounded prompt, checked SQL, a card that runs', async () => {
    chat.script(answer('Here you go:\n```sql\nSELECT "CATEGORY", COUNT(*) AS n FROM "PRODUCTS" GROUP BY "CATEGORY" ORDER BY "CATEGORY";\n```'));
    const r = await ask('How many products per category?');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body['bot-sql'], 'SELECT "CATEGORY", COUNT(*) AS n FROM "PRODUCTS" GROUP BY "CATEGORY" ORDER BY "CATEGORY"');
    assert.deepEqual(r.body.prompt_template_versions, ['infer_native_sql:quarry-0001']);
    const run = await admin.post('/api/dataset', r.body.card.dataset_query);
    assert.deepEqual(run.body.data.rows, [['Doohickey', 42], ['Gadget', 53], ['Gizmo', 51], ['Widget', 54]]);

    assert.equal(chat.requests.length, 1);
    const { headers, body } = chat.requests[0];
    assert.equal(headers.authorization, 'Bearer sk-test-secret-key');
    assert.equal(body.model, 'test-model');
    assert.equal(body.temperature, 0);
    const prompt = body.messages.map((m: any) => m.content).join('\n');
    assert.match(prompt, /CREATE TABLE "PRODUCTS"/);
    assert.match(prompt, /"CATEGORY" CHARACTER VARYING, -- .*values: 'Doohickey', 'Gadget', 'Gizmo', 'Widget'/);
    assert.match(prompt, /"PRODUCT_ID" INTEGER REFERENCES "PRODUCTS"\("ID"\)/);
    assert.match(prompt, /SQLite/);
    assert.match(prompt, /Question: How many products per category\?/);
    // the most relevant table comes first
    assert.ok(prompt.indexOf('CREATE TABLE "PRODUCTS"') < prompt.indexOf('CREATE TABLE "ACCOUNTS"'));
  });

  test('/query returns the checked SQL', async () => {
    chat.script(answer('SELECT COUNT(*) FROM ORDERS'));
    const r = await admin.post(`/api/assistant/database/${sample.id}/query`, { question: 'how many orders' });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { sql: 'SELECT COUNT(*) FROM ORDERS', prompt_template_versions: ['infer_native_sql:quarry-0001'] });
  });

  test('an upstream 401 is a 400 with Metabase\'s message (never a 401 that signs the user out)', async () => {
    chat.script(failure(401, 'Incorrect API key provided: sk-test…', 'invalid_request_error'));
    const r = await ask('how many orders');
    assert.equal(r.status, 400);
    assert.equal(r.body.message, 'Bot credentials are incorrect or not set.\nCheck with your administrator that the correct API keys are set.');
    assert.equal(chat.requests.length, 1);
  });

  test('a 429 is retried, then the answer is used', async () => {
    chat.script(failure(429, 'Rate limit reached', 'rate_limit_exceeded', { 'retry-after': '0' }), answer('SELECT COUNT(*) AS n FROM ORDERS'));
    const r = await ask('how many orders');
    assert.equal(r.status, 200, r.text);
    assert.equal(chat.requests.length, 2);
    assert.deepEqual((await admin.post('/api/dataset', r.body.card.dataset_query)).body.data.rows, [[18760]]);
  });

  test('retries are bounded; quota and server errors are clear', async () => {
    chat.script(failure(429, 'Rate limit reached', 'rate_limit_exceeded', { 'retry-after': '0' }));
    const limited = await ask('how many orders');
    assert.equal(limited.status, 429);
    assert.equal(limited.body.message, 'The bot server is under heavy load and cannot process your request at this time.\nPlease try again.');
    assert.equal(chat.requests.length, 3, 'the first try and openai-max-retries (2) more');

    chat.script(failure(429, 'You exceeded your current quota', 'insufficient_quota'));
    const quota = await ask('how many orders');
    assert.equal(quota.status, 429);
    assert.match(quota.body.message, /billing quota/);
    assert.equal(chat.requests.length, 1, 'no retry for an exhausted quota');

    chat.script(failure(503, 'The engine is currently overloaded', 'server_error', { 'retry-after': '0' }));
    const down = await ask('how many orders');
    assert.equal(down.status, 502);
    assert.equal(down.body.upstream_status, 503);

    chat.script(failure(400, "This model's maximum context length is 8192 tokens.", 'invalid_request_error'));
    const long = await ask('how many orders');
    assert.equal(long.status, 400);
    assert.equal(long.body.message, "This model's maximum context length is 8192 tokens.");
  });

  test('a model that doesn\'t answer in time is a clear error', async () => {
    assert.equal((await admin.put('/api/setting', { 'openai-request-timeout-seconds': 1, 'openai-max-retries': 0 })).status, 204);
    try {
      chat.script({ ...answer('SELECT 1'), delayMs: 5_000 });
      const r = await ask('how many orders');
      assert.equal(r.status, 502);
      assert.match(r.body.message, /^The assistant's model could not be reached: No answer from 127\.0\.0\.1:\d+ within 1 s\.$/);
      assert.equal(chat.requests.length, 1, 'a timeout is not retried');
    } finally {
      assert.equal((await admin.put('/api/setting', { 'openai-request-timeout-seconds': null, 'openai-max-retries': null })).status, 204);
    }
  });

  test('a malformed answer and an answer without SQL are clear errors', async () => {
    chat.script({ body: '<html>not json' });
    const malformed = await ask('how many orders');
    assert.equal(malformed.status, 502);
    assert.match(malformed.body.message, /not JSON/);

    chat.script({ body: { unexpected: true } });
    assert.match((await ask('how many orders')).body.message, /without choices/);

    chat.script(answer('I am not sure what you mean.'));
    const prose = await ask('how many orders');
    assert.equal(prose.status, 400);
    assert.equal(prose.body.message, "Query 'how many orders' didn't produce any SQL. Perhaps try a more detailed query.");

    chat.script(answer(null));
    assert.equal((await ask('how many orders')).status, 400);
  });

  test('a DELETE, a second statement or a table outside the database is refused', async () => {
    const cases: Array<[string, RegExp]> = [
      ['DELETE FROM ORDERS', /DELETE statements are not allowed/],
      ['```sql\nWITH gone AS (DELETE FROM ORDERS RETURNING *) SELECT COUNT(*) FROM gone\n```', /DELETE is not allowed/],
      ['SELECT 1; DROP TABLE ORDERS', /Only one statement/],
      ['SELECT * FROM sqlite_master', /sqlite_master, which is not a table you can query/i],
      ['SELECT * FROM ORDERS FOR UPDATE', /not allowed/],
      ['ATTACH DATABASE \'x.db\' AS x', /ATTACH/],
    ];
    for (const [sql, message] of cases) {
      chat.script(answer(sql));
      const r = await ask('delete everything');
      assert.equal(r.status, 400, sql);
      assert.match(r.body.message, message, sql);
      assert.match(r.body.message, /^Query 'delete everything' produced SQL that can't be returned: /);
    }
    assert.deepEqual((await admin.post('/api/dataset', { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS'), aggregation: [['count']] } })).body.data.rows, [[18760]]);
  });

  test('SQL that does not plan on the database is sent back once for a correction', async () => {
    chat.script(answer('SELECT "NO_SUCH_COLUMN" FROM "ORDERS"'), answer('SELECT COUNT(*) FROM "ORDERS"'));
    const fixed = await ask('how many orders');
    assert.equal(fixed.status, 200, fixed.text);
    assert.equal(fixed.body['bot-sql'], 'SELECT COUNT(*) FROM "ORDERS"');
    assert.equal(chat.requests.length, 2);
    const retry = chat.requests[1].body.messages;
    assert.equal(retry[retry.length - 2].role, 'assistant');
    assert.match(retry[retry.length - 1].content, /That query fails on the database: .*NO_SUCH_COLUMN/i);

    chat.script(answer('SELECT "NO_SUCH_COLUMN" FROM "ORDERS"'));
    const broken = await ask('how many orders');
    assert.equal(broken.status, 400);
    assert.match(broken.body.message, /^Query 'how many orders' produced SQL that doesn't run on this database: .*NO_SUCH_COLUMN/i);
    assert.equal(chat.requests.length, 2, 'one correction, no more');
  });

  test('a question about a model: the SQL reads the model through {{#id}}', async () => {
    const model = (await admin.post('/api/card', { name: 'Big orders', type: 'model', display: 'table', visualization_settings: {}, dataset_query: { database: sample.id, type: 'query', query: { 'source-table': sample.table('ORDERS'), filter: ['>', ['field', sample.field('ORDERS', 'TOTAL'), null], 100] } } })).body;
    chat.script(answer('SELECT COUNT(*) AS n FROM BIG_ORDERS'));
    const r = await admin.post(`/api/assistant/model/${model.id}`, { question: 'how many big orders' });
    assert.equal(r.status, 200, r.text);
    const native = r.body.card.dataset_query.native;
    assert.equal(native.query, `WITH BIG_ORDERS AS (SELECT * FROM {{#${model.id}}} AS INNER_QUERY)\nSELECT COUNT(*) AS n FROM BIG_ORDERS`);
    assert.equal(native['template-tags'][`#${model.id}`]['card-id'], model.id);
    assert.match(chat.requests[0].body.messages[1].content, /CREATE TABLE "BIG_ORDERS"/);
    assert.deepEqual((await admin.post('/api/dataset', r.body.card.dataset_query)).body.data.rows, [[7134]]);
    chat.script(answer('SELECT COUNT(*) FROM ORDERS'));
    assert.match((await admin.post(`/api/assistant/model/${model.id}`, { question: 'how many orders' })).body.message, /ORDERS, which is not a table/);
  });

  test('loopback is refused unless http-channel-host-strategy allows it', async () => {
    assert.equal((await admin.put('/api/setting/http-channel-host-strategy', { value: null })).status, 204);
    try {
      chat.script(answer('SELECT 1'));
      const r = await ask(uniqueName('how many orders'));
      assert.equal(r.status, 400);
      assert.match(r.body.message, /can't be called: .*127\.0\.0\.1.*http-channel-host-strategy/);
      assert.equal(chat.requests.length, 0);
    } finally {
      assert.equal((await admin.put('/api/setting/http-channel-host-strategy', { value: 'allow-all' })).status, 204);
    }
  });
});
