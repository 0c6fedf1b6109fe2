// Column titles of downloads: each column's display name (falling back to its name), made unique so that JSON
// export keys don't collide.

import type { Col } from '../results/annotate.js';
import { UniqueNames } from '../compile/names.js';

export function columnTitles(cols: Col[]): string[] {
  const names = new UniqueNames();
  return cols.map((c) => names.next(String(c.display_name || c.name)));
}
