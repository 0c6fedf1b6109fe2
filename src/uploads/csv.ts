// Reading an uploaded CSV: strict UTF-8 (with or without a BOM), the separator guessed like Metabase does
// (comma, semicolon, tab or pipe — whichever splits the first lines most consistently), quoted fields, a header row;
// binary files (NUL bytes) and broken quoting are refused with a message saying what and where.

import { parse } from 'csv-parse/sync';
import { badRequest } from '../http/errors.js';

export interface ParsedCsv {
  header: string[];
  rows: string[][];
}

const SEPARATORS = [',', ';', '\t', '|'];
const INFERENCE_LINES = 10;

/** Decodes bytes as UTF-8, refusing anything else (a clear 400 rather than mojibake in the table). */
export function decodeUtf8(bytes: Buffer): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    throw badRequest('The CSV file must be UTF-8 encoded. Save it as "CSV UTF-8" and upload it again.');
  }
}

function tryParse(text: string, delimiter: string, toLine?: number): string[][] | null {
  try {
    return parse(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: false,
      skip_empty_lines: true,
      bom: true,
      ...(toLine ? { to_line: toLine } : {}),
    }) as string[][];
  } catch {
    return null;
  }
}

/**
 * Picks the separator: splits the header, same column count on every sampled line, no line wider than the header,
 * most columns. Null when the sampled lines don't parse with any of them (broken quoting: `parseCsv` says where).
 */
export function inferSeparator(text: string): string | null {
  const scored = SEPARATORS.map((sep, order) => {
    const rows = tryParse(text, sep, INFERENCE_LINES);
    if (!rows || rows.length === 0) return null;
    const [header, ...data] = rows.map((r) => r.length);
    return {
      sep,
      key: [header > 1 ? 1 : 0, data.every((n) => n === header) ? 1 : 0, data.some((n) => n > header) ? 0 : 1, Math.max(0, ...data), header, -order],
    };
  }).filter((x): x is { sep: string; key: number[] } => x !== null);
  if (scored.length === 0) return null;
  scored.sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return b.key[i] - a.key[i];
    return 0;
  });
  return scored[0].sep;
}

/** The line (1-based) where the record being read when csv-parse failed starts. */
function recordLine(text: string, error: { bytes_records?: number }): number {
  const consumed = Buffer.from(text, 'utf8').subarray(0, error.bytes_records ?? 0).toString('utf8');
  return consumed.split('\n').length;
}

/** csv-parse's failures in words a person who edits the file can act on. */
function unreadable(text: string, error: unknown): Error {
  const e = error as { code?: string; lines?: number; bytes_records?: number; message?: string };
  switch (e.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return badRequest(`The CSV file has a quoted value that is never closed: the quote opens in the row starting on line ${recordLine(text, e)}.`);
    case 'CSV_INVALID_CLOSING_QUOTE':
      return badRequest(
        `The CSV file has a stray quote after a quoted value on line ${e.lines}: inside a quoted value, write a quote twice ("").`,
      );
    case 'INVALID_OPENING_QUOTE':
      return badRequest(`The CSV file has a quote inside an unquoted value on line ${e.lines}: quote the whole value and write the quote twice ("").`);
    default:
      return badRequest(`The CSV file could not be read: ${e.message ?? String(error)}`);
  }
}

export function parseCsv(bytes: Buffer, filename: string): ParsedCsv {
  const text = decodeUtf8(bytes);
  // NUL characters don't occur in text files (and PostgreSQL can't store them): this is a binary file.
  if (text.includes('\u0000')) throw badRequest('The file contains NUL bytes: it looks like a binary file, not CSV text.');
  if (text.trim() === '') throw badRequest('The CSV file is empty.');
  const separator = /\.tsv$/i.test(filename) ? '\t' : inferSeparator(text) ?? ',';
  let records: string[][];
  try {
    records = parse(text, { delimiter: separator, relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (error) {
    throw unreadable(text, error);
  }
  const [header, ...rows] = records;
  if (!header || header.length === 0) throw badRequest('The CSV file has no header row.');
  for (const [i, row] of rows.entries()) {
    if (row.length > header.length) {
      throw badRequest(`Row ${i + 2} of the CSV file has ${row.length} values but the header has ${header.length} columns.`);
    }
  }
  return { header, rows: rows.map((r) => (r.length < header.length ? [...r, ...Array(header.length - r.length).fill('')] : r)) };
}
