// MBQL expressions, filters and aggregations → SQL fragments, through the dialect. Every literal becomes a bound
// parameter; temporal literals and relative dates are turned into exact [start, end) bounds in JS
// (./temporal-values.ts) so that each engine compares against the same values.

import { sql, raw, param, number, join, chain, type Sql, type ParamType } from './sql.js';
import type { StageCompiler } from './stage.js';
import { isClause, isFieldRef, fieldOptions, walkClauses } from '../mbql/clauses.js';
import type { Clause, FieldRef } from '../mbql/types.js';
import { invalidQuery, unsupported } from '../errors.js';
import { isNumeric, isInteger, isTemporal, isText, isBoolean, isDate, isDateTime, isTime, literalType, paramTypeFor, temporalKind } from './types.js';
import { aggregationDisplayName, aggregationColumnName, OPERATOR_SYMBOLS } from './names.js';
import {
  parseTemporalLiteral,
  parseTimeLiteral,
  unitWindow,
  bucketComparison,
  relativeWindow,
  truncate,
  plus,
  asUnit,
  isoLocal,
  type Window,
  type Unit,
} from './temporal-values.js';
import type { DateTime } from 'luxon';
import type { ExtractField, IntervalUnit, StartOfWeek } from './dialect.js';

export interface Typed {
  sql: Sql;
  type: string;
}

export interface CompiledAggregation extends Typed {
  name: string;
  displayName: string;
  semanticType: string | null;
  cumulative?: 'sum' | 'count';
}

/** IN lists longer than this go through the dialect's `longIn` (one parameter for the whole list). */
const LONG_IN_LIST = 1000;

const FILTER_CLAUSES = new Set([
  'and', 'or', 'not', '=', '!=', '<', '>', '<=', '>=', 'between', 'is-null', 'not-null', 'is-empty', 'not-empty',
  'contains', 'does-not-contain', 'starts-with', 'ends-with', 'inside', 'time-interval', 'relative-time-interval',
  'during', 'in', 'not-in', 'segment',
]);

const AGGREGATION_CLAUSES = new Set([
  'count', 'cum-count', 'sum', 'cum-sum', 'avg', 'min', 'max', 'distinct', 'stddev', 'var', 'median', 'percentile',
  'count-where', 'sum-where', 'distinct-where', 'share', 'aggregation-options',
]);

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS_FROM_SUNDAY = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SOW_INDEX: Record<StartOfWeek, number> = { sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6 };

const DIFF_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'] as const;
type DiffUnit = (typeof DIFF_UNITS)[number];

/** The left side of a comparison: its value, and the raw temporal operand when it is a date/time. */
interface Operand {
  typed: Typed;
  /** The unbucketed temporal value (for range comparisons). */
  temporal: Sql | null;
  /** Truncation unit of the left side ("month"), when it is bucketed to one. */
  unit: Unit | null;
  /** Whether the left side is an extraction (day-of-week…): compared as a plain number. */
  extraction: boolean;
  baseType: string;
}

export class ExpressionCompiler {
  private readonly expanding = new Set<string>();
  private aggregateDepth = 0;

  constructor(private readonly stage: StageCompiler) {}

  private get d() {
    return this.stage.dialect;
  }

  private get clock() {
    return this.stage.options.clock;
  }

  private get sow(): StartOfWeek {
    return this.stage.options.startOfWeek;
  }

  private need(feature: string, what: string): void {
    if (!this.d.supports(feature)) throw unsupported(`${what} is not supported by ${this.d.engine} databases.`);
  }

  // ----- literals ----------------------------------------------------------------------------------------------

  literal(value: unknown, type?: ParamType): Typed {
    if (value === null || value === undefined) return { sql: raw('NULL'), type: 'type/*' };
    const pt = type ?? paramTypeFor(value);
    return { sql: sql`${param(value, pt)}`, type: literalType(value) };
  }

  /** A literal compared with a value of `against` type, converted the way the comparison needs it. */
  private coerceLiteral(value: unknown, against: string): Typed {
    const c = this.coercedValue(value, against);
    return this.literal(c.value, c.type);
  }

  private coercedValue(value: unknown, against: string): { value: unknown; type: ParamType } {
    if (typeof value === 'string') {
      if (isNumeric(against) && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value.trim())) return { value: Number(value), type: paramTypeFor(Number(value)) };
      // Text that is no number compared with a number: engines disagree (an error on PostgreSQL and DuckDB, a silent
      // text comparison on SQLite and MySQL), so it is refused on all of them, as text that is no date is.
      if (isNumeric(against)) throw invalidQuery(`Invalid number value: ${JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value)}`);
      if (isBoolean(against) && /^(true|false)$/i.test(value)) return { value: value.toLowerCase() === 'true', type: 'boolean' };
    }
    if (typeof value === 'number' && isText(against)) return { value: String(value), type: 'text' };
    if (typeof value === 'boolean' || typeof value === 'number') return { value, type: paramTypeFor(value) };
    if (value !== null && typeof value === 'object') throw invalidQuery(`Invalid value in a comparison: ${JSON.stringify(value)}`);
    return { value, type: 'text' };
  }

  // ----- values ------------------------------------------------------------------------------------------------

  value(x: unknown): Typed {
    if (x === null || x === undefined) return { sql: raw('NULL'), type: 'type/*' };
    if (typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean') return this.literal(x);
    if (!isClause(x)) throw invalidQuery(`Invalid expression: ${JSON.stringify(x)}`);
    const [name, ...args] = x;
    if (FILTER_CLAUSES.has(name)) return { sql: this.d.booleanValue(this.condition(x)), type: 'type/Boolean' };
    if (AGGREGATION_CLAUSES.has(name)) {
      if (this.aggregateDepth > 0) return this.aggregation(x);
      throw invalidQuery(`Aggregation ${name} can't be used as a row-level expression.`);
    }
    const d = this.d;
    switch (name) {
      case 'field':
        return this.stage.fieldValue(x as FieldRef);
      case 'expression':
        return this.expressionRef(String(args[0]));
      case 'value':
        return this.literal(args[0]);
      case 'aggregation':
        throw invalidQuery('Aggregation references can only be used in order-by.');
      case '+':
      case '-':
        return this.additive(name, args);
      case '*': {
        const parts = args.map((a) => this.value(a));
        return { sql: sql`(${join(parts.map((p) => p.sql), ' * ')})`, type: parts.every((p) => isInteger(p.type)) ? 'type/Integer' : 'type/Float' };
      }
      case '/': {
        const parts = args.map((a) => this.value(a));
        let acc = parts[0].sql;
        for (const p of parts.slice(1)) acc = d.divide(acc, p.sql);
        return { sql: acc, type: 'type/Float' };
      }
      case 'abs': {
        const v = this.value(args[0]);
        return { sql: d.abs(v.sql), type: v.type };
      }
      case 'ceil':
        return { sql: d.castToInteger(d.ceil(this.value(args[0]).sql)), type: 'type/Integer' };
      case 'floor':
        return { sql: d.castToInteger(d.floor(this.value(args[0]).sql)), type: 'type/Integer' };
      case 'round':
        return { sql: d.castToInteger(d.round(this.value(args[0]).sql)), type: 'type/Integer' };
      case 'power':
        this.need('advanced-math-expressions', 'power');
        return { sql: d.power(this.value(args[0]).sql, this.value(args[1]).sql), type: 'type/Float' };
      case 'sqrt':
        this.need('advanced-math-expressions', 'sqrt');
        return { sql: d.sqrt(d.castToFloat(this.value(args[0]).sql)), type: 'type/Float' };
      case 'exp':
        this.need('advanced-math-expressions', 'exp');
        return { sql: d.exp(d.castToFloat(this.value(args[0]).sql)), type: 'type/Float' };
      case 'log': {
        this.need('advanced-math-expressions', 'log');
        const v = d.castToFloat(this.value(args[0]).sql);
        return { sql: sql`(${d.ln(v)} / ${d.ln(raw('10.0'))})`, type: 'type/Float' };
      }
      case 'concat':
        return { sql: d.concat(args.map((a) => this.textValue(a))), type: 'type/Text' };
      case 'substring': {
        const s = this.value(args[0]).sql;
        const start = this.integerArg(args[1], 'substring start');
        const length = args[2] === undefined ? null : this.integerArg(args[2], 'substring length');
        return { sql: d.substring(s, start, length), type: 'type/Text' };
      }
      case 'length':
        return { sql: d.length(this.value(args[0]).sql), type: 'type/Integer' };
      case 'trim':
        return { sql: d.trim(this.value(args[0]).sql), type: 'type/Text' };
      case 'ltrim':
        return { sql: d.ltrim(this.value(args[0]).sql), type: 'type/Text' };
      case 'rtrim':
        return { sql: d.rtrim(this.value(args[0]).sql), type: 'type/Text' };
      case 'upper':
        return { sql: d.upper(this.value(args[0]).sql), type: 'type/Text' };
      case 'lower':
        return { sql: d.lower(this.value(args[0]).sql), type: 'type/Text' };
      case 'replace':
        return { sql: d.replace(this.value(args[0]).sql, this.textValue(args[1]), this.textValue(args[2])), type: 'type/Text' };
      case 'regex-match-first':
      case 'regexextract':
        this.need('regex', 'regex-match-first');
        return { sql: d.regexMatchFirst(this.value(args[0]).sql, this.textValue(args[1])), type: 'type/Text' };
      case 'host':
      case 'domain':
      case 'subdomain':
      case 'path':
        this.need('regex', name);
        return { sql: this.urlPart(name, this.value(args[0]).sql), type: 'type/Text' };
      case 'split-part':
        this.need('split-part', 'split-part');
        return { sql: d.splitPart(this.value(args[0]).sql, this.textValue(args[1]), this.integerArg(args[2], 'split-part index')), type: 'type/Text' };
      case 'month-name':
        return { sql: this.nameCase(this.value(args[0]).sql, MONTHS.map((m, i) => [i + 1, m])), type: 'type/Text' };
      case 'quarter-name':
        return { sql: this.nameCase(this.value(args[0]).sql, [1, 2, 3, 4].map((q) => [q, `Q${q}`])), type: 'type/Text' };
      case 'day-name': {
        const start = SOW_INDEX[this.sow];
        const names = [1, 2, 3, 4, 5, 6, 7].map((n) => [n, DAYS_FROM_SUNDAY[(start + n - 1) % 7]] as [number, string]);
        return { sql: this.nameCase(this.value(args[0]).sql, names), type: 'type/Text' };
      }
      case 'text':
        return { sql: this.textOf(this.value(args[0])), type: 'type/Text' };
      case 'integer': {
        const v = this.value(args[0]);
        return { sql: isText(v.type) ? d.textToInteger(v.sql) : d.castToInteger(d.round(v.sql)), type: 'type/BigInteger' };
      }
      case 'float': {
        const v = this.value(args[0]);
        return { sql: isText(v.type) ? d.textToFloat(v.sql) : d.castToFloat(v.sql), type: 'type/Float' };
      }
      case 'date': {
        const v = this.value(args[0]);
        return { sql: isText(v.type) ? d.parseDate(v.sql) : d.castToDate(this.stage.temporalOperand(v.sql, v.type)), type: 'type/Date' };
      }
      case 'datetime':
        return { sql: this.datetimeOf(this.value(args[0]), args[1]), type: 'type/DateTime' };
      case 'collate':
        return this.value(args[0]);
      case 'case':
      case 'if':
        return this.caseValue(args[0], args[1]);
      case 'coalesce': {
        const { parts, type } = this.unify(args.map((a) => this.value(a)));
        return { sql: sql`COALESCE(${join(parts)})`, type };
      }
      case 'datetime-add':
      case 'datetime-subtract': {
        this.need('date-arithmetics', name);
        const v = this.value(args[0]);
        const unit = this.intervalUnit(args[2]);
        const amount = typeof args[1] === 'number' ? this.literal(name === 'datetime-subtract' ? -args[1] : args[1], 'integer').sql : name === 'datetime-subtract' ? sql`-(${this.value(args[1]).sql})` : this.value(args[1]).sql;
        const type = isDate(v.type) && ['hour', 'minute', 'second', 'millisecond'].includes(unit) ? 'type/DateTime' : v.type;
        return { sql: d.addInterval(this.stage.temporalOperand(v.sql, v.type), amount, unit), type: isTemporal(type) ? type : 'type/DateTime' };
      }
      case 'datetime-diff': {
        this.need('datetime-diff', 'datetime-diff');
        const a = this.value(args[0]);
        const b = this.value(args[1]);
        const unit = String(args[2]) as DiffUnit;
        if (!DIFF_UNITS.includes(unit)) throw invalidQuery(`Invalid datetime-diff unit: ${unit}`);
        return { sql: d.datetimeDiff(this.temporalOf(a), this.temporalOf(b), unit), type: 'type/Integer' };
      }
      case 'now':
        this.need('now', 'now');
        return { sql: sql`${param(isoLocal(this.clock.now, 'datetime'), 'datetime')}`, type: 'type/DateTime' };
      case 'convert-timezone': {
        this.need('convert-timezone', 'convert-timezone');
        const v = this.value(args[0]);
        return { sql: d.convertTimezone(this.temporalOf(v), String(args[1]), args[2] ? String(args[2]) : null), type: 'type/DateTime' };
      }
      case 'temporal-extract':
        this.need('temporal-extract', 'temporal-extract');
        return this.extractUnit(this.value(args[0]), String(args[1]), args[2] ? String(args[2]) : undefined);
      case 'get-year':
        return this.extractUnit(this.value(args[0]), 'year-of-era');
      case 'get-quarter':
        return this.extractUnit(this.value(args[0]), 'quarter-of-year');
      case 'get-month':
        return this.extractUnit(this.value(args[0]), 'month-of-year');
      case 'get-week':
        return this.extractUnit(this.value(args[0]), 'week-of-year', args[1] ? String(args[1]) : 'iso');
      case 'get-day':
        return this.extractUnit(this.value(args[0]), 'day-of-month');
      case 'get-day-of-week':
        return this.extractUnit(this.value(args[0]), 'day-of-week', args[1] ? String(args[1]) : undefined);
      case 'get-hour':
        return this.extractUnit(this.value(args[0]), 'hour-of-day');
      case 'get-minute':
        return this.extractUnit(this.value(args[0]), 'minute-of-hour');
      case 'get-second':
        return this.extractUnit(this.value(args[0]), 'second-of-minute');
      case 'relative-datetime': {
        const target = this.relativeTarget(args[0], args[1]);
        return { sql: sql`${param(isoLocal(target.value, 'datetime'), 'datetime')}`, type: 'type/DateTime' };
      }
      case 'absolute-datetime': {
        const parsed = typeof args[0] === 'string' ? parseTemporalLiteral(args[0], this.stage.options.timezone) : null;
        if (!parsed) throw invalidQuery(`Invalid absolute-datetime: ${JSON.stringify(args[0])}`);
        return { sql: sql`${param(isoLocal(parsed.value, 'datetime'), 'datetime')}`, type: 'type/DateTime' };
      }
      case 'offset':
        throw unsupported('The offset window function is not supported yet.');
      case 'metric':
      case 'segment':
        throw invalidQuery(`Unresolved ${name} ${String(args[0])}.`);
      default:
        throw invalidQuery(`Unknown expression: ${name}`);
    }
  }

  private expressionRef(name: string): Typed {
    const definition = this.stage.expressions[name];
    if (definition === undefined) throw invalidQuery(`No expression named "${name}".`);
    if (this.expanding.has(name)) throw invalidQuery(`Expression "${name}" refers to itself.`);
    this.expanding.add(name);
    try {
      return this.value(definition);
    } finally {
      this.expanding.delete(name);
    }
  }

  private textValue(x: unknown): Sql {
    if (typeof x === 'string') return sql`${param(x, 'text')}`;
    return this.value(x).sql;
  }

  /** A whole-number argument: a number, or an expression of a numeric type (text, dates, booleans are refused). */
  private integerArg(x: unknown, what: string): Sql {
    if (typeof x === 'number') return sql`${param(Math.trunc(x), 'integer')}`;
    if (!isClause(x)) throw invalidQuery(`The ${what} must be a number, not ${JSON.stringify(x)}.`);
    const v = this.value(x);
    if (!isNumeric(v.type) && v.type !== 'type/*') throw invalidQuery(`The ${what} must be a number, but ${this.describe(x)} is a ${v.type}.`);
    return v.sql;
  }

  private temporalOf(t: Typed): Sql {
    return isTemporal(t.type) ? this.stage.temporalOperand(t.sql, t.type) : this.d.castToDatetime(t.sql);
  }

  private intervalUnit(u: unknown): IntervalUnit {
    const unit = String(u).replace(/s$/, '') as IntervalUnit;
    if (!['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'].includes(unit)) throw invalidQuery(`Invalid interval unit: ${String(u)}`);
    return unit;
  }

  private additive(op: '+' | '-', args: unknown[]): Typed {
    const intervals = args.filter((a) => isClause(a, 'interval')) as Clause[];
    if (intervals.length) {
      const base = args.find((a) => !isClause(a, 'interval'));
      const v = this.value(base);
      let acc = this.temporalOf(v);
      for (const i of intervals) {
        const n = Number(i[1]);
        acc = this.d.addInterval(acc, sql`${param(op === '-' ? -n : n, 'integer')}`, this.intervalUnit(i[2]));
      }
      return { sql: acc, type: isTemporal(v.type) ? v.type : 'type/DateTime' };
    }
    const parts = args.map((a) => this.value(a));
    const symbol = op === '+' ? ' + ' : ' - ';
    return { sql: sql`(${join(parts.map((p) => p.sql), symbol)})`, type: parts.every((p) => isInteger(p.type)) ? 'type/Integer' : 'type/Float' };
  }

  private nameCase(value: Sql, names: Array<[number, string]>): Sql {
    const whens = names.map(([n, label]) => sql` WHEN ${number(n)} THEN ${raw(this.d.quoteString(label))}`);
    return sql`(CASE ${value}${join(whens, '')} END)`;
  }

  private caseValue(pairs: unknown, options: unknown): Typed {
    if (!Array.isArray(pairs) || pairs.length === 0) throw invalidQuery('case needs at least one [condition, value] pair.');
    const branches = pairs.map((pair) => {
      if (!Array.isArray(pair) || pair.length !== 2) throw invalidQuery('Each case branch is a [condition, value] pair.');
      return { when: this.condition(pair[0]), then: this.value(pair[1]) };
    });
    const fallback = options && typeof options === 'object' && 'default' in (options as object) ? this.value((options as { default: unknown }).default) : null;
    const { parts, type } = this.unify([...branches.map((b) => b.then), ...(fallback ? [fallback] : [])]);
    const whens = branches.map((b, i) => sql` WHEN ${b.when} THEN ${parts[i]}`);
    const otherwise = fallback ? sql` ELSE ${parts[parts.length - 1]}` : raw('');
    return { sql: sql`(CASE${join(whens, '')}${otherwise} END)`, type };
  }

  /**
   * The values of a case or coalesce brought to one type, so every engine accepts them and answers alike: numbers
   * are Float if any is (else Integer); text mixed with other kinds makes them all text (as `text` writes them).
   */
  private unify(values: Typed[]): { parts: Sql[]; type: string } {
    const typed = values.filter((v) => v.type !== 'type/*');
    if (typed.length && typed.every((v) => isNumeric(v.type))) {
      return { parts: values.map((v) => v.sql), type: typed.every((v) => isInteger(v.type)) ? 'type/Integer' : 'type/Float' };
    }
    if (typed.some((v) => isText(v.type)) && typed.some((v) => !isText(v.type))) {
      return { parts: values.map((v) => (v.type === 'type/*' || isText(v.type) ? v.sql : this.textOf(v))), type: 'type/Text' };
    }
    return { parts: values.map((v) => v.sql), type: typed[0]?.type ?? 'type/*' };
  }

  /** A value as text, written the same way on every engine (the `text` expression). */
  private textOf(v: Typed): Sql {
    const d = this.d;
    if (isText(v.type)) return v.sql;
    const kind = temporalKind(v.type);
    if (kind) return d.temporalToText(this.stage.temporalOperand(v.sql, v.type), kind);
    if (isBoolean(v.type)) return d.booleanToText(v.sql);
    if (isNumeric(v.type) && !isInteger(v.type)) return d.floatToText(v.sql);
    return d.castToText(v.sql);
  }

  /**
   * `datetime`: text parsed as ISO-8601 (mode `iso`, the default for text) or as `YYYYMMDDHHMMSS` (`simple`); a
   * number counted from the epoch in seconds (`unix-seconds`, the default for numbers), milliseconds, microseconds
   * or nanoseconds. Byte modes aren't supported.
   */
  private datetimeOf(v: Typed, options: unknown): Sql {
    const d = this.d;
    const given = options && typeof options === 'object' ? (options as Record<string, unknown>).mode : undefined;
    const mode = typeof given === 'string' ? given.toLowerCase().replace(/[-_]/g, '') : isNumeric(v.type) ? 'unixseconds' : 'iso';
    switch (mode) {
      case 'iso':
        return isText(v.type) || v.type === 'type/*' ? d.parseDatetime(v.sql) : d.castToDatetime(v.sql);
      case 'simple': {
        const part = (start: number, length: number) => d.substring(v.sql, number(start), number(length));
        const text = d.concat([part(1, 4), raw("'-'"), part(5, 2), raw("'-'"), part(7, 2), raw("' '"), part(9, 2), raw("':'"), part(11, 2), raw("':'"), part(13, 2)]);
        return d.parseDatetime(text);
      }
      case 'unixseconds':
        return d.epochToDatetime(v.sql, 'second');
      case 'unixmilliseconds':
        return d.epochToDatetime(v.sql, 'millisecond');
      case 'unixmicroseconds':
        return d.epochToDatetime(v.sql, 'microsecond');
      case 'unixnanoseconds':
        return d.epochToDatetime(v.sql, 'nanosecond');
      case 'isobytes':
      case 'simplebytes':
        throw unsupported(`datetime mode ${String(given)} is not supported.`);
      default:
        throw invalidQuery(`Invalid datetime mode: ${JSON.stringify(given)}`);
    }
  }

  private extractUnit(v: Typed, unit: string, mode?: string): Typed {
    const d = this.d;
    const x = this.temporalOf(v);
    const field = (f: ExtractField) => ({ sql: d.extract(x, f), type: 'type/Integer' });
    switch (unit) {
      case 'year-of-era':
      case 'year':
        return field('year');
      case 'quarter-of-year':
      case 'quarter':
        return field('quarter');
      case 'month-of-year':
      case 'month':
        return field('month');
      case 'day-of-month':
      case 'day':
        return field('day');
      case 'hour-of-day':
      case 'hour':
        return field('hour');
      case 'minute-of-hour':
      case 'minute':
        return field('minute');
      case 'second-of-minute':
      case 'second':
        return field('second');
      case 'day-of-week':
        if (mode === 'iso') return { sql: d.isoDayOfWeek(x), type: 'type/Integer' };
        return { sql: d.dayOfWeek(x, mode === 'us' ? 'sunday' : this.sow), type: 'type/Integer' };
      case 'week-of-year':
      case 'week-of-year-iso':
      case 'week-of-year-us':
      case 'week-of-year-instance': {
        const m = unit === 'week-of-year' ? mode ?? 'instance' : unit.replace('week-of-year-', '');
        if (m === 'iso') return { sql: d.isoWeek(x), type: 'type/Integer' };
        return { sql: d.weekOfYear(x, m === 'us' ? 'sunday' : this.sow), type: 'type/Integer' };
      }
      default:
        throw invalidQuery(`Invalid temporal-extract unit: ${unit}`);
    }
  }

  /** host/domain/subdomain/path of a URL (or e-mail address), through regular expressions. */
  private urlPart(part: 'host' | 'domain' | 'subdomain' | 'path', s: Sql): Sql {
    const d = this.d;
    const text = (t: string) => sql`${param(t, 'text')}`;
    const hostPattern = '^([a-zA-Z][a-zA-Z0-9+.-]*://)?([^@/?#]*@)?[^@/?#:]+';
    const host = d.regexReplace(d.regexMatchFirst(s, text(hostPattern)), text('^([a-zA-Z][a-zA-Z0-9+.-]*://)?([^@/?#]*@)?'), text(''));
    switch (part) {
      case 'host':
        return host;
      case 'domain':
        return sql`(CASE WHEN ${d.regexMatches(host, text('[^.]+[.][^.]+$'))} THEN ${d.regexReplace(host, text('^(.*[.])?([^.]+)[.][^.]+$'), text(d.backReference(2)))} END)`;
      case 'subdomain':
        return sql`(CASE WHEN ${d.regexMatches(host, text('^[^.]+[.][^.]+[.][^.]+'))} AND NOT ${d.regexMatches(host, text('^www[.]'))} THEN ${d.regexReplace(host, text('^(.*)[.][^.]+[.][^.]+$'), text(d.backReference(1)))} END)`;
      case 'path': {
        const afterHost = d.regexReplace(s, text('^([a-zA-Z][a-zA-Z0-9+.-]*://)?[^/?#]*'), text(''));
        return d.regexReplace(afterHost, text('[?#].*$'), text(''));
      }
    }
  }

  // ----- conditions --------------------------------------------------------------------------------------------

  condition(x: unknown): Sql {
    if (x === true) return raw('(1 = 1)');
    if (x === false) return raw('(1 = 0)');
    if (!isClause(x)) throw invalidQuery(`Invalid filter: ${JSON.stringify(x)}`);
    const [name, ...args] = x;
    switch (name) {
      case 'and':
      case 'or': {
        if (args.length === 0) return raw(name === 'and' ? '(1 = 1)' : '(1 = 0)');
        const parts = args.map((a) => this.condition(a));
        return parts.length === 1 ? parts[0] : chain(parts, name === 'and' ? ' AND ' : ' OR ');
      }
      case 'not': {
        const inner = args[0];
        // Metabase: "not contains/starts-with/ends-with" also keeps the rows where the column is NULL.
        if (isClause(inner) && ['contains', 'starts-with', 'ends-with'].includes(inner[0])) return this.stringFilter(inner[0], inner.slice(1), true);
        return sql`(NOT ${this.condition(inner)})`;
      }
      case '=':
      case '!=':
      case 'in':
      case 'not-in':
        return this.equality(name === '=' || name === 'in' ? '=' : '!=', args[0], args.slice(1));
      case '<':
      case '>':
      case '<=':
      case '>=':
        return this.ordering(name, args[0], args[1]);
      case 'between':
        return this.between(args[0], args[1], args[2]);
      case 'is-null':
        return sql`(${this.value(args[0]).sql} IS NULL)`;
      case 'not-null':
        return sql`(${this.value(args[0]).sql} IS NOT NULL)`;
      case 'is-empty': {
        const v = this.value(args[0]);
        return isText(v.type) ? sql`(${v.sql} IS NULL OR ${v.sql} = '')` : sql`(${v.sql} IS NULL)`;
      }
      case 'not-empty': {
        const v = this.value(args[0]);
        return isText(v.type) ? sql`(${v.sql} IS NOT NULL AND ${v.sql} <> '')` : sql`(${v.sql} IS NOT NULL)`;
      }
      case 'contains':
      case 'does-not-contain':
      case 'starts-with':
      case 'ends-with':
        return this.stringFilter(name, args);
      case 'inside': {
        const [lat, lon, latMax, lonMin, latMin, lonMax] = args;
        const la = this.value(lat).sql;
        const lo = this.value(lon).sql;
        const f = (v: unknown) => {
          const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
          if (!Number.isFinite(n)) throw invalidQuery(`inside needs numbers for its bounds, not ${JSON.stringify(v)}.`);
          return this.literal(n, 'float').sql;
        };
        return sql`(${la} BETWEEN ${f(latMin)} AND ${f(latMax)} AND ${lo} BETWEEN ${f(lonMin)} AND ${f(lonMax)})`;
      }
      case 'time-interval':
        return this.timeInterval(args);
      case 'relative-time-interval': {
        const [f, n, unit, offsetN, offsetUnit] = args;
        const operand = this.operand(f);
        const anchor = plus(this.clock.now, Number(offsetN), asUnit(offsetUnit));
        return this.inWindow(operand, relativeWindow(this.clock, Number(n), asUnit(unit), false, anchor));
      }
      case 'during': {
        const [f, value, unit] = args;
        const operand = this.operand(f);
        const parsed = typeof value === 'string' ? parseTemporalLiteral(value, this.stage.options.timezone) : null;
        if (!parsed) throw invalidQuery(`Invalid date for during: ${JSON.stringify(value)}`);
        return this.inWindow(operand, unitWindow(parsed.value, asUnit(unit), this.sow));
      }
      case 'segment':
        throw invalidQuery(`Unresolved segment ${String(args[0])}.`);
      case 'expression': {
        const definition = this.stage.expressions[String(args[0])];
        if (isClause(definition) && FILTER_CLAUSES.has(definition[0])) {
          if (this.expanding.has(String(args[0]))) throw invalidQuery(`Expression "${String(args[0])}" refers to itself.`);
          this.expanding.add(String(args[0]));
          try {
            return this.condition(definition);
          } finally {
            this.expanding.delete(String(args[0]));
          }
        }
        return this.d.truthy(this.value(x).sql);
      }
      case 'value':
        return this.condition(args[0]);
      default:
        return this.d.truthy(this.value(x).sql);
    }
  }

  /** The left side of a comparison, with what temporal comparisons need. */
  private operand(x: unknown): Operand {
    if (isFieldRef(x)) {
      const opts = fieldOptions(x);
      const unit = opts['temporal-unit'];
      const resolved = this.stage.resolveField(x);
      if (isTemporal(resolved.baseType)) {
        const temporal = this.stage.temporalOperand(resolved.sql, resolved.baseType, true);
        if (unit && unit !== 'default') {
          const bucketed = this.stage.fieldValue(x);
          const truncation = ['millisecond', 'second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'].includes(unit);
          return { typed: bucketed, temporal, unit: truncation ? (unit as Unit) : null, extraction: !truncation, baseType: resolved.baseType };
        }
        return { typed: { sql: resolved.sql, type: resolved.baseType }, temporal, unit: null, extraction: false, baseType: resolved.baseType };
      }
      const v = this.stage.fieldValue(x);
      return { typed: v, temporal: null, unit: null, extraction: false, baseType: v.type };
    }
    const typed = this.value(x);
    const temporal = isTemporal(typed.type) ? this.stage.temporalOperand(typed.sql, typed.type, true) : null;
    let unit: Unit | null = null;
    if (isClause(x, 'expression') && x[2]?.['temporal-unit'] && x[2]['temporal-unit'] !== 'default') unit = asUnit(x[2]['temporal-unit']);
    return { typed, temporal, unit, extraction: false, baseType: typed.type };
  }

  private temporalParamKind(operand: Operand): 'date' | 'datetime' {
    return isDate(operand.baseType) && (!operand.unit || !['millisecond', 'second', 'minute', 'hour'].includes(operand.unit)) ? 'date' : 'datetime';
  }

  private bound(value: DateTime, operand: Operand): Sql {
    const kind = this.temporalParamKind(operand);
    return sql`${param(isoLocal(value, kind), kind)}`;
  }

  /**
   * A temporal right-hand side: a window when it names a whole unit (a date-only literal, a bucketed column, a
   * relative date), or an exact instant. Null when the value isn't a temporal literal.
   */
  private temporalTarget(operand: Operand, value: unknown): { window: Window } | { exact: Sql } | null {
    if (!operand.temporal || operand.extraction) return null;
    const zone = this.stage.options.timezone;
    // A string compared with a date or time must be one: anything else fails the query (Metabase refuses it too)
    // rather than running a comparison that matches nothing or errors in the database.
    if (isTime(operand.baseType)) {
      if (typeof value === 'string') {
        const t = parseTimeLiteral(value);
        if (t) return { exact: sql`${param(t, 'time')}` };
        throw invalidQuery(`Invalid time value: ${JSON.stringify(value)}`);
      }
      return null;
    }
    if (typeof value === 'string') {
      const parsed = parseTemporalLiteral(value, zone);
      if (!parsed) throw invalidQuery(`Invalid date or date-time value: ${JSON.stringify(value)}`);
      const unit = operand.unit ?? (parsed.monthOnly ? 'month' : parsed.hasTime && !isDate(operand.baseType) ? null : 'day');
      if (unit) return { window: unitWindow(parsed.value, unit, this.sow) };
      return { exact: this.bound(parsed.value, operand) };
    }
    if (isClause(value, 'relative-datetime')) {
      const target = this.relativeTarget(value[1], value[2]);
      // Without a unit ("current", or n days): the bucket of a bucketed side holding it, else the instant.
      if (!target.unit) return operand.unit ? { window: unitWindow(target.value, operand.unit, this.sow) } : { exact: this.bound(target.value, operand) };
      // A relative date with a unit is the start of that unit's period (Metabase truncates it to its own unit); a
      // side bucketed to some unit compares its bucket with it — so only when both units agree does `>` mean "from
      // the next period on" — and an unbucketed side compares its exact value.
      if (operand.unit) return { window: bucketComparison(target.value, operand.unit, this.sow) };
      return { exact: this.bound(target.value, operand) };
    }
    if (isClause(value, 'absolute-datetime')) {
      const parsed = typeof value[1] === 'string' ? parseTemporalLiteral(value[1], zone) : null;
      if (!parsed) throw invalidQuery(`Invalid absolute-datetime: ${JSON.stringify(value[1])}`);
      const u = value[2] && value[2] !== 'default' ? asUnit(value[2]) : null;
      const unit = operand.unit ?? u;
      if (unit) return { window: unitWindow(parsed.value, unit, this.sow) };
      return { exact: this.bound(parsed.value, operand) };
    }
    return null;
  }

  /**
   * `["relative-datetime", n, unit]`: now + n units, truncated to that unit as Metabase compiles it (the start of
   * the period); without a unit (or `default`) now + n days, untruncated.
   */
  private relativeTarget(n: unknown, unit: unknown): { value: DateTime; unit: Unit | null } {
    const amount = n === 'current' ? 0 : Number(n);
    if (!Number.isFinite(amount)) throw invalidQuery(`Invalid relative-datetime amount: ${JSON.stringify(n)}`);
    if (unit === undefined || unit === null || unit === 'default') return { value: plus(this.clock.now, amount, 'day'), unit: null };
    const u = asUnit(unit);
    return { value: truncate(plus(this.clock.now, amount, u), u, this.sow), unit: u };
  }

  /**
   * Metabase buckets a date or date-time column compared (=, !=, <, >, <=, >=, between) with nothing but
   * yyyy-MM-dd strings and relative dates to the day (its auto-bucketing of filters): such a side is compared by
   * its day.
   */
  private autoBucketed(lhs: unknown, operand: Operand, values: unknown[]): Operand {
    if (operand.unit || operand.extraction || !operand.temporal || !isFieldRef(lhs)) return operand;
    const opts = fieldOptions(lhs);
    if (opts['temporal-unit'] || opts.binning) return operand;
    if (!isDate(operand.baseType) && !isDateTime(operand.baseType)) return operand;
    const bucketable = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) || isClause(v, 'relative-datetime');
    return values.length && values.every(bucketable) ? { ...operand, unit: 'day' } : operand;
  }

  private inWindow(operand: Operand, window: Window): Sql {
    const x = operand.temporal ?? operand.typed.sql;
    const parts: Sql[] = [];
    if (window.start) parts.push(sql`${x} >= ${this.bound(window.start, operand)}`);
    if (window.end) parts.push(sql`${x} < ${this.bound(window.end, operand)}`);
    return parts.length ? sql`(${join(parts, ' AND ')})` : raw('(1 = 1)');
  }

  private rhs(operand: Operand, value: unknown): Sql {
    if (isClause(value)) {
      const v = this.value(value);
      return operand.temporal && isTemporal(v.type) ? this.stage.temporalOperand(v.sql, v.type, true) : v.sql;
    }
    return this.coerceLiteral(value, operand.typed.type).sql;
  }

  private equality(op: '=' | '!=', lhs: unknown, values: unknown[]): Sql {
    if (values.length === 0) throw invalidQuery(`${op} needs at least one value.`);
    const operand = this.autoBucketed(lhs, this.operand(lhs), values);
    const nonNull = values.filter((v) => v !== null);
    const parts: Sql[] = [];
    // Text compares exactly (case-sensitively) on every engine; MySQL's collations need the dialect's help for that.
    const textual = isText(operand.typed.type) && nonNull.every((v) => typeof v === 'string' || (isClause(v) && isText(this.value(v).type)));
    if (nonNull.length < values.length) parts.push(op === '=' ? sql`(${operand.typed.sql} IS NULL)` : sql`(${operand.typed.sql} IS NOT NULL)`);
    const plain: Sql[] = [];
    for (const v of nonNull) {
      const target = this.temporalTarget(operand, v);
      if (target && 'window' in target) {
        const inside = this.inWindow(operand, target.window);
        parts.push(op === '=' ? inside : sql`(NOT ${inside})`);
      } else if (target) {
        parts.push(sql`(${operand.temporal!} ${raw(op === '=' ? '=' : '<>')} ${target.exact})`);
      } else plain.push(this.rhs(operand, v));
    }
    const x = operand.typed.sql;
    // A long list of literal values: one array/JSON parameter where the engine can (it caps bound parameters).
    const literals = nonNull.filter((v) => !isClause(v));
    const long = literals.length === plain.length && plain.length > LONG_IN_LIST ? this.longIn(x, literals, operand.typed.type, op === '!=') : null;
    if (long) parts.push(long);
    else if (textual && plain.length === 1) parts.push(this.d.stringEquals(x, plain[0], op === '!='));
    else if (textual && plain.length > 1) parts.push(this.d.stringIn(x, plain, op === '!='));
    else if (plain.length === 1) parts.push(op === '=' ? sql`(${x} = ${plain[0]})` : sql`(${x} <> ${plain[0]})`);
    else if (plain.length > 1) parts.push(op === '=' ? sql`(${x} IN (${join(plain)}))` : sql`(${x} NOT IN (${join(plain)}))`);
    const combined = parts.length === 1 ? parts[0] : chain(parts, op === '=' ? ' OR ' : ' AND ');
    // Metabase: `!=` (and not-in) on a column also matches its NULLs — unless NULL is one of the values excluded.
    if (op === '!=' && nonNull.length === values.length && refersToColumn(lhs)) return sql`(${combined} OR ${x} IS NULL)`;
    return combined;
  }

  private longIn(x: Sql, values: unknown[], against: string, negate: boolean): Sql | null {
    const coerced = values.map((v) => this.coercedValue(v, against));
    const types = new Set(coerced.map((c) => c.type));
    const type = types.size === 1 && types.has('text') ? 'text' : [...types].every((t) => t === 'integer' || t === 'float') ? (types.has('float') ? 'float' : 'integer') : null;
    if (!type) return null;
    return this.d.longIn(x, coerced.map((c) => c.value), type, negate);
  }

  private ordering(op: '<' | '>' | '<=' | '>=', lhs: unknown, value: unknown): Sql {
    const operand = this.autoBucketed(lhs, this.operand(lhs), [value]);
    const target = this.temporalTarget(operand, value);
    if (target && 'window' in target) {
      const x = operand.temporal!;
      const w = target.window;
      switch (op) {
        case '<':
          return sql`(${x} < ${this.bound(w.start!, operand)})`;
        case '<=':
          return sql`(${x} < ${this.bound(w.end!, operand)})`;
        case '>':
          return sql`(${x} >= ${this.bound(w.end!, operand)})`;
        case '>=':
          return sql`(${x} >= ${this.bound(w.start!, operand)})`;
      }
    }
    if (target) return sql`(${operand.temporal!} ${raw(op)} ${target.exact})`;
    return sql`(${operand.typed.sql} ${raw(op)} ${this.rhs(operand, value)})`;
  }

  private between(lhs: unknown, lo: unknown, hi: unknown): Sql {
    const operand = this.autoBucketed(lhs, this.operand(lhs), [lo, hi]);
    const low = this.temporalTarget(operand, lo);
    const high = this.temporalTarget(operand, hi);
    if (low || high) {
      const x = operand.temporal!;
      const parts: Sql[] = [];
      if (lo !== null && lo !== undefined) {
        if (low && 'window' in low) parts.push(sql`${x} >= ${this.bound(low.window.start!, operand)}`);
        else parts.push(sql`${x} >= ${low ? low.exact : this.rhs(operand, lo)}`);
      }
      if (hi !== null && hi !== undefined) {
        if (high && 'window' in high) parts.push(sql`${x} < ${this.bound(high.window.end!, operand)}`);
        else parts.push(sql`${x} <= ${high ? high.exact : this.rhs(operand, hi)}`);
      }
      return sql`(${join(parts, ' AND ')})`;
    }
    return sql`(${operand.typed.sql} BETWEEN ${this.rhs(operand, lo)} AND ${this.rhs(operand, hi)})`;
  }

  /** contains / starts-with / ends-with / does-not-contain; `negate` turns them into "not …" (NULLs included). */
  private stringFilter(clauseName: string, args: unknown[], negate = false): Sql {
    let options: Record<string, unknown> = {};
    let field: unknown;
    let values: unknown[];
    if (args[0] && typeof args[0] === 'object' && !Array.isArray(args[0])) {
      options = args[0] as Record<string, unknown>;
      field = args[1];
      values = args.slice(2);
    } else {
      field = args[0];
      const last = args[args.length - 1];
      if (args.length > 2 && last && typeof last === 'object' && !Array.isArray(last)) {
        options = last as Record<string, unknown>;
        values = args.slice(1, -1);
      } else values = args.slice(1);
    }
    if (values.length === 0) throw invalidQuery(`${clauseName} needs a value.`);
    const negated = negate !== (clauseName === 'does-not-contain');
    const name = clauseName === 'does-not-contain' ? 'contains' : clauseName;
    const caseSensitive = options['case-sensitive'] !== false;
    const v = this.value(field);
    // Text, or a number searched as its text (MBQL 4 takes any field here; chain-filter search finds 2499 by "249").
    // Dates and booleans are refused (as Metabase's newer schema refuses every non-text): their text differs by engine.
    if (isTemporal(v.type) || isBoolean(v.type)) throw invalidQuery(`${clauseName} needs text, but ${this.describe(field)} is a ${v.type}.`);
    const s = isText(v.type) || v.type === 'type/*' ? v.sql : this.d.castToText(v.sql);
    const tests = values.map((value) => {
      const needle = typeof value === 'string' ? sql`${param(value, 'text')}` : this.value(value).sql;
      switch (name) {
        case 'starts-with':
          return this.d.startsWith(s, needle, caseSensitive);
        case 'ends-with':
          return this.d.endsWith(s, needle, caseSensitive);
        default:
          return this.d.contains(s, needle, caseSensitive);
      }
    });
    if (!negated) return tests.length === 1 ? tests[0] : sql`(${join(tests, ' OR ')})`;
    // "Doesn't contain any of the values": none matches; a NULL column (nothing to contain) is kept, as in Metabase.
    const none = tests.length === 1 ? sql`(NOT ${tests[0]})` : sql`(${join(tests.map((t) => sql`(NOT ${t})`), ' AND ')})`;
    return refersToColumn(field) ? sql`(${none} OR ${v.sql} IS NULL)` : none;
  }

  private timeInterval(args: unknown[]): Sql {
    const [f, n, unitArg, opts] = args;
    const operand = this.operand(f);
    if (!operand.temporal) throw invalidQuery('time-interval needs a date or time column.');
    const unit = unitArg === 'default' || unitArg === undefined ? 'day' : asUnit(unitArg);
    const includeCurrent = !!(opts && typeof opts === 'object' && (opts as Record<string, unknown>)['include-current']);
    let amount: number;
    if (n === 'current') amount = 0;
    else if (n === 'last') amount = -1;
    else if (n === 'next') amount = 1;
    else amount = Number(n);
    if (!Number.isFinite(amount)) throw invalidQuery(`Invalid time-interval amount: ${JSON.stringify(n)}`);
    return this.inWindow({ ...operand, unit: null }, relativeWindow(this.clock, amount, unit as Unit, includeCurrent));
  }

  // ----- aggregations --------------------------------------------------------------------------------------------

  aggregation(x: unknown): CompiledAggregation {
    if (!isClause(x)) throw invalidQuery(`Invalid aggregation: ${JSON.stringify(x)}`);
    const [name, ...args] = x;
    const d = this.d;
    const arg = () => this.value(args[0]);
    // sum, avg, stddev, var, median, percentile, cum-sum, sum-where take numbers (Metabase's schema refuses others).
    const numberArg = () => {
      const v = arg();
      if (isTemporal(v.type) || isText(v.type) || isBoolean(v.type)) throw invalidQuery(`${name} needs a number, but ${this.describe(args[0])} is a ${v.type}.`);
      return v;
    };
    const semanticOf = (t: Typed & { resolved?: { field: { semantic_type: string | null } | null } }) => {
      const s = t.resolved?.field?.semantic_type ?? null;
      return s === 'type/PK' || s === 'type/FK' ? null : s;
    };
    const named = (sqlText: Sql, type: string, semanticType: string | null, argDisplay = '', extra: Partial<CompiledAggregation> = {}): CompiledAggregation => ({
      sql: sqlText,
      type,
      semanticType,
      name: aggregationColumnName(name),
      displayName: aggregationDisplayName(name, argDisplay),
      ...extra,
    });
    this.aggregateDepth += 1;
    try {
      switch (name) {
        case 'aggregation-options': {
          const inner = this.aggregation(args[0]);
          const opts = (args[1] ?? {}) as Record<string, unknown>;
          return {
            ...inner,
            name: typeof opts.name === 'string' ? opts.name : inner.name,
            displayName: typeof opts['display-name'] === 'string' ? opts['display-name'] : typeof opts.name === 'string' ? opts.name : inner.displayName,
          };
        }
        case 'count':
        case 'cum-count': {
          const cumulative = name === 'cum-count' ? { cumulative: 'count' as const } : {};
          if (args[0] === undefined || args[0] === null) return named(raw('COUNT(*)'), 'type/BigInteger', 'type/Quantity', '', cumulative);
          return named(sql`COUNT(${arg().sql})`, 'type/BigInteger', 'type/Quantity', this.describe(args[0]), cumulative);
        }
        case 'sum':
        case 'cum-sum': {
          const v = numberArg();
          const type = isInteger(v.type) ? 'type/BigInteger' : isNumeric(v.type) ? v.type : 'type/Float';
          return named(sql`SUM(${v.sql})`, type, semanticOf(v), this.describe(args[0]), name === 'cum-sum' ? { cumulative: 'sum' } : {});
        }
        case 'avg': {
          const v = numberArg();
          return named(d.avg(v.sql), 'type/Float', semanticOf(v), this.describe(args[0]));
        }
        case 'min':
        case 'max': {
          const v = arg();
          const operand = isTemporal(v.type) ? this.stage.temporalOperand(v.sql, v.type) : v.sql;
          return named(sql`${raw(name.toUpperCase())}(${operand})`, v.type, semanticOf(v), this.describe(args[0]));
        }
        case 'distinct':
          return named(sql`COUNT(DISTINCT ${arg().sql})`, 'type/BigInteger', 'type/Quantity', this.describe(args[0]));
        case 'stddev':
          this.need('standard-deviation-aggregations', 'stddev');
          return named(d.stddev(d.castToFloat(numberArg().sql)), 'type/Float', null, this.describe(args[0]));
        case 'var':
          this.need('standard-deviation-aggregations', 'var');
          return named(d.variance(d.castToFloat(numberArg().sql)), 'type/Float', null, this.describe(args[0]));
        case 'median':
          this.need('percentile-aggregations', 'median');
          if (d.percentileAsWindow) return named(this.stage.windowPercentile(d.castToFloat(numberArg().sql), 0.5), 'type/Float', null, this.describe(args[0]));
          return named(d.median(d.castToFloat(numberArg().sql)), 'type/Float', null, this.describe(args[0]));
        case 'percentile': {
          this.need('percentile-aggregations', 'percentile');
          const p = Number(args[1]);
          if (!(p >= 0 && p <= 1)) throw invalidQuery('percentile needs a fraction between 0 and 1.');
          const x = numberArg().sql;
          const value = d.percentileAsWindow ? this.stage.windowPercentile(d.castToFloat(x), p) : d.percentile(d.castToFloat(x), sql`${param(p, 'float')}`);
          const agg = named(value, 'type/Float', null);
          return { ...agg, displayName: aggregationDisplayName('percentile', this.describe(args[0]), p) };
        }
        case 'count-where':
          return named(sql`COUNT(CASE WHEN ${this.condition(args[0])} THEN 1 END)`, 'type/BigInteger', 'type/Quantity');
        case 'sum-where': {
          const v = numberArg();
          const type = isInteger(v.type) ? 'type/BigInteger' : 'type/Float';
          return named(sql`SUM(CASE WHEN ${this.condition(args[1])} THEN ${v.sql} ELSE 0 END)`, type, semanticOf(v), this.describe(args[0]));
        }
        case 'distinct-where':
          return named(sql`COUNT(DISTINCT CASE WHEN ${this.condition(args[1])} THEN ${arg().sql} END)`, 'type/BigInteger', 'type/Quantity', this.describe(args[0]));
        case 'share':
          return named(d.divide(sql`SUM(CASE WHEN ${this.condition(args[0])} THEN 1 ELSE 0 END)`, raw('COUNT(*)')), 'type/Float', null);
        case 'metric':
          throw invalidQuery(`Unresolved metric ${String(args[0])}.`);
        case 'offset':
          throw unsupported('The offset window function is not supported yet.');
        default: {
          if (!containsAggregation(x)) throw invalidQuery(`Invalid aggregation: ${name}`);
          const v = this.value(x);
          return { sql: v.sql, type: isNumeric(v.type) ? v.type : 'type/Float', semanticType: null, name: 'expression', displayName: this.describe(x) };
        }
      }
    } finally {
      this.aggregateDepth -= 1;
    }
  }

  /** Human text of an expression, for aggregation display names ("Price × Quantity"). */
  describe(x: unknown): string {
    if (x === null || x === undefined) return '';
    if (typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean') return String(x);
    if (!isClause(x)) return JSON.stringify(x);
    const [name, ...args] = x;
    if (name === 'field') {
      try {
        return this.stage.resolveField(x as FieldRef).displayName;
      } catch {
        return String(args[0]);
      }
    }
    if (name === 'expression') return String(args[0]);
    if (name === 'aggregation-options') {
      const o = (args[1] ?? {}) as Record<string, unknown>;
      return String(o['display-name'] ?? o.name ?? this.describe(args[0]));
    }
    if (AGGREGATION_CLAUSES.has(name)) {
      if (name === 'percentile') return aggregationDisplayName(name, this.describe(args[0]), Number(args[1]));
      return aggregationDisplayName(name, this.describe(args[0]));
    }
    if (OPERATOR_SYMBOLS[name]) return args.map((a) => (isClause(a) && OPERATOR_SYMBOLS[a[0]] ? `(${this.describe(a)})` : this.describe(a))).join(` ${OPERATOR_SYMBOLS[name]} `);
    return `${name}(${args.map((a) => this.describe(a)).join(', ')})`;
  }

  // ----- coercions -----------------------------------------------------------------------------------------------

  /** A field's coercion strategy (UNIX timestamps, ISO-8601 text) applied to its column. */
  coerce(expr: Sql, strategy: string): Sql {
    const d = this.d;
    const epoch = sql`${param('1970-01-01T00:00:00.000', 'datetime')}`;
    switch (strategy) {
      case 'Coercion/UNIXSeconds->DateTime':
        return d.addInterval(epoch, expr, 'second');
      case 'Coercion/UNIXMilliSeconds->DateTime':
        return d.addInterval(epoch, expr, 'millisecond');
      case 'Coercion/UNIXMicroSeconds->DateTime':
        return d.addInterval(epoch, sql`(${expr} / 1000)`, 'millisecond');
      case 'Coercion/ISO8601->DateTime':
        return d.parseDatetime(expr);
      case 'Coercion/ISO8601->Date':
        return d.parseDate(expr);
      default:
        return expr;
    }
  }

  /** A time of day truncated to `unit` (millisecond … hour), still a time. */
  truncateTime(x: Sql, unit: string): Sql {
    if (!['millisecond', 'second', 'minute', 'hour'].includes(unit)) throw invalidQuery(`Unit ${unit} is not valid for a time column.`);
    return this.d.castToTime(this.d.truncBasic(this.d.timeAsDatetime(x), unit as 'hour'));
  }
}

/** Whether an operand reads a column (a field, an expression, or a clause over one) rather than being a literal. */
function refersToColumn(x: unknown): boolean {
  let found = false;
  walkClauses(x, (c) => {
    if (c[0] === 'field' || c[0] === 'expression') found = true;
  });
  return found;
}

function containsAggregation(x: unknown): boolean {
  if (!Array.isArray(x)) return false;
  if (isClause(x) && AGGREGATION_CLAUSES.has(x[0])) return true;
  return x.some(containsAggregation);
}

