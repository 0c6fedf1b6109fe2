// The values typed into the tag widgets → the `parameters` of a run, in Metabase's shape (reference §6.2):
// variables target `["variable", ["template-tag", name]]`, field filters `["dimension", ["template-tag", name]]`.
// A widget left empty sends nothing (the SQL's `[[optional]]` block drops, a field filter becomes `1 = 1`).

import type { RunParameter, TagValues, TemplateTag } from './types';

function isEmpty(value: string | string[] | undefined): boolean {
  return value === undefined || (Array.isArray(value) ? value.length === 0 : value.trim() === '');
}

/** The parameter type a variable of this tag type sends. */
function variableType(tag: TemplateTag): string {
  if (tag.type === 'number') return 'number/=';
  if (tag.type === 'date') return 'date/single';
  return 'category';
}

export function runParameters(tags: TemplateTag[], values: TagValues): RunParameter[] {
  const out: RunParameter[] = [];
  for (const tag of tags) {
    const value = values[tag.name];
    if (isEmpty(value)) continue;
    if (tag.type === 'dimension') {
      if (!tag.dimension) continue;
      const list = Array.isArray(value) ? value : [String(value)];
      const widget = tag['widget-type'] ?? 'category';
      const isNumber = widget.startsWith('number');
      out.push({ id: tag.id, type: widget, target: ['dimension', ['template-tag', tag.name]], value: widget.startsWith('date') ? list[0] : list.map((v) => (isNumber ? Number(v) : v)) });
    } else {
      const text = Array.isArray(value) ? value.join(',') : value.trim();
      out.push({ id: tag.id, type: variableType(tag), target: ['variable', ['template-tag', tag.name]], value: tag.type === 'number' && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text });
    }
  }
  return out;
}
