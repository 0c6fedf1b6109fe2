// Schedule maps ↔ Quartz cron strings, and the semantic-type and fingerprint rules used by sync (pure functions).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cronToSchedule, scheduleToCron } from '../../src/databases/schedules.js';
import { classifyField, classifyTable, semanticTypeFromName } from '../../src/sync/classify.js';
import { fingerprintValues } from '../../src/sync/fingerprint.js';
import { humanize } from '../../src/databases/humanize.js';

test('schedule maps round-trip through cron strings', () => {
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ schedule_type: 'hourly', schedule_minute: 15 }, '0 15 * * * ? *'],
    [{ schedule_type: 'daily', schedule_hour: 3, schedule_minute: 0 }, '0 0 3 * * ? *'],
    [{ schedule_type: 'weekly', schedule_day: 'fri', schedule_hour: 23, schedule_minute: 45 }, '0 45 23 ? * FRI *'],
    [{ schedule_type: 'monthly', schedule_frame: 'first', schedule_hour: 1, schedule_minute: 0 }, '0 0 1 1 * ? *'],
    [{ schedule_type: 'monthly', schedule_frame: 'mid', schedule_hour: 1, schedule_minute: 0 }, '0 0 1 15 * ? *'],
    [{ schedule_type: 'monthly', schedule_frame: 'last', schedule_hour: 1, schedule_minute: 0 }, '0 0 1 L * ? *'],
    [{ schedule_type: 'monthly', schedule_frame: 'first', schedule_day: 'mon', schedule_hour: 1, schedule_minute: 0 }, '0 0 1 ? * 2#1 *'],
    [{ schedule_type: 'monthly', schedule_frame: 'last', schedule_day: 'sun', schedule_hour: 1, schedule_minute: 0 }, '0 0 1 ? * 1L *'],
  ];
  for (const [schedule, cron] of cases) {
    assert.equal(scheduleToCron(schedule, 'schedules'), cron);
    const back = cronToSchedule(cron);
    assert.equal(back.schedule_type, schedule.schedule_type);
    assert.equal(scheduleToCron({ ...back }, 'schedules'), cron);
  }
  assert.throws(() => scheduleToCron({ schedule_type: 'daily', schedule_hour: 24 }, 'schedules'));
  assert.throws(() => scheduleToCron({ schedule_type: 'weekly', schedule_day: 'someday' }, 'schedules'));
});

test('semantic types from names respect the base type', () => {
  assert.equal(semanticTypeFromName('CREATED_AT', 'type/DateTime'), 'type/CreationTimestamp');
  assert.equal(semanticTypeFromName('created_on', 'type/Date'), 'type/CreationDate');
  assert.equal(semanticTypeFromName('latitude', 'type/Float'), 'type/Latitude');
  assert.equal(semanticTypeFromName('latitude', 'type/Text'), null);
  assert.equal(semanticTypeFromName('user_email', 'type/Text'), 'type/Email');
  assert.equal(semanticTypeFromName('unit_price', 'type/Decimal'), 'type/Price');
  assert.equal(semanticTypeFromName('amount', 'type/Decimal'), 'type/Currency');
  assert.equal(semanticTypeFromName('quantity', 'type/Integer'), 'type/Quantity');
  assert.equal(semanticTypeFromName('zip', 'type/Text'), 'type/ZipCode');
  assert.equal(classifyTable('orders'), 'entity/TransactionTable');
  assert.equal(classifyTable('PEOPLE'), 'entity/UserTable');
  assert.equal(classifyTable('misc'), 'entity/GenericTable');
});

test('fingerprints and what they decide', () => {
  const fp = fingerprintValues('type/Text', 'type/Text', ['a@b.co', 'c@d.org', null, 'e@f.net']);
  assert.equal(fp.global['distinct-count'], 3);
  assert.equal(fp.global['nil%'], 0.25);
  assert.equal(fp.type?.['type/Text']?.['percent-email'], 1);
  assert.equal(classifyField({ name: 'contact', base_type: 'type/Text', semantic_type: null, has_field_values: null }, fp).semanticType, 'type/Email');
  const states = fingerprintValues('type/Text', 'type/Text', ['CA', 'NY', 'TX', 'Oregon']);
  assert.equal(classifyField({ name: 'region', base_type: 'type/Text', semantic_type: null, has_field_values: null }, states).semanticType, 'type/State');
  const numbers = fingerprintValues('type/Integer', 'type/Integer', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(numbers.type?.['type/Number'], { min: 1, max: 10, avg: 5.5, sd: Math.sqrt(82.5 / 9), q1: 3.25, q3: 7.75 });
  const category = classifyField({ name: 'level', base_type: 'type/Integer', semantic_type: null, has_field_values: null }, numbers);
  assert.deepEqual(category, { semanticType: 'type/Category', hasFieldValues: 'auto-list', previewDisplay: true });
  const floats = classifyField({ name: 'ratio_x', base_type: 'type/Float', semantic_type: null, has_field_values: null }, fingerprintValues('type/Float', 'type/Float', [0.5, 0.25]));
  assert.equal(floats.hasFieldValues, null);
  const dates = fingerprintValues('type/DateTime', 'type/DateTime', ['2024-01-02T03:04:05', '2023-12-31T00:00:00.500', null]);
  assert.deepEqual(dates.type?.['type/DateTime'], { earliest: '2023-12-31T00:00:00.500Z', latest: '2024-01-02T03:04:05.000Z' });
  const longText = fingerprintValues('type/Text', 'type/Text', ['x'.repeat(80)]);
  assert.equal(classifyField({ name: 'body', base_type: 'type/Text', semantic_type: null, has_field_values: null }, longText).previewDisplay, false);
});

test('display names', () => {
  assert.equal(humanize('ANALYTIC_EVENTS'), 'Analytic Events');
  assert.equal(humanize('USER_ID'), 'User ID');
  assert.equal(humanize('PAGE_URL'), 'Page URL');
  assert.equal(humanize('EAN'), 'Ean');
  assert.equal(humanize('createdAt'), 'Created At');
  assert.equal(humanize('order-items'), 'Order Items');
});
