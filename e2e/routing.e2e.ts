// The routing rules of spec §2.
import { describe, expect, it } from 'vitest';
import type { Route } from 'playwright-core';
import { fillLogin, pathOf, signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';

const browser = useBrowser();

/** Holds matching requests until released. */
function holdRequests() {
  const held: Route[] = [];
  let arrived: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  return {
    handler: async (route: Route) => {
      held.push(route);
      arrived();
    },
    first,
    release: async () => {
      for (const route of held.splice(0)) await route.continue();
    },
  };
}

describe('routing', () => {
  it("shows 'Initializing Application...' until the app has loaded", async () => {
    const { page } = browser;
    const texts = holdRequests();
    await page.route('**/locales/en/common.json', texts.handler);
    await page.goto('/login', { waitUntil: 'commit' });
    await texts.first;
    await page.getByText('Initializing Application...', { exact: true }).waitFor();
    await texts.release();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByText('Initializing Application...').count()).toBe(0);
  });

  it.each(['/app/home', '/app/forecasting', '/app/reports', '/app/datatab', '/app/settings', '/profile', '/'])(
    'sends a signed-out visitor from %s to /login',
    async (path) => {
      const { page } = browser;
      await page.goto(path);
      await page.waitForURL('**/login');
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
    },
  );

  it.each(['/', '/login'])('sends a signed-in user from %s to /app/home', async (path) => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/app/settings');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.goto(path);
    await page.waitForURL('**/app/home');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });

  it('neither redirects nor shows the loader while a sign-in is under way', async () => {
    const { page } = browser;
    await page.goto('/login');
    const signInCall = holdRequests();
    await page.route('**/api/token/', signInCall.handler);
    await fillLogin(page, demoUser.username, demoUser.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await signInCall.first;
    await page.locator('form[aria-busy="true"]').waitFor();
    expect(pathOf(page)).toBe('/login');
    expect(await page.getByText('Initializing Application...').count()).toBe(0);
    expect(await page.getByLabel('Username', { exact: true }).isVisible()).toBe(true);
    await signInCall.release();
    await page.waitForURL('**/app/home');
  });

  it('shows a not-found page with a link home for unknown paths', async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await page.waitForURL('**/app/home');
  });

  it('takes an address typed from the menu’s words to its screen', async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/app/data');
    await page.waitForURL('**/app/datatab');
    await page.getByRole('heading', { name: 'Data', level: 1 }).waitFor();
    await page.goto('/app');
    await page.waitForURL('**/app/home');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
  });
});
