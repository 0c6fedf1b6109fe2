// The schema part of the prompt: real types, keys, foreign keys and values as CREATE TABLE statements, the tables
// the question is about first, and no more than the budget allows (hidden tables never).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaForQuestion, tableDdl } from '../../src/assistant/prompt.js';
import type { ColumnInfo, DatabaseInfo, TableInfo } from '../../src/assistant/metadata.js';

let nextId = 1;
const column = (name: string, databaseType: string, extra: Partial<ColumnInfo> = {}): ColumnInfo => ({
  id: nextId++, name, displayName: name.toLowerCase(), description: null, databaseType, baseType: 'type/Text', semanticType: null, fkTargetFieldId: null, values: null, ...extra,
});
const table = (name: string, columns: ColumnInfo[], listed = true): TableInfo => ({ id: nextId++, schema: 'public', name, displayName: name, description: null, listed, columns });

const customerId = column('id', 'integer', { semanticType: 'type/PK' });
const customers = table('customers', [customerId, column('state', 'char(2)', { values: ['CA', 'NY', "O'X"] })]);
const invoices = table('invoices', [column('id', 'integer', { semanticType: 'type/PK' }), column('amount', 'numeric(10,2)', { displayName: 'Invoice amount', description: 'In  dollars' }), column('customer_id', 'integer', { fkTargetFieldId: customerId.id })]);
const events = table('events', Array.from({ length: 40 }, (_, i) => column(`payload_${i}`, 'jsonb')));
const secrets = table('secrets', [column('token', 'text')], false);
const info: DatabaseInfo = { id: 1, name: 'Shop', engine: 'postgres', tables: [events, customers, invoices, secrets] };

test('a table as DDL: types, keys, foreign keys, display names, descriptions and values', () => {
  assert.equal(
    tableDdl(info, 'postgres', invoices),
    'CREATE TABLE "public"."invoices" (\n  "id" integer PRIMARY KEY,\n  "amount" numeric(10,2), -- Invoice amount; In dollars\n  "customer_id" integer REFERENCES "customers"("id")\n);',
  );
  assert.match(tableDdl(info, 'postgres', customers), /"state" char\(2\) -- values: 'CA', 'NY', 'O''X'/);
  assert.match(tableDdl(info, 'mysql', customers), /`state` char\(2\)/);
});

test('the tables the question names come first, within the budget, hidden ones never', () => {
  const all = schemaForQuestion(info, 'total invoice amount by customer state');
  assert.ok(all.indexOf('"invoices"') < all.indexOf('"events"'));
  assert.ok(all.indexOf('"customers"') < all.indexOf('"events"'));
  assert.ok(!all.includes('secrets'));
  const small = schemaForQuestion(info, 'total invoice amount by customer state', 400);
  assert.ok(small.includes('"invoices"') && small.includes('"customers"'));
  assert.ok(!small.includes('"events"'), 'the unrelated, large table is cut');
  assert.ok(small.length <= 400);
});
