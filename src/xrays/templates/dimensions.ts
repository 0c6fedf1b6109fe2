// Dimensions every table template shares. A field binds to the one dimension whose matcher scores it highest, so
// dimensions without cards (Label, Birthdate, Coordinate…) keep names, birthdays and coordinates out of the others.

import type { DimensionDef } from './types.js';

export const COMMON_DIMENSIONS: DimensionDef[] = [
  {
    name: 'Timestamp',
    matchers: [
      { type: 'type/CreationTemporal', score: 100, ownOnly: true },
      { type: 'type/Temporal', named: 'created|creation|placed|ordered|timestamp', score: 90, ownOnly: true },
      { type: 'type/JoinTemporal', score: 85, ownOnly: true },
      { type: 'type/Temporal', score: 60, ownOnly: true, minDistinct: 2 },
    ],
  },
  { name: 'Birthdate', matchers: [{ type: 'type/Birthdate', score: 100 }, { type: 'type/Temporal', named: 'birth|(^|_)dob$', score: 100 }] },
  { name: 'Label', matchers: [{ type: 'type/Name', score: 100 }, { type: 'type/Title', score: 100 }, { type: 'type/Description', score: 100 }, { type: 'type/Comment', score: 100 }] },
  { name: 'Coordinate', matchers: [{ type: 'type/Coordinate', score: 100 }, { type: 'type/ZipCode', score: 100 }] },
  { name: 'State', matchers: [{ type: 'type/State', score: 95, ownOnly: true }, { type: 'type/State', score: 80, linkedTo: 'entity/UserTable' }] },
  { name: 'Country', matchers: [{ type: 'type/Country', score: 95, ownOnly: true }, { type: 'type/Country', score: 80, linkedTo: 'entity/UserTable' }] },
  { name: 'City', matchers: [{ type: 'type/City', score: 90, ownOnly: true }] },
  { name: 'Source', matchers: [{ type: 'type/Source', score: 95, ownOnly: true }, { type: 'type/Source', score: 85, linkedTo: 'entity/UserTable' }] },
  {
    name: 'Category',
    matchers: [
      { type: 'type/Category', score: 90, ownOnly: true, minDistinct: 2, maxDistinct: 1000 },
      { type: 'type/Boolean', score: 70, ownOnly: true },
      { type: 'type/Category', score: 75, linkedTo: 'entity/ProductTable', minDistinct: 2, maxDistinct: 100 },
      { type: 'type/Category', score: 60, minDistinct: 2, maxDistinct: 30 },
    ],
  },
  { name: 'FK', matchers: [{ type: 'type/FK', score: 100, ownOnly: true }] },
  {
    name: 'Number',
    matchers: [
      { type: 'type/Currency', score: 80, ownOnly: true, minDistinct: 2 },
      { type: 'type/Score', score: 75, ownOnly: true, minDistinct: 2 },
      { type: 'type/Quantity', score: 75, ownOnly: true, minDistinct: 2 },
      { type: 'type/Number', score: 60, ownOnly: true, minDistinct: 2 },
    ],
  },
];

/** The common dimensions with some replaced or added (a table kind's own, more specific ones first). */
export function withDimensions(extra: DimensionDef[]): DimensionDef[] {
  const names = new Set(extra.map((d) => d.name));
  return [...extra, ...COMMON_DIMENSIONS.filter((d) => !names.has(d.name))];
}
