// The product spec (sections 2 to 9) walked line by line in real Chromium against the real server: routes and
// titles, redirects, the token rule, 401 handling, error views, storage keys, theme, toasts, calls and keyboard.
import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expiredJwt, type Harness, openPage, shoot, startHarness } from './harness';

let h: Harness;
let user: { email: string; password: string; token: string; id: string };
let session: { id: string; label: string; attemptId: string; attemptNumber: number };

const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** Unexpired by its exp claim, but not signed by the server: the server answers 401. */
const forgedJwt = () =>
  `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ sub: 'x', exp: Math.floor(Date.now() / 1000) + 3600 })}.sig`;

interface WireSession {
  id: string;
  label: string;
  generation_attempts: { id: string; attempt_number: number; status: string }[];
}

beforeAll(async () => {
  h = await startHarness();
  const password = 'spec walk password';
  const created = await h.server.createUser({ password, full_name: 'Spec Walker' });
  user = { email: created.user.email, password, token: created.token, id: created.user.id };
  const devices = (await (await h.server.request('/api/v1/devices', { token: user.token })).json()) as {
    data: { id: string }[];
  };
  const res = await h.server.request('/api/v1/agent-session', {
    method: 'POST',
    token: user.token,
    json: { problem_name: '19_ReLU', device: devices.data[0]?.id, max_attempts: 1 },
  });
  if (!res.ok) throw new Error(`create session: ${res.status} ${await res.text()}`);
  const id = ((await res.json()) as WireSession).id;
  for (let i = 0; i < 200; i++) {
    const body = (await (
      await h.server.request(`/api/v1/agent-session/${id}`, { token: user.token })
    ).json()) as WireSession;
    const done = body.generation_attempts.find((a) => a.status === 'completed');
    if (done) {
      session = { id, label: body.label, attemptId: done.id, attemptNumber: done.attempt_number };
      return;
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error('the session never completed an attempt');
}, 180_000);

afterAll(async () => {
  await h?.close();
});

const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

async function waitForPath(page: Page, expected: string | RegExp, timeout = 10_000): Promise<void> {
  await page.waitForURL(
    (url) => {
      const path = `${url.pathname}${url.search}`;
      return typeof expected === 'string' ? path === expected : expected.test(path);
    },
    { timeout },
  );
}

const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem('access_token'));
const toastTexts = (page: Page) => page.locator('[data-sonner-toast]').allInnerTexts();

async function withPage(token: string | undefined, fn: (page: Page, context: BrowserContext) => Promise<void>) {
  const { context, page } = await openPage(h, token);
  try {
    await fn(page, context);
  } finally {
    await context.close();
  }
}

describe('public routes', () => {
  it("requires a non-empty token on /verify-email and /magic-link-login: 'Token is required'", async () => {
    await withPage(undefined, async (page) => {
      for (const path of ['/verify-email', '/verify-email?token=', '/magic-link-login', '/magic-link-login?token=']) {
        await page.goto(path);
        await page.getByRole('alert').filter({ hasText: 'Token is required' }).waitFor();
        expect(pathOf(page)).toBe(path);
      }
      await shoot(page, 'token-required');
    });
  });

  it('sends a signed-in user from /, /kernels and /kernels/ to /kernels/generate-kernel, and / honours redirect=', async () => {
    await withPage(user.token, async (page) => {
      for (const path of ['/', '/kernels/', '/kernels']) {
        await page.goto(path);
        await waitForPath(page, '/kernels/generate-kernel');
        await page.getByRole('heading', { name: 'New kernel', exact: true }).waitFor();
      }
      expect(await page.title()).toBe('New kernel');
      await page.goto('/?login=1&redirect=%2Fleaderboard%2F');
      await waitForPath(page, '/leaderboard/');
    });
  });
});

describe('the signed-in guard and the login redirect', () => {
  it("sends an anonymous visitor to /?login=1&redirect=<pathname> with 'Unauthorized, please login again'", async () => {
    await withPage(undefined, async (page) => {
      const routes = [
        '/tokens/',
        '/leaderboard/',
        '/leaderboard/19_ReLU',
        '/admin',
        '/admin/',
        '/kernels/',
        '/kernels/generate-kernel',
        '/kernels/submit',
        '/kernels/xyz',
        '/kernels/xyz/attempts',
        '/kernels/xyz/attempts/abc',
      ];
      for (const route of routes) {
        await page.goto(route);
        await waitForPath(page, `/?login=1&redirect=${encodeURIComponent(route)}`);
        await page.locator('[data-sonner-toast]').filter({ hasText: 'Unauthorized, please login again' }).waitFor();
      }
      await shoot(page, 'login-redirect');
    });
  });

  it('returns to the redirect target after logging in there', async () => {
    await withPage(undefined, async (page) => {
      await page.goto('/kernels/submit');
      await waitForPath(page, '/?login=1&redirect=%2Fkernels%2Fsubmit');
      await page.getByLabel('Email', { exact: true }).fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await waitForPath(page, '/kernels/submit');
      await page.getByRole('heading', { name: 'Submit a solution' }).waitFor();
      expect(await storedToken(page)).toBeTruthy();
    });
  });

  it('logs in to /kernels/generate-kernel without a redirect', async () => {
    await withPage(undefined, async (page) => {
      await page.goto('/');
      await page.getByLabel('Email', { exact: true }).fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await waitForPath(page, '/kernels/generate-kernel');
    });
  });

  it('removes an expired or unreadable stored token on load and treats the visitor as logged out', async () => {
    for (const token of [expiredJwt(), 'not-a-token']) {
      await withPage(token, async (page) => {
        await page.goto('/');
        await page.getByRole('tab', { name: 'Log in' }).waitFor();
        expect(pathOf(page)).toBe('/');
        expect(await storedToken(page)).toBeNull();
        expect(await toastTexts(page)).toEqual([]);
      });
    }
  });

  it('turns a 401 from users/me into the toast, a removed token and redirect=<current path>', async () => {
    await withPage(forgedJwt(), async (page) => {
      await page.goto('/leaderboard/19_ReLU');
      await waitForPath(page, '/?login=1&redirect=%2Fleaderboard%2F19_ReLU');
      await page.locator('[data-sonner-toast]').filter({ hasText: 'Unauthorized, please login again' }).waitFor();
      expect(await storedToken(page)).toBeNull();
    });
  });

  it('turns a 401 on a product query into the toast, a removed token and redirect=<current path>', async () => {
    await withPage(user.token, async (page) => {
      await page.route('**/api/v1/leaderboard?*', (route) =>
        route.fulfill({ status: 401, contentType: 'application/json', body: '{"detail":"Could not validate"}' }),
      );
      await page.goto('/leaderboard/');
      await waitForPath(page, '/?login=1&redirect=%2Fleaderboard%2F');
      await page.locator('[data-sonner-toast]').filter({ hasText: 'Unauthorized, please login again' }).waitFor();
      expect(await storedToken(page)).toBeNull();
    });
  });

  it('logs out: the token is removed and the visitor lands on / without the unauthorized toast', async () => {
    await withPage(user.token, async (page) => {
      await page.goto('/tokens/');
      await page.getByRole('heading', { name: 'User API Tokens' }).waitFor();
      await page.getByRole('button', { name: 'Log out' }).click();
      await waitForPath(page, '/');
      await page.getByRole('tab', { name: 'Log in' }).waitFor();
      expect(await storedToken(page)).toBeNull();
      await page.waitForTimeout(300);
      expect(await toastTexts(page)).toEqual([]);
    });
  });
});

describe('signed-in screens', () => {
  it('titles every screen word for word (heading and document title)', async () => {
    const admin = h.server.admin.token;
    const screens: [string, string, string, string?][] = [
      [admin, '/admin', 'Admin Dashboard', 'admin-dashboard'],
      [user.token, '/tokens/', 'User API Tokens'],
      [user.token, '/leaderboard/', 'Leaderboard'],
      [user.token, '/leaderboard/19_ReLU', 'Problem: 19 ReLU'],
      [user.token, '/kernels/generate-kernel', 'New kernel'],
      [user.token, '/kernels/submit', 'Submit a solution'],
      [user.token, `/kernels/${session.id}`, `Kernel: ${session.label}`, 'kernel'],
      [
        user.token,
        `/kernels/${session.id}/attempts/${session.attemptId}`,
        `Attempt #${session.attemptNumber}`,
        'attempt-detail',
      ],
    ];
    for (const [token, path, title, shot] of screens) {
      await withPage(token, async (page) => {
        await page.goto(path);
        await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
        await page.waitForFunction((t) => document.title === t, title, { timeout: 5000 });
        if (shot) await shoot(page, shot);
      });
    }
    await withPage(admin, async (page) => {
      await page.goto('/admin/');
      await page.getByRole('heading', { name: 'Admin Dashboard', exact: true }).waitFor();
      await page.getByRole('heading', { name: 'All sessions', exact: true }).waitFor();
    });
  });

  it('sends /kernels/{id}/ to the best attempt; anonymous to /, an unknown id to /kernels/generate-kernel', async () => {
    await withPage(user.token, async (page) => {
      await page.goto(`/kernels/${session.id}/`);
      await waitForPath(page, `/kernels/${session.id}/attempts/${session.attemptId}`);
      await page.getByRole('heading', { name: `Attempt #${session.attemptNumber}` }).waitFor();
      await page.goto('/kernels/00000000-0000-4000-8000-000000000000/');
      await waitForPath(page, '/kernels/generate-kernel');
      await page.goto('/kernels/not-a-session/');
      await waitForPath(page, '/kernels/generate-kernel');
    });
    await withPage(undefined, async (page) => {
      await page.goto(`/kernels/${session.id}/`);
      await waitForPath(page, '/');
    });
  });

  it("shows 'Session not found' through the default error view with Show Error / Hide Error", async () => {
    await withPage(user.token, async (page) => {
      for (const path of ['/kernels/00000000-0000-4000-8000-000000000000/attempts', '/kernels/nosuch/attempts/']) {
        await page.goto(path);
        await page.getByText('Something went wrong!', { exact: true }).waitFor();
        await page.getByRole('button', { name: 'Show Error' }).click();
        await page.getByText('Session not found', { exact: true }).waitFor();
      }
      await shoot(page, 'error-view');
      await page.getByRole('button', { name: 'Hide Error' }).click();
      await page.getByText('Session not found', { exact: true }).waitFor({ state: 'detached' });
      await page.getByRole('button', { name: 'Show Error' }).waitFor();
      // The attempts index of a real session lists its attempts from the session data.
      await page.goto(`/kernels/${session.id}/attempts`);
      await page.getByTestId('attempt-row').first().waitFor();
    });
  });

  it("fails /leaderboard/{problemId} with 'Problem ID is required' for a blank id", async () => {
    await withPage(user.token, async (page) => {
      await page.goto('/leaderboard/%20');
      await page.getByText('Something went wrong!', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Show Error' }).click();
      await page.getByText('Problem ID is required', { exact: true }).waitFor();
    });
  });

  it('makes the calls of spec section 7 with their limits: leaderboards 3 and 100, sessions 50, owner_id', async () => {
    const calls: string[] = [];
    const record = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/v1/')) calls.push(`${request.method()} ${url.pathname}${url.search}`);
    };
    await withPage(h.server.admin.token, async (page) => {
      page.on('request', record);
      await page.goto('/leaderboard/');
      await page.getByRole('heading', { name: 'Leaderboard', exact: true }).waitFor();
      await page.goto('/leaderboard/19_ReLU');
      await page.getByRole('heading', { name: 'Problem: 19 ReLU' }).waitFor();
      await page.goto('/kernels/generate-kernel');
      await page.getByRole('heading', { name: 'New kernel' }).waitFor();
      await page.goto('/admin');
      await page.getByRole('heading', { name: 'All sessions' }).waitFor();
      await page.getByLabel('Owner').selectOption(user.id);
      await page.getByRole('link', { name: session.label }).first().waitFor();
      await page.waitForTimeout(200);
    });
    const has = (pattern: RegExp) =>
      expect(
        calls.some((c) => pattern.test(c)),
        `${pattern} in\n${calls.join('\n')}`,
      );
    has(/^GET \/api\/v1\/leaderboard\?(.*&)?limit=3(&|$)/).toBe(true);
    has(/^GET \/api\/v1\/leaderboard\/19_ReLU\?(.*&)?limit=100(&|$)/).toBe(true);
    has(/^GET \/api\/v1\/agent-session\?(.*&)?limit=50(&|$)/).toBe(true);
    has(/^GET \/api\/v1\/agent-session\/all\?(.*&)?limit=50(&|$)/).toBe(true);
    has(new RegExp(`^GET /api/v1/agent-session/all\\?(.*&)?owner_id=${user.id}(&|$)`)).toBe(true);
    has(/^GET \/api\/v1\/settings$/).toBe(true);
  });
});

describe('pages everyone sees', () => {
  it("shows the 404 page with 'Go back to Home' leading to /", async () => {
    await withPage(undefined, async (page) => {
      for (const path of ['/nope', '/tokens/x/y', '/kernels/a/b/c/d']) {
        await page.goto(path);
        await page.getByRole('heading', { name: '404 - Not Found' }).waitFor();
        await page.getByText('The page you are looking for does not exist.', { exact: true }).waitFor();
      }
      await page.getByRole('link', { name: 'Go back to Home' }).click();
      await waitForPath(page, '/');
      await page.getByRole('tab', { name: 'Log in' }).waitFor();
    });
  });

  it("keeps the theme under 'theme' (default light) and toggles the dark class on <html>", async () => {
    await withPage(undefined, async (page) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor();
      const state = () =>
        page.evaluate(() => [localStorage.getItem('theme'), document.documentElement.classList.contains('dark')]);
      expect(await state()).toEqual(['light', false]);
      await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      expect(await state()).toEqual(['dark', true]);
      await shoot(page, 'login-themed');
      await page.reload();
      await page.getByRole('button', { name: 'Switch to light theme' }).click();
      expect(await state()).toEqual(['light', false]);
      await page.reload();
      await page.getByRole('button', { name: 'Switch to dark theme' }).waitFor();
      expect(await state()).toEqual(['light', false]);
    });
  });
});

describe('toasts', () => {
  it('shows them bottom-right with rich colours, at most 3 at once, for 4000 ms; Alt+T focuses them', async () => {
    await withPage(user.token, async (page) => {
      let n = 0;
      await page.route('**/api/v1/tokens', (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({
              status: 400,
              contentType: 'application/json',
              body: JSON.stringify({ detail: `no ${++n}` }),
            })
          : route.continue(),
      );
      await page.goto('/tokens/');
      await page.getByLabel('Name').fill('x');
      const toaster = page.locator('[data-sonner-toaster]');
      for (let i = 1; i <= 4; i++) {
        await page.getByRole('button', { name: 'Create token' }).click();
        await page
          .locator('[data-sonner-toast]')
          .filter({ hasText: `no ${i}` })
          .waitFor();
      }
      const shown = Date.now();
      expect(await toaster.getAttribute('data-x-position')).toBe('right');
      expect(await toaster.getAttribute('data-y-position')).toBe('bottom');
      expect(await page.locator('[data-sonner-toast][data-rich-colors="true"]').count()).toBeGreaterThan(0);
      expect(await page.locator('[data-sonner-toast]').count()).toBe(4);
      expect(await page.locator('[data-sonner-toast][data-visible="true"]').count()).toBe(3);
      await shoot(page, 'toasts');
      // The newest toast lives 4000 ms (the mouse stays off the toaster, which would pause it).
      const newest = page.locator('[data-sonner-toast]').filter({ hasText: 'no 4' });
      await page.waitForTimeout(3300 - (Date.now() - shown));
      expect(await newest.count()).toBe(1);
      await newest.waitFor({ state: 'detached', timeout: 3000 });
      const lasted = Date.now() - shown;
      expect(lasted).toBeGreaterThanOrEqual(3500);
      expect(lasted).toBeLessThan(5500);
      // Alt+T moves the focus into the toast region.
      await page.getByRole('button', { name: 'Create token' }).click();
      await page.locator('[data-sonner-toast]').filter({ hasText: 'no 5' }).waitFor();
      await page.keyboard.press('Alt+KeyT');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-sonner-toaster]')))).toBe(true);
    });
  }, 30_000);
});

describe('auth errors', () => {
  const user0 = {
    id: 'u',
    email: 'x@example.com',
    full_name: null,
    created_at: new Date().toISOString(),
    is_superuser: false,
  };

  it('shows the fallbacks when the server error has no detail, and the detail when it has one', async () => {
    await withPage(undefined, async (page) => {
      let body = '{}';
      await page.route('**/auth/**', (route) => route.fulfill({ status: 400, contentType: 'application/json', body }));
      const alert = (text: string) => page.getByRole('alert').filter({ hasText: text }).waitFor();
      await page.goto('/');
      await page.getByLabel('Email', { exact: true }).fill('x@example.com');
      await page.getByLabel('Password', { exact: true }).fill('whatever1');
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await alert('Login failed');
      await page.getByRole('tab', { name: 'Email link' }).click();
      await page.getByLabel('Email', { exact: true }).fill('x@example.com');
      await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
      await alert('Failed to send magic link');
      await page.getByRole('tab', { name: 'Sign up' }).click();
      await page.getByLabel('Email', { exact: true }).fill('x@example.com');
      await page.getByRole('button', { name: 'Send verification email' }).click();
      await alert('Failed to send verification email');
      await page.goto('/verify-email?token=t1');
      await alert('Registration failed');
      await page.goto('/magic-link-login?token=t2');
      await alert('Login failed');
      // A body that is not an error `detail` (a proxy's page) also gets the fallback.
      await page.unroute('**/auth/**');
      await page.route('**/auth/**', (route) =>
        route.fulfill({ status: 502, contentType: 'text/html', body: '<html>bad gateway</html>' }),
      );
      await page.goto('/');
      await page.getByLabel('Email', { exact: true }).fill('x@example.com');
      await page.getByLabel('Password', { exact: true }).fill('whatever1');
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await alert('Login failed');
      await page.unroute('**/auth/**');
      body = JSON.stringify({ detail: 'Incorrect email or password' });
      await page.route('**/auth/**', (route) => route.fulfill({ status: 400, contentType: 'application/json', body }));
      await page.getByRole('button', { name: 'Log in', exact: true }).click();
      await alert('Incorrect email or password');
    });
  });

  it("fails registration with 'Unknown error' when the response lacks an access token", async () => {
    await withPage(undefined, async (page) => {
      for (const reply of [{ token: {}, user: user0 }, { token: { token_type: 'bearer' }, user: user0 }, {}]) {
        await page.route('**/auth/users/register', (route) =>
          route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(reply) }),
        );
        await page.goto(`/verify-email?token=t${Math.random()}`);
        await page.getByRole('alert').filter({ hasText: 'Unknown error' }).waitFor();
        expect(await storedToken(page)).toBeNull();
        await page.unroute('**/auth/users/register');
      }
    });
  });

  it("shows 'Login with Google failed' when Google sign-in is refused without a detail", async () => {
    await withPage(undefined, async (page) => {
      await page.route('**/api/v1/settings', async (route) => {
        const response = await route.fetch();
        const json = (await response.json()) as Record<string, unknown>;
        await route.fulfill({
          response,
          json: { ...json, google_client_id: 'test-client.apps.googleusercontent.com' },
        });
      });
      await page.route('https://accounts.google.com/gsi/client', (route) =>
        route.fulfill({
          contentType: 'text/javascript',
          body: `window.google = { accounts: { id: {
            initialize(o) { window.__gsi = o; },
            renderButton(el) { const b = document.createElement('button'); b.type = 'button'; b.textContent = 'Sign in with Google';
              b.onclick = () => window.__gsi.callback({ credential: 'fake-id-token' }); el.append(b); } } } };`,
        }),
      );
      await page.route('**/auth/login/google', (route) =>
        route.fulfill({ status: 400, contentType: 'application/json', body: '{}' }),
      );
      await page.goto('/');
      await page.getByRole('button', { name: 'Sign in with Google' }).click();
      await page.getByRole('alert').filter({ hasText: 'Login with Google failed' }).waitFor();
    });
  });
});

describe('keyboard', () => {
  /** Tabs through the page; every stop must show a focus ring (an outline or a box-shadow ring). */
  async function tabStops(page: Page, count: number): Promise<string[]> {
    const stops: string[] = [];
    for (let i = 0; i < count; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        const ring =
          (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
        const label = (el as HTMLInputElement).labels?.[0]?.textContent?.trim();
        const name = el.getAttribute('aria-label') || label || el.textContent?.trim() || el.getAttribute('name') || '';
        return { name: `${el.tagName.toLowerCase()}:${name.slice(0, 30)}`, ring };
      });
      if (!stop) continue;
      expect(stop.ring, `focus ring on ${stop.name}`).toBe(true);
      stops.push(stop.name);
    }
    return stops;
  }

  it('reaches every control of the login page and the signed-in header with Tab, with a visible focus ring', async () => {
    await withPage(undefined, async (page) => {
      await page.goto('/');
      await page.getByRole('tab', { name: 'Log in' }).waitFor();
      const stops = await tabStops(page, 8);
      for (const name of ['Switch to dark theme', 'Log in', 'Email link', 'Sign up', 'input:Email', 'input:Password']) {
        expect(
          stops.some((s) => s.includes(name)),
          `${name} in ${stops.join(', ')}`,
        ).toBe(true);
      }
    });
    await withPage(user.token, async (page) => {
      await page.goto('/tokens/');
      await page.getByRole('heading', { name: 'User API Tokens' }).waitFor();
      // The header's links (New kernel, Sessions, Submit, Leaderboard, Sweeps, Agents, API tokens, ...) come first.
      const stops = await tabStops(page, 18);
      for (const name of ['Skip to content', 'New kernel', 'Submit', 'Leaderboard', 'API tokens', 'Log out', 'Name']) {
        expect(
          stops.some((s) => s.includes(name)),
          `${name} in ${stops.join(', ')}`,
        ).toBe(true);
      }
    });
  });
});

describe('the Content-Security-Policy', () => {
  it('is not violated by any page of the walk', () => {
    expect(h.cspViolations).toEqual([]);
  });
});
