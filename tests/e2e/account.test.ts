// Issue 35 item 11 in real Chromium against the real server, as a user meets it: someone who signed up by magic
// link sets a password on /account and signs in with it, moves the account to a new address through the link mailed
// there (read from the outbox), then deletes the account (asked twice) and can no longer sign in; someone who forgot
// their password signs in by an emailed link and sets a new one without the old.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, linkIn, mailTo, openPage, shoot, startHarness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
}, 240_000);

afterAll(async () => {
  await h?.close();
});

const path = (page: Page) => page.evaluate(() => `${location.pathname}${location.search}`);
async function waitForPath(page: Page, expected: string): Promise<void> {
  await page.waitForFunction((p) => `${location.pathname}${location.search}` === p, expected, { timeout: 15_000 });
}
const card = (page: Page, title: string) =>
  page.locator('section', { has: page.getByRole('heading', { name: title, exact: true }) });

async function passwordLogin(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe('the account page', () => {
  it('sets a password, changes the email through its link, and deletes the account', async () => {
    const email = `acct-${Date.now().toString(36)}@kforge.test`;
    const moved = `moved-${Date.now().toString(36)}@kforge.test`;
    const password = 'my first password';

    // Signed up by magic link: no password.
    const first = await openPage(h);
    await first.page.goto('/');
    await first.page.getByRole('tab', { name: 'Email link' }).click();
    await first.page.getByLabel('Email', { exact: true }).fill(email);
    await first.page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await first.page.getByRole('status').filter({ hasText: /./ }).first().waitFor();
    await first.page.goto(linkIn((await mailTo(h, email)).text, '/magic-link-login'));
    await waitForPath(first.page, '/kernels/generate-kernel');

    // 1. Set a password.
    await first.page.goto('/account');
    const pw = card(first.page, 'Password');
    await pw.getByText('You have no password yet').waitFor();
    await pw.getByLabel(/^Password/).fill(password);
    await pw.getByLabel('Repeat the password').fill(password);
    await pw.getByRole('button', { name: 'Set password' }).click();
    await pw.getByRole('status').filter({ hasText: 'Password set' }).waitFor();
    // Signed in by a link a moment ago, this session may change it without the current one, and says until when.
    await pw.getByTestId('password-reset-window').waitFor();
    expect(await pw.getByLabel('Current password').count()).toBe(0);
    await shoot(first.page, 'account');
    await first.context.close();

    // ... and signs in with it; a session signed in by password asks for the current one to change it.
    const second = await openPage(h);
    await passwordLogin(second.page, email, password);
    await waitForPath(second.page, '/kernels/generate-kernel');
    await second.page.goto('/account');
    await card(second.page, 'Password').getByLabel('Current password').waitFor();
    expect(await card(second.page, 'Password').getByTestId('password-reset-window').count()).toBe(0);

    // 2. Change the email: nothing changes until the mailed link is opened.
    await second.page.goto('/account');
    const mail = card(second.page, 'Email address');
    await mail.getByLabel('New email address').fill(moved);
    await mail.getByLabel('Current password').fill(password);
    await mail.getByRole('button', { name: 'Send confirmation link' }).click();
    await mail
      .getByRole('status')
      .filter({ hasText: `A confirmation link is on its way to ${moved}` })
      .waitFor();
    await second.page.getByText(`Signed in as ${email}`).waitFor();
    await second.page.goto(linkIn((await mailTo(h, moved)).text, '/account/confirm-email'));
    await second.page
      .getByRole('status')
      .filter({ hasText: `Your email address is now ${moved}` })
      .waitFor();
    await second.page.getByRole('link', { name: 'Back to Account' }).click();
    await second.page.getByText(`Signed in as ${moved}`).waitFor();
    await second.context.close();

    // The old address no longer signs in; the new one does, with the same password.
    const third = await openPage(h);
    await passwordLogin(third.page, email, password);
    await third.page.getByRole('alert').filter({ hasText: 'Incorrect email or password' }).waitFor();
    await passwordLogin(third.page, moved, password);
    await waitForPath(third.page, '/kernels/generate-kernel');

    // 3. Delete the account: asked twice (open the form, then type the address or "delete" and the password).
    await third.page.goto('/account');
    const del = card(third.page, 'Delete account');
    await del.getByRole('button', { name: 'Delete account…' }).click();
    const confirmButton = del.getByRole('button', { name: 'Delete my account for good' });
    expect(await confirmButton.isDisabled()).toBe(true);
    await del.getByLabel(/Type your email address/).fill('delete');
    await del.getByLabel('Current password').fill(password);
    await confirmButton.click();
    await third.page.waitForFunction(() => location.pathname === '/', null, { timeout: 15_000 });
    expect(await third.page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();

    // Gone: the password no longer signs in.
    await passwordLogin(third.page, moved, password);
    await third.page.getByRole('alert').filter({ hasText: 'Incorrect email or password' }).waitFor();
    expect(await path(third.page)).not.toBe('/kernels/generate-kernel');
    await third.context.close();
    expect(h.cspViolations).toEqual([]);
  }, 180_000);

  it('replaces a forgotten password: "Forgot your password?", the emailed link, then a new one on /account', async () => {
    const email = `forgot-${Date.now().toString(36)}@kforge.test`;
    await h.server.createUser({ email, password: 'the forgotten one' });
    const { page, context } = await openPage(h);
    await page.goto('/');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    // The email-link form, saying what follows.
    expect(await page.getByTestId('forgot-password-note').textContent()).toContain('within 15 minutes');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('status').filter({ hasText: /./ }).first().waitFor();
    await page.goto(linkIn((await mailTo(h, email)).text, '/magic-link-login'));
    await waitForPath(page, '/kernels/generate-kernel');

    await page.goto('/account');
    const pw = card(page, 'Password');
    await pw.getByTestId('password-reset-window').waitFor();
    expect(await pw.getByLabel('Current password').count()).toBe(0);
    await pw.getByLabel(/^New password/).fill('the remembered one');
    await pw.getByLabel('Repeat the new password').fill('the remembered one');
    await pw.getByRole('button', { name: 'Change password' }).click();
    await pw.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
    await context.close();

    const again = await openPage(h);
    await passwordLogin(again.page, email, 'the forgotten one');
    await again.page.getByRole('alert').filter({ hasText: 'Incorrect email or password' }).waitFor();
    await passwordLogin(again.page, email, 'the remembered one');
    await waitForPath(again.page, '/kernels/generate-kernel');
    await again.context.close();
    expect(h.cspViolations).toEqual([]);
  }, 120_000);
});
