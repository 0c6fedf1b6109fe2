// Metabase's URL space: the paths of the app's pages, as links, emails and embedding code build them.

/** `12-monthly-revenue` → 12; a bare `12` too. NaN when the segment doesn't start with an id. */
export function idOfSlug(segment: string | undefined): number {
  const match = /^(\d+)(?:-|$)/.exec(segment ?? '');
  return match ? Number(match[1]) : NaN;
}

export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
}

const withSlug = (prefix: string, id: number, name?: string) => (name && slugify(name) ? `${prefix}/${id}-${slugify(name)}` : `${prefix}/${id}`);

export const questionUrl = (id: number, name?: string) => withSlug('/question', id, name);
export const modelUrl = (id: number, name?: string) => withSlug('/model', id, name);
export const dashboardUrl = (id: number, name?: string) => withSlug('/dashboard', id, name);
export const databaseUrl = (id: number, name?: string) => withSlug('/browse/databases', id, name);
export const collectionUrl = (id: number | 'root' | null, name?: string) => (id === null || id === 'root' ? '/collection/root' : withSlug('/collection', id, name));

/** Base64 of UTF-8 text, as the app's `/question#…` URLs carry a new question. */
export function base64OfText(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function textOfBase64(base64: string): string {
  const binary = atob(base64);
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/** A new (unsaved) question as a URL: `/question#<base64 of {dataset_query, display, visualization_settings}>`. */
export function newQuestionUrl(card: { dataset_query: unknown; display?: string; visualization_settings?: Record<string, unknown> }): string {
  return `/question#${base64OfText(JSON.stringify({ display: 'table', visualization_settings: {}, ...card }))}`;
}

/** The new question on a whole table (what Browse opens). */
export function tableQuestionUrl(databaseId: number, tableId: number): string {
  return newQuestionUrl({ dataset_query: { database: databaseId, type: 'query', query: { 'source-table': tableId } }, display: 'table' });
}

/** A path the app may send someone back to after sign-in: this site's own pages only. */
export function safeRedirect(target: string | null | undefined): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  if (target.startsWith('/auth/')) return '/';
  return target;
}
