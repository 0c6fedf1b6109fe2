// Table and field names → display names, Metabase's "simple" humanization: underscores and dashes become
// spaces, words are capitalized, and a few abbreviations stay upper-case ("user_id" → "User ID").

const UPPER = new Set(['id', 'url', 'uuid', 'ip', 'api', 'json', 'sql', 'utc', 'csv', 'html', 'http']);

export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, (_, a: string, b: string) => (name === name.toUpperCase() ? a + b : `${a} ${b}`))
    .split(/[\s_\-]+/)
    .filter(Boolean);
  if (!words.length) return name;
  return words
    .map((w) => {
      const lower = w.toLowerCase();
      if (UPPER.has(lower)) return lower.toUpperCase();
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}
