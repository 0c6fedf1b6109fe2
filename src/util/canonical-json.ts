// JSON with object keys sorted (and undefined values left out), so equal values always hash the same.

export function canonicalJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonicalJson).join(',')}]`;
  if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  if (typeof x === 'bigint') return `"${x.toString()}n"`;
  if (typeof x === 'number' && !Number.isFinite(x)) return `"${String(x)}"`;
  return JSON.stringify(x) ?? 'null';
}
