// Signs the test browser in as an API client's user: Metabase's session cookie, as POST /api/session would set it.

import type { BrowserSession } from './browser.js';
import type { Client } from '../helpers/client.js';

export async function signIn(session: BrowserSession, client: Client): Promise<void> {
  if (!client.session) throw new Error('the client has no session');
  await session.context.addCookies([{ name: 'metabase.SESSION', value: client.session, url: session.server.url, httpOnly: true }]);
}
