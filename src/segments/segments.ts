// Segments (/api/segment): named filters on a table that admins define and everyone who may query the table uses,
// as `["segment", id]` in the query builder, saved questions and dashboards. A segment is read by whoever may query its
// table; only admins create, edit and archive them (Metabase's open-source rule). Every save is a revision (with
// the `revision_message` Metabase requires on edits), listed and reverted through src/revisions.
//
// The query engine reads segments through `registerSegmentSource` (below); the table metadata endpoints and search
// read them through `segmentsOfTables` and `segmentSearchRows`.

import type { Selectable } from 'kysely';
import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden, notFound } from '../http/errors.js';
import { bool, insertReturningId, nowIso, parseJson, toJson, type Db } from '../appdb/portable.js';
import { newEntityId } from '../util/entity-id.js';
import { dataAccess } from '../permissions/data-access.js';
import { visibleTablesOf } from '../databases/access.js';
import { userInfos } from '../cards/creators.js';
import { tableJson } from '../databases/json.js';
import { registerSegmentSource, type Segment } from '../query/index.js';
import { pushRevision, registerRevisionable } from '../revisions/revisions.js';
import { checkDefinition } from './definition.js';
import { describeFilters } from './describe.js';
import type { SegmentTable } from './tables.js';

export type SegmentRow = Selectable<SegmentTable>;

/** Metabase's model name in `revision.model`. */
const REVISION_MODEL = 'Segment';

/** Lists show segments by name, case-insensitively (then by id). */
function byName(a: SegmentRow, b: SegmentRow): number {
  return a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id;
}

async function requireSegment(db: Db, id: number): Promise<SegmentRow> {
  const row = await db.selectFrom('segment').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** A segment as the API shows it (before hydration). */
export function segmentJson(row: SegmentRow): Record<string, unknown> {
  return {
    id: row.id,
    entity_id: row.entity_id,
    name: row.name,
    description: row.description,
    table_id: row.table_id,
    definition: parseJson(row.definition, {}),
    archived: bool(row.archived),
    caveats: row.caveats,
    points_of_interest: row.points_of_interest,
    show_in_getting_started: bool(row.show_in_getting_started),
    creator_id: row.creator_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

interface Hydrate {
  table?: boolean;
  description?: boolean;
}

/** `creator` always; `table` and `definition_description` when asked — one query per kind. */
async function hydrated(ctx: AppContext, rows: SegmentRow[], hydrate: Hydrate = {}) {
  const [creators, tables, descriptions] = await Promise.all([
    userInfos(ctx.db, rows.map((r) => r.creator_id)),
    hydrate.table && rows.length
      ? ctx.db.selectFrom('metabase_table').selectAll().where('id', 'in', [...new Set(rows.map((r) => r.table_id))]).execute()
      : Promise.resolve([]),
    hydrate.description ? describeFilters(ctx, rows.map((r) => parseJson<{ filter?: unknown }>(r.definition, {}).filter)) : Promise.resolve([]),
  ]);
  const tableById = new Map(tables.map((t) => [t.id, t]));
  return rows.map((row, i) => {
    const json: Record<string, unknown> = { ...segmentJson(row), creator: creators.get(row.creator_id) ?? null };
    if (hydrate.table) {
      const table = tableById.get(row.table_id);
      json.table = table ? tableJson(table) : null;
    }
    if (hydrate.description) json.definition_description = descriptions[i] ?? null;
    return json;
  });
}

/** The tables of `rows` the caller may query (the read rule for segments). */
async function readableTableIds(ctx: AppContext, caller: Caller, tableIds: number[]): Promise<Set<number>> {
  const unique = [...new Set(tableIds)];
  if (!unique.length) return new Set();
  const tables = await ctx.db.selectFrom('metabase_table').select(['id', 'db_id', 'schema']).where('id', 'in', unique).execute();
  return new Set(visibleTablesOf(await dataAccess(ctx, caller), tables).map((t) => t.id));
}

async function checkRead(ctx: AppContext, caller: Caller, row: SegmentRow): Promise<void> {
  if (!(await readableTableIds(ctx, caller, [row.table_id])).has(row.table_id)) throw forbidden();
}

/** A segment the caller may read: 404 when there is none, 403 unless they may query its table (archived ones too). */
export async function readableSegment(ctx: AppContext, caller: Caller, id: number): Promise<SegmentRow> {
  const row = await requireSegment(ctx.db, id);
  await checkRead(ctx, caller, row);
  return row;
}

/** GET /api/segment: every non-archived segment of a table the caller may query, by name. */
export async function listSegments(ctx: AppContext, caller: Caller) {
  const rows = await ctx.db.selectFrom('segment').selectAll().where('archived', '=', false).execute();
  const readable = await readableTableIds(ctx, caller, rows.map((r) => r.table_id));
  const visible = rows
    .filter((r) => readable.has(r.table_id))
    .sort(byName);
  return hydrated(ctx, visible, { table: true, description: true });
}

/** GET /api/segment/:id (archived ones too). */
export async function getSegment(ctx: AppContext, caller: Caller, id: number) {
  return (await hydrated(ctx, [await readableSegment(ctx, caller, id)]))[0];
}

/** The state of a segment a revision records (Metabase keeps every column but the timestamps). */
function serialize(row: SegmentRow): Record<string, unknown> {
  const { created_at: _c, updated_at: _u, ...rest } = segmentJson(row);
  return rest;
}

export interface NewSegment {
  name: string;
  description: string | null;
  table_id: number | null;
  definition: Record<string, unknown>;
}

/** POST /api/segment (admins; the route checks). */
export async function createSegment(ctx: AppContext, caller: Caller, input: NewSegment) {
  const definition = await checkDefinition(ctx, caller, { definition: input.definition, tableId: input.table_id, selfId: null });
  const now = nowIso();
  const row = await ctx.db.transaction().execute(async (trx) => {
    const newId = await insertReturningId(trx, ctx.dialect, 'segment', {
      entity_id: newEntityId(),
      name: input.name,
      description: input.description,
      table_id: definition['source-table'],
      definition: toJson(definition)!,
      archived: false,
      caveats: null,
      points_of_interest: null,
      show_in_getting_started: false,
      creator_id: caller.user.id,
      created_at: now,
      updated_at: now,
    });
    const created = await requireSegment(trx, newId);
    await pushRevision(ctx, trx, { model: REVISION_MODEL, modelId: newId, userId: caller.user.id, object: serialize(created), isCreation: true });
    return created;
  });
  return (await hydrated(ctx, [row]))[0];
}

export interface SegmentUpdate {
  name?: string | null;
  description?: string | null;
  definition?: Record<string, unknown> | null;
  archived?: boolean | null;
  caveats?: string | null;
  points_of_interest?: string | null;
  show_in_getting_started?: boolean | null;
  revision_message: string;
}

/**
 * PUT /api/segment/:id (admins). As Metabase: `description`, `caveats` and `points_of_interest` are set when present
 * (null clears them), `name`, `definition`, `archived` and `show_in_getting_started` only when not null. A new
 * definition may move the segment to another table (its source-table). The change is a revision carrying
 * `revision_message`.
 */
export async function updateSegment(ctx: AppContext, caller: Caller, id: number, input: SegmentUpdate, present: Set<string>) {
  const before = await requireSegment(ctx.db, id);
  const changes: Record<string, unknown> = {};
  for (const key of ['description', 'caveats', 'points_of_interest'] as const) {
    if (present.has(key) && (input[key] ?? null) !== before[key]) changes[key] = input[key] ?? null;
  }
  if (input.name !== null && input.name !== undefined && input.name !== before.name) changes.name = input.name;
  if (input.archived !== null && input.archived !== undefined && input.archived !== bool(before.archived)) changes.archived = input.archived;
  if (input.show_in_getting_started !== null && input.show_in_getting_started !== undefined && input.show_in_getting_started !== bool(before.show_in_getting_started)) {
    changes.show_in_getting_started = input.show_in_getting_started;
  }
  if (input.definition !== null && input.definition !== undefined) {
    const definition = await checkDefinition(ctx, caller, { definition: input.definition, tableId: null, selfId: id });
    const text = toJson(definition)!;
    if (text !== before.definition) {
      changes.definition = text;
      if (definition['source-table'] !== before.table_id) changes.table_id = definition['source-table'];
    }
  }
  const row = await ctx.db.transaction().execute(async (trx) => {
    if (Object.keys(changes).length) await trx.updateTable('segment').set({ ...changes, updated_at: nowIso() }).where('id', '=', id).execute();
    const after = await requireSegment(trx, id);
    await pushRevision(ctx, trx, { model: REVISION_MODEL, modelId: id, userId: caller.user.id, object: serialize(after), message: input.revision_message });
    return after;
  });
  return (await hydrated(ctx, [row]))[0];
}

/** DELETE /api/segment/:id (admins): as in Metabase, archives the segment (a revision with the message). */
export async function archiveSegment(ctx: AppContext, caller: Caller, id: number, revisionMessage: string): Promise<void> {
  await updateSegment(ctx, caller, id, { archived: true, revision_message: revisionMessage }, new Set(['archived']));
}

/** Non-archived segments of each table, by name (for the table metadata endpoints; they checked the tables). */
export async function segmentsOfTables(ctx: AppContext, tableIds: number[]): Promise<Map<number, Array<Record<string, unknown>>>> {
  const out = new Map<number, Array<Record<string, unknown>>>();
  const unique = [...new Set(tableIds)];
  if (!unique.length) return out;
  const rows = await ctx.db.selectFrom('segment').selectAll().where('table_id', 'in', unique).where('archived', '=', false).execute();
  for (const row of rows.sort(byName)) {
    const list = out.get(row.table_id) ?? [];
    list.push(segmentJson(row));
    out.set(row.table_id, list);
  }
  return out;
}

/** How many non-archived segments the tables of a database have (`usage_info`). */
export async function countSegmentsOfDatabase(ctx: AppContext, databaseId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('segment')
    .innerJoin('metabase_table', 'metabase_table.id', 'segment.table_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('metabase_table.db_id', '=', databaseId)
    .where('segment.archived', '=', false)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Candidates for search: segments (archived or not) of the tables the caller may query, with their tables. */
export async function segmentSearchRows(ctx: AppContext, caller: Caller, options: { archived: boolean; tableDbId: number | null }) {
  let q = ctx.db
    .selectFrom('segment')
    .innerJoin('metabase_table', 'metabase_table.id', 'segment.table_id')
    .selectAll('segment')
    .select([
      'metabase_table.db_id as db_id',
      'metabase_table.schema as table_schema',
      'metabase_table.name as table_name',
      'metabase_table.description as table_description',
    ])
    .where('segment.archived', '=', options.archived);
  if (options.tableDbId !== null) q = q.where('metabase_table.db_id', '=', options.tableDbId);
  const rows = await q.execute();
  if (!rows.length) return [];
  const access = await dataAccess(ctx, caller);
  return rows.filter((r) => access.canQueryTable({ id: r.table_id, db_id: r.db_id, schema: r.table_schema }));
}

// The query engine inlines `["segment", id]` filters from here (archived segments still apply where they are used).
registerSegmentSource(async (ctx, ids) => {
  const rows = await ctx.db.selectFrom('segment').select(['id', 'table_id', 'name', 'definition']).where('id', 'in', ids).execute();
  return new Map(
    rows.map((row): [number, Segment] => [row.id, { id: row.id, table_id: row.table_id, name: row.name, definition: parseJson(row.definition, {}) }]),
  );
});

// Revisions: GET /api/revision?entity=segment&id=N (and /api/segment/:id/revisions), reverts by admins.
const REVERTED = ['name', 'description', 'definition', 'archived', 'caveats', 'points_of_interest', 'show_in_getting_started'] as const;

registerRevisionable({
  entity: 'segment',
  model: REVISION_MODEL,
  async checkRead(ctx, caller, id) {
    await checkRead(ctx, caller, await requireSegment(ctx.db, id));
  },
  async checkWrite(ctx, caller, id) {
    await requireSegment(ctx.db, id);
    if (!caller.isSuperuser) throw forbidden();
  },
  async revert(_ctx, db, _caller, id, object) {
    await requireSegment(db, id);
    const values: Record<string, unknown> = {};
    for (const key of REVERTED) {
      if (!(key in object)) continue;
      values[key] = key === 'definition' ? toJson(object[key]) : object[key];
    }
    // the table it filtered, if that table is still there
    const tableId = (object.definition as { 'source-table'?: unknown } | undefined)?.['source-table'] ?? object.table_id;
    if (typeof tableId === 'number' && (await db.selectFrom('metabase_table').select('id').where('id', '=', tableId).executeTakeFirst())) {
      values.table_id = tableId;
    }
    await db.updateTable('segment').set({ ...values, updated_at: nowIso() }).where('id', '=', id).execute();
  },
  // Metabase's diff of segment revisions: name, description and definition, each as {before, after} (the first
  // revision has only `after`s); the whole definition on both sides when it changed.
  diff(before, after) {
    const keys = ['name', 'description', 'definition'] as const;
    const out: Record<string, Record<string, unknown>> = {};
    const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
    for (const key of keys) {
      if (before && same(before[key], after[key])) continue;
      const sides: Record<string, unknown> = {};
      // between two states an empty side is left out (the definition's never); the first state has every `after`
      if (before && (key === 'definition' || (before[key] ?? null) !== null)) sides.before = before[key] ?? null;
      if (!before || key === 'definition' || (after[key] ?? null) !== null) sides.after = after[key] ?? null;
      out[key] = sides;
    }
    return out;
  },
  // Metabase says nothing about a changed definition (the revision's message does).
  describeKey(key) {
    return key === 'definition' || key === 'table_id' ? null : undefined;
  },
});
