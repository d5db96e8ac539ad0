// A new server without demo data and without any account: the sign-in page offers to create the
// first account, an administrator, and signs it in; once it exists, the page is the usual sign-in.
// The two passwords must agree and the server's password rules are shown on their field.
// axe WCAG 2 A/AA on the first-account form; the form is driven by keyboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { pathOf, useBrowser } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer | undefined;
const browser = useBrowser({ baseUrl: () => server!.baseUrl });

/** A server without any account: each attempt of the first test needs its own, as a retry finds the account made. */
async function startServerWithoutAccounts() {
  await server?.stop();
  server = await startServer({ name: 'first-run', accessTokenTtlSeconds: 900, env: { DEMO_DATA: 'false' } });
}

beforeAll(startServerWithoutAccounts);

afterAll(async () => {
  await server?.stop();
});

describe('the first account of a new server', () => {
  it('is created on the sign-in page, as the administrator, and signed in', async ({ task }) => {
    if (task.result?.retryCount) await startServerWithoutAccounts();
    const { page } = browser;
    // The browser's context was opened on the server before a retry's: the address names the server.
    await page.goto(`${server!.baseUrl}/login`);
    await page.getByRole('heading', { name: 'Welcome to Stockwise', level: 1 }).waitFor();
    expect(await page.getByText('No account? Ask your administrator').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // Keyboard only: the username has the focus; Tab moves through the password fields.
    await page.locator('input[name="username"]:focus').waitFor();
    await page.keyboard.type('shopowner');
    await page.keyboard.press('Tab');
    await page.keyboard.type('a shop owner secret');
    await page.locator('input[name="repeated_password"]').focus();
    await page.keyboard.type('a shop owner secrte');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByText('The two passwords differ.').count()).toBe(1);

    // The server's own rule, on the password field: the username is not a password.
    await page.getByLabel('Password', { exact: true }).fill('ShopOwner');
    await page.getByLabel('Repeat the password').fill('ShopOwner');
    await page.getByRole('button', { name: 'Create the account and sign in' }).click();
    await expect.poll(() => page.getByTestId('login-error').textContent()).toBe('Please correct the highlighted fields.');
    await page.getByText('The password is too similar to the username.').waitFor();
    // Said on the field itself, for a screen reader too.
    const describedBy = await page.getByLabel('Password', { exact: true }).evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' '),
    );
    expect(describedBy).toContain('The password is too similar to the username.');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel('Password', { exact: true }).fill('a shop owner secret');
    await page.getByLabel('Repeat the password').fill('a shop owner secret');
    await page.getByLabel('Repeat the password').press('Enter');
    await page.waitForURL('**/app/home');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    // The empty dashboard's link opens Settings at Data integration, not at its top (QA garden
    // centre F1); without demo products the page's contents offer no Demo data link (F2).
    await page.getByRole('link', { name: 'Go to Settings → Data integration' }).click();
    await page.waitForURL('**/app/settings#data-integration-title');
    const dataIntegration = page.getByRole('heading', { name: 'Data integration', level: 2 });
    // The page follows the section while the panels above it load (up to 15 s): on two busy cores that is more than a second.
    await expect.poll(() => dataIntegration.evaluate((heading) => heading.getBoundingClientRect().top), { timeout: 15_000 }).toBeLessThan(200);
    const contents = page.getByRole('navigation', { name: 'Settings sections' });
    expect(await contents.getByRole('link').allTextContents()).not.toContain('Demo data');
    expect(await contents.getByRole('link', { name: 'Data integration' }).count()).toBe(1);
    // An administrator: Settings lists the users, this one among them.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.waitForURL('**/app/settings');
    const row = page.locator('[data-testid="user-row"][data-username="shopowner"]');
    await row.waitFor();
    expect(await row.getByRole('combobox').inputValue()).toBe('admin');
  });

  it('is not offered once an account exists', async () => {
    const { page } = browser;
    const firstRun = await fetch(`${server!.baseUrl}/api/accounts/first-run/`);
    expect(await firstRun.json()).toEqual({ first_account_needed: false, registration_enabled: true });
    await page.goto('/login');
    await page.getByText('No account? Ask your administrator').waitFor();
    expect(await page.getByRole('heading', { name: 'Sign in to Stockwise', level: 1 }).count()).toBe(1);
    expect(await page.getByLabel('Repeat the password').count()).toBe(0);
    expect(pathOf(page)).toBe('/login');
  });
});
