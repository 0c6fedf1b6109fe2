// What a `{{…}}` in native SQL names, as Metabase recognizes it (reference §6.1): a variable, a snippet or a card.
// Pure (no Node built-ins): the web app's SQL editor uses it too, to turn what a person types into template tags.

/** `{{snippet: Name}}` → "Name"; null when the tag isn't a snippet reference. */
export function snippetNameOf(tag: string): string | null {
  const m = /^snippet:\s*(.+)$/i.exec(tag.trim());
  return m ? m[1].trim() : null;
}

/** `{{#12-orders}}` → 12; null when the tag isn't a card reference. */
export function cardIdOf(tag: string): number | null {
  const m = /^#(\d+)(-[a-z0-9_-]*)?$/i.exec(tag.trim());
  return m ? Number(m[1]) : null;
}

const VARIABLE = /^\s*([A-Za-z0-9_.]+)\s*$/;
const SNIPPET = /^\s*(snippet:\s*[^}]*[^}\s])\s*$/;
const CARD = /^\s*(#[0-9]*(-[a-z0-9-]*)?)\s*$/;

/** The tag a `{{…}}` names (snippet names normalized to `snippet: Name`), or null when it names none. */
export function templateTagName(inner: string): string | null {
  const variable = VARIABLE.exec(inner);
  if (variable) return variable[1];
  const snippet = SNIPPET.exec(inner);
  if (snippet) return `snippet: ${snippetNameOf(snippet[1])}`;
  const card = CARD.exec(inner);
  return card ? card[1] : null;
}
