// The route table (spec section 2): every path, its layout and its page, read top to bottom; first match wins.
import { Suspense } from 'react';
import { useLocation } from 'wouter';
import { ErrorBoundary } from './components/ErrorBoundary';
import { PublicLayout } from './components/PublicLayout';
import { SignedInLayout } from './components/SignedInLayout';
import { Spinner } from './components/Spinner';
import { type LazyPage, lazyPage } from './lib/lazyPage';
import { matchPath, type PathParams } from './lib/matchPath';
import { registerPreloads } from './lib/preload';
import NotFoundPage from './pages/NotFoundPage';

export interface PageProps {
  params: PathParams;
}

type Layout = 'public' | 'signed-in' | 'bare';

interface RouteDef {
  patterns: readonly string[];
  layout: Layout;
  page: LazyPage<PageProps>;
}

const page = (load: () => Promise<{ default: (props: PageProps) => React.ReactNode }>) => lazyPage<PageProps>(load);

export const routes: readonly RouteDef[] = [
  { patterns: ['/'], layout: 'public', page: page(() => import('./pages/LoginPage')) },
  { patterns: ['/verify-email'], layout: 'public', page: page(() => import('./pages/VerifyEmailPage')) },
  { patterns: ['/magic-link-login'], layout: 'public', page: page(() => import('./pages/MagicLinkLoginPage')) },
  { patterns: ['/admin', '/admin/'], layout: 'signed-in', page: page(() => import('./pages/AdminPage')) },
  { patterns: ['/tokens', '/tokens/'], layout: 'signed-in', page: page(() => import('./pages/TokensPage')) },
  { patterns: ['/leaderboard', '/leaderboard/'], layout: 'signed-in', page: page(() => import('./pages/LeaderboardsPage')) },
  {
    patterns: ['/leaderboard/submission/:submissionId'],
    layout: 'signed-in',
    page: page(() => import('./pages/SubmissionPage')),
  },
  { patterns: ['/leaderboard/:problemId'], layout: 'signed-in', page: page(() => import('./pages/LeaderboardPage')) },
  { patterns: ['/kernels', '/kernels/'], layout: 'signed-in', page: page(() => import('./pages/KernelsIndexPage')) },
  { patterns: ['/kernels/generate-kernel'], layout: 'signed-in', page: page(() => import('./pages/GenerateKernelPage')) },
  { patterns: ['/kernels/submit'], layout: 'signed-in', page: page(() => import('./pages/SubmitPage')) },
  { patterns: ['/kernels/:kernelId'], layout: 'signed-in', page: page(() => import('./pages/SessionPage')) },
  { patterns: ['/kernels/:kernelId/'], layout: 'bare', page: page(() => import('./pages/BestAttemptRedirectPage')) },
  {
    patterns: ['/kernels/:kernelId/attempts', '/kernels/:kernelId/attempts/'],
    layout: 'signed-in',
    page: page(() => import('./pages/AttemptsPage')),
  },
  {
    patterns: ['/kernels/:kernelId/attempts/:attemptId'],
    layout: 'signed-in',
    page: page(() => import('./pages/AttemptPage')),
  },
];

registerPreloads(routes.map((route) => ({ patterns: route.patterns, preload: route.page.preload })));

export function findRoute(pathname: string): { route: RouteDef; params: PathParams } | undefined {
  for (const route of routes) {
    for (const pattern of route.patterns) {
      const params = matchPath(pattern, pathname);
      if (params) return { route, params };
    }
  }
  return undefined;
}

const LAYOUTS: Record<Layout, (props: { children: React.ReactNode }) => React.ReactNode> = {
  public: PublicLayout,
  'signed-in': SignedInLayout,
  bare: ({ children }) => <>{children}</>,
};

export function AppRoutes() {
  const [location] = useLocation();
  const found = findRoute(location);
  if (!found) return <NotFoundPage />;
  const Layout = LAYOUTS[found.route.layout];
  const Page = found.route.page;
  return (
    <Layout>
      <ErrorBoundary resetKey={location}>
        <Suspense fallback={<Spinner />}>
          <Page params={found.params} />
        </Suspense>
      </ErrorBoundary>
    </Layout>
  );
}
