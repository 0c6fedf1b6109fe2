// Running an implicit action: insert, update or delete one row (bulk: several) of the model's table, the form's
// values keyed by column slug. Each call is one transaction; an update or delete that would touch anything but
// exactly one row is refused and rolled back. Values are always bound parameters; identifiers are quoted by the
// driver.

import type { AppContext } from '../context.js';
import { ApiError, badRequest, messageError } from '../http/errors.js';
import { connectionForRow } from '../databases/connections.js';
import type { Driver, WriteSession } from '../drivers/driver.js';
import { implicitParameters, modelTables, type ImplicitField, type ModelTable } from './model-table.js';
import { inWriteTransaction, type WriteKind } from './write-failures.js';
import { clojureSet } from './execute-query.js';
import type { ActionRun } from './run.js';

type Obj = Record<string, unknown>;

interface Target {
  driver: Driver;
  table: string;
  pk: ImplicitField;
  bySlug: Map<string, ImplicitField>;
}

/** The model's table, checked to be one implicit actions can write to. */
async function targetOf(ctx: AppContext, run: ActionRun): Promise<{ modelTable: ModelTable; target: Target }> {
  const modelTable = (await modelTables(ctx, [run.model])).get(run.model.id);
  if (!modelTable) throw badRequest('Implicit actions are not supported for models with clauses.');
  if (!modelTable.slugsUnique) throw badRequest('Cannot execute implicit action on a table with ambiguous column names.');
  const pks = modelTable.fields.filter((f) => f.pk);
  if (pks.length !== 1) throw badRequest('Must execute implicit action on a table with a single primary key.');
  const { driver } = connectionForRow(ctx, run.database);
  const q = (name: string) => driver.quoteIdentifier(name);
  const table = (modelTable.table.schema ? `${q(modelTable.table.schema)}.` : '') + q(modelTable.table.name);
  return { modelTable, target: { driver, table, pk: pks[0], bySlug: new Map(modelTable.fields.map((f) => [f.slug, f])) } };
}

interface RowInput {
  pkValue: unknown;
  /** Column values to write (the primary key excluded for updates and deletes). */
  columns: Array<[ImplicitField, unknown]>;
}

/** Checks one row of form values against the action's parameters and splits off the primary key. */
function rowInput(values: unknown, allowed: Set<string>, target: Target, kind: string): RowInput {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) throw badRequest('Each row must be a map of column slugs to values.');
  const entries = Object.entries(values as Obj);
  const extra = entries.map(([k]) => k).filter((k) => !allowed.has(k));
  if (extra.length) {
    throw messageError(400, `No destination parameter found for ${clojureSet(extra)}. Found: ${clojureSet([...allowed])}`, { parameters: values });
  }
  // The client doesn't reliably leave out blank optional fields: null means "not given".
  const given = entries.filter(([, v]) => v !== null && v !== undefined);
  const wrongType = given.find(([, v]) => typeof v === 'object');
  if (wrongType) {
    throw messageError(400, 'Some of your values aren’t of the correct type for the database.', { errors: { [target.bySlug.get(wrongType[0])!.name]: 'This value should be a single value.' } });
  }
  const needsPk = !kind.endsWith('/create');
  const pkValue = given.find(([k]) => k === target.pk.slug)?.[1];
  if (needsPk && pkValue === undefined) throw badRequest(`Missing primary key parameter: ${JSON.stringify(target.pk.slug)}`);
  const columns = given.filter(([k]) => !needsPk || k !== target.pk.slug).map(([k, v]) => [target.bySlug.get(k)!, v] as [ImplicitField, unknown]);
  return { pkValue, columns };
}

class RowWriter {
  private readonly q: (name: string) => string;

  constructor(
    private readonly target: Target,
    private readonly session: WriteSession,
  ) {
    this.q = (name) => target.driver.quoteIdentifier(name);
  }

  private placeholders(count: number, from = 1): string[] {
    return Array.from({ length: count }, (_, i) => this.target.driver.placeholder(from + i));
  }

  /** The row with this primary key (`{}` when there is none). */
  async rowByKey(pkValue: unknown): Promise<Obj> {
    const { table, pk, driver } = this.target;
    const found = await this.session.run(`SELECT * FROM ${table} WHERE ${this.q(pk.name)} = ${driver.placeholder(1)}`, [pkValue]);
    return found.rows[0] ?? {};
  }

  async create(row: RowInput): Promise<Obj> {
    const { table, pk, driver } = this.target;
    const names = row.columns.map(([f]) => this.q(f.name));
    const values = row.columns.length ? this.placeholders(row.columns.length).join(', ') : 'DEFAULT';
    const sql = `INSERT INTO ${table} (${row.columns.length ? names.join(', ') : this.q(pk.name)}) VALUES (${values})${driver.insertReturning ? ' RETURNING *' : ''}`;
    const result = await this.session.run(sql, row.columns.map(([, v]) => v));
    if (result.rows.length) return result.rows[0];
    const key = result.insertId ?? row.columns.find(([f]) => f.id === pk.id)?.[1];
    return key === undefined ? {} : this.rowByKey(key);
  }

  /** Updates or deletes the row with the key; anything but exactly one row is refused (and rolled back). */
  async change(kind: 'update' | 'delete', row: RowInput): Promise<void> {
    const { table, pk, driver } = this.target;
    let sql: string;
    if (kind === 'update') {
      if (!row.columns.length) throw badRequest('Nothing to update: send at least one value besides the primary key.');
      const sets = row.columns.map(([f], i) => `${this.q(f.name)} = ${driver.placeholder(i + 1)}`);
      sql = `UPDATE ${table} SET ${sets.join(', ')} WHERE ${this.q(pk.name)} = ${driver.placeholder(row.columns.length + 1)}`;
    } else {
      sql = `DELETE FROM ${table} WHERE ${this.q(pk.name)} = ${driver.placeholder(1)}`;
    }
    const params = kind === 'update' ? [...row.columns.map(([, v]) => v), row.pkValue] : [row.pkValue];
    const { rowsAffected } = await this.session.run(sql, params);
    if (rowsAffected === 0) throw new ApiError(404, `Sorry, the row you're trying to ${kind} doesn't exist`);
    if (rowsAffected > 1) throw badRequest(`Sorry, this would ${kind} ${rowsAffected} rows, but you can only act on 1`);
  }
}

export async function executeImplicitAction(ctx: AppContext, run: ActionRun): Promise<Obj> {
  const kind = run.action.kind ?? '';
  const { modelTable, target } = await targetOf(ctx, run);
  const allowed = new Set(implicitParameters(modelTable, kind).map((p) => String(p.id)));
  const bulk = kind.startsWith('bulk/');
  let inputs: RowInput[];
  if (bulk) {
    const rows = run.values.rows;
    if (!Array.isArray(rows) || rows.length === 0) throw badRequest('Bulk actions take their rows as a non-empty list: {"parameters": {"rows": [{…}, …]}}.');
    inputs = rows.map((r) => rowInput(r, allowed, target, kind));
  } else {
    inputs = [rowInput(run.values, allowed, target, kind)];
  }
  const writeKind: WriteKind = kind.endsWith('create') ? 'create' : kind.endsWith('update') ? 'update' : 'delete';
  return inWriteTransaction(ctx, run, writeKind, async (session): Promise<Obj> => {
    const writer = new RowWriter(target, session);
    if (writeKind === 'create') {
      const created: Obj[] = [];
      for (const input of inputs) created.push(await writer.create(input));
      return bulk ? { 'created-rows': created } : { 'created-row': created[0] };
    }
    for (const input of inputs) await writer.change(writeKind, input);
    if (!bulk) return writeKind === 'update' ? { 'rows-updated': [1] } : { 'rows-deleted': [1] };
    return writeKind === 'update' ? { 'rows-updated': inputs.length } : { success: true };
  });
}

/**
 * GET …/execute: the current values of the row an implicit action would change, keyed by parameter id, to fill in
 * an update form (`{}` when there is no such row; other action types have nothing to prefill).
 */
export async function implicitRowValues(ctx: AppContext, run: ActionRun): Promise<Obj> {
  const kind = run.action.kind ?? '';
  const { modelTable, target } = await targetOf(ctx, run);
  const pkValue = run.values[target.pk.slug];
  if (pkValue === undefined || pkValue === null) throw badRequest(`Missing primary key parameter: ${JSON.stringify(target.pk.slug)}`);
  if (typeof pkValue === 'object') throw badRequest('The primary key must be a single value.');
  const row = await inWriteTransaction(ctx, run, 'update', (session) => new RowWriter(target, session).rowByKey(pkValue));
  const out: Obj = {};
  for (const parameter of implicitParameters(modelTable, kind)) {
    const field = target.bySlug.get(String(parameter.id));
    if (field && Object.hasOwn(row, field.name)) out[String(parameter.id)] = row[field.name];
  }
  return out;
}
