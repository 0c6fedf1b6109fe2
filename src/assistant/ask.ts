// The assistant's three questions — a native card about a database, a native card about a model, SQL for the
// editor — answered by the configured model (./provider.ts, its SQL checked by ./sql-check.ts) or, with none
// configured, by the offline engine (./offline) whose MBQL the query engine compiles to the database's SQL.
// Nothing is run here: the client runs the card, through the normal permission checks.

import type { AppContext } from '../context.js';
import type { Caller } from '../http/caller.js';
import { forbidden, messageError, ApiError } from '../http/errors.js';
import { dataAccess } from '../permissions/data-access.js';
import { compileToNative } from '../query/index.js';
import { databaseRow, loadDatabaseInfo, type DatabaseInfo, type TableInfo } from './metadata.js';
import { modelConfig, type ModelConfig } from './settings.js';
import { complete, type ChatMessage } from './provider.js';
import { extractSql } from './extract-sql.js';
import { checkGeneratedSql, SqlRefusal, type QueryableTable } from './sql-check.js';
import { databaseMessages, modelMessages, MODEL_SQL_VERSION, NATIVE_SQL_VERSION } from './prompt.js';
import { loadModel, modelCardQuery, type ModelSource } from './model-source.js';
import { planError } from './explain.js';
import { Lexicon } from './offline/lexicon.js';
import { parsePlan } from './offline/parse.js';
import { CannotAnswer, type Plan } from './offline/plan.js';
import { describePlan, planToMbql, type FieldRefMaker } from './offline/build.js';

export const OFFLINE_VERSION = 'quarry_offline:0001';

const NO_MODEL_NOTE =
  'No language model is configured, so the assistant answers common questions (counts, sums and averages, by category or period, top N, filters on values and dates) from the database\'s metadata; an admin can configure a model with the openai-api-base-url, openai-api-key and openai-model settings.';

const noSql = (question: string, reason: string) => messageError(400, `Query '${question}' didn't produce any SQL. Perhaps try a more detailed query.`, { reason });
const noMatch = (question: string, reason: string) =>
  messageError(400, `Query '${question}' didn't find a good match to your data. Perhaps try a query that mentions the model name or columns more specifically.`, { reason: `${reason} ${NO_MODEL_NOTE}` });

/** Native-query permission on the database (Metabase's assistant needed it to run its check query): 403 without. */
async function checkNative(ctx: AppContext, caller: Caller, databaseId: number): Promise<void> {
  const access = await dataAccess(ctx, caller);
  if (!access.canNative(databaseId)) throw forbidden();
}

/**
 * The first choice whose SQL passes the check and plans on the database (`explain`: the SQL to EXPLAIN, e.g. with a
 * model's card inlined). When the SQL doesn't plan, the model is told the engine's error once and asked again; a 400
 * saying why when nothing usable comes back.
 */
async function modelSql(ctx: AppContext, config: ModelConfig, messages: ChatMessage[], question: string, check: (sql: string) => string, explain: (sql: string) => Promise<string | null>): Promise<string> {
  let refusal: string | null = null;
  let failure: { sql: string; error: string } | null = null;
  for (let round = 0; round < 2; round++) {
    const answers = await complete(ctx, config, messages);
    for (const answer of answers) {
      const sql = extractSql(answer);
      if (sql === null) continue;
      let checked: string;
      try {
        checked = check(sql);
      } catch (error) {
        if (!(error instanceof SqlRefusal)) throw error;
        refusal ??= error.message;
        continue;
      }
      const error = await explain(checked);
      if (error === null) return checked;
      failure = { sql: checked, error };
    }
    if (!failure || round > 0) break;
    messages = [...messages, { role: 'assistant', content: '```sql\n' + failure.sql + '\n```' }, { role: 'user', content: `That query fails on the database: ${failure.error}\nWrite a corrected query.` }];
  }
  if (refusal) throw messageError(400, `Query '${question}' produced SQL that can't be returned: ${refusal}`, { reason: refusal });
  if (failure) throw messageError(400, `Query '${question}' produced SQL that doesn't run on this database: ${failure.error}`, { reason: failure.error, sql: failure.sql });
  throw noSql(question, 'The model answered without a SQL query.');
}

function queryable(info: DatabaseInfo): QueryableTable[] {
  return info.tables.map((t) => ({ schema: t.schema, name: t.name }));
}

function offlinePlan(tables: TableInfo[], info: DatabaseInfo, question: string): Plan {
  try {
    return parsePlan(new Lexicon({ ...info, tables }), question);
  } catch (error) {
    if (error instanceof CannotAnswer) throw noMatch(question, error.reason);
    throw error;
  }
}

async function compile(ctx: AppContext, caller: Caller, query: Record<string, unknown>, question: string): Promise<string> {
  try {
    // no row cap in the card's SQL: running it applies the usual limits
    return (await compileToNative(ctx, { query: { ...query, middleware: { 'disable-max-results?': true } }, caller, context: 'ad-hoc', pretty: true })).query;
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw noSql(question, error instanceof Error ? error.message : String(error));
  }
}

function nativeCard(databaseId: number, sql: string) {
  return { database: databaseId, type: 'native', native: { query: sql, 'template-tags': {} } };
}

/** POST /api/assistant/database/:id — a native card answering a question about the database. */
export async function askDatabase(ctx: AppContext, caller: Caller, databaseId: number, question: string) {
  await databaseRow(ctx, databaseId);
  await checkNative(ctx, caller, databaseId);
  const info = await loadDatabaseInfo(ctx, caller, databaseId);
  const config = await modelConfig(ctx);
  if (!config) {
    // hidden, technical and cruft tables aren't offered by the query builder either
    const plan = offlinePlan(info.tables.filter((t) => t.listed), info, question);
    const sql = await compile(ctx, caller, planToMbql(plan, databaseId, plan.table.id), question);
    return { card: { dataset_query: nativeCard(databaseId, sql), ...describePlan(plan) }, prompt_template_versions: [OFFLINE_VERSION], 'bot-sql': sql };
  }
  const sql = await modelSql(ctx, config, databaseMessages(info, question), question, (s) => checkGeneratedSql(s, { engine: info.engine, tables: queryable(info) }), (s) => planError(ctx, databaseId, s));
  return { card: { dataset_query: nativeCard(databaseId, sql), display: 'table', name: question, visualization_settings: {} }, prompt_template_versions: [NATIVE_SQL_VERSION], 'bot-sql': sql };
}

/** POST /api/assistant/database/:id/query — SQL for the native editor. */
export async function askQuery(ctx: AppContext, caller: Caller, databaseId: number, question: string) {
  const { card, prompt_template_versions } = await askDatabase(ctx, caller, databaseId, question);
  return { sql: card.dataset_query.native.query, prompt_template_versions };
}

/** Model columns by name (`["field", "TOTAL", {"base-type": …}]`), as a query on `card__N` names them. */
const byName: FieldRefMaker = (ref, options) => ['field', ref.column.name, { 'base-type': ref.column.baseType, ...options }];

/** POST /api/assistant/model/:id — a native card answering a question about a model. */
export async function askModel(ctx: AppContext, caller: Caller, modelId: number, question: string) {
  const model: ModelSource = await loadModel(ctx, caller, modelId);
  await checkNative(ctx, caller, model.databaseId);
  const db = await databaseRow(ctx, model.databaseId);
  const info: DatabaseInfo = { id: db.id, name: db.name, engine: db.engine, tables: [model.table] };
  const config = await modelConfig(ctx);
  if (!config) {
    const plan = offlinePlan([model.table], info, question);
    const sql = await compile(ctx, caller, planToMbql(plan, model.databaseId, `card__${model.id}`, byName), question);
    return { card: { dataset_query: nativeCard(model.databaseId, sql), ...describePlan(plan) }, prompt_template_versions: [OFFLINE_VERSION], 'bot-sql': sql };
  }
  const explain = async (s: string) => {
    // the model's own query inlined for {{#id}}, as the card will run
    let inlined: string;
    try {
      inlined = (await compileToNative(ctx, { query: modelCardQuery(model, s), caller, context: 'ad-hoc' })).query;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    return planError(ctx, model.databaseId, inlined);
  };
  const sql = await modelSql(ctx, config, modelMessages(db.engine, model.table, question), question, (s) => checkGeneratedSql(s, { engine: db.engine, tables: [], extraNames: [model.table.name] }), explain);
  return { card: { dataset_query: modelCardQuery(model, sql), display: 'table', name: question, visualization_settings: {} }, prompt_template_versions: [MODEL_SQL_VERSION], 'bot-sql': sql };
}
