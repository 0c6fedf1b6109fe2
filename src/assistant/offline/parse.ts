// A question in plain words → a Plan. First the structural phrases are read off the words — time windows ("in the
// last 30 days", "in 2025"), time grouping ("by month", "monthly"), ranking ("top 10", "which … the most"),
// comparisons ("over $100"), aggregation words ("how many", "average") —, then what remains is matched against the
// database's lexicon (longest phrase first), and the main table and every reference are decided from the context:
// the table counted or mentioned, the table holding the measure, what it reaches through its foreign keys.
// Anything that doesn't resolve is a CannotAnswer with the reason, never a guess.

import type { ColumnInfo, TableInfo } from '../metadata.js';
import { Lexicon, MAX_PHRASE, type Entry } from './lexicon.js';
import { CannotAnswer, isNumeric, isTemporal, type AggregationOp, type Filter, type Plan, type Ref } from './plan.js';
import { MONTHS, STOP_WORDS, stem, words } from './words.js';

interface Tok {
  raw: string;
  low: string;
  stem: string;
  used: boolean;
}

interface Mention {
  start: number;
  end: number;
  entries: Entry[];
  group: boolean;
  /** Preceded by not/except/excluding/without. */
  negated: boolean;
  /** Preceded by with/having (a column said to be present). */
  present: boolean;
}

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, fifteen: 15, twenty: 20, fifty: 50, hundred: 100 };
const UNITS: Record<string, string> = { minute: 'minute', hour: 'hour', day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year' };
const ADVERB_UNITS: Record<string, string> = { hourly: 'hour', daily: 'day', weekly: 'week', monthly: 'month', quarterly: 'quarter', yearly: 'year', annual: 'year', annually: 'year' };
const GROUP_WORDS = new Set(['by', 'per', 'each', 'every', 'across']);
/** "placed by customers": `by` after these names who did it, not a grouping. */
const PASSIVE_VERBS = new Set(['placed', 'made', 'written', 'created', 'bought', 'sold', 'submitted', 'paid', 'given', 'ordered', 'reviewed', 'left', 'purchased', 'done', 'sent', 'received']);
const AGG_WORDS: Record<string, AggregationOp> = {
  average: 'avg', avg: 'avg', mean: 'avg', sum: 'sum', total: 'sum', maximum: 'max', max: 'max', highest: 'max', largest: 'max', biggest: 'max',
  minimum: 'min', min: 'min', lowest: 'min', smallest: 'min', distinct: 'distinct', unique: 'distinct', different: 'distinct', count: 'count', median: 'median',
};
/** Questions the offline engine can't compute: said so, rather than answered with something else. */
const UNSUPPORTED = new Set([
  'percentage', 'percent', 'proportion', 'ratio', 'share', 'growth', 'change', 'difference', 'compare', 'compared', 'versus', 'vs', 'weekend', 'weekends',
  'weekday', 'weekdays', 'correlation', 'trend', 'forecast', 'predict', 'why', 'cumulative', 'running', 'percentile', 'stddev', 'deviation', 'variance',
]);
/** Words after which an unknown word is a filter value we couldn't find ("orders from Texas"). */
const VALUE_PREPOSITIONS = new Set(['from', 'in', 'for', 'at', 'named', 'called', 'like']);
const DESC_WORDS = new Set(['most', 'highest', 'largest', 'biggest', 'best', 'top', 'greatest', 'expensive', 'priciest', 'pricey']);
const ASC_WORDS = new Set(['least', 'lowest', 'smallest', 'worst', 'bottom', 'fewest', 'cheapest', 'cheap', 'cheaper']);
const COMPARATORS: Array<[string[], '>' | '>=' | '<' | '<=' | '=']> = [
  [['more', 'than'], '>'], [['greater', 'than'], '>'], [['higher', 'than'], '>'], [['larger', 'than'], '>'], [['bigger', 'than'], '>'], [['over'], '>'], [['above'], '>'], [['exceeding'], '>'],
  [['at', 'least'], '>='], [['less', 'than'], '<'], [['fewer', 'than'], '<'], [['lower', 'than'], '<'], [['smaller', 'than'], '<'], [['under'], '<'], [['below'], '<'],
  [['at', 'most'], '<='], [['exactly'], '='], [['of'], '='], [['equal', 'to'], '='], [['equals'], '='], [['>='], '>='], [['<='], '<='], [['>'], '>'], [['<'], '<'], [['='], '='],
];

function numberOf(tok: Tok | undefined): number | null {
  if (!tok) return null;
  if (/^\d+(\.\d+)?$/.test(tok.low.replace(/,/g, ''))) return Number(tok.low.replace(/,/g, ''));
  return NUMBER_WORDS[tok.low] ?? null;
}

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

export class QuestionParser {
  private readonly toks: Tok[];
  private timeFilter: { at: number; make: (ref: Ref) => Filter } | null = null;
  private timeUnit: { at: number; unit: string } | null = null;
  private rank: { at: number; n: number | null; direction: 'asc' | 'desc'; which: boolean } | null = null;
  private comparisons: Array<{ at: number; op: '>' | '>=' | '<' | '<=' | '='; value: number; to?: number; money: boolean; after: number }> = [];
  private aggWords: Array<{ at: number; op: AggregationOp; word: string }> = [];
  private mentions: Mention[] = [];

  constructor(
    private readonly lexicon: Lexicon,
    readonly question: string,
  ) {
    this.toks = words(question).map((raw) => ({ raw, low: raw.toLowerCase(), stem: stem(raw), used: false }));
  }

  private low(i: number): string {
    return this.toks[i]?.low ?? '';
  }

  private use(from: number, to: number): void {
    for (let i = from; i < to && i < this.toks.length; i++) this.toks[i].used = true;
  }

  private is(i: number, ...options: string[]): boolean {
    return options.includes(this.low(i));
  }

  parse(): Plan {
    this.readTime();
    this.readRanking();
    this.readComparisons();
    this.readAggregationWords();
    this.readMentions();
    return this.decide();
  }

  // ----- structural phrases ------------------------------------------------------------------------------------

  private readTime(): void {
    const t = this.toks;
    for (let i = 0; i < t.length; i++) {
      const w = this.low(i);
      // last/past/previous [N] unit(s)
      if (['last', 'past', 'previous', 'recent'].includes(w)) {
        const n = numberOf(t[i + 1]);
        const unitAt = n === null ? i + 1 : i + 2;
        const unit = UNITS[t[unitAt]?.stem ?? ''];
        if (unit) {
          const count = n ?? 1;
          this.timeFilter = { at: i, make: (ref) => ({ kind: 'interval', ref, n: -count, unit }) };
          this.use(i - (this.is(i - 1, 'the') ? 1 : 0) - (this.is(i - 2, 'in', 'over', 'during', 'within') && this.is(i - 1, 'the') ? 1 : 0), unitAt + 1);
          continue;
        }
      }
      if ((w === 'this' || w === 'current') && UNITS[t[i + 1]?.stem ?? '']) {
        const unit = UNITS[t[i + 1].stem];
        this.timeFilter = { at: i, make: (ref) => ({ kind: 'interval', ref, n: 'current', unit }) };
        this.use(i, i + 2);
        continue;
      }
      if (w === 'today' || w === 'yesterday') {
        const n = w === 'today' ? 'current' : -1;
        this.timeFilter = { at: i, make: (ref) => ({ kind: 'interval', ref, n, unit: 'day' }) };
        this.use(i, i + 1);
        continue;
      }
      // [in|during] [month] YYYY, before/after/since YYYY
      const year = /^(19|20)\d\d$/.test(w) ? Number(w) : null;
      if (year !== null) {
        const monthIndex = MONTHS.indexOf(this.low(i - 1));
        const prep = monthIndex >= 0 ? i - 2 : i - 1;
        const word = this.low(prep);
        let from = monthIndex >= 0 ? `${year}-${pad(monthIndex + 1)}-01` : `${year}-01-01`;
        const to = monthIndex >= 0 ? `${year}-${pad(monthIndex + 1)}-${pad(lastDay(year, monthIndex + 1))}` : `${year}-12-31`;
        let op: 'between' | '<' | '>' | '>=' = 'between';
        if (word === 'before') op = '<';
        else if (word === 'after') {
          op = '>';
          from = to;
        } else if (word === 'since') op = '>=';
        this.timeFilter = { at: prep, make: (ref) => ({ kind: 'dates', ref, op, from, ...(op === 'between' ? { to } : {}) }) };
        this.use(['in', 'during', 'before', 'after', 'since', 'of', 'for'].includes(word) ? prep : prep + 1, i + 1);
        continue;
      }
      // by/per/each unit, monthly, over time
      if (GROUP_WORDS.has(w) && UNITS[t[i + 1]?.stem ?? '']) {
        this.timeUnit = { at: i, unit: UNITS[t[i + 1].stem] };
        this.use(i, i + 2);
        continue;
      }
      if (ADVERB_UNITS[w]) {
        this.timeUnit = { at: i, unit: ADVERB_UNITS[w] };
        this.use(i, i + 1);
        continue;
      }
      if (w === 'over' && this.low(i + 1) === 'time') {
        this.timeUnit = { at: i, unit: 'month' };
        this.use(i, i + 2);
      }
    }
  }

  private readRanking(): void {
    const t = this.toks;
    for (let i = 0; i < t.length; i++) {
      if (t[i].used) continue;
      const w = this.low(i);
      if (w === 'top' || w === 'bottom') {
        const n = numberOf(t[i + 1]);
        this.rank = { at: i, n, direction: w === 'top' ? 'desc' : 'asc', which: false };
        this.use(i, n === null ? i + 1 : i + 2);
        return;
      }
      const n = numberOf(t[i]);
      if (n !== null && (DESC_WORDS.has(this.low(i + 1)) || ASC_WORDS.has(this.low(i + 1))) && !/^(19|20)\d\d$/.test(w)) {
        this.rank = { at: i, n, direction: DESC_WORDS.has(this.low(i + 1)) ? 'desc' : 'asc', which: false };
        // "10 most expensive": the adjective names the measure, keep it for the lexicon
        this.use(i, this.is(i + 1, 'most', 'least', 'top', 'bottom') ? i + 2 : i + 1);
        return;
      }
    }
    // which/what X has the most/highest …: one row
    const which = t.findIndex((x) => x.low === 'which' || x.low === 'what');
    const superlative = t.findIndex((x, i) => !x.used && (DESC_WORDS.has(x.low) || ASC_WORDS.has(x.low)) && i > which);
    if (which >= 0 && superlative >= 0) {
      const word = this.low(superlative);
      this.rank = { at: superlative, n: 1, direction: DESC_WORDS.has(word) ? 'desc' : 'asc', which: true };
      if (word === 'most' || word === 'least' || word === 'fewest') this.use(superlative, superlative + 1);
    }
  }

  private readComparisons(): void {
    const t = this.toks;
    for (let i = 0; i < t.length; i++) {
      if (t[i].used) continue;
      if (this.low(i) === 'between') {
        let j = i + 1;
        const money = this.low(j) === '$';
        if (money) j += 1;
        const a = numberOf(t[j]);
        let k = j + 1;
        if (this.low(k) === 'and') k += 1;
        if (this.low(k) === '$') k += 1;
        const b = numberOf(t[k]);
        if (a !== null && b !== null) {
          this.comparisons.push({ at: i, op: '=', value: a, to: b, money, after: k + 1 });
          this.use(i, k + 1);
        }
        continue;
      }
      for (const [phrase, op] of COMPARATORS) {
        if (!phrase.every((p, k) => this.low(i + k) === p)) continue;
        let j = i + phrase.length;
        const money = this.low(j) === '$';
        if (money) j += 1;
        const value = numberOf(t[j]);
        if (value === null) continue;
        this.comparisons.push({ at: i, op, value, money, after: j + 1 });
        this.use(i, j + 1);
        break;
      }
    }
  }

  private readAggregationWords(): void {
    const t = this.toks;
    for (let i = 0; i < t.length; i++) {
      if (t[i].used) continue;
      const w = this.low(i);
      if (w === 'how' && this.low(i + 1) === 'many') {
        this.aggWords.push({ at: i, op: 'count', word: 'how many' });
        this.use(i, i + 2);
      } else if ((w === 'number' || w === 'count' || w === '#') && this.low(i + 1) === 'of') {
        this.aggWords.push({ at: i, op: 'count', word: 'number of' });
        this.use(i, i + 2);
        if (this.aggWords.length > 1 && this.aggWords[this.aggWords.length - 2].word === 'total') this.aggWords.splice(this.aggWords.length - 2, 1);
      } else if (AGG_WORDS[w] && !(w === 'highest' || w === 'largest' || w === 'biggest' || w === 'lowest' || w === 'smallest') ) {
        this.aggWords.push({ at: i, op: AGG_WORDS[w], word: w });
        // "total" may also be a column; the lexicon still sees it
        if (w !== 'total') this.use(i, i + (this.low(i + 1) === 'of' ? 2 : 1));
      } else if ((w === 'highest' || w === 'largest' || w === 'biggest' || w === 'lowest' || w === 'smallest') && !this.rank) {
        this.aggWords.push({ at: i, op: AGG_WORDS[w], word: w });
        this.use(i, i + 1);
      }
    }
  }

  private readMentions(): void {
    const t = this.toks;
    let i = 0;
    while (i < t.length) {
      if (t[i].used) {
        i += 1;
        continue;
      }
      let found: Mention | null = null;
      for (let len = Math.min(MAX_PHRASE, t.length - i); len >= 1; len--) {
        const span = t.slice(i, i + len);
        if (span.some((x) => x.used)) continue;
        if (len === 1 && STOP_WORDS.has(span[0].low) && span[0].low !== 'total') continue;
        let entries = this.lexicon.lookup(span.map((x) => x.stem));
        // two-letter values (state codes) only when written as stored
        entries = entries.filter((e) => e.kind !== 'value' || e.value.length > 2 || span.map((x) => x.raw).join(' ') === e.value);
        if (!entries.length) continue;
        found = { start: i, end: i + len, entries, group: false, negated: false, present: false };
        break;
      }
      if (!found) {
        i += 1;
        continue;
      }
      let k = found.start - 1;
      while (k >= 0 && ['the', 'a', 'an', 'their', 'its'].includes(this.low(k))) k -= 1;
      const before = this.low(k);
      const previous = this.mentions[this.mentions.length - 1];
      found.group = (GROUP_WORDS.has(before) && !(before === 'by' && PASSIVE_VERBS.has(this.low(k - 1)) && found.entries.some((e) => e.kind === 'table'))) || (before === 'and' && previous?.group === true && previous.end === k);
      found.negated = ['not', 'except', 'excluding', 'without', 'no'].includes(before);
      found.present = ['with', 'having', 'has', 'have', 'had'].includes(before) || (['no', 'without'].includes(before) && ['with', 'having', 'has', 'have', 'had', 'without'].includes(this.low(k - 1)));
      this.mentions.push(found);
      i = found.end;
    }
  }

  // ----- deciding ----------------------------------------------------------------------------------------------

  private reach(main: TableInfo, table: TableInfo): ColumnInfo | null | undefined {
    if (table === main) return null;
    const fk = main.columns.find((c) => c.fkTargetFieldId !== null && table.columns.some((x) => x.id === c.fkTargetFieldId));
    return fk ?? undefined;
  }

  /** The entry of a mention as the main table reaches it (own table first, then through a foreign key). */
  private refOf(main: TableInfo, mention: Mention, kinds: Array<Entry['kind']> = ['column', 'value']): { entry: Entry; ref: Ref } | null {
    const ranked = [...mention.entries].filter((e) => kinds.includes(e.kind) && e.kind !== 'table').sort((a, b) => b.score - a.score);
    for (const pass of ['own', 'linked'] as const) {
      for (const e of ranked) {
        if (e.kind === 'table') continue;
        const via = this.reach(main, e.table);
        if (via === undefined) continue;
        if ((pass === 'own') !== (via === null)) continue;
        return { entry: e, ref: { table: e.table, column: e.column, via } };
      }
    }
    return null;
  }

  private mainDate(table: TableInfo): Ref {
    const temporal = table.columns.filter(isTemporal);
    const column = temporal.find((c) => /created/i.test(c.name)) ?? temporal.find((c) => /date|time/i.test(c.name)) ?? temporal[0];
    if (!column) throw new CannotAnswer(`${table.displayName} has no date column to apply a time period to.`);
    return { table, column, via: null };
  }

  private nameRef(main: TableInfo, table: TableInfo): Ref {
    const via = this.reach(main, table);
    if (via === undefined) throw new CannotAnswer(`${table.displayName} isn't linked to ${main.displayName}.`);
    const column =
      table.columns.find((c) => c.semanticType === 'type/Name' || c.semanticType === 'type/Title') ??
      table.columns.find((c) => /^(name|title)$/i.test(c.name)) ??
      (via ? via : table.columns.find((c) => c.semanticType === 'type/PK'));
    if (!column) throw new CannotAnswer(`${table.displayName} has no name column to group by.`);
    return column === via ? { table: main, column: via, via: null } : { table, column, via: via ?? null };
  }

  /** A grouping word followed by something the database doesn't have ("by planet"): never drop it silently. */
  private checkGroupings(): void {
    for (let i = 0; i < this.toks.length; i++) {
      if (this.toks[i].used || !GROUP_WORDS.has(this.low(i))) continue;
      let j = i + 1;
      while (['the', 'a', 'an'].includes(this.low(j))) j += 1;
      if (j >= this.toks.length || this.toks[j].used) continue;
      if (!this.mentions.some((m) => m.start <= j && j < m.end)) throw new CannotAnswer(`Nothing in this database is called "${this.toks[j].raw}".`);
    }
  }

  /** Words the question leans on that nothing here resolves: a value we couldn't find, or a kind of question we can't compute. */
  private checkUnknownWords(): void {
    const covered = (i: number) => this.toks[i].used || this.mentions.some((m) => m.start <= i && i < m.end);
    for (let i = 0; i < this.toks.length; i++) {
      const t = this.toks[i];
      if (UNSUPPORTED.has(t.low)) throw new CannotAnswer(`The offline assistant can't answer "${t.raw}" questions.`);
      if (covered(i) || STOP_WORDS.has(t.low) || numberOf(t) !== null) continue;
      let k = i - 1;
      while (['the', 'a', 'an'].includes(this.low(k))) k -= 1;
      const capitalized = i > 0 && /^[A-Z]/.test(t.raw) && !this.toks[i - 1].raw.endsWith('.');
      if (capitalized || (VALUE_PREPOSITIONS.has(this.low(k)) && !this.toks[k].used)) throw new CannotAnswer(`Nothing in this database matches "${t.raw}".`);
    }
  }

  private decide(): Plan {
    this.checkGroupings();
    this.checkUnknownWords();
    const tables = this.mentions.filter((m) => m.entries.some((e) => e.kind === 'table'));
    const tableOf = (m: Mention) => [...m.entries].filter((e) => e.kind === 'table').sort((a, b) => b.score - a.score)[0]?.table;
    const countWord = this.aggWords.find((a) => a.op === 'count');
    const measureWord = this.aggWords.find((a) => a.op !== 'count' && !(a.word === 'total' && countWord !== undefined && countWord.at < a.at));

    // the measure: a numeric column right after an aggregation word, or the one a ranking sorts by
    let measure: Mention | null = null;
    let op: AggregationOp | null = null;
    if (measureWord) {
      const numeric = (x: Mention) => x.entries.some((e) => e.kind === 'column' && isNumeric(e.column));
      const near = this.mentions.filter((x) => x.start >= measureWord.at && x.start <= measureWord.at + 4 && numeric(x));
      // "total revenue": the word is the sum, not the TOTAL column, when another number follows it
      const m = measureWord.word === 'total' && near.length > 1 && near[0].start === measureWord.at ? near[1] : near[0];
      const next = this.mentions.find((x) => x.start > measureWord.at);
      if (measureWord.word === 'total' && next && next.start === measureWord.at + 1 && next.entries.some((e) => e.kind === 'table') && !next.entries.some((e) => e.kind === 'column')) {
        op = 'count';
      } else if (m) {
        measure = m;
        op = measureWord.op;
      } else if (measureWord.op === 'distinct') {
        op = 'distinct';
        measure = this.mentions.find((x) => x.start > measureWord.at && x.entries.some((e) => e.kind === 'column')) ?? null;
      } else if (measureWord.word !== 'total') {
        throw new CannotAnswer(`There's no number to take the ${measureWord.word} of.`);
      }
    }
    // "total" that is the column itself, not a sum of the next one
    const drop = measure && measureWord?.word === 'total' && measure.start > measureWord.at ? this.mentions.find((x) => x.start === measureWord.at) : null;
    if (drop) this.mentions.splice(this.mentions.indexOf(drop), 1);
    if (!op && countWord) op = 'count';

    const rankBy = this.rank ? this.mentions.find((m) => m.start > this.rank!.at && m.entries.some((e) => e.kind === 'column' && isNumeric(e.column)) && (this.low(m.start - 1) === 'by' || this.rank!.n !== null || this.rank!.which)) : null;
    if (!measure && rankBy && !rankBy.group) measure = rankBy;
    if (!measure && this.rank && !this.rank.which) {
      const byMeasure = this.mentions.find((m) => m.group && m.entries.some((e) => e.kind === 'column' && isNumeric(e.column)));
      if (byMeasure) {
        byMeasure.group = false;
        measure = byMeasure;
      }
    }
    // a lone money/quantity column with nothing else asked ("revenue in 2025"): its sum
    if (!measure && !op) {
      const compared = (m: Mention) => this.comparisons.some((c) => c.at >= m.end && c.at <= m.end + 3);
      measure = this.mentions.find((m) => !m.group && !compared(m) && !m.present && m.entries.some((e) => e.kind === 'column' && isNumeric(e.column)) && !m.entries.some((e) => e.kind === 'table')) ?? null;
    }

    // "what was the highest order total?": with nothing to group by, a superlative is the maximum (or minimum)
    if (this.rank?.which && measure && !op && !this.timeUnit && !this.mentions.some((m) => m !== measure && (m.group || m.entries.some((e) => e.kind === 'column' && !isNumeric(e.column) && !m.entries.some((x) => x.kind === 'value'))))) {
      op = this.rank.direction === 'desc' ? 'max' : 'min';
      this.rank = null;
    }

    // the main table
    let main: TableInfo | undefined;
    if (countWord) {
      const counted = this.mentions.find((m) => m.start > countWord.at && m.entries.some((e) => e.kind === 'table'));
      const countedColumn = this.mentions.find((m) => m.start > countWord.at);
      if (counted && counted === countedColumn) main = tableOf(counted);
      else if (
        countedColumn && countedColumn.entries.some((e) => e.kind === 'column') && !countedColumn.group && !measure &&
        // "how many events were button clicks": rows with that value, not the column's distinct values
        !this.mentions.some((m) => m.entries.some((e) => e.kind === 'value' && countedColumn.entries.some((c) => c.kind === 'column' && c.column === e.column)))
      ) {
        // "how many categories": distinct values of a column
        op = 'distinct';
        measure = countedColumn;
      } else if (counted) main = tableOf(counted);
    }
    if (!main && measure) {
      const measureTables = measure.entries.filter((e) => e.kind === 'column').map((e) => e.table);
      main = tables.map(tableOf).find((t) => t && measureTables.includes(t));
      if (!main) {
        const others = this.mentions.filter((m) => m !== measure);
        const score = (t: TableInfo) =>
          others.reduce((sum, m) => sum + (m.entries.some((e) => e.table === t) ? 2 : m.entries.some((e) => this.reach(t, e.table) !== undefined) ? 1 : 0), 0) +
          Math.max(...measure!.entries.filter((e) => e.table === t).map((e) => e.score)) / 10;
        main = [...new Set(measureTables)].sort((a, b) => score(b) - score(a))[0];
      }
    }
    if (!main && tables.length) main = tableOf(tables[0]);
    if (!main && this.mentions.length) {
      const candidates = [...new Set(this.mentions.flatMap((m) => m.entries.map((e) => e.table)))];
      const score = (t: TableInfo) => this.mentions.reduce((sum, m) => sum + (m.entries.some((e) => e.table === t) ? 2 : m.entries.some((e) => this.reach(t, e.table) !== undefined) ? 1 : 0), 0);
      main = candidates.sort((a, b) => score(b) - score(a))[0];
    }
    if (!main) throw new CannotAnswer('No table or column of this database matches the question.');

    const plan: Plan = { table: main, aggregation: null, breakouts: [], filters: [], order: null, limit: null };
    let measureRef: Ref | null = null;
    if (measure) {
      const resolved = this.refOf(main, measure, ['column']);
      if (!resolved) throw new CannotAnswer(`${this.text(measure)} isn't a column of ${main.displayName} or of a table it links to.`);
      measureRef = resolved.ref;
      // "the 10 most expensive products": rows sorted by the measure, unless something is there to group by
      const groupable = this.mentions.filter(
        (m) => m !== measure && (m.group || m.entries.some((e) => e.kind === 'table' && e.table !== measureRef!.table) || (m.entries.some((e) => e.kind === 'column' && !isNumeric(e.column)) && !m.entries.some((e) => e.kind === 'value'))),
      );
      const ranksRows = this.rank !== null && measure === rankBy && !this.timeUnit && !this.rank.which && groupable.length === 0;
      if (!op && !ranksRows) op = /rating|score|price|percent|rate/i.test(measureRef.column.name) ? 'avg' : 'sum';
    }

    // everything else mentioned
    const groupRefs: Ref[] = [];
    const values = new Map<ColumnInfo, { ref: Ref; values: string[]; negate: boolean }>();
    const columnsSeen: Array<{ at: number; ref: Ref }> = [];
    for (const m of this.mentions) {
      if (m === measure) {
        columnsSeen.push({ at: m.start, ref: measureRef! });
        continue;
      }
      const table = tableOf(m);
      const valueOrColumn = this.refOf(main, m);
      if (table && (!valueOrColumn || m.entries.find((e) => e.kind === 'table')!.score >= valueOrColumn.entry.score)) {
        if (table === main) continue;
        const entity = m.group || (this.rank !== null && this.reach(main, table) !== undefined);
        if (entity) groupRefs.push(this.nameRef(main, table));
        continue;
      }
      if (!valueOrColumn) {
        // a synonym-only match elsewhere in the database ("type" for a category column) is not what was meant
        if (Math.max(...m.entries.map((e) => e.score)) < 3) continue;
        throw new CannotAnswer(`${this.text(m)} isn't in ${main.displayName} or in a table it links to.`);
      }
      const { entry, ref } = valueOrColumn;
      if (entry.kind === 'value' && !m.group) {
        const key = values.get(ref.column) ?? { ref, values: [], negate: m.negated };
        key.values.push(entry.value);
        values.set(ref.column, key);
      } else if (m.group || (this.rank && !this.rank.which && isNumeric(ref.column) === false && !m.present) || (this.rank?.which && m.start < this.rank.at)) {
        groupRefs.push(ref);
      } else if (m.present && !isTemporal(ref.column) && !this.comparisons.some((c) => c.at >= m.end && c.at <= m.end + 3)) {
        plan.filters.push({ kind: 'present', ref, negate: m.negated });
      } else {
        columnsSeen.push({ at: m.start, ref });
      }
    }
    for (const v of values.values()) plan.filters.push({ kind: 'equals', ref: v.ref, values: v.values, negate: v.negate });

    // comparisons apply to the nearest numeric column said before them, else the money column of the table
    for (const c of this.comparisons) {
      const near = [...columnsSeen].reverse().find((x) => x.at < c.at && isNumeric(x.ref.column));
      const following = this.mentions.find((m) => m.start === c.after);
      const followingRef = following ? this.refOf(main, following, ['column']) : null;
      const ref = near?.ref ?? (followingRef && isNumeric(followingRef.ref.column) ? followingRef.ref : null) ?? this.moneyColumn(main);
      if (c.to !== undefined) plan.filters.push({ kind: 'between-numbers', ref, from: c.value, to: c.to });
      else plan.filters.push({ kind: 'compare', ref, op: c.op, value: c.value });
    }

    if (this.timeFilter) {
      const temporal = [...columnsSeen].reverse().find((x) => isTemporal(x.ref.column));
      plan.filters.push(this.timeFilter.make(temporal?.ref ?? this.mainDate(main)));
    }
    if (this.timeUnit) {
      const temporal = groupRefs.find((r) => isTemporal(r.column)) ?? columnsSeen.find((x) => isTemporal(x.ref.column))?.ref ?? this.mainDate(main);
      plan.breakouts.push({ ref: temporal, unit: this.timeUnit.unit });
    }
    for (const ref of groupRefs) {
      if (plan.breakouts.some((b) => b.ref.column === ref.column)) continue;
      plan.breakouts.push({ ref, unit: isTemporal(ref.column) ? 'month' : null });
    }

    if (op === 'count' || (!op && plan.breakouts.length)) plan.aggregation = { op: 'count', ref: null };
    else if (op) {
      if (!measureRef) throw new CannotAnswer('There is no column to aggregate.');
      plan.aggregation = { op, ref: measureRef };
    }
    if (this.rank) {
      plan.limit = this.rank.n ?? 10;
      if (plan.aggregation && plan.breakouts.length) plan.order = { target: 'aggregation', direction: this.rank.direction };
      else if (!plan.aggregation && measureRef) plan.order = { target: measureRef, direction: this.rank.direction };
      else if (!plan.aggregation) throw new CannotAnswer('It is not clear what to rank by.');
      else plan.limit = null;
    }
    if (!plan.aggregation && !plan.filters.length && !plan.breakouts.length && !this.rank && !this.mentions.length) {
      throw new CannotAnswer('No table or column of this database matches the question.');
    }
    return plan;
  }

  private moneyColumn(table: TableInfo): Ref {
    const numeric = table.columns.filter(isNumeric);
    const column = numeric.find((c) => /^(total|amount|revenue|payment|price|sales)$/i.test(c.name)) ?? numeric.find((c) => c.semanticType === 'type/Currency') ?? numeric[0];
    if (!column) throw new CannotAnswer(`${table.displayName} has no number to compare.`);
    return { table, column, via: null };
  }

  private text(m: Mention): string {
    return `"${this.toks.slice(m.start, m.end).map((t) => t.raw).join(' ')}"`;
  }
}

/** Unknown words the question leans on: content words no phrase matched (for the "can't answer" message). */
export function parsePlan(lexicon: Lexicon, question: string): Plan {
  return new QuestionParser(lexicon, question).parse();
}
