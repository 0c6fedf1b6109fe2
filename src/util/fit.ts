// Names the server makes up itself ("Copy of …", "… - Duplicate", "Name 2") from names that already fill their
// column: cut to the column's size, as PostgreSQL and MySQL count it (characters, i.e. code points — never half
// of a surrogate pair).

/** The size of the app DB's name columns (varchar(254): cards, dashboards, tabs, collections, actions…). */
export const NAME_MAX = 254;

/** `text` cut to at most `max` characters. */
export function fitText(text: string, max: number): string {
  if (text.length <= max) return text;
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** `prefix + text + suffix` within `max` characters; `text` is what gets cut (the affixes say what the name is). */
export function fitName(text: string, max: number, affixes: { prefix?: string; suffix?: string }): string {
  const prefix = affixes.prefix ?? '';
  const suffix = affixes.suffix ?? '';
  const room = Math.max(0, max - [...prefix].length - [...suffix].length);
  return fitText(`${prefix}${fitText(text, room)}${suffix}`, max);
}
