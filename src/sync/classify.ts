// Inferring what a field means (its semantic type), whether its values belong in a dropdown (has_field_values),
// and what kind of entity a table is — from names first, then from the fingerprint of its values. Our own rule
// tables, following the behaviour Metabase documents: a semantic type an admin chose is never replaced.

import { isa } from '../databases/type-hierarchy.js';
import type { Fingerprint } from './fingerprint.js';

type BaseKind = 'text' | 'integer' | 'number' | 'temporal-date' | 'temporal-time' | 'temporal-datetime' | 'boolean' | 'any';

function matchesKind(baseType: string, kind: BaseKind): boolean {
  switch (kind) {
    case 'text':
      return isa(baseType, 'type/Text');
    case 'integer':
      return isa(baseType, 'type/Integer');
    case 'number':
      return isa(baseType, 'type/Number');
    case 'temporal-date':
      return isa(baseType, 'type/Date');
    case 'temporal-time':
      return isa(baseType, 'type/Time');
    case 'temporal-datetime':
      return isa(baseType, 'type/DateTime');
    case 'boolean':
      return isa(baseType, 'type/Boolean');
    case 'any':
      return true;
  }
}

const TEMPORAL: Array<[RegExp, string]> = [
  [/creat/, 'Creation'],
  [/cancel+ed|cancel+ation/, 'Cancelation'],
  [/delet/, 'Deletion'],
  [/updat|modifi/, 'Updated'],
  [/join/, 'Join'],
];

// [name pattern (lower-case), kinds it applies to, semantic type] — first match wins.
const NAME_RULES: Array<[RegExp, BaseKind[], string]> = [
  [/(^|_)lat(itude)?$/, ['number'], 'type/Latitude'],
  [/(^|_)(lon|lng|long|longitude)$/, ['number'], 'type/Longitude'],
  [/e_?mail/, ['text'], 'type/Email'],
  [/(^|_)avatar(_?url)?$/, ['text'], 'type/AvatarURL'],
  [/(^|_)(image|img|photo|picture|thumbnail)_?url$/, ['text'], 'type/ImageURL'],
  [/(^|_)(url|link|website|homepage)$/, ['text'], 'type/URL'],
  [/(^|_)(zip|zip_?code|postal_?code|post_?code)$/, ['text', 'integer'], 'type/ZipCode'],
  [/(^|_)city$/, ['text'], 'type/City'],
  [/(^|_)(state|province|region_code)$/, ['text'], 'type/State'],
  [/(^|_)country(_code)?$/, ['text'], 'type/Country'],
  [/^(first|last|middle|full|given|family|user|display)?_?name$/, ['text'], 'type/Name'],
  [/_name$/, ['text'], 'type/Name'],
  [/(^|_)title$/, ['text'], 'type/Title'],
  [/(^|_)(company|vendor|organi[sz]ation|employer|manufacturer)(_name)?$/, ['text'], 'type/Company'],
  [/description/, ['text'], 'type/Description'],
  [/(^|_)comments?$/, ['text'], 'type/Comment'],
  [/(^|_)(source|referrer|utm_source|channel)$/, ['text'], 'type/Source'],
  [/discount/, ['number'], 'type/Discount'],
  [/(^|_)price$|^unit_price$/, ['number'], 'type/Price'],
  [/(^|_)cost$/, ['number'], 'type/Cost'],
  [/income|revenue/, ['number'], 'type/Income'],
  [/gross_?margin/, ['number'], 'type/GrossMargin'],
  [/(^|_)(amount|subtotal|total|payment|fee|balance|salary)$/, ['number'], 'type/Currency'],
  [/quantity|(^|_)qty$|(^|_)count$|^num_|_number$/, ['integer'], 'type/Quantity'],
  [/score|rating/, ['number'], 'type/Score'],
  [/percent|_pct$|(^|_)ratio$|(^|_)share$/, ['number'], 'type/Percentage'],
  [/duration|elapsed/, ['number'], 'type/Duration'],
  [/birth|(^|_)dob$/, ['temporal-date', 'temporal-datetime'], 'type/Birthdate'],
  [/(^|_)(type|kind|status|gender|sex|role|tier|category|plan)$/, ['text', 'integer'], 'type/Category'],
];

/** The semantic type a field's name suggests for its base type, or null. */
export function semanticTypeFromName(name: string, baseType: string): string | null {
  const lower = name.toLowerCase();
  if (isa(baseType, 'type/Temporal')) {
    const suffix = isa(baseType, 'type/Date') ? 'Date' : isa(baseType, 'type/Time') ? 'Time' : 'Timestamp';
    for (const [pattern, prefix] of TEMPORAL) if (pattern.test(lower)) return `type/${prefix}${suffix}`;
  }
  for (const [pattern, kinds, semantic] of NAME_RULES) {
    if (pattern.test(lower) && kinds.some((k) => matchesKind(baseType, k))) return semantic;
  }
  return null;
}

const SHARE = 0.95;

/** The semantic type the values suggest (most values look like URLs, e-mails, JSON, US states), or null. */
export function semanticTypeFromFingerprint(baseType: string, fp: Fingerprint | null): string | null {
  const text = fp?.type?.['type/Text'];
  if (!text || !isa(baseType, 'type/Text')) return null;
  if ((text['percent-url'] ?? 0) >= SHARE) return 'type/URL';
  if ((text['percent-email'] ?? 0) >= SHARE) return 'type/Email';
  if ((text['percent-state'] ?? 0) >= SHARE) return 'type/State';
  if ((text['percent-json'] ?? 0) >= SHARE) return 'type/SerializedJSON';
  return null;
}

/** At most this many distinct values makes a field a category. */
export const CATEGORY_CARDINALITY = 30;
/** Fewer than this many distinct values makes a field's values worth listing in a dropdown. */
export const LIST_CARDINALITY = 1000;

function cannotBeListed(baseType: string, semanticType: string | null): boolean {
  return (
    isa(baseType, 'type/Temporal') ||
    isa(baseType, 'type/Collection') ||
    isa(baseType, 'type/Structured') ||
    isa(baseType, 'type/Float') ||
    semanticType === 'type/PK' ||
    semanticType === 'type/FK'
  );
}

export interface FieldClassification {
  semanticType: string | null;
  hasFieldValues: string | null;
  previewDisplay: boolean;
}

/**
 * What sync concludes about a field after fingerprinting. `current` is what is stored now; only attributes that
 * are empty (or were set by sync before) are decided — the caller drops attributes an admin edited.
 */
export function classifyField(
  field: { name: string; base_type: string; semantic_type: string | null; has_field_values: string | null },
  fp: Fingerprint | null,
): FieldClassification {
  let semanticType = field.semantic_type;
  if (!semanticType) semanticType = semanticTypeFromName(field.name, field.base_type) ?? semanticTypeFromFingerprint(field.base_type, fp);
  const distinct = fp?.global?.['distinct-count'];
  const nilShare = fp?.global?.['nil%'] ?? 0;
  const listable = !cannotBeListed(field.base_type, semanticType);
  if (!semanticType && listable && distinct !== undefined && distinct <= CATEGORY_CARDINALITY && (nilShare < 1 || isa(field.base_type, 'type/Boolean'))) {
    semanticType = 'type/Category';
  }
  let hasFieldValues = field.has_field_values;
  if (!hasFieldValues && listable && distinct !== undefined && distinct < LIST_CARDINALITY) hasFieldValues = 'auto-list';
  if (hasFieldValues === 'auto-list' && (!listable || (distinct !== undefined && distinct >= LIST_CARDINALITY))) hasFieldValues = null;
  const averageLength = fp?.type?.['type/Text']?.['average-length'];
  const previewDisplay = !(averageLength !== undefined && averageLength > 50);
  return { semanticType, hasFieldValues, previewDisplay };
}

const TABLE_RULES: Array<[RegExp, string]> = [
  [/(^|_)(orders?|transactions?|sales|purchases?|payments?|line_?items?)$/, 'entity/TransactionTable'],
  [/(^|_)(products?|items?|skus?|catalog)$/, 'entity/ProductTable'],
  [/(^|_)(users?|people|persons?|customers?|members?|accounts?|employees?)$/, 'entity/UserTable'],
  [/(^|_)(companies|company|vendors?|organi[sz]ations?|businesses)$/, 'entity/CompanyTable'],
  [/(^|_)(events?|logs?|activit(y|ies)|clicks?|page_?views?|sessions?)$/, 'entity/EventTable'],
  [/(^|_)(subscriptions?|plans?)$/, 'entity/SubscriptionTable'],
];

export function classifyTable(name: string): string {
  const lower = name.toLowerCase();
  for (const [pattern, type] of TABLE_RULES) if (pattern.test(lower)) return type;
  return 'entity/GenericTable';
}
