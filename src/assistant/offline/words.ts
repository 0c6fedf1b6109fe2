// Words as the offline engine compares them: lower-case, plural endings dropped, and a few groups of everyday
// synonyms for what business tables and columns are called. Generic English, not tied to any one database.

/** A word's comparable stem: lower-case, simple English plurals made singular. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length <= 3) return w;
  if (IRREGULAR[w]) return IRREGULAR[w];
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  // "clicked" and "click" alike (both sides of a comparison are stemmed the same way)
  if (w.endsWith('ed') && w.length > 5 && !w.endsWith('eed')) return w.slice(0, -2);
  if (/(ss|us|is)$/.test(w)) return w;
  if (/(sses|xes|ches|shes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s')) return w.slice(0, -1);
  return w;
}

const IRREGULAR: Record<string, string> = { people: 'person', children: 'child', men: 'man', women: 'woman', data: 'data', analytics: 'analytic' };

/** Words of a question or a name: split on anything but letters, digits, `$` and the `.`/`-` inside numbers and dates. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/'s\b/g, '')
    .split(/[^A-Za-z0-9$.\-<>=]+/)
    .flatMap((w) => (/^\$?\d/.test(w) ? [w.replace(/[.\-]+$/, '')] : w.split(/[.\-]+/)))
    .flatMap((w) => (/^\$\d/.test(w) ? ['$', w.slice(1)] : [w]))
    .filter((w) => w.length > 0);
}

/**
 * Groups of words meaning the same thing for a table or column. The first word of a group is how a name would
 * spell it; a name containing any word of a group can be asked about with the others.
 */
export const SYNONYM_GROUPS: string[][] = [
  ['person', 'people', 'customer', 'user', 'buyer', 'client', 'shopper', 'member'],
  ['order', 'purchase', 'transaction'],
  ['product', 'item', 'article', 'good', 'merchandise'],
  ['review', 'feedback'],
  ['total', 'revenue', 'sales', 'income', 'turnover', 'amount', 'spend', 'spending', 'money', 'gmv', 'value'],
  ['price', 'cost', 'pricing', 'expensive', 'pricey', 'priciest', 'cheap', 'cheapest', 'cheaper'],
  ['quantity', 'qty', 'unit', 'volume'],
  ['rating', 'score', 'star', 'rated', 'rate'],
  ['state', 'province', 'region'],
  ['city', 'town'],
  ['source', 'channel', 'referrer', 'acquisition'],
  ['vendor', 'supplier', 'brand', 'manufacturer', 'maker'],
  ['category', 'type', 'kind', 'department'],
  ['discount', 'rebate', 'promotion', 'coupon'],
  ['tax', 'vat'],
  ['created', 'placed', 'made', 'signed', 'joined', 'registered'],
  ['payment', 'paid', 'billing'],
  ['plan', 'tier', 'subscription'],
  ['seat', 'license'],
  ['event', 'activity'],
  ['country', 'nation'],
  ['zip', 'postcode', 'postal'],
  ['birth', 'birthday', 'born'],
  ['title', 'name'],
];

const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  for (const w of group) {
    const s = stem(w);
    SYNONYMS.set(s, [...new Set([...(SYNONYMS.get(s) ?? []), ...group.map(stem).filter((x) => x !== s)])]);
  }
}

/** Other stems that mean the same as this stem. */
export function synonymsOf(s: string): string[] {
  return SYNONYMS.get(s) ?? [];
}

/** Words that carry no meaning for resolving names. */
export const STOP_WORDS = new Set([
  'the', 'a', 'an', 'of', 'me', 'show', 'list', 'give', 'what', 'whats', 'is', 'are', 'was', 'were', 'which', 'who', 'how', 'do', 'does', 'did',
  'have', 'has', 'had', 'there', 'in', 'on', 'for', 'with', 'from', 'to', 'and', 'all', 'please', 'i', 'we', 'our', 'my', 'want', 'see', 'get',
  'find', 'tell', 'about', 'that', 'those', 'these', 'this', 'it', 'its', 'their', 'them', 'be', 'been', 'at', 'as', 'or', 'can', 'you', 'us',
  'display', 'return', 'compute', 'calculate', 'let', 'know', 'would', 'like', 'much', 'many', 'got', 'some', 'any', 'whose', 'where',
  'each', 'every', 'per', 'by', 'across', 'grouped', 'broken', 'down', 'split', 'than', 'overall', 'altogether', 'records', 'record', 'rows', 'row',
]);

export const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
