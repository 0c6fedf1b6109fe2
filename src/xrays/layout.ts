// Placing an X-ray's cards on the 24-column grid: each section starts with a full-width heading (a text card) below
// everything placed so far, then its cards go first-fit left to right, top to bottom.

export const GRID_WIDTH = 24;

export interface Placed<T> {
  item: T | { heading: string };
  row: number;
  col: number;
  sizeX: number;
  sizeY: number;
}

export interface Section<T> {
  heading: string | null;
  items: Array<{ item: T; width: number; height: number }>;
}

export function layout<T>(sections: Array<Section<T>>, startRow = 0): Array<Placed<T>> {
  const skyline = new Array<number>(GRID_WIDTH).fill(startRow);
  const placed: Array<Placed<T>> = [];
  const bottom = () => Math.max(...skyline);
  for (const section of sections) {
    if (section.heading !== null) {
      const row = bottom();
      placed.push({ item: { heading: section.heading }, row, col: 0, sizeX: GRID_WIDTH, sizeY: 2 });
      skyline.fill(row + 2);
    }
    for (const { item, width, height } of section.items) {
      const w = Math.min(GRID_WIDTH, Math.max(1, width));
      let best = { col: 0, row: Infinity };
      for (let col = 0; col + w <= GRID_WIDTH; col++) {
        const row = Math.max(...skyline.slice(col, col + w));
        if (row < best.row) best = { col, row };
      }
      placed.push({ item, row: best.row, col: best.col, sizeX: w, sizeY: height });
      for (let c = best.col; c < best.col + w; c++) skyline[c] = best.row + height;
    }
  }
  return placed.sort((a, b) => a.row - b.row || a.col - b.col);
}

/** A markdown heading dashcard (no card: the UI draws `virtual_card`). */
export function textDashcard(id: string, text: string, p: { row: number; col: number; sizeX: number; sizeY: number }, tabId: number | null = null) {
  return {
    id,
    dashboard_tab_id: tabId,
    row: p.row,
    col: p.col,
    size_x: p.sizeX,
    size_y: p.sizeY,
    card: null,
    card_id: null,
    parameter_mappings: [],
    series: [],
    visualization_settings: {
      text,
      'dashcard.background': false,
      'text.align_vertical': 'bottom',
      virtual_card: { name: null, display: 'text', dataset_query: {}, visualization_settings: {}, archived: false },
    },
  };
}
