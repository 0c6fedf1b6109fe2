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

/** Metabase's message for a locale it can't use (user locale, setup's site_locale). */
export const LOCALE_MESSAGE = "String must be a valid two-letter ISO language or language-country code e.g. 'en' or 'en_US'.";

const KNOWN = new Set(AVAILABLE_LOCALES.map(([code]) => code));

/**
 * The one locale rule (user locale, setup's site_locale, the site-locale setting): a two-letter language, optionally
 * `_` or `-` and a two-letter country, in any case. Returns the stored spelling (`pt_BR`, `en`, `en_US`) when the UI
 * has that locale or, for a region it doesn't list, that language (as Metabase falls back to it: `en_US`, `fr_CA`);
 * null otherwise (`xx`, `xx_YY`, `english`).
 */
export function availableLocale(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const match = /^([a-zA-Z]{2})(?:[_-]([a-zA-Z]{2}))?$/.exec(value);
  if (!match) return null;
  const language = match[1].toLowerCase();
  const code = match[2] ? `${language}_${match[2].toUpperCase()}` : language;
  return KNOWN.has(code) || KNOWN.has(language) ? code : null;
}

export function isAvailableLocale(value: unknown): boolean {
  return availableLocale(value) !== null;
}
