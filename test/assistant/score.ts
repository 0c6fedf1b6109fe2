// Scores the assistant's offline engine on the committed question set (./questions.json): each question is asked
// through POST /api/assistant/database/:id, the card it returns is run, and its rows are compared with the rows of
// the expected MBQL query on the same database. A "refuse" question is correct when the assistant answers 400.

import { readFileSync } from 'node:fs';
import type { Client } from '../helpers/client.js';
import type { Warehouse } from '../query/helpers/warehouses.js';

export interface Question {
  question: string;
  /** core: written with the engine; paraphrase: written afterwards, not tuned on. */
  set?: string;
  expected: Record<string, unknown> | 'refuse';
}

export interface Scored {
  question: string;
  set: string;
  correct: boolean;
  why: string;
  sql?: string;
}

export function loadQuestions(): Question[] {
  return JSON.parse(readFileSync(new URL('./questions.json', import.meta.url), 'utf8')).questions;
}

const REF = /^([A-Z_]+)\.([A-Z_]+)(?:->([A-Z_]+)\.([A-Z_]+))?(?::([a-z-]+))?$/;

/** The expected query with TABLE.FIELD names turned into the warehouse's ids. */
export function expectedMbql(wh: Warehouse, expected: Record<string, unknown>): Record<string, unknown> {
  const convert = (x: unknown): unknown => {
    if (typeof x === 'string') {
      const m = REF.exec(x);
      if (!m) return x;
      const unit = m[5] ? { 'temporal-unit': m[5] } : {};
      if (m[3]) return ['field', wh.fid(m[3], m[4]), { ...unit, 'source-field': wh.fid(m[1], m[2]) }];
      return ['field', wh.fid(m[1], m[2]), m[5] ? unit : null];
    }
    if (Array.isArray(x)) return x.map(convert);
    return x;
  };
  const { source, ...rest } = expected;
  const query: Record<string, unknown> = { 'source-table': wh.t(String(source)) };
  for (const [k, v] of Object.entries(rest)) query[k] = convert(v);
  return wh.mbql(query);
}

function normalize(v: unknown): unknown {
  if (typeof v === 'number') return Math.round(v * 1e6) / 1e6;
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(v)) {
    return v.replace('T', ' ').replace(/(Z|[+-]\d{2}:?\d{2})$/, '').replace(/\.0+$/, '').replace(/ 00:00(:00)?$/, '');
  }
  if (v === true) return 1;
  if (v === false) return 0;
  return v;
}

const key = (row: unknown[]) => JSON.stringify(row.map(normalize));

function compareRows(actual: unknown[][], expected: unknown[][], ordered: boolean): string | null {
  if (actual.length !== expected.length) return `${actual.length} rows instead of ${expected.length}`;
  if (actual[0] && expected[0] && actual[0].length !== expected[0].length) return `${actual[0].length} columns instead of ${expected[0].length}`;
  const a = actual.map(key);
  const e = expected.map(key);
  if (!ordered) {
    a.sort();
    e.sort();
  }
  const i = a.findIndex((x, k) => x !== e[k]);
  return i === -1 ? null : `row ${i}: ${a[i].slice(0, 200)} instead of ${e[i].slice(0, 200)}`;
}

async function rowsOf(client: Client, query: unknown): Promise<unknown[][] | string> {
  const r = await client.post('/api/dataset', query);
  if (r.status !== 202 || r.body.status !== 'completed') return `query failed: ${r.status} ${r.body?.error ?? r.text.slice(0, 200)}`;
  return r.body.data.rows;
}

export async function scoreQuestion(client: Client, wh: Warehouse, q: Question): Promise<Omit<Scored, 'set'>> {
  const answer = await client.post(`/api/assistant/database/${wh.id}`, { question: q.question });
  if (q.expected === 'refuse') {
    return { question: q.question, correct: answer.status === 400, why: answer.status === 400 ? 'refused' : `answered ${answer.status}: ${answer.body?.card?.dataset_query?.native?.query ?? answer.text.slice(0, 200)}` };
  }
  if (answer.status !== 200) return { question: q.question, correct: false, why: `answered ${answer.status}: ${answer.body?.reason ?? answer.body?.message ?? answer.text.slice(0, 200)}` };
  const sql = answer.body.card.dataset_query.native.query as string;
  const [actual, expected] = await Promise.all([rowsOf(client, answer.body.card.dataset_query), rowsOf(client, expectedMbql(wh, q.expected))]);
  if (typeof expected === 'string') return { question: q.question, correct: false, why: `the expected query failed: ${expected}`, sql };
  if (typeof actual === 'string') return { question: q.question, correct: false, why: `the card failed: ${actual}`, sql };
  const diff = compareRows(actual, expected, 'order-by' in q.expected);
  return { question: q.question, correct: diff === null, why: diff ?? 'same rows', sql };
}

export async function scoreAll(client: Client, wh: Warehouse, questions = loadQuestions()): Promise<{ correct: number; total: number; results: Scored[] }> {
  const results: Scored[] = [];
  for (const q of questions) results.push({ ...(await scoreQuestion(client, wh, q)), set: q.set ?? 'core' });
  return { correct: results.filter((r) => r.correct).length, total: results.length, results };
}
