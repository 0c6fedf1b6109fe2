// Quartz cron as the scheduler reads it: Quartz day-of-week numbers, L and #, the job's time zone, and DST days
// (a 02:30 job runs once on the day 02:30 doesn't exist, and once on the day it exists twice).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidCron, latestFireTime, nextFireTime } from '../../src/tasks/cron.js';

function fireTimes(cron: string, zone: string, from: string, count: number): string[] {
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < count; i++) {
    const next = nextFireTime(cron, zone, at);
    if (!next) break;
    out.push(next.toISOString());
    at = next;
  }
  return out;
}

test('day-of-week numbers are Quartz ones (1 = Sunday, 2 = Monday), with # and L', () => {
  // 2025-03-03 is a Monday
  assert.deepEqual(fireTimes('0 0 8 ? * 2 *', 'UTC', '2025-03-01T00:00:00Z', 2), ['2025-03-03T08:00:00.000Z', '2025-03-10T08:00:00.000Z']);
  assert.deepEqual(fireTimes('0 0 8 ? * MON *', 'UTC', '2025-03-01T00:00:00Z', 1), ['2025-03-03T08:00:00.000Z']);
  // first Monday of the month, last Friday of the month, last day of the month, the 15th
  assert.deepEqual(fireTimes('0 0 8 ? * 2#1 *', 'UTC', '2025-03-04T00:00:00Z', 2), ['2025-04-07T08:00:00.000Z', '2025-05-05T08:00:00.000Z']);
  assert.deepEqual(fireTimes('0 0 8 ? * 6L *', 'UTC', '2025-03-01T00:00:00Z', 2), ['2025-03-28T08:00:00.000Z', '2025-04-25T08:00:00.000Z']);
  assert.deepEqual(fireTimes('0 0 8 L * ? *', 'UTC', '2025-02-01T00:00:00Z', 2), ['2025-02-28T08:00:00.000Z', '2025-03-31T08:00:00.000Z']);
  assert.deepEqual(fireTimes('0 0 8 15 * ? *', 'UTC', '2025-02-01T00:00:00Z', 1), ['2025-02-15T08:00:00.000Z']);
  assert.equal(isValidCron('0 0 8 * * ? *'), true);
  assert.equal(isValidCron('every morning'), false);
});

test("Quartz's start/step fields: every six hours from midnight, every eight from 1:30, every 15 minutes", () => {
  assert.deepEqual(fireTimes('0 0 0/6 * * ? *', 'UTC', '2025-03-01T00:00:00Z', 4), ['2025-03-01T06:00:00.000Z', '2025-03-01T12:00:00.000Z', '2025-03-01T18:00:00.000Z', '2025-03-02T00:00:00.000Z']);
  assert.deepEqual(fireTimes('0 30 1/8 * * ? *', 'UTC', '2025-03-01T00:00:00Z', 3), ['2025-03-01T01:30:00.000Z', '2025-03-01T09:30:00.000Z', '2025-03-01T17:30:00.000Z']);
  assert.deepEqual(fireTimes('0 0/15 * * * ? *', 'UTC', '2025-03-01T00:00:00Z', 2), ['2025-03-01T00:15:00.000Z', '2025-03-01T00:30:00.000Z']);
  assert.deepEqual(fireTimes('0/20 * * * * ? *', 'UTC', '2025-03-01T00:00:00Z', 2), ['2025-03-01T00:00:20.000Z', '2025-03-01T00:00:40.000Z']);
  assert.equal(isValidCron('0 0 0/6 * * ? *'), true);
});

test('a job fires at its local time, once a day across both DST changes', () => {
  // New York springs forward on 2025-03-09 (02:00 → 03:00) and falls back on 2025-11-02 (02:00 → 01:00)
  assert.deepEqual(fireTimes('0 30 2 * * ? *', 'America/New_York', '2025-03-08T00:00:00Z', 3), [
    '2025-03-08T07:30:00.000Z', // 02:30 EST
    '2025-03-09T07:00:00.000Z', // 02:30 doesn't exist: the first moment after the gap (03:00 EDT)
    '2025-03-10T06:30:00.000Z', // 02:30 EDT
  ]);
  assert.deepEqual(fireTimes('0 30 1 * * ? *', 'America/New_York', '2025-11-01T00:00:00Z', 3), [
    '2025-11-01T05:30:00.000Z', // 01:30 EDT
    '2025-11-02T05:30:00.000Z', // 01:30 happens twice: once
    '2025-11-03T06:30:00.000Z', // 01:30 EST
  ]);
  // a Monday 08:00 report in Berlin is 07:00 UTC in winter and 06:00 UTC in summer
  assert.deepEqual(fireTimes('0 0 8 ? * 2 *', 'Europe/Berlin', '2025-03-24T00:00:00Z', 2), ['2025-03-24T07:00:00.000Z', '2025-03-31T06:00:00.000Z']);
});

test('the latest fire time includes the reference moment itself', () => {
  const at = new Date('2025-03-03T08:00:00.000Z');
  assert.equal(latestFireTime('0 0 8 * * ? *', 'UTC', at)!.toISOString(), '2025-03-03T08:00:00.000Z');
  assert.equal(latestFireTime('0 0 8 * * ? *', 'UTC', new Date(at.getTime() - 1))!.toISOString(), '2025-03-02T08:00:00.000Z');
  assert.equal(nextFireTime('0 0 8 * * ? *', 'UTC', at)!.toISOString(), '2025-03-04T08:00:00.000Z');
  assert.equal(latestFireTime('not a cron', 'UTC', at), null);
  // an unknown zone reads as UTC rather than failing
  assert.equal(latestFireTime('0 0 8 * * ? *', 'Nowhere/Atlantis', at)!.toISOString(), '2025-03-03T08:00:00.000Z');
});
