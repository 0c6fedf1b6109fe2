// The route table: Metabase's URL space, so links that Metabase clients, emails and embedding code build open the
// right page. Each page is its own file under pages/, loaded only when visited (React.lazy), so the charting and
// SQL-editing code stays out of the first download.
//   no frame, no session:  /setup, /auth/…, /unsubscribe, /public/…, /embed/…
//   signed-in, in the app frame (components/AppFrame.tsx): everything else

import { lazy, Suspense, type ComponentType } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { CenteredLoader } from './components/CenteredLoader';
import { RequireUser } from './components/RequireUser';
import { AppFrame } from './components/AppFrame';

const page = (load: () => Promise<{ default: ComponentType<any> }>) => lazy(load);

const SetupPage = page(() => import('./pages/SetupPage'));
const LoginPage = page(() => import('./pages/LoginPage'));
const ForgotPasswordPage = page(() => import('./pages/ForgotPasswordPage'));
const ResetPasswordPage = page(() => import('./pages/ResetPasswordPage'));
const LogoutPage = page(() => import('./pages/LogoutPage'));
const UnsubscribePage = page(() => import('./pages/UnsubscribePage'));
const HomePage = page(() => import('./pages/HomePage'));
const BrowseDatabasesPage = page(() => import('./pages/BrowseDatabasesPage'));
const BrowseDatabasePage = page(() => import('./pages/BrowseDatabasePage'));
const CollectionPage = page(() => import('./pages/CollectionPage'));
const TrashPage = page(() => import('./pages/TrashPage'));
const SearchPage = page(() => import('./pages/SearchPage'));
const loadQuestionPage = () => import('./pages/QuestionPage');
const loadDashboardPage = () => import('./pages/DashboardPage');
const loadAutoDashboardPage = () => import('./pages/AutoDashboardPage');
const QuestionPage = page(loadQuestionPage);
const DashboardPage = page(loadDashboardPage);
const AutoDashboardPage = page(loadAutoDashboardPage);

/**
 * Starts downloading the page a link opens while the session loads, instead of after it (the heavy pages people
 * open from emails and links).
 */
export function preloadPageOf(pathname: string): void {
  if (pathname.startsWith('/dashboard/')) void loadDashboardPage();
  else if (pathname.startsWith('/question') || pathname.startsWith('/model/')) void loadQuestionPage();
  else if (pathname.startsWith('/auto/dashboard/')) void loadAutoDashboardPage();
}
const PublicQuestionPage = page(() => import('./pages/PublicQuestionPage'));
const PublicDashboardPage = page(() => import('./pages/PublicDashboardPage'));
const EmbedQuestionPage = page(() => import('./pages/EmbedQuestionPage'));
const EmbedDashboardPage = page(() => import('./pages/EmbedDashboardPage'));
const NotFoundPage = page(() => import('./pages/NotFoundPage'));

function SignedInRoutes() {
  return (
    <RequireUser>
      <AppFrame>
        <Suspense fallback={<CenteredLoader />}>
          <Switch>
            <Route path="/" component={HomePage} />
            <Route path="/browse">{() => <Redirect to="/browse/databases" replace />}</Route>
            <Route path="/browse/databases" component={BrowseDatabasesPage} />
            <Route path="/browse/databases/:slug" component={BrowseDatabasePage} />
            <Route path="/collection/root">{() => <CollectionPage params={{ slug: 'root' }} />}</Route>
            <Route path="/collection/:slug" component={CollectionPage} />
            <Route path="/trash" component={TrashPage} />
            <Route path="/search" component={SearchPage} />
            <Route path="/question" component={QuestionPage} />
            <Route path="/question/:slug" component={QuestionPage} />
            <Route path="/question/:slug/*" component={QuestionPage} />
            <Route path="/model/:slug" component={QuestionPage} />
            <Route path="/dashboard/:slug" component={DashboardPage} />
            <Route path="/auto/dashboard/*" component={AutoDashboardPage} />
            <Route component={NotFoundPage} />
          </Switch>
        </Suspense>
      </AppFrame>
    </RequireUser>
  );
}

export function AppRoutes() {
  return (
    <Suspense fallback={<CenteredLoader />}>
      <Switch>
        <Route path="/setup" component={SetupPage} />
        <Route path="/auth/login" component={LoginPage} />
        <Route path="/auth/logout" component={LogoutPage} />
        <Route path="/auth/forgot_password" component={ForgotPasswordPage} />
        <Route path="/auth/reset_password/:token" component={ResetPasswordPage} />
        <Route path="/unsubscribe" component={UnsubscribePage} />
        <Route path="/public/question/:uuid" component={PublicQuestionPage} />
        <Route path="/public/dashboard/:uuid" component={PublicDashboardPage} />
        <Route path="/embed/question/:token" component={EmbedQuestionPage} />
        <Route path="/embed/dashboard/:token" component={EmbedDashboardPage} />
        <Route component={SignedInRoutes} />
      </Switch>
    </Suspense>
  );
}
