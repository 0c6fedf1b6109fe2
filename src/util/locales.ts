// Locales offered in the UI: [code, name] pairs, as Metabase's `available-locales` setting reports them.
export const AVAILABLE_LOCALES: ReadonlyArray<readonly [string, string]> = [
  ['ar', 'Arabic'], ['ar_SA', 'Arabic (Saudi Arabia)'], ['bg', 'Bulgarian'], ['ca', 'Catalan'], ['cs', 'Czech'],
  ['da', 'Danish'], ['de', 'German'], ['el', 'Greek'], ['en', 'English'], ['es', 'Spanish'], ['fa', 'Persian'],
  ['fi', 'Finnish'], ['fr', 'French'], ['he', 'Hebrew'], ['hu', 'Hungarian'], ['id', 'Indonesian'], ['it', 'Italian'],
  ['ja', 'Japanese'], ['ko', 'Korean'], ['lv', 'Latvian'], ['ms', 'Malay'], ['nb', 'Norwegian Bokmål'], ['nl', 'Dutch'],
  ['pl', 'Polish'], ['pt', 'Portuguese'], ['pt_BR', 'Portuguese (Brazil)'], ['ro', 'Romanian'], ['ru', 'Russian'],
  ['sk', 'Slovak'], ['sq', 'Albanian'], ['sr', 'Serbian'], ['sv', 'Swedish'], ['th', 'Thai'], ['tr', 'Turkish'],
  ['uk', 'Ukrainian'], ['vi', 'Vietnamese'], ['zh', 'Chinese'], ['zh_CN', 'Chinese (China)'], ['zh_HK', 'Chinese (Hong Kong SAR China)'],
  ['zh_TW', 'Chinese (Taiwan)'],
];

/** Metabase's locale rule: a two-letter language, optionally `_` or `-` and a two-letter country. */
export function isValidLocale(value: unknown): boolean {
  return typeof value === 'string' && /^[a-zA-Z]{2}([_-][a-zA-Z]{2})?$/.test(value);
}

export function normalizeLocale(value: string): string {
  const [lang, country] = value.split(/[_-]/);
  return country ? `${lang.toLowerCase()}_${country.toUpperCase()}` : lang.toLowerCase();
}
