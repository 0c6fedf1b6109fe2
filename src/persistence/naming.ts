// Where a persisted model lives in its database (reference B8): the schema `metabase_cache_<x>_<database id>`
// (<x>: the first character of each group of the site's UUID) that Quarry owns and creates, and the table
// `model_<card id>_<slug>` (slug: the lower-cased name, whitespace as `_`, letters, digits and `_` only, 10
// characters at most). Identifiers are always quoted by the engine's dialect.

const SCHEMA_PREFIX = 'metabase_cache_';

/** Schemas of persisted models (this instance's or another's): never synced as the database's own tables. */
export function isPersistenceSchema(schema: string | null): boolean {
  return schema !== null && schema.toLowerCase().startsWith(SCHEMA_PREFIX);
}

export function schemaName(siteUuid: string, databaseId: number): string {
  const initials = siteUuid
    .split('-')
    .map((group) => group.charAt(0))
    .join('')
    .toLowerCase()
    .replace(/[^0-9a-f]/g, '');
  return `${SCHEMA_PREFIX}${initials}_${databaseId}`;
}

export function modelSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}_]/gu, '')
    .slice(0, 10);
}

export function tableName(cardId: number, name: string): string {
  const slug = modelSlug(name);
  return slug ? `model_${cardId}_${slug}` : `model_${cardId}`;
}
