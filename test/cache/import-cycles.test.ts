// The result cache, model persistence and the query engine's stages for them import one another in one direction
// only: no import cycle (type-only imports included) runs through src/cache, src/persistence or the query engine's
// cache and persisted-model stages. Read from the source files, no server needed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^;'"]*?\s+from\s+)?'(\.[^']+)'/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

function graph(): Map<string, string[]> {
  const files = sources(join(ROOT, 'src'));
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      const deps = [...text.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1])).replace(/\.js$/, '.ts')).filter((d) => known.has(d));
      return [file, deps];
    }),
  );
}

/** Strongly connected components with more than one file (Tarjan). */
function cycles(g: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (;;) {
        const w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

const GUARDED = /^src\/(cache\/|persistence\/|query\/(cache-stage|cache-key|persisted|pipeline|run)\.ts$)/;

test('no import cycle runs through the result cache, model persistence or their query stages', () => {
  const offending = cycles(graph()).filter((component) => component.some((file) => GUARDED.test(file)));
  assert.deepEqual(offending, []);
});
