// The core settings. Modules with settings of their own declare them next to their code with `defineSetting`.

import { defineSetting } from './definition.js';
import { badRequest } from '../http/errors.js';
import { QUARRY_VERSION, METABASE_COMPATIBLE_VERSION } from '../version.js';
import { passwordComplexityDescription } from '../users/password-policy.js';
import { engineDescriptors } from '../drivers/engines.js';
import { AVAILABLE_LOCALES, availableLocale } from '../util/locales.js';
import { hasUserSetup } from '../users/setup-state.js';
import { CALLER_TTL_MS, onCallerChange } from '../http/auth.js';
import { PerContextCache } from '../http/short-cache.js';
import { ensureEmbeddingSecret } from '../embed/settings.js';
import { HOST_POLICIES, type HostPolicy } from '../util/outbound.js';
import '../cache/settings.js';
import '../persistence/settings.js';

const TIMEZONES = Intl.supportedValuesOf('timeZone');

// ----- identity and appearance ----------------------------------------------------------------------
defineSetting({ key: 'site-name', type: 'string', visibility: 'public', default: 'Metabase', description: 'The name used for this instance of Metabase.' });
defineSetting({
  key: 'site-url',
  type: 'string',
  visibility: 'public',
  description: 'This URL is used for things like creating links in emails, auth redirects, and in some embedding scenarios, so changing it could break functionality or get you locked out of this instance.',
  validate: (value) => siteUrl(value),
});
defineSetting({ key: 'site-locale', type: 'string', visibility: 'public', default: 'en', description: 'The default language for all users across the Metabase UI, system emails, pulses, and alerts.',
  validate: (value) => {
    const locale = availableLocale(value);
    if (!locale) throw badRequest(`Invalid locale: ${JSON.stringify(value)}`);
    return locale;
  },
});
defineSetting({ key: 'available-locales', type: 'json', visibility: 'public', description: 'Available i18n locales', getter: () => AVAILABLE_LOCALES });
defineSetting({ key: 'available-timezones', type: 'json', visibility: 'public', description: 'Available report timezone options.', getter: () => TIMEZONES });
defineSetting({ key: 'site-uuid', type: 'string', visibility: 'authenticated', readOnly: true, description: 'Unique identifier used for this instance of Metabase. This is set once and only once the first time it is fetched.' });
defineSetting({ key: 'analytics-uuid', type: 'string', visibility: 'public', readOnly: true, description: 'Unique identifier to be used in Snowplow analytics, to identify this instance of Metabase.' });
defineSetting({ key: 'instance-creation', type: 'timestamp', visibility: 'public', readOnly: true, description: 'The approximate timestamp at which this instance of Metabase was created, for inclusion in analytics.' });
defineSetting({ key: 'admin-email', type: 'string', visibility: 'authenticated', description: 'The email address users should be referred to if they encounter a problem.' });
defineSetting({ key: 'application-name', type: 'string', visibility: 'public', default: 'Metabase', description: 'Replace the word “Metabase” wherever it appears.' });
defineSetting({ key: 'application-colors', type: 'json', visibility: 'public', default: {}, description: 'Choose the colors used in the user interface throughout Metabase and others specifically for the charts.' });
defineSetting({ key: 'application-font', type: 'string', visibility: 'public', default: 'Lato', description: 'Replace “Lato” as the font family.' });
defineSetting({ key: 'application-font-files', type: 'json', visibility: 'public', default: null, description: 'Tell us where to find the file for each font weight.' });
defineSetting({ key: 'available-fonts', type: 'json', visibility: 'public', description: 'Available fonts', getter: () => ['Lato', 'Roboto', 'Merriweather', 'Open Sans', 'Inter', 'Noto Sans', 'Oswald', 'Roboto Mono', 'Lora', 'Montserrat', 'Roboto Slab', 'Custom'] });
defineSetting({ key: 'application-logo-url', type: 'string', visibility: 'public', default: 'app/assets/img/logo.svg', description: 'Upload a file to replace the Metabase logo on the top bar.' });
defineSetting({ key: 'application-favicon-url', type: 'string', visibility: 'public', default: 'app/assets/img/favicon.ico', description: 'Upload a file to use as the favicon.' });
defineSetting({ key: 'loading-message', type: 'keyword', visibility: 'public', default: 'doing-science', description: 'Choose the message to show while a query is running.' });
defineSetting({ key: 'show-metabot', type: 'boolean', visibility: 'public', default: true, description: 'Enables Metabot character on the home page' });
defineSetting({ key: 'landing-page', type: 'string', visibility: 'public', default: '', description: 'Default page to show people when they log in.' });
defineSetting({ key: 'help-link', type: 'keyword', visibility: 'public', default: 'metabase', description: 'Keyword setting to control whitelabeling of the help link.' });
defineSetting({ key: 'help-link-custom-destination', type: 'string', visibility: 'public', default: 'https://www.metabase.com/help/premium', description: 'Custom URL for the help link.' });
defineSetting({ key: 'show-lighthouse-illustration', type: 'boolean', visibility: 'public', default: true, description: 'Display the lighthouse illustration on the home and login pages.' });
defineSetting({ key: 'show-metabase-links', type: 'boolean', visibility: 'public', default: true, description: 'Whether or not to display Metabase links outside admin settings.' });
defineSetting({ key: 'custom-formatting', type: 'json', visibility: 'public', default: {}, description: 'Object keyed by type, containing formatting settings' });
defineSetting({ key: 'custom-geojson', type: 'json', visibility: 'public', default: {}, description: 'JSON containing information about custom GeoJSON files for use in map visualizations instead of the default US State or World GeoJSON.' });
defineSetting({ key: 'map-tile-server-url', type: 'string', visibility: 'public', default: 'https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png', description: 'The map tile server URL template used in map visualizations, for example from OpenStreetMaps or MapBox.' });
defineSetting({ key: 'humanization-strategy', type: 'keyword', visibility: 'admin', default: 'simple', description: 'To make table and field names more human-friendly, Metabase will replace dashes and underscores in them with spaces.' });

// ----- versions and capabilities ----------------------------------------------------------------------
defineSetting({ key: 'version', type: 'json', visibility: 'public', description: "Metabase's version info", getter: () => METABASE_COMPATIBLE_VERSION });
defineSetting({ key: 'quarry-version', type: 'json', visibility: 'public', description: "Quarry's own version.", getter: () => QUARRY_VERSION });
defineSetting({ key: 'version-info', type: 'json', visibility: 'admin', default: null, readOnly: true, description: 'Information about available versions of Metabase.' });
defineSetting({ key: 'engines', type: 'json', visibility: 'public', description: 'Available database engines', getter: () => engineDescriptors() });
defineSetting({ key: 'token-features', type: 'json', visibility: 'public', description: 'Features registered for this instance’s token', getter: () => TOKEN_FEATURES });
defineSetting({ key: 'is-hosted?', type: 'boolean', visibility: 'public', description: 'Is the Metabase instance running in the cloud?', getter: () => false });
defineSetting({ key: 'snowplow-enabled', type: 'boolean', visibility: 'public', description: 'Boolean indicating whether analytics events are being sent to Snowplow.', getter: () => false });
defineSetting({ key: 'anon-tracking-enabled', type: 'boolean', visibility: 'public', default: true, description: 'Enable the collection of anonymous usage data in order to help Metabase improve.' });
defineSetting({ key: 'check-for-updates', type: 'boolean', visibility: 'admin', default: true, description: 'Identify when new versions of Metabase are available.' });
const activeUserCounts = new PerContextCache<number>(CALLER_TTL_MS);
onCallerChange(() => activeUserCounts.clearAll());
defineSetting({ key: 'active-users-count', type: 'integer', visibility: 'admin', description: 'Number of active users (excluding internal and API-key users).',
  // Every admin's GET /api/session/properties reads it: kept as long as a caller is, cleared by any change to users.
  getter: (ctx) =>
    activeUserCounts.of(ctx).get('n', async () => {
      const row = await ctx.db.selectFrom('core_user').select((eb) => eb.fn.countAll<number>().as('n')).where('is_active', '=', true).where('type', '=', 'personal').executeTakeFirst();
      return Number(row?.n ?? 0);
    }),
});

// ----- setup --------------------------------------------------------------------------------------------
defineSetting({
  key: 'setup-token',
  type: 'string',
  visibility: 'public',
  description: 'A token used to signify that an instance has permissions to create the initial User. This is created upon the first launch of Metabase, by the first instance; once used, it is cleared out, never to be used again.',
  // Shown only while no user exists: a setup token that stays readable after setup is how CVE-2023-38646 happened.
  getter: async (ctx) => {
    if (await hasUserSetup(ctx)) return null;
    const fromEnv = ctx.config.env.MB_SETUP_TOKEN;
    if (fromEnv) return fromEnv;
    const row = await ctx.db.selectFrom('setting').select('value').where('key', '=', 'setup-token').executeTakeFirst();
    return row?.value ?? null;
  },
});
defineSetting({ key: 'has-user-setup', type: 'boolean', visibility: 'public', description: 'A value that is true iff the metabase instance has one or more users registered.', getter: (ctx) => hasUserSetup(ctx) });

// ----- authentication ------------------------------------------------------------------------------------
defineSetting({ key: 'password-complexity', type: 'json', visibility: 'public', description: 'Current password complexity requirements', getter: (ctx) => passwordComplexityDescription(ctx.config) });
defineSetting({ key: 'enable-password-login', type: 'boolean', visibility: 'public', default: true, description: 'Allow logging in by email and password.' });
defineSetting({ key: 'session-cookies', type: 'boolean', visibility: 'public', default: null, description: 'When set, enforces the use of session cookies for all users which expire when the browser is closed.' });
defineSetting({ key: 'session-cookie-samesite', type: 'keyword', visibility: 'admin', default: 'lax', description: 'Value for the session cookie’s `SameSite` directive.',
  validate: (value) => {
    const v = String(value).toLowerCase();
    if (!['lax', 'strict', 'none'].includes(v)) throw badRequest('Invalid value for session cookie samesite');
    return v;
  },
});
defineSetting({ key: 'session-timeout', type: 'json', visibility: 'admin', default: null, description: 'Time before inactive users are logged out. By default, sessions last indefinitely.' });
defineSetting({ key: 'source-address-header', type: 'string', visibility: 'admin', default: 'X-Forwarded-For', description: 'Identify the source of HTTP requests by this header’s value, instead of its remote address.' });
defineSetting({ key: 'reset-token-ttl-hours', type: 'integer', visibility: 'admin', default: 48, range: { min: 'positive' }, description: 'Number of hours a password reset is considered valid.' });
defineSetting({ key: 'google-auth-client-id', type: 'string', visibility: 'public', default: null, description: 'Client ID for Google Sign-In.' });
defineSetting({ key: 'google-auth-enabled', type: 'boolean', visibility: 'public', default: false, description: 'Is Google Sign-in currently enabled?' });
defineSetting({ key: 'ldap-enabled', type: 'boolean', visibility: 'public', default: false, description: 'Is LDAP currently enabled?' });
defineSetting({ key: 'ldap-configured?', type: 'boolean', visibility: 'public', description: 'Have the mandatory LDAP settings (host and user search base) been validated and saved?', getter: () => false });
defineSetting({ key: 'user-visibility', type: 'keyword', visibility: 'admin', default: 'all', description: 'Which users a person sees when picking recipients: all, group or none.',
  validate: (value) => {
    const v = String(value);
    if (!['all', 'group', 'none'].includes(v)) throw badRequest('user-visibility must be one of all, group, none');
    return v;
  },
});
defineSetting({ key: 'redirect-all-requests-to-https', type: 'boolean', visibility: 'admin', default: false, description: 'Force all traffic to use HTTPS via a redirect, if the site URL is HTTPS' });

// Email settings live with the code that sends email: src/notify/email/settings.ts.

// ----- sharing and embedding ------------------------------------------------------------------------------
defineSetting({ key: 'enable-public-sharing', type: 'boolean', visibility: 'authenticated', default: true, description: 'Enable admins to create publicly viewable links (and embeddable iframes) for Questions and Dashboards?' });
defineSetting({ key: 'enable-embedding', type: 'boolean', visibility: 'authenticated', default: false, description: 'Allow admins to securely embed questions and dashboards within other applications?', onChange: ensureEmbeddingSecret });
defineSetting({ key: 'enable-embedding-static', type: 'boolean', visibility: 'authenticated', default: false, description: 'Enable static embedding (signed JWT embeds).', onChange: ensureEmbeddingSecret });
defineSetting({ key: 'enable-embedding-interactive', type: 'boolean', visibility: 'authenticated', default: false, description: 'Enable interactive embedding.' });
defineSetting({ key: 'enable-embedding-sdk', type: 'boolean', visibility: 'authenticated', default: false, description: 'Enable the embedding SDK.' });
defineSetting({ key: 'embedding-app-origin', type: 'string', visibility: 'public', default: null, description: 'Allow this origin to embed the full Metabase application.' });
defineSetting({ key: 'embedding-app-origins-interactive', type: 'string', visibility: 'public', default: null, description: 'Allow these space delimited origins to embed Metabase interactive.' });
defineSetting({ key: 'embedding-app-origins-sdk', type: 'string', visibility: 'public', default: null, description: 'Allow Metabase SDK access to these space delimited origins.' });
defineSetting({
  key: 'embedding-secret-key',
  type: 'string',
  // Not a `sensitive` setting in Metabase: an admin reads it in full, to paste it into the embedding application.
  visibility: 'admin',
  default: null,
  description: 'Secret key used to sign JSON Web Tokens for requests to `/api/embed` endpoints.',
  validate: (value) => {
    if (!/^[0-9a-fA-F]{64}$/.test(String(value))) {
      throw badRequest('Invalid embedding-secret-key! Secret key must be a hexadecimal-encoded 256-bit key (i.e., a 64-character string).');
    }
    return value;
  },
});
defineSetting({ key: 'premium-embedding-token', type: 'string', visibility: 'admin', default: null, sensitive: true, description: 'Token for premium features. Go to the MetaStore to get yours!' });

// ----- outbound requests --------------------------------------------------------------------------------------
defineSetting({
  key: 'http-channel-host-strategy',
  type: 'keyword',
  visibility: 'admin',
  default: 'external-only',
  description: 'Which hosts outbound requests (HTTP actions) may reach: external-only (public addresses), allow-private (also private networks, never loopback or link-local) or allow-all.',
  validate: (value) => {
    if (!HOST_POLICIES.includes(value as HostPolicy)) throw badRequest(`Invalid value for http-channel-host-strategy: ${JSON.stringify(value)}. Use one of: ${HOST_POLICIES.join(', ')}.`);
    return value;
  },
});

// ----- querying -------------------------------------------------------------------------------------------
defineSetting({ key: 'report-timezone', type: 'string', visibility: 'settings-manager', default: null, description: 'Connection timezone to use when executing queries. Defaults to system timezone.',
  validate: (value) => {
    if (!TIMEZONES.includes(String(value)) && String(value) !== 'UTC') throw badRequest(`Invalid timezone: ${JSON.stringify(value)}`);
    return value;
  },
  // schedules read in the report time zone must not take the change for missed occurrences
  onChange: (ctx) => ctx.settings.set('report-timezone-changed-at', new Date().toISOString(), null),
});
defineSetting({ key: 'report-timezone-changed-at', type: 'string', visibility: 'internal', default: null, description: 'When report-timezone last changed: schedules read in it never fire for a time before that.' });
defineSetting({ key: 'report-timezone-short', type: 'string', visibility: 'public', description: 'Current report timezone abbreviation',
  getter: async (ctx) => timezoneName((await ctx.settings.getString('report-timezone')) ?? 'UTC', 'short'),
});
defineSetting({ key: 'report-timezone-long', type: 'string', visibility: 'public', description: 'Current report timezone string',
  getter: async (ctx) => (await ctx.settings.getString('report-timezone')) ?? (systemZone ??= Intl.DateTimeFormat().resolvedOptions().timeZone),
});
defineSetting({ key: 'start-of-week', type: 'keyword', visibility: 'public', default: 'sunday', description: 'This will affect things like grouping by week or filtering in GUI queries. It won’t affect most SQL queries, although it is used to set the WEEK_START session variable in Snowflake.',
  validate: (value) => {
    const v = String(value).toLowerCase();
    if (!['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].includes(v)) throw badRequest('Invalid start-of-week');
    return v;
  },
});
defineSetting({ key: 'enable-nested-queries', type: 'boolean', visibility: 'authenticated', default: true, description: 'Allow using a saved question or Model as the source for other queries?' });
defineSetting({ key: 'enable-xrays', type: 'boolean', visibility: 'authenticated', default: true, description: 'Allow users to explore data using X-rays' });
defineSetting({ key: 'show-homepage-data', type: 'boolean', visibility: 'authenticated', default: true, description: 'Whether or not to display data on the homepage.' });
defineSetting({ key: 'show-homepage-xrays', type: 'boolean', visibility: 'authenticated', default: true, description: 'Whether or not to display x-ray suggestions on the homepage.' });
defineSetting({ key: 'custom-homepage', type: 'boolean', visibility: 'authenticated', default: false, description: 'Pick a dashboard to serve as the homepage.' });
defineSetting({ key: 'custom-homepage-dashboard', type: 'integer', visibility: 'authenticated', default: null, range: { min: 'positive' }, description: 'ID of dashboard to use as a homepage' });
defineSetting({ key: 'max-results-bare-rows', type: 'integer', visibility: 'authenticated', default: 2000, range: { min: 'positive' }, description: 'Maximum number of rows to return specifically on :rows type queries via the API.' });
defineSetting({ key: 'breakout-bins-num', type: 'integer', visibility: 'authenticated', default: 8, range: { min: 'positive' }, description: 'When using the default binning strategy and a number of bins is not provided, this number will be used as the default.' });
defineSetting({ key: 'breakout-bin-width', type: 'double', visibility: 'authenticated', default: 10.0, range: { min: 'positive' }, description: 'When using the default binning strategy for a field of type Coordinate (such as Latitude and Longitude), this number will be used as the default bin width (in degrees).' });
defineSetting({ key: 'native-query-autocomplete-match-style', type: 'keyword', visibility: 'authenticated', default: 'substring', description: 'Matching style for native query editor’s autocomplete.' });

// ----- user-local preferences --------------------------------------------------------------------------------
for (const [key, type, fallback] of [
  ['last-acknowledged-version', 'string', null],
  ['dismissed-custom-dashboard-toast', 'boolean', false],
  ['dismissed-browse-models-banner', 'boolean', false],
  ['notebook-native-preview-shown', 'boolean', false],
  ['notebook-native-preview-sidebar-width', 'integer', null],
  ['last-used-native-database-id', 'integer', null],
  ['expand-browse-in-nav', 'boolean', true],
  ['expand-bookmarks-in-nav', 'boolean', true],
  ['browse-filter-only-verified-models', 'boolean', true],
  ['browse-filter-only-verified-metrics', 'boolean', true],
  ['show-updated-permission-modal', 'boolean', true],
  ['show-updated-permission-banner', 'boolean', true],
  ['trial-banner-dismissal-timestamp', 'timestamp', null],
  ['sdk-iframe-embed-setup-settings', 'json', null],
] as const) {
  // The two integers are a sidebar width in pixels and a database id.
  const range = type === 'integer' ? { min: 'positive' as const } : undefined;
  defineSetting({ key, type, visibility: 'authenticated', default: fallback, userLocal: 'only', range, description: `User preference ${key}.` });
}

const TOKEN_FEATURES: Record<string, boolean> = Object.fromEntries(
  [
    'advanced_permissions', 'audit_app', 'cache_granular_controls', 'content_verification', 'dashboard_subscription_filters',
    'disable_password_login', 'email_allow_list', 'email_restrict_recipients', 'embedding', 'embedding_sdk', 'hosting',
    'llm_autodescription', 'metabot_v3', 'official_collections', 'sandboxes', 'scim', 'serialization', 'session_timeout_config',
    'snippet_collections', 'sso_google', 'sso_jwt', 'sso_ldap', 'sso_saml', 'upload_management', 'whitelabel',
    'collection_cleanup', 'query_reference_validation', 'cache_preemptive', 'database_routing', 'attached_dwh', 'config_text_file',
  ].map((feature) => [feature, false]),
);

/**
 * `site-url`: an http(s) URL without trailing slashes; a bare host (`example.com:3000/bi`) gets `http://`. Any other
 * scheme (`ftp://x`, which prefixing would have made `http://ftp://x`) and anything whose host[:port] isn't one is a 400.
 */
function siteUrl(value: unknown): string {
  const refuse = () => badRequest(`Invalid site URL: ${JSON.stringify(value)}`);
  const text = String(value).trim().replace(/\/+$/, '');
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1];
  if (scheme !== undefined && !/^https?$/i.test(scheme)) throw refuse();
  const withScheme = scheme === undefined ? `http://${text}` : text;
  const authority = withScheme.slice(withScheme.indexOf('://') + 3).split(/[/?#]/)[0];
  if (!/^(?:[^@\s/]+@)?(?:\[[0-9a-f:.]+\]|[^:@\s/[\]]+)(?::\d{1,5})?$/i.test(authority)) throw refuse();
  try {
    const url = new URL(withScheme);
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw refuse();
  } catch {
    throw refuse();
  }
  return withScheme;
}

// Building an Intl formatter costs far more than using one, and /api/session/properties reads these on every call.
const zoneNameFormats = new Map<string, Intl.DateTimeFormat | null>();
let systemZone: string | null = null;

function timezoneName(zone: string, style: 'short' | 'long'): string {
  const key = `${zone} ${style}`;
  let format = zoneNameFormats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: style });
    } catch {
      format = null;
    }
    if (zoneNameFormats.size > 100) zoneNameFormats.clear();
    zoneNameFormats.set(key, format);
  }
  // The name is of now: it changes with daylight saving time.
  return format?.formatToParts(new Date()).find((p) => p.type === 'timeZoneName')?.value ?? zone;
}
