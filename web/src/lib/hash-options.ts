// The display options embedding code puts in the hash of a public or embed URL, as Metabase reads them:
// `#bordered=true&titled=false&theme=night&hide_parameters=state,date&downloads=false`.

export type EmbedTheme = 'light' | 'night' | 'transparent';

export interface HashOptions {
  bordered: boolean;
  titled: boolean;
  theme: EmbedTheme;
  /** Slugs of filters not to show (their values still apply). */
  hideParameters: Set<string>;
  downloads: boolean;
}

const flag = (value: string | null, fallback: boolean) => (value === null ? fallback : value !== 'false');

export function parseHashOptions(hash: string): HashOptions {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const theme = params.get('theme');
  return {
    bordered: flag(params.get('bordered'), true),
    titled: flag(params.get('titled'), true),
    theme: theme === 'night' || theme === 'transparent' ? theme : 'light',
    hideParameters: new Set(
      (params.get('hide_parameters') ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
    // `hide_download_button=true` is the older spelling of `downloads=false`
    downloads: flag(params.get('downloads'), params.get('hide_download_button') !== 'true'),
  };
}

/** True on the pages these options apply to. */
export const isSharedPage = (path: string) => path.startsWith('/public/') || path.startsWith('/embed/');
