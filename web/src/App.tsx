// The app's frame: Mantine's theme, the session, the 401 → sign-in redirect, and the route table (./routes.tsx).

import { MantineProvider, createTheme } from '@mantine/core';
import { useEffect } from 'react';
import { setUnauthorizedHandler } from './api/client';
import { SessionProvider, useSession } from './lib/session';
import { AppRoutes } from './routes';
import { CenteredLoader } from './components/CenteredLoader';
import { isSharedPage, parseHashOptions } from './lib/hash-options';
import { useHash } from './lib/useHash';
import { ErrorPage } from './components/ErrorPage';

const theme = createTheme({ primaryColor: 'blue', defaultRadius: 'md' });

/** A 401 from any signed-in request forgets the person; the page guard then sends them to sign-in. */
function UnauthorizedRedirect() {
  const { forgetUser } = useSession();
  useEffect(() => {
    setUnauthorizedHandler(forgetUser);
    return () => setUnauthorizedHandler(null);
  }, [forgetUser]);
  return null;
}

/** `#theme=night` on a public or embed page: Mantine's dark scheme. Elsewhere the app stays light. */
function useColorScheme(): 'light' | 'dark' {
  const hash = useHash();
  return isSharedPage(window.location.pathname) && parseHashOptions(hash).theme === 'night' ? 'dark' : 'light';
}

export function App() {
  return (
    <MantineProvider theme={theme} forceColorScheme={useColorScheme()}>
      <SessionProvider fallback={<CenteredLoader />} failed={(error) => <ErrorPage title="Quarry can't be reached" message={error.message} />}>
        <UnauthorizedRedirect />
        <AppRoutes />
      </SessionProvider>
    </MantineProvider>
  );
}
