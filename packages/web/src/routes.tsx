// The route table (spec section 2): every path, its layout and its page, read top to bottom; first match wins.
import { Suspense, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { AnyLayout } from './components/AnyLayout';
import { loadCodeMirror } from './components/code/useCodeMirror';
import { ErrorBoundary } from './components/ErrorBoundary';
import { PublicLayout } from './components/PublicLayout';
import { SignedInLayout } from './components/SignedInLayout';
import { Spinner } from './components/Spinner';
import { type LazyPage, lazyPage } from './lib/lazyPage';
import { matchPath, type PageProps, type PathParams } from './lib/matchPath';
import { prefetchSession } from './hooks/useSession';
import { registerPreloads } from './lib/preload';
import NotFoundPage from './pages/NotFoundPage';

type Layout = 'public' | 'signed-in' | 'bare';

interface RouteDef {
  patterns: readonly string[];
  layout: Layout;
  page: LazyPage<PageProps>;
  /** Data the page will ask for, started as soon as the route matches. */
  prefetch?: (params: PathParams) => void;
}

const sessionData = (params: PathParams) => prefetchSession(params.kernelId);
/** Pages that show code ask for CodeMirror's chunk beside their own (components/code/useCodeMirror.ts). */
const code = () => void loadCodeMirror().catch(() => {});
const sessionDataAndCode = (params: PathParams) => {
  sessionData(params);
  code();
};

const page = (load: () => Promise<{ default: (props: PageProps) => React.ReactNode }>) => lazyPage<PageProps>(load);

export const routes: readonly RouteDef[] = [
  { patterns: ['/'], layout: 'public', page: page(() => import('./pages/LoginPage')) },
  { patterns: ['/verify-email'], layout: 'public', page: page(() => import('./pages/VerifyEmailPage')) },
  { patterns: ['/magic-link-login'], layout: 'public', page: page(() => import('./pages/MagicLinkLoginPage')) },
  { patterns: ['/admin', '/admin/'], layout: 'signed-in', page: page(() => import('./pages/AdminPage')) },
  { patterns: ['/admin/:section'], layout: 'signed-in', page: page(() => import('./pages/AdminToolsPage')) },
  { patterns: ['/tokens', '/tokens/'], layout: 'signed-in', page: page(() => import('./pages/TokensPage')) },
  { patterns: ['/account'], layout: 'signed-in', page: page(() => import('./pages/AccountPage')) },
  {
    patterns: ['/account/confirm-email'],
    layout: 'signed-in',
    page: page(() => import('./pages/ConfirmEmailPage')),
  },
  { patterns: ['/notices'], layout: 'signed-in', page: page(() => import('./pages/NoticesPage')) },
  { patterns: ['/sessions', '/sessions/'], layout: 'signed-in', page: page(() => import('./pages/MySessionsPage')) },
  {
    patterns: ['/leaderboard', '/leaderboard/'],
    layout: 'signed-in',
    page: page(() => import('./pages/LeaderboardsPage')),
  },
  {
    patterns: ['/leaderboard/submission/:a/compare/:b'],
    layout: 'signed-in',
    page: page(() => import('./pages/SubmissionComparePage')),
    prefetch: code,
  },
  {
    patterns: ['/leaderboard/submission/:submissionId'],
    layout: 'signed-in',
    page: page(() => import('./pages/SubmissionPage')),
    prefetch: code,
  },
  { patterns: ['/leaderboard/:problemId'], layout: 'signed-in', page: page(() => import('./pages/LeaderboardPage')) },
  { patterns: ['/sweeps', '/sweeps/'], layout: 'signed-in', page: page(() => import('./pages/SweepsPage')) },
  { patterns: ['/sweeps/compare'], layout: 'signed-in', page: page(() => import('./pages/SweepComparePage')) },
  { patterns: ['/sweeps/:sweepId'], layout: 'signed-in', page: page(() => import('./pages/SweepPage')) },
  { patterns: ['/agents', '/agents/'], layout: 'signed-in', page: page(() => import('./pages/AgentsLeaderboardPage')) },
  { patterns: ['/kernels', '/kernels/'], layout: 'signed-in', page: page(() => import('./pages/KernelsIndexPage')) },
  {
    patterns: ['/kernels/generate-kernel'],
    layout: 'signed-in',
    page: page(() => import('./pages/GenerateKernelPage')),
  },
  {
    patterns: ['/kernels/submit'],
    layout: 'signed-in',
    page: page(() => import('./pages/SubmitPage')),
    prefetch: code,
  },
  {
    patterns: ['/kernels/:kernelId'],
    layout: 'signed-in',
    page: page(() => import('./pages/SessionPage')),
    prefetch: sessionData,
  },
  { patterns: ['/kernels/:kernelId/'], layout: 'bare', page: page(() => import('./pages/BestAttemptRedirectPage')) },
  {
    patterns: ['/kernels/:kernelId/attempts', '/kernels/:kernelId/attempts/'],
    layout: 'signed-in',
    page: page(() => import('./pages/AttemptsPage')),
    prefetch: sessionData,
  },
  {
    patterns: ['/kernels/:kernelId/attempts/:attemptId'],
    layout: 'signed-in',
    page: page(() => import('./pages/AttemptPage')),
    prefetch: sessionDataAndCode,
  },
  {
    patterns: ['/kernels/:kernelId/compare/:a/:b'],
    layout: 'signed-in',
    page: page(() => import('./pages/ComparePage')),
    prefetch: sessionDataAndCode,
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

let startedFor: string | undefined;

/** On a new location: fetch the page chunk and the page's data now, in parallel with the layout's user check. */
function startLoading(location: string, found: { route: RouteDef; params: PathParams }): void {
  if (startedFor === location) return;
  startedFor = location;
  void found.route.page.preload().catch(() => {});
  found.route.prefetch?.(found.params);
}

export function AppRoutes() {
  const [location] = useLocation();
  const found = findRoute(location);
  if (!found)
    return (
      <AnyLayout>
        <NotFoundPage />
      </AnyLayout>
    );
  startLoading(location, found);
  const Layout = LAYOUTS[found.route.layout];
  return (
    <Layout>
      <ErrorBoundary resetKey={location}>
        <Suspense fallback={<Spinner />}>
          <RoutePage page={found.route.page} params={found.params} />
        </Suspense>
      </ErrorBoundary>
    </Layout>
  );
}

/**
 * Renders the page once its chunk is in. Waiting here rather than suspending avoids React's 300 ms throttle
 * on revealing Suspense content; a chunk that fails to load goes through React.lazy, whose error the
 * boundary shows.
 */
function RoutePage({ page, params }: { page: LazyPage<PageProps>; params: PathParams }) {
  const [failed, setFailed] = useState(false);
  const [, setLoadedTick] = useState(0);
  const Page = page.loaded();
  useEffect(() => {
    if (Page) return;
    let live = true;
    page.preload().then(
      () => live && setLoadedTick((n) => n + 1),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [Page, page]);
  if (Page) return <Page params={params} />;
  if (failed) {
    const Lazy = page;
    return <Lazy params={params} />;
  }
  return <Spinner />;
}
