// MBQL → SQL, one stage at a time. A stage (an inner MBQL query) becomes a SELECT over its source — a table, the
// SELECT of its `source-query` stage, or native SQL — plus its joins; its output columns (`StageColumn`) are what
// the next stage refers to and what the annotate stage turns into `cols`.
//
// Expressions, filters and aggregations are compiled by ./expressions.ts; this file owns sources, joins, field
// resolution, the select list, grouping, ordering, limits and cumulative aggregations.

import { sql, raw, ident, columnAlias, param, number, join, Sql as SqlClass, Param, type Sql } from './sql.js';
import { emptySelect, type FromSource, type Select, type SelectItem } from './select.js';
import type { SqlDialect, StartOfWeek, TruncUnit } from './dialect.js';
import type { Metadata, FieldMeta, TableMeta } from '../metadata.js';
import type { Clause, ColumnMetadata, FieldOptions, FieldRef, Join, MbqlQuery, NativeSource } from '../mbql/types.js';
import { isClause, isFieldRef, fieldOptions, sameRef, isExtractionUnit } from '../mbql/clauses.js';
import { invalidQuery, unsupported } from '../errors.js';
import { isDate, isDateTime, isTime, isZoned, temporalKind, isTemporal } from './types.js';
import { UniqueNames, unitDisplayName, fkPrefix } from './names.js';
import { resolveBinning, binningDisplaySuffix, fingerprintRange, type BinningInfo, type BinningSettings } from './binning.js';
import type { Clock } from './temporal-values.js';
import { ExpressionCompiler, type Typed } from './expressions.js';

export interface StageColumn {
  /** Result column name, unique in the stage, and the SQL alias. */
  name: string;
  display_name: string;
  base_type: string;
  effective_type: string;
  semantic_type: string | null;
  field_ref: unknown;
  source: 'fields' | 'breakout' | 'aggregation' | 'native';
  /** The app-DB field behind the column, when there is one. */
  field: FieldMeta | null;
  table_id: number | null;
  unit?: string;
  binning_info?: BinningInfo;
  expression_name?: string;
  join_alias?: string;
  source_field?: number | string;
  aggregation_index?: number;
  description?: string | null;
  /** Extra metadata from a model's result_metadata (display names, semantic types edited on the model). */
  overrides?: Partial<ColumnMetadata>;
}

export interface CompileOptions {
  /** The database the query runs on: every table it reads must be one of its tables. */
  databaseId: number;
  dialect: SqlDialect;
  metadata: Metadata;
  clock: Clock;
  startOfWeek: StartOfWeek;
  /** The zone of temporal values: the report time zone, else the database's (see pipeline.ts). */
  timezone: string;
  binning: BinningSettings;
  /** Native SQL of a native source (template tags substituted), as a fragment. */
  nativeSource: (source: NativeSource) => Sql;
  /**
   * The SELECT reading a persisted model's table (src/query/persisted.ts), when that model is persisted and its table
   * has every column the model's stage returns; a source that is that model then reads the table instead.
   */
  persistedModel?: (cardId: number, columns: string[]) => Sql | null;
}

export interface CompiledStage {
  select: Select;
  columns: StageColumn[];
  /** False when the stage selects `source.*` over a source whose columns aren't known before running. */
  columnsKnown: boolean;
  hasAggregation: boolean;
}

/** What a field ref resolves to before any bucketing. */
export interface ResolvedField {
  sql: Sql;
  baseType: string;
  field: FieldMeta | null;
  /** The source column when the field comes from a nested stage. */
  column: StageColumn | null;
  joinAlias?: string;
  sourceField?: number | string;
  /** Display name including the join/FK prefix ("Product → Category"). */
  displayName: string;
  name: string;
}

type SourceInfo =
  | { kind: 'table'; table: TableMeta; qualifier: string[] }
  | { kind: 'query'; alias: string; columns: StageColumn[]; known: boolean };

interface JoinInfo {
  alias: string;
  source: SourceInfo;
  /** What the JOIN reads: the table or the compiled subquery. */
  from: FromSource;
  /** For implicit joins: the FK field the join goes through. */
  fkFieldId?: number | string;
  join: Join;
}

const CUMULATIVE = new Set(['cum-sum', 'cum-count']);
/** Alias of the subquery holding window percentiles. */
const WINDOW_PERCENTILES = 'percentiles__window';

export class StageCompiler {
  readonly dialect: SqlDialect;
  private source!: SourceInfo;
  private readonly joins = new Map<string, JoinInfo>();
  private readonly implicitJoins = new Map<string, JoinInfo>();
  readonly expressions: Record<string, unknown>;
  readonly exprs: ExpressionCompiler;
  private from!: FromSource;
  /** Percentiles computed as window functions (see `windowPercentile`). */
  private readonly percentiles: Array<{ arg: Sql; p: number; column: string }> = [];

  constructor(
    private readonly query: MbqlQuery,
    readonly options: CompileOptions,
  ) {
    this.dialect = options.dialect;
    this.expressions = query.expressions ?? {};
    this.exprs = new ExpressionCompiler(this);
  }

  // ----- sources -------------------------------------------------------------------------------------------------

  /** A table of the query's database (never one of another database's). */
  private ownTable(id: number): TableMeta {
    const table = this.options.metadata.table(id);
    if (table.db_id !== this.options.databaseId) throw invalidQuery(`Table ${id} is not in database ${this.options.databaseId}.`);
    return table;
  }

  private tableQualifier(table: TableMeta): string[] {
    return table.schema && this.dialect.engine !== 'sqlite' ? [table.schema, table.name] : [table.name];
  }

  /** Field filters of native queries: fields of `table`, qualified as `qualifier` (the table's name or an alias). */
  useTable(table: TableMeta, qualifier?: string[]): this {
    if (table.db_id !== this.options.databaseId) throw invalidQuery(`Table ${table.id} is not in database ${this.options.databaseId}.`);
    this.source = { kind: 'table', table, qualifier: qualifier ?? this.tableQualifier(table) };
    return this;
  }

  private setUpSource(): void {
    const q = this.query;
    const st = q['source-table'];
    if (typeof st === 'number') {
      const table = this.ownTable(st);
      this.source = { kind: 'table', table, qualifier: this.tableQualifier(table) };
      this.from = { kind: 'table', table: this.dialect.table(this.dialect.engine === 'sqlite' ? null : table.schema, table.name), alias: null };
      return;
    }
    if (typeof st === 'string') throw invalidQuery(`Unresolved source table ${st}`);
    const sq = q['source-query'];
    if (!sq) throw invalidQuery('A query needs a source-table or a source-query.');
    const { from, info } = this.compileSubSource(sq, 'source', q['source-metadata']);
    this.source = info;
    this.from = from;
  }

  private compileSubSource(sq: MbqlQuery | NativeSource, alias: string, metadata?: ColumnMetadata[]): { from: FromSource; info: SourceInfo } {
    const cardId = (sq as { 'source-card-id'?: unknown })['source-card-id'];
    const persisted = (columns: StageColumn[]) => (typeof cardId === 'number' && this.options.persistedModel?.(cardId, columns.map((c) => c.name))) || null;
    if ('native' in sq && typeof (sq as NativeSource).native === 'string') {
      const native = sq as NativeSource;
      const columns = metadata ? metadata.map((m) => columnFromMetadata(m)) : [];
      const table = metadata ? persisted(columns) : null;
      return {
        from: { kind: 'native', sql: table ?? this.options.nativeSource(native), alias },
        info: { kind: 'query', alias, columns, known: !!metadata },
      };
    }
    const inner = compileStage(sq as MbqlQuery, this.options);
    const columns = metadata ? applyModelMetadata(inner.columns, metadata) : inner.columns;
    const table = inner.columnsKnown ? persisted(inner.columns) : null;
    const from: FromSource = table ? { kind: 'native', sql: table, alias } : { kind: 'query', select: inner.select, alias };
    return { from, info: { kind: 'query', alias, columns, known: inner.columnsKnown } };
  }

  private setUpJoins(): JoinInfo[] {
    const used = new UniqueNames();
    const infos: JoinInfo[] = [];
    for (const j of this.query.joins ?? []) {
      const alias = j.alias ?? used.next(this.defaultJoinAlias(j));
      let info: JoinInfo;
      if (typeof j['source-table'] === 'number') {
        const table = this.ownTable(j['source-table']);
        const from: FromSource = { kind: 'table', table: this.dialect.table(this.dialect.engine === 'sqlite' ? null : table.schema, table.name), alias };
        info = { alias, source: { kind: 'table', table, qualifier: [alias] }, from, join: j };
      } else if (j['source-query']) {
        const sub = this.compileSubSource(j['source-query'], alias, j['source-metadata']);
        info = { alias, source: sub.info, from: sub.from, join: j };
      } else throw invalidQuery(`Join ${alias} needs a source-table or a source-query.`);
      if (j['fk-field-id'] !== undefined) {
        info.fkFieldId = j['fk-field-id'] as number;
        this.implicitJoins.set(String(j['fk-field-id']), info);
      }
      this.joins.set(alias, info);
      infos.push(info);
    }
    return infos;
  }

  private defaultJoinAlias(j: Join): string {
    if (typeof j['source-table'] === 'number') return this.options.metadata.table(j['source-table']).display_name;
    if (j['source-card-id']) return `Question ${j['source-card-id']}`;
    return 'source';
  }

  // ----- field resolution --------------------------------------------------------------------------------------

  resolveField(ref: FieldRef): ResolvedField {
    const [, id, ] = ref;
    const opts = fieldOptions(ref);
    if (opts['join-alias']) {
      const info = this.joins.get(opts['join-alias']);
      if (!info) {
        // Not a join of this stage: the column its source query (a saved question, a nested stage) took from its own
        // join of that alias — the ref a saved question's result_metadata advertises.
        const own = this.source.kind === 'query' ? this.sourceColumnViaJoin(this.source, id, opts['join-alias']) : null;
        if (own) return own;
        throw invalidQuery(`No join named "${opts['join-alias']}" in this query.`);
      }
      const r = this.resolveIn(info.source, id, opts);
      return { ...r, joinAlias: info.alias, displayName: `${info.alias} → ${r.displayName}` };
    }
    if (opts['source-field'] !== undefined) {
      // The source query returns this column already (expand.ts added no join for it): read it from there.
      const own = this.source.kind === 'query' ? this.sourceColumnViaFk(this.source, id, opts['source-field']) : null;
      if (own) return own;
      const info = this.implicitJoins.get(String(opts['source-field']));
      if (!info) throw invalidQuery(`No implicit join for source-field ${String(opts['source-field'])}.`);
      const r = this.resolveIn(info.source, id, opts);
      const fk = typeof opts['source-field'] === 'number' ? this.options.metadata.fields.get(opts['source-field']) : undefined;
      const prefix = fkPrefix(fk?.display_name ?? String(opts['source-field']));
      return { ...r, sourceField: opts['source-field'], displayName: `${prefix} → ${r.displayName}` };
    }
    if (this.source.kind === 'table' && typeof id === 'number') {
      const field = this.options.metadata.field(id);
      if (field.table_id !== this.source.table.id) {
        // A field of a joined table referenced without its join alias: use the one join of that table.
        const candidates = [...this.joins.values()].filter((j) => j.source.kind === 'table' && j.source.table.id === field.table_id && j.fkFieldId === undefined);
        if (candidates.length === 1) return this.resolveField(['field', id, { ...opts, 'join-alias': candidates[0].alias }]);
        throw invalidQuery(`Field ${id} (${field.name}) is not in the source table of this query.`);
      }
    }
    return this.resolveIn(this.source, id, opts);
  }

  private resolveIn(source: SourceInfo, id: number | string, opts: FieldOptions): ResolvedField {
    if (source.kind === 'table') {
      let field: FieldMeta | null = null;
      if (typeof id === 'number') field = this.options.metadata.field(id);
      else field = [...this.options.metadata.fields.values()].find((f) => f.table_id === source.table.id && f.name === id) ?? null;
      const name = field?.name ?? String(id);
      const baseType = field ? field.effective_type ?? field.base_type : opts['base-type'] ?? 'type/*';
      let expr = field?.nfc_path ? this.nestedColumn(source.qualifier, field) : sql`${ident(...source.qualifier, name)}`;
      if (field?.coercion_strategy) expr = this.exprs.coerce(expr, field.coercion_strategy);
      return { sql: expr, baseType, field, column: null, displayName: field?.display_name ?? name, name };
    }
    const column = this.findColumn(source.columns, id, opts);
    if (column) {
      return {
        sql: sql`${columnAlias(source.alias, column.name)}`,
        baseType: column.base_type,
        field: column.field,
        column,
        displayName: column.display_name,
        name: column.name,
      };
    }
    if (typeof id === 'number') {
      const field = this.options.metadata.fields.get(id) ?? null;
      if (field && !source.known) {
        return { sql: sql`${ident(source.alias, field.name)}`, baseType: field.base_type, field, column: null, displayName: field.display_name, name: field.name };
      }
      throw invalidQuery(`Field ${id} is not a column of the source query.`);
    }
    if (source.known && source.columns.length) throw invalidQuery(`Column "${id}" is not in the source query.`);
    return { sql: sql`${ident(source.alias, id)}`, baseType: opts['base-type'] ?? 'type/*', field: null, column: null, displayName: id, name: id };
  }

  /**
   * A field unfolded from a JSON column (`nfc_path` [column, key, …]): the value at its path inside the column of
   * `qualifier`'s table, as the field's base type — what every clause reads for it. The dialect writes the
   * extraction; engines without `nested-field-columns` can't.
   */
  private nestedColumn(qualifier: string[], field: FieldMeta): Sql {
    const path = field.nfc_path ?? [];
    if (!this.dialect.supports('nested-field-columns')) {
      throw unsupported(`Field ${field.display_name} is nested inside a JSON column, which ${this.dialect.engine} databases can't read (nested-field-columns).`);
    }
    if (path.length < 2 || !path.every((p) => typeof p === 'string')) throw invalidQuery(`Field ${field.id} (${field.name}) has an invalid nfc_path.`);
    return this.dialect.jsonPathValue(sql`${ident(...qualifier, path[0])}`, path.slice(1), field.base_type);
  }

  /** The column of a query source that is field `id` reached through FK `sourceField`, if it has one. */
  private sourceColumnViaFk(source: Extract<SourceInfo, { kind: 'query' }>, id: number | string, sourceField: number | string): ResolvedField | null {
    const column = source.columns.find((c) => {
      const ref = c.overrides?.field_ref;
      const viaMetadata = isFieldRef(ref) ? fieldOptions(ref)['source-field'] : undefined;
      return (c.field?.id ?? c.overrides?.id) === id && (c.source_field ?? viaMetadata) === sourceField;
    });
    if (!column) return null;
    return { sql: sql`${columnAlias(source.alias, column.name)}`, baseType: column.base_type, field: column.field, column, displayName: column.display_name, name: column.name, sourceField };
  }

  /** The column of a query source that came from the source's join `alias` (by field id, or by name). */
  private sourceColumnViaJoin(source: Extract<SourceInfo, { kind: 'query' }>, id: number | string, alias: string): ResolvedField | null {
    const candidates = source.columns.filter((c) => joinAliasOf(c) === alias);
    const column =
      typeof id === 'number'
        ? candidates.find((c) => (c.field?.id ?? c.overrides?.id) === id)
        : (candidates.find((c) => c.name === id) ?? candidates.find((c) => c.name === `${alias}__${id}`));
    if (!column) return null;
    return { sql: sql`${columnAlias(source.alias, column.name)}`, baseType: column.base_type, field: column.field, column, displayName: column.display_name, name: column.name };
  }

  /** The source column a ref means: by name, or by field id preferring the same bucketing. */
  private findColumn(columns: StageColumn[], id: number | string, opts: FieldOptions): StageColumn | undefined {
    if (typeof id === 'string') return columns.find((c) => c.name === id) ?? columns.find((c) => c.name.toLowerCase() === id.toLowerCase());
    const byId = columns.filter((c) => c.field?.id === id);
    if (byId.length <= 1) return byId[0];
    const unit = opts['temporal-unit'];
    return byId.find((c) => (c.unit ?? 'default') === (unit ?? 'default') && !c.join_alias) ?? byId.find((c) => !c.join_alias) ?? byId[0];
  }

  /**
   * A temporal value ready for temporal operations: zoned columns seen in the report time zone. For comparisons
   * (`compare`), also brought to the engine's comparable form (SQLite's canonical text).
   */
  temporalOperand(expr: Sql, baseType: string, compare = false): Sql {
    const kind = temporalKind(baseType) ?? 'datetime';
    let e = expr;
    if (isZoned(baseType) && this.dialect.supports('set-timezone')) e = this.dialect.atTimeZone(e, this.options.timezone);
    return compare ? this.dialect.temporal(e, kind) : e;
  }

  /** A field ref's value: the column, bucketed by its temporal unit or binning. */
  fieldValue(ref: FieldRef): Typed & { resolved: ResolvedField; unit?: string; binning?: BinningInfo } {
    const resolved = this.resolveField(ref);
    const opts = fieldOptions(ref);
    const unit = opts['temporal-unit'];
    if (unit && unit !== 'default') checkTemporalUnit(resolved, unit);
    if (unit && unit !== 'default' && isTemporal(resolved.baseType)) {
      if (resolved.column?.unit === unit) return { sql: resolved.sql, type: resolved.column.base_type, resolved, unit };
      return { ...this.bucket(resolved.sql, resolved.baseType, unit), resolved, unit };
    }
    if (opts.binning) {
      const already = resolved.column?.binning_info;
      if (already && already.binning_strategy === opts.binning.strategy) return { sql: resolved.sql, type: resolved.baseType, resolved, binning: already };
      // A column of a saved question or native source is binned by the fingerprint of the source's result_metadata
      // (what the source returns, e.g. a filtered question); a table's column by its field's fingerprint.
      const column = resolved.column;
      const range = fingerprintRange(column?.overrides?.fingerprint) ?? fingerprintRange(resolved.field?.fingerprint);
      const info = resolveBinning(opts.binning, binnedColumn(resolved), range, this.options.binning);
      const w = param(info.bin_width, 'float');
      const lo = param(info.min_value, 'float');
      const x = this.dialect.castToFloat(resolved.sql);
      const binned = sql`(${this.dialect.floor(sql`(${x} - ${lo}) / ${w}`)} * ${w} + ${lo})`;
      return { sql: binned, type: resolved.baseType, resolved, binning: info };
    }
    return { sql: resolved.sql, type: resolved.baseType, resolved, unit: unit === 'default' ? 'default' : undefined };
  }

  bucket(expr: Sql, baseType: string, unit: string): Typed {
    const d = this.dialect;
    const sow = this.options.startOfWeek;
    const x = this.temporalOperand(expr, baseType);
    if (isTime(baseType)) {
      if (isExtractionUnit(unit)) return { sql: d.extract(sql`${x}`, unit === 'hour-of-day' ? 'hour' : 'minute'), type: 'type/Integer' };
      return { sql: this.exprs.truncateTime(x, unit), type: baseType };
    }
    switch (unit) {
      case 'minute-of-hour':
        return { sql: d.extract(x, 'minute'), type: 'type/Integer' };
      case 'hour-of-day':
        return { sql: d.extract(x, 'hour'), type: 'type/Integer' };
      case 'day-of-week':
        return { sql: d.dayOfWeek(x, sow), type: 'type/Integer' };
      case 'day-of-month':
        return { sql: d.extract(x, 'day'), type: 'type/Integer' };
      case 'day-of-year':
        return { sql: d.dayOfYear(x), type: 'type/Integer' };
      case 'week-of-year':
        return { sql: d.weekOfYear(x, sow), type: 'type/Integer' };
      case 'month-of-year':
        return { sql: d.extract(x, 'month'), type: 'type/Integer' };
      case 'quarter-of-year':
        return { sql: d.extract(x, 'quarter'), type: 'type/Integer' };
      case 'year-of-era':
        return { sql: d.extract(x, 'year'), type: 'type/Integer' };
      default: {
        const trunc = unit as TruncUnit;
        if (!['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'].includes(trunc)) {
          throw invalidQuery(`Invalid temporal unit: ${unit}`);
        }
        if (isDate(baseType) && ['millisecond', 'second', 'minute', 'hour'].includes(trunc)) {
          throw invalidQuery(`Unsupported temporal bucketing: You can't bucket a :${baseType} Field by :${unit}.`);
        }
        return { sql: d.truncate(x, trunc, sow), type: isZoned(baseType) ? 'type/DateTime' : baseType };
      }
    }
  }

  // ----- columns ---------------------------------------------------------------------------------------------------

  private fieldColumn(ref: FieldRef, value: ReturnType<StageCompiler['fieldValue']>, source: 'fields' | 'breakout', name: string): StageColumn {
    const r = value.resolved;
    const base = r.column;
    const field = r.field;
    let display = r.displayName;
    if (value.unit && value.unit !== 'default') display = `${display}: ${unitDisplayName(value.unit)}`;
    if (value.binning) display = `${display}: ${binningDisplaySuffix(value.binning, binnedColumn(r))}`;
    const bucketedToNumber = value.unit && isExtractionUnit(value.unit);
    const type = value.type;
    const col: StageColumn = {
      name,
      display_name: display,
      base_type: type,
      effective_type: bucketedToNumber ? type : base?.effective_type ?? (field ? field.effective_type ?? field.base_type : type),
      semantic_type: bucketedToNumber ? null : base ? base.semantic_type : field?.semantic_type ?? null,
      field_ref: ref,
      source,
      field,
      table_id: field?.table_id ?? null,
      description: field?.description ?? null,
    };
    if (bucketedToNumber) col.effective_type = type;
    if (isTemporal(r.baseType) || value.unit) col.unit = value.unit ?? base?.unit ?? 'default';
    if (value.binning) col.binning_info = value.binning;
    // A joined column keeps its join's alias through later stages (refs there may name it).
    const joinAlias = r.joinAlias ?? (base ? joinAliasOf(base) : undefined);
    if (joinAlias) col.join_alias = joinAlias;
    if (r.sourceField !== undefined) col.source_field = r.sourceField;
    if (base?.overrides) col.overrides = base.overrides;
    return col;
  }

  private expressionColumn(exprName: string, typed: Typed, source: 'fields' | 'breakout', name: string): StageColumn {
    return {
      name,
      display_name: exprName,
      base_type: typed.type,
      effective_type: typed.type,
      semantic_type: null,
      field_ref: ['expression', exprName],
      source,
      field: null,
      table_id: null,
      expression_name: exprName,
    };
  }

  /** Compiles one field-ish clause for the select list (a field, an expression ref). */
  private selectable(clause: Clause, source: 'fields' | 'breakout', names: UniqueNames): { item: Typed; column: StageColumn } {
    if (isFieldRef(clause)) {
      const value = this.fieldValue(clause);
      const name = names.next(this.preferredName(value.resolved));
      return { item: value, column: this.fieldColumn(clause, value, source, name) };
    }
    if (isClause(clause, 'expression')) {
      const exprName = String(clause[1]);
      let typed = this.exprs.value(clause);
      const unit = clause[2]?.['temporal-unit'];
      if (unit && unit !== 'default' && isTemporal(typed.type)) typed = this.bucket(typed.sql, typed.type, unit);
      const col = this.expressionColumn(exprName, typed, source, names.next(exprName));
      if (unit && unit !== 'default') {
        col.unit = unit;
        col.display_name = `${exprName}: ${unitDisplayName(unit)}`;
        col.field_ref = clause;
      }
      return { item: typed, column: col };
    }
    throw invalidQuery(`Invalid ${source === 'breakout' ? 'breakout' : 'field'} clause: ${JSON.stringify(clause)}`);
  }

  private preferredName(r: ResolvedField): string {
    return r.column ? r.column.name : r.name;
  }

  // ----- the stage -------------------------------------------------------------------------------------------------

  compile(): CompiledStage {
    const q = this.query;
    this.setUpSource();
    const joinInfos = this.setUpJoins();
    const select = emptySelect(this.from);
    for (const info of joinInfos) {
      const j = info.join;
      const strategy = j.strategy ?? 'left-join';
      if (!this.dialect.supports(strategy)) throw unsupported(`${this.dialect.engine} does not support ${strategy}.`);
      if (!j.condition) throw invalidQuery(`Join ${info.alias} needs a condition.`);
      select.joins.push({ keyword: this.dialect.joinKeyword(strategy), source: info.from, on: this.exprs.condition(j.condition) });
    }
    if (q.filter) select.where = this.exprs.condition(q.filter);

    const names = new UniqueNames();
    const columns: StageColumn[] = [];
    const breakouts = q.breakout ?? [];
    const aggregations = q.aggregation ?? [];
    const hasAggregation = aggregations.length > 0;
    let columnsKnown = true;
    const cumulative: Array<{ index: number; kind: 'sum' | 'count' }> = [];

    if (breakouts.length || aggregations.length) {
      for (const b of breakouts) {
        const { item, column } = this.selectable(b, 'breakout', names);
        select.items.push({ expr: item.sql, alias: column.name });
        columns.push(column);
      }
      aggregations.forEach((a, i) => {
        const compiled = this.exprs.aggregation(a);
        if (compiled.cumulative) cumulative.push({ index: columns.length, kind: compiled.cumulative });
        const name = names.next(compiled.name);
        select.items.push({ expr: compiled.sql, alias: name });
        columns.push({
          name,
          display_name: compiled.displayName,
          base_type: compiled.type,
          effective_type: compiled.type,
          semantic_type: compiled.semanticType,
          field_ref: ['aggregation', i],
          source: 'aggregation',
          field: null,
          table_id: null,
          aggregation_index: i,
        });
      });
      if (breakouts.length) select.groupBy = select.items.slice(0, breakouts.length).map((item, i) => this.groupKey(item, i));
      if (this.percentiles.length) this.joinWindowPercentiles(select, breakouts.length);
    } else {
      const fields = q.fields ?? this.defaultFields();
      for (const f of fields) {
        if (isClause(f, '*source')) {
          select.star = sql`${ident(String(f[1]))}.*`;
          columnsKnown = false;
          continue;
        }
        const { item, column } = this.selectable(f, 'fields', names);
        select.items.push({ expr: item.sql, alias: column.name });
        columns.push(column);
      }
      for (const info of joinInfos) {
        for (const ref of this.joinFields(info)) {
          const { item, column } = this.selectable(ref, 'fields', names);
          select.items.push({ expr: item.sql, alias: column.name });
          columns.push(column);
        }
      }
    }

    // ORDER BY: explicit items, then the breakouts not already ordered, ascending.
    const orderBy: Array<{ expr: Sql; dir: 'asc' | 'desc'; position: number | null }> = [];
    const ordered = new Set<number>();
    for (const o of q['order-by'] ?? []) {
      const [dir, target] = o as ['asc' | 'desc', Clause];
      const position = this.selectPosition(target, breakouts, columns);
      if (position !== null) {
        if (ordered.has(position)) continue;
        ordered.add(position);
        orderBy.push({ expr: this.groupKey(select.items[position], position), dir, position });
      } else {
        if (breakouts.length || aggregations.length) throw invalidQuery(`Can't order by ${JSON.stringify(target)}: it is not a breakout or an aggregation of this query.`);
        orderBy.push({ expr: this.exprs.value(target).sql, dir, position: null });
      }
    }
    breakouts.forEach((_, i) => {
      if (!ordered.has(i)) orderBy.push({ expr: this.groupKey(select.items[i], i), dir: 'asc', position: i });
    });

    const [limit, offset] = this.limitOffset();

    if (cumulative.length) {
      return { select: this.cumulativeWrap(select, columns, breakouts.length, cumulative, orderBy, limit, offset), columns, columnsKnown, hasAggregation };
    }
    select.orderBy = orderBy.map((o) => this.dialect.orderItem(o.expr, o.dir));
    select.limit = limit;
    select.offset = offset;
    return { select, columns, columnsKnown, hasAggregation };
  }

  /**
   * A percentile on an engine that has PERCENTILE_CONT only as a window function (MariaDB): its value per group
   * comes from a subquery over the same rows (same source, joins and filter) partitioned by the breakouts, one row
   * per group (DISTINCT), LEFT JOINed on the breakouts (NULL-safe) — each row meets its own group's value, so the
   * other aggregates don't change — and read with MAX() in the grouped query.
   */
  windowPercentile(arg: Sql, p: number): Sql {
    const column = `p${this.percentiles.length}`;
    this.percentiles.push({ arg, p, column });
    return sql`MAX(${ident(WINDOW_PERCENTILES, column)})`;
  }

  private joinWindowPercentiles(select: Select, breakoutCount: number): void {
    const keys = select.items.slice(0, breakoutCount).map((item) => item.expr);
    const sub = emptySelect(select.from);
    sub.distinct = true;
    sub.joins = [...select.joins];
    sub.where = select.where;
    keys.forEach((k, i) => sub.items.push({ expr: k, alias: `k${i}` }));
    for (const pc of this.percentiles) sub.items.push({ expr: this.dialect.windowPercentile(pc.arg, pc.p, keys), alias: pc.column });
    const on = keys.length ? join(keys.map((k, i) => this.dialect.nullSafeEquals(k, sql`${ident(WINDOW_PERCENTILES, `k${i}`)}`)), ' AND ') : raw('1 = 1');
    select.joins.push({ keyword: 'LEFT JOIN', source: { kind: 'query', select: sub, alias: WINDOW_PERCENTILES }, on });
  }

  private limitOffset(): [number | null, number | null] {
    const q = this.query;
    let limit: number | null = typeof q.limit === 'number' ? q.limit : null;
    let offset: number | null = null;
    if (q.page) {
      const items = q.page.items;
      const l = items;
      offset = (q.page.page - 1) * items;
      limit = limit === null ? l : Math.min(limit, l);
    }
    return [limit, offset];
  }

  /** A GROUP BY / ORDER BY reference to a select item: the expression, or its position when repeating it isn't safe. */
  private groupKey(item: SelectItem, index: number): Sql {
    if (!this.dialect.numberedPlaceholders && hasParams(item.expr)) return number(index + 1);
    return item.expr;
  }

  private selectPosition(target: Clause, breakouts: Clause[], columns: StageColumn[]): number | null {
    if (isClause(target, 'aggregation')) {
      const i = columns.findIndex((c) => c.aggregation_index === target[1]);
      if (i === -1) throw invalidQuery(`No aggregation at index ${String(target[1])}.`);
      return i;
    }
    const b = breakouts.findIndex((x) => sameRef(x, target));
    if (b !== -1) return b;
    // A field ordered by without its bucketing still means the breakout on it.
    if (isFieldRef(target)) {
      const loose = breakouts.findIndex((x) => isFieldRef(x) && x[1] === target[1] && (x[2]?.['join-alias'] ?? null) === (target[2]?.['join-alias'] ?? null));
      if (loose !== -1 && breakouts.length) return loose;
    }
    return null;
  }

  private defaultFields(): Clause[] {
    const out: Clause[] = [];
    if (this.source.kind === 'table') {
      for (const f of this.options.metadata.defaultFields(this.source.table.id)) out.push(['field', f.id, null]);
    } else if (this.source.known && this.source.columns.length) {
      for (const c of this.source.columns) out.push(['field', c.name, { 'base-type': c.base_type }]);
    } else {
      out.push(['*source', this.source.alias]);
    }
    for (const name of Object.keys(this.expressions)) out.push(['expression', name]);
    return out;
  }

  private joinFields(info: JoinInfo): Clause[] {
    const fields = info.join.fields;
    if (!fields || fields === 'none') return [];
    if (Array.isArray(fields)) {
      return fields.map((f) => (isFieldRef(f) && !fieldOptions(f)['join-alias'] ? (['field', f[1], { ...(f[2] ?? {}), 'join-alias': info.alias }] as Clause) : f));
    }
    if (info.source.kind === 'table') {
      return this.options.metadata.defaultFields(info.source.table.id).map((f) => ['field', f.id, { 'join-alias': info.alias }] as Clause);
    }
    return info.source.columns.map((c) => ['field', c.name, { 'base-type': c.base_type, 'join-alias': info.alias }] as Clause);
  }

  /**
   * Cumulative aggregations (Metabase 0.52+): the grouped query becomes a subquery and the outer query sums each
   * cumulative column over a window. The total runs along one breakout — the finest temporal one (the leftmost of
   * equally fine ones), else the last — and restarts for every combination of the other breakouts (PARTITION BY).
   * The window is ordered like the query: its explicit order-by (a cumulative column excepted) then the breakouts
   * left unordered, ascending — so a descending sort on the accumulated breakout runs the total in that direction,
   * while sorting a partitioning breakout only orders the output.
   */
  private cumulativeWrap(
    inner: Select,
    columns: StageColumn[],
    breakoutCount: number,
    cumulative: Array<{ index: number; kind: 'sum' | 'count' }>,
    orderBy: Array<{ expr: Sql; dir: 'asc' | 'desc'; position: number | null }>,
    limit: number | null,
    offset: number | null,
  ): Select {
    const alias = 'source';
    const outer = emptySelect({ kind: 'query', select: inner, alias });
    const ref = (i: number) => sql`${columnAlias(alias, columns[i].name)}`;
    const cumIndexes = new Set(cumulative.map((c) => c.index));
    const along = accumulationBreakout(columns.slice(0, breakoutCount));
    const partition = columns.slice(0, breakoutCount).map((_, i) => i).filter((i) => i !== along);
    const windowOrder = orderBy.filter((o) => o.position !== null && !cumIndexes.has(o.position) && !partition.includes(o.position));
    const over = join(
      [
        ...(partition.length ? [sql`PARTITION BY ${join(partition.map(ref))}`] : []),
        sql`ORDER BY ${join(windowOrder.map((o) => this.dialect.orderItem(ref(o.position!), o.dir)))}`,
        raw('ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW'),
      ],
      ' ',
    );
    columns.forEach((col, i) => {
      if (!cumIndexes.has(i) || breakoutCount === 0) {
        outer.items.push({ expr: ref(i), alias: col.name });
        return;
      }
      outer.items.push({ expr: sql`SUM(${ref(i)}) OVER (${over})`, alias: col.name });
    });
    outer.orderBy = orderBy.map((o) => this.dialect.orderItem(o.position !== null ? ref(o.position) : o.expr, o.dir));
    outer.limit = limit;
    outer.offset = offset;
    return outer;
  }
}

/** How fine a temporal breakout is (Metabase's order: smaller is finer); null for a breakout that isn't temporal. */
const GRANULARITY: Record<string, number> = {
  minute: 1, 'minute-of-hour': 2, hour: 3, 'hour-of-day': 4, day: 5, 'day-of-week': 6, 'day-of-month': 7, 'day-of-year': 8,
  week: 9, 'week-of-year': 10, month: 11, 'month-of-year': 12, quarter: 13, 'quarter-of-year': 14, year: 15, 'year-of-era': 16,
};

function granularity(col: StageColumn): number | null {
  const unit = col.unit;
  if (unit === undefined) return null;
  if (unit === 'default') return isDate(col.base_type) ? 5 : isDateTime(col.base_type) || isTime(col.base_type) ? 0 : null;
  // Metabase's table has no second or millisecond: such breakouts don't count as temporal here.
  return GRANULARITY[unit] ?? null;
}

/** The breakout a cumulative aggregation runs along: the finest temporal one (leftmost on a tie), else the last. */
export function accumulationBreakout(breakouts: StageColumn[]): number {
  let best = -1;
  let finest = Infinity;
  breakouts.forEach((b, i) => {
    const g = granularity(b);
    if (g !== null && g < finest) {
      finest = g;
      best = i;
    }
  });
  return best === -1 ? breakouts.length - 1 : best;
}

const DATE_UNITS = new Set(['day', 'day-of-week', 'day-of-month', 'day-of-year', 'week', 'week-of-year', 'month', 'month-of-year', 'quarter', 'quarter-of-year', 'year', 'year-of-era']);
const TIME_UNITS = new Set(['millisecond', 'second', 'minute', 'minute-of-hour', 'hour', 'hour-of-day']);

/**
 * Metabase's temporal-bucketing validation: dates take date units, times time units, date-times both, and anything
 * else none (an unknown `type/*` column and UNIX-timestamp fields are let through).
 */
function checkTemporalUnit(resolved: ResolvedField, unit: string): void {
  const type = resolved.baseType;
  if (type === 'type/*' || resolved.field?.semantic_type?.startsWith('type/UNIXTimestamp')) return;
  const valid = isDate(type) ? DATE_UNITS.has(unit) : isTime(type) ? TIME_UNITS.has(unit) : isDateTime(type) ? DATE_UNITS.has(unit) || TIME_UNITS.has(unit) : false;
  if (!valid) throw invalidQuery(`Unsupported temporal bucketing: You can't bucket a :${type} Field by :${unit}.`);
}

/** The join a column came from: its own, or the one its saved metadata's field_ref names. */
function joinAliasOf(c: StageColumn): string | undefined {
  if (c.join_alias) return c.join_alias;
  const ref = c.overrides?.field_ref;
  const alias = isFieldRef(ref) ? fieldOptions(ref)['join-alias'] : undefined;
  return typeof alias === 'string' ? alias : undefined;
}

/** The semantic type and name binning looks at: the field's, else the source column's. */
function binnedColumn(r: ResolvedField): { semantic_type: string | null; display_name: string } {
  return { semantic_type: r.field?.semantic_type ?? r.column?.semantic_type ?? null, display_name: r.field?.display_name ?? r.displayName };
}

export function hasParams(fragment: Sql): boolean {
  return fragment.parts.some((p) => p instanceof Param || (p instanceof SqlClass && hasParams(p)));
}

export function compileStage(query: MbqlQuery, options: CompileOptions): CompiledStage {
  return new StageCompiler(query, options).compile();
}

/** A column of a source whose metadata came from a card (`result_metadata` / `source-metadata`). */
export function columnFromMetadata(m: ColumnMetadata): StageColumn {
  const base = m.base_type ?? 'type/*';
  return {
    name: m.name,
    display_name: m.display_name ?? m.name,
    base_type: base,
    effective_type: m.effective_type ?? base,
    semantic_type: m.semantic_type ?? null,
    field_ref: ['field', m.name, { 'base-type': base }],
    source: 'fields',
    field: null,
    table_id: null,
    unit: m.unit,
    description: m.description ?? null,
    overrides: m,
  };
}

/** A model's edited metadata (display names, semantic types, descriptions) laid over its query's columns. */
export function applyModelMetadata(columns: StageColumn[], metadata: ColumnMetadata[]): StageColumn[] {
  const byName = new Map(metadata.map((m) => [m.name, m]));
  return columns.map((c) => {
    const m = byName.get(c.name);
    if (!m) return c;
    return {
      ...c,
      display_name: m.display_name ?? c.display_name,
      semantic_type: m.semantic_type !== undefined ? m.semantic_type : c.semantic_type,
      description: m.description !== undefined ? m.description : c.description,
      overrides: m,
    };
  });
}
