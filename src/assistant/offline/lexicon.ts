// The phrases a question may use for the tables, columns and values of a database: names and display names
// (plurals folded), the same with everyday synonyms, columns qualified by their table ("product category",
// "customer state"), and the stored values of list columns ("Widget", "Twitter"). A phrase is a list of stems;
// several things may share one (CREATED_AT in every table), and the parser decides with the question's context.

import type { ColumnInfo, DatabaseInfo, TableInfo } from '../metadata.js';
import { stem, synonymsOf, words } from './words.js';

export type Entry =
  | { kind: 'table'; table: TableInfo; score: number }
  | { kind: 'column'; table: TableInfo; column: ColumnInfo; score: number }
  | { kind: 'value'; table: TableInfo; column: ColumnInfo; value: string; score: number };

export const MAX_PHRASE = 4;

const stems = (text: string) => words(text).map(stem);

/** The phrase with each of its words replaced, one at a time, by its synonyms. */
function variants(phrase: string[]): string[][] {
  const out: string[][] = [];
  phrase.forEach((w, i) => {
    for (const s of synonymsOf(w)) out.push([...phrase.slice(0, i), s, ...phrase.slice(i + 1)]);
  });
  return out;
}

export class Lexicon {
  private readonly phrases = new Map<string, Entry[]>();

  constructor(readonly info: DatabaseInfo) {
    for (const table of info.tables) this.addTable(table);
  }

  private add(phrase: string[], entry: Entry): void {
    if (!phrase.length || phrase.length > MAX_PHRASE) return;
    const key = phrase.join(' ');
    const list = this.phrases.get(key) ?? [];
    const same = list.find((e) => e.kind === entry.kind && e.table === entry.table && ('column' in e ? e.column : null) === ('column' in entry ? entry.column : null) && ('value' in e ? e.value : null) === ('value' in entry ? entry.value : null));
    if (same) same.score = Math.max(same.score, entry.score);
    else list.push(entry);
    this.phrases.set(key, list);
  }

  private addNamed(names: string[][], entry: (score: number) => Entry): void {
    for (const phrase of names) {
      this.add(phrase, entry(3));
      for (const v of variants(phrase)) this.add(v, entry(2));
    }
  }

  private addTable(table: TableInfo): void {
    const tableNames = uniquePhrases([stems(table.name), stems(table.displayName)]);
    this.addNamed(tableNames, (score) => ({ kind: 'table', table, score }));
    for (const column of table.columns) {
      const isKey = column.semanticType === 'type/PK';
      const own = uniquePhrases([stems(column.name), stems(column.displayName)]);
      // a bare "id" means nothing without its table
      if (!isKey) this.addNamed(own, (score) => ({ kind: 'column', table, column, score }));
      for (const t of tableNames) {
        for (const c of own) if (t.length + c.length <= MAX_PHRASE && !startsWith(c, t)) this.addNamed([[...t, ...c]], (score) => ({ kind: 'column', table, column, score: score + 0.5 }));
      }
      for (const value of column.values ?? []) {
        const phrase = stems(value);
        if (phrase.length && value.length >= 2) this.add(phrase, { kind: 'value', table, column, value, score: value.length <= 2 ? 1 : 2.5 });
      }
    }
  }

  /** Entries for the stems of a span of the question. */
  lookup(phrase: string[]): Entry[] {
    return this.phrases.get(phrase.join(' ')) ?? [];
  }
}

function startsWith(a: string[], b: string[]): boolean {
  return b.length <= a.length && b.every((w, i) => a[i] === w);
}

function uniquePhrases(list: string[][]): string[][] {
  const seen = new Set<string>();
  return list.filter((p) => p.length && !seen.has(p.join(' ')) && seen.add(p.join(' ')));
}
