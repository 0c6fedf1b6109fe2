// Which template an X-ray uses: the most specific one that applies to the table's kind (or the field's type).

import { isa } from '../../databases/type-hierarchy.js';
import { FIELD_TEMPLATES, METRIC_TEMPLATE } from './fields.js';
import { GENERIC_TABLE, TABLE_TEMPLATES } from './tables.js';
import type { SubTemplate, Template } from './types.js';

export { METRIC_TEMPLATE, GENERIC_TABLE, TABLE_TEMPLATES, FIELD_TEMPLATES };
export type * from './types.js';

export function tableTemplateFor(entityType: string | null | undefined): Template {
  return TABLE_TEMPLATES.find((t) => t.appliesTo === entityType) ?? GENERIC_TABLE;
}

export function fieldTemplateFor(type: string): Template {
  return FIELD_TEMPLATES.find((t) => isa(type, t.appliesTo))!;
}

/** Names a `rule/:prefix/…` may use: the table and field templates. */
export function isTemplatePrefix(prefix: string): boolean {
  return [...TABLE_TEMPLATES, ...FIELD_TEMPLATES].some((t) => t.name === prefix);
}

/** Names a `…/:dashboard-template` may use: any template or sub-template. */
export function isTemplateName(name: string): boolean {
  return [...TABLE_TEMPLATES, ...FIELD_TEMPLATES].some((t) => t.name === name || t.subTemplates.some((s) => s.name === name));
}

/** The template `rule/<prefix>/<name>` forces: a template itself, or one of its sub-templates. */
export function forcedTemplate(prefix: string, name: string): { template: Template; sub: SubTemplate | null } | null {
  const template = [...TABLE_TEMPLATES, ...FIELD_TEMPLATES].find((t) => t.name === prefix);
  if (!template) return null;
  if (name === template.name) return { template, sub: null };
  const sub = template.subTemplates.find((s) => s.name === name);
  return sub ? { template, sub } : null;
}
