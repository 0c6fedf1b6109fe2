// Collection `location` paths: the materialized ids of a collection's ancestors, "/" at the root, "/1/2/" below 1 → 2.

export function locationIds(location: string | null | undefined): number[] {
  if (!location) return [];
  return location
    .split('/')
    .filter(Boolean)
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}

export function parentIdOf(location: string | null | undefined): number | null {
  const ids = locationIds(location);
  return ids.length ? ids[ids.length - 1] : null;
}

/** `collection.location` is a varchar(600) column: deeper nesting than that path holds is refused. */
export const LOCATION_MAX = 600;

/** Whether collections can live at `location` (its path fits its column). */
export function locationFits(location: string): boolean {
  return location.length <= LOCATION_MAX;
}

/** The location of a collection's children. */
export function childrenLocation(collection: { id: number; location: string } | null): string {
  return collection ? `${collection.location}${collection.id}/` : '/';
}
