// What every engine can run, checked before anything compiles a query (by the validate stage, and again by the
// resolve stage once saved questions and segments are part of it):
//   - clauses nest at most MAX_CLAUSE_DEPTH levels, expression references expanded (the engines' own limits are a
//     few hundred levels: MySQL's thread stack, SQLite's and DuckDB's expression depth of 1000);
//   - a query holds at most MAX_CLAUSES clauses once references are expanded (expressions that use each other twice
//     over double at every step: thirty of them would be a billion clauses);
//   - stages (source queries, joined queries) nest at most MAX_STAGE_DEPTH deep (MySQL stops at 63 nested SELECTs);
//   - names that become SQL identifiers and native SQL text hold no NUL character, which would end the statement's
//     text on the engine (SQLite, DuckDB) or break its protocol (PostgreSQL).
// Every walk here is iterative, so a query of any shape is measured without overflowing the stack.

import type { Clause, DatasetQuery, Join, MbqlQuery, NativeSource } from './types.js';
import { isClause } from './clauses.js';
import { invalidQuery } from '../errors.js';

export const MAX_CLAUSE_DEPTH = 100;
export const MAX_CLAUSES = 100_000;
export const MAX_STAGE_DEPTH = 50;

/** Size (clauses) and depth (clause levels) of a clause tree, references expanded. */
export interface Extent {
  size: number;
  depth: number;
}

/** What a clause stands for when it refers to a definition (an expression, a segment), or null. */
export type Reference = (clause: Clause) => Extent | null;

const NUL = '\u0000';

/** A name that becomes a SQL identifier: refused when it holds a NUL character. */
export function checkIdentifier(name: unknown, what: string): void {
  if (typeof name === 'string' && name.includes(NUL)) {
    const shown = JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
    throw invalidQuery(`Invalid ${what} ${shown}: names used in SQL can't contain NUL characters (\\u0000).`);
  }
}

/** SQL text a person wrote (a native query, a native source): refused when it holds a NUL character. */
export function checkSqlText(text: unknown, what: string): void {
  if (typeof text === 'string' && text.includes(NUL)) throw invalidQuery(`Invalid ${what}: SQL text can't contain NUL characters (\\u0000).`);
}

/** The identifiers inside one clause: expression and column names, join aliases, aggregation names. */
function checkClauseNames(c: Clause): void {
  const [name, arg, options] = c;
  if (name === 'expression') checkIdentifier(arg, 'expression name');
  if (name === 'field') {
    checkIdentifier(arg, 'column name');
    if (options && typeof options === 'object') checkIdentifier((options as Record<string, unknown>)['join-alias'], 'join alias');
  }
  if (name === 'aggregation-options' && options && typeof options === 'object') checkIdentifier((options as Record<string, unknown>).name, 'aggregation name');
}

interface Frame {
  children: unknown[];
  next: number;
  isClause: boolean;
  size: number;
  depth: number;
}

/**
 * The extent of a clause tree (a clause counts one, plus its arguments; lists and option maps count nothing
 * themselves), with references replaced by what they stand for. `visit` sees every clause that isn't a reference.
 */
export function treeExtent(root: unknown, reference: Reference, visit: (c: Clause) => void = checkClauseNames): Extent {
  const open = (node: unknown): Frame | Extent => {
    if (isClause(node)) {
      const ref = reference(node);
      if (ref) return ref;
      visit(node);
      return { children: node.slice(1), next: 0, isClause: true, size: 1, depth: 0 };
    }
    if (Array.isArray(node)) return { children: node, next: 0, isClause: false, size: 0, depth: 0 };
    if (node !== null && typeof node === 'object') return { children: Object.values(node), next: 0, isClause: false, size: 0, depth: 0 };
    return { size: 0, depth: 0 };
  };
  const first = open(root);
  if (!('children' in first)) return first;
  const stack: Frame[] = [first];
  let done: Extent = { size: 0, depth: 0 };
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.next < top.children.length) {
      const child = open(top.children[top.next++]);
      if ('children' in child) stack.push(child);
      else {
        top.size += child.size;
        top.depth = Math.max(top.depth, child.depth);
      }
      continue;
    }
    stack.pop();
    done = { size: top.size, depth: top.depth + (top.isClause ? 1 : 0) };
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.size += done.size;
      parent.depth = Math.max(parent.depth, done.depth);
    }
  }
  return done;
}

const tooManyClauses = () =>
  invalidQuery(`Invalid query: it has more than ${MAX_CLAUSES.toLocaleString('en-US')} clauses once the expressions and segments it uses are written out.`);
const nestedTooDeeply = (where: string) => invalidQuery(`Invalid ${where}: clauses are nested more than ${MAX_CLAUSE_DEPTH} levels deep.`);

/** Direct references of a tree (iterative). */
function referencesIn<K>(root: unknown, refOf: (c: Clause) => K | undefined): K[] {
  const out: K[] = [];
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      if (isClause(node)) {
        const key = refOf(node);
        if (key !== undefined) {
          out.push(key);
          continue;
        }
      }
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') for (const item of Object.values(node)) stack.push(item);
  }
  return out;
}

/**
 * Extents of definitions that may refer to each other (a stage's expressions by name, segments by id), each with
 * the references inside it expanded. Each is measured once, dependencies first; a cycle is refused through
 * `cycle(key)`, a definition deeper than MAX_CLAUSE_DEPTH through `tooDeep(key)`, one larger than MAX_CLAUSES
 * (written out) as too many clauses.
 */
export function definitionExtents<K>(
  definitions: Map<K, unknown>,
  refOf: (c: Clause) => K | undefined,
  errors: { cycle: (key: K) => Error; tooDeep: (key: K) => Error },
): Map<K, Extent> {
  const extents = new Map<K, Extent>();
  const reference: Reference = (c) => {
    const key = refOf(c);
    return key === undefined ? null : (extents.get(key) ?? null);
  };
  for (const start of definitions.keys()) {
    if (extents.has(start)) continue;
    // Depth-first over references: a definition is measured once all it refers to are.
    const onPath = new Set<K>([start]);
    const stack: Array<{ key: K; deps: K[]; next: number }> = [{ key: start, deps: referencesIn(definitions.get(start), refOf), next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.next < top.deps.length) {
        const dep = top.deps[top.next++];
        if (extents.has(dep) || !definitions.has(dep)) continue;
        if (onPath.has(dep)) throw errors.cycle(dep);
        onPath.add(dep);
        stack.push({ key: dep, deps: referencesIn(definitions.get(dep), refOf), next: 0 });
        continue;
      }
      stack.pop();
      onPath.delete(top.key);
      const extent = treeExtent(definitions.get(top.key), reference);
      if (extent.depth > MAX_CLAUSE_DEPTH) throw errors.tooDeep(top.key);
      if (extent.size > MAX_CLAUSES) throw tooManyClauses();
      extents.set(top.key, extent);
    }
  }
  return extents;
}

/** Clause trees of one stage (or join) with the names validate's messages use for them. */
function clauseRoots(stage: MbqlQuery): Array<[string, unknown]> {
  const roots: Array<[string, unknown]> = [];
  for (const key of ['aggregation', 'breakout', 'fields', 'filter', 'order-by'] as const) if (stage[key] !== undefined) roots.push([key, stage[key]]);
  for (const [index, join] of joinsOf(stage).entries()) {
    const where = `join ${typeof join.alias === 'string' ? join.alias : index}`;
    if (join.condition !== undefined) roots.push([`${where} condition`, join.condition]);
    if (Array.isArray(join.fields)) roots.push([`${where} fields`, join.fields]);
  }
  return roots;
}

/** One MBQL stage's clauses: names, depth and size (added to `total`, returned). */
function checkStageClauses(stage: MbqlQuery, total: number): number {
  const expressions = stage.expressions && typeof stage.expressions === 'object' && !Array.isArray(stage.expressions) ? stage.expressions : {};
  const definitions = new Map<string, unknown>();
  for (const [name, definition] of Object.entries(expressions)) {
    checkIdentifier(name, 'expression name');
    definitions.set(name, definition);
  }
  const refOf = (c: Clause) => (c[0] === 'expression' && typeof c[1] === 'string' && definitions.has(c[1]) ? c[1] : undefined);
  const extents = definitionExtents(definitions, refOf, {
    cycle: (name) => invalidQuery(`Expression "${name}" refers to itself.`),
    tooDeep: (name) => nestedTooDeeply(`expression "${name}"`),
  });
  const reference: Reference = (c) => {
    const name = refOf(c);
    if (name === undefined) return null;
    checkClauseNames(c);
    return extents.get(name) ?? null;
  };
  let sum = total;
  for (const extent of extents.values()) {
    sum += extent.size;
    if (sum > MAX_CLAUSES) throw tooManyClauses();
  }
  for (const [where, root] of clauseRoots(stage)) {
    const extent = treeExtent(root, reference);
    if (extent.depth > MAX_CLAUSE_DEPTH) throw nestedTooDeeply(where);
    sum += extent.size;
    if (sum > MAX_CLAUSES) throw tooManyClauses();
  }
  return sum;
}

function joinsOf(stage: MbqlQuery): Join[] {
  return Array.isArray(stage.joins) ? stage.joins.filter((j) => j !== null && typeof j === 'object') : [];
}

/**
 * A dataset query within what every engine runs (see the top of this file), or an invalid-query error saying what
 * is out of bounds and where. Safe on queries of any depth.
 */
export function checkQueryLimits(q: DatasetQuery): void {
  if (q.type === 'native') {
    checkSqlText(q.native?.query, 'native query');
    return;
  }
  if (!q.query || typeof q.query !== 'object') return;
  let total = 0;
  const stack: Array<{ stage: MbqlQuery | Join | NativeSource; depth: number }> = [{ stage: q.query, depth: 1 }];
  while (stack.length > 0) {
    const { stage, depth } = stack.pop()!;
    if (depth > MAX_STAGE_DEPTH) throw invalidQuery(`Invalid query: its stages (source queries and joined queries) are nested more than ${MAX_STAGE_DEPTH} deep.`);
    if ('native' in stage) {
      checkSqlText((stage as NativeSource).native, 'native source query');
      continue;
    }
    const mbql = stage as MbqlQuery;
    for (const join of joinsOf(mbql)) checkIdentifier(join.alias, 'join alias');
    total = checkStageClauses(mbql, total);
    const sources = [mbql['source-query'], ...joinsOf(mbql).map((j) => j['source-query'])];
    for (const source of sources) if (source && typeof source === 'object') stack.push({ stage: source, depth: depth + 1 });
  }
}
