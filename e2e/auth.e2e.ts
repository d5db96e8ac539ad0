// Sign-in, sign-out, profile, and a session that survives a reload.
import { describe, expect, it } from 'vitest';
import { fillLogin, pathOf, signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';

const browser = useBrowser();

describe('sign-in', () => {
  it('signs in with the demo account and lands on the dashboard', async () => {
    const { page } = browser;
    await page.goto('/login');
    // The username field has the focus, so typing and Enter is enough.
    await page.locator('input[name="username"]:focus').waitFor();
    await page.keyboard.type(demoUser.username);
    await page.keyboard.press('Tab');
    await page.keyboard.type(demoUser.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/app/home');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    expect(await page.getByTestId('product-name').textContent()).toBe('Stockwise');
    const stored = await page.evaluate(() => Object.keys(localStorage));
    expect(stored).toEqual(['stockwise.refreshToken']);
  });

  it('refuses a wrong password with the exact message', async () => {
    const { page } = browser;
    await page.goto('/login');
    await fillLogin(page, demoUser.username, 'not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('Invalid username or password. Please try again.');
    expect(pathOf(page)).toBe('/login');
  });

  it('explains a sign-in that got no answer', async () => {
    const { page } = browser;
    await page.goto('/login');
    await page.route('**/api/token/', (route) => route.abort('connectionrefused'));
    await fillLogin(page, demoUser.username, demoUser.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByTestId('login-error');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'Login request failed. This could be due to a network issue or the server taking too long to respond. Please check your connection and try again.',
    );
    expect(pathOf(page)).toBe('/login');
  });

  it('shows the field messages of a validation error', async () => {
    const { page } = browser;
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This field may not be blank.').first().waitFor();
    expect(await page.getByText('This field may not be blank.').count()).toBe(2);
  });

  it('labels the fields for password managers', async () => {
    const { page } = browser;
    await page.goto('/login');
    const username = page.getByLabel('Username', { exact: true });
    await username.waitFor();
    expect(await username.getAttribute('autocomplete')).toBe('username');
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('autocomplete')).toBe('current-password');
    expect(await username.evaluate((element) => element === document.activeElement)).toBe(true);
  });
});

describe('signed in', () => {
  it('shows the account on /profile', async () => {
    const { page } = browser;
    await signIn(page);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');
    await page.getByTestId('account-username').waitFor();
    expect(await page.getByTestId('account-username').textContent()).toBe('demo');
  });

  it('logs out to /login and forgets the session', async () => {
    const { page } = browser;
    await signIn(page);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.goto('/app/home');
    await page.waitForURL('**/login');
  });

  it('keeps the session over a reload, renewing the dropped access token', async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/profile');
    await page.getByTestId('account-username').waitFor();
    const calls: { path: string; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/')) calls.push({ path: new URL(response.url()).pathname, status: response.status() });
    });
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/token/refresh/') && response.status() === 200);
    await page.reload();
    await refreshed;
    await page.getByTestId('account-username').waitFor();
    expect(await page.getByTestId('account-username').textContent()).toBe('demo');
    expect(pathOf(page)).toBe('/profile');
    // The token is renewed before the page's first calls: one refresh, and no call sent to be refused.
    expect(calls.filter((call) => call.path === '/api/token/refresh/')).toHaveLength(1);
    expect(calls.filter((call) => call.status === 401)).toEqual([]);
  });
});
