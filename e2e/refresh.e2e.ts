// Token refresh after the access token expired, against a server whose access tokens live 3 s.
import { describe, expect, inject, it } from 'vitest';
import { pathOf, signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';

const browser = useBrowser({ baseUrl: () => inject('shortTtlBaseUrl') });

/** Waits until an access token issued after the browser's is refused: the browser's then is too. */
async function waitUntilAccessTokensIssuedNowExpire(baseUrl: string): Promise<void> {
  const pair = (await (
    await fetch(`${baseUrl}/api/token/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(demoUser),
    })
  ).json()) as { access: string };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const answer = await fetch(`${baseUrl}/api/accounts/me/`, { headers: { Authorization: `Bearer ${pair.access}` } });
    if (answer.status === 401) return;
    await new Promise((resolve) => setTimeout(resolve, 200)); // polling the server's view of the token
  }
  throw new Error('the access token never expired');
}

describe('token refresh', () => {
  it('renews an expired access token once and replays the call', async () => {
    const { page, baseUrl } = browser;
    await signIn(page);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByTestId('account-username').waitFor();

    await waitUntilAccessTokensIssuedNowExpire(baseUrl);

    const calls: { url: string; status: number }[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/api/')) calls.push({ url: new URL(response.url()).pathname, status: response.status() });
    });
    const storedBefore = await page.evaluate(() => localStorage.getItem('stockwise.refreshToken'));

    // The first call to meet the expired token renews it: the Dashboard's own reads when they go to
    // the server (its data older than the store keeps), else the Profile's.
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/token/refresh/'));
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Profile' }).click();
    expect((await refreshed).status()).toBe(200);
    await page.getByTestId('account-username').waitFor();
    expect(await page.getByTestId('account-username').textContent()).toBe('demo');

    // The profile asks for the account and its sessions at once: whichever call goes first meets
    // the expired token, and every call after the one refresh succeeds.
    const guarded = calls.filter((call) => call.url !== '/api/token/refresh/');
    expect(guarded[0]?.status).toBe(401);
    const me = calls.filter((call) => call.url === '/api/accounts/me/');
    expect(me.at(-1)?.status).toBe(200);
    expect(calls.filter((call) => call.url === '/api/token/refresh/')).toHaveLength(1);
    const storedAfter = await page.evaluate(() => localStorage.getItem('stockwise.refreshToken'));
    expect(storedAfter).not.toBeNull();
    expect(storedAfter).not.toBe(storedBefore); // rotated
  });

  it('keeps two tabs signed in when both renew at once', async () => {
    const { page, context, baseUrl } = browser;
    await signIn(page);
    const second = await context.newPage();
    await second.goto('/app/home');
    await second.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();

    await waitUntilAccessTokensIssuedNowExpire(baseUrl);

    // Hold the first tab's refresh until the second tab also wants one: either it queues behind
    // the first (a pending Web Lock) or, if nothing serialized them, it sends its own request.
    const refreshes: { status: number }[] = [];
    context.on('response', (response) => {
      if (response.url().endsWith('/api/token/refresh/')) refreshes.push({ status: response.status() });
    });
    let sent = 0;
    let firstHeld: () => void = () => undefined;
    const firstArrived = new Promise<void>((resolve) => (firstHeld = resolve));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await context.route('**/api/token/refresh/', async (route) => {
      sent += 1;
      if (sent === 1) {
        firstHeld();
        await released;
      } else {
        release();
      }
      await route.continue();
    });

    await page.getByRole('link', { name: 'Profile' }).click();
    await firstArrived;
    await second.getByRole('link', { name: 'Profile' }).click();
    const secondIsWaiting = async () =>
      sent > 1 ||
      (await second.evaluate(async () => ((await navigator.locks.query()).pending ?? []).some((lock) => lock.name === 'stockwise.token-refresh')));
    const deadline = Date.now() + 15_000;
    while (!(await secondIsWaiting())) {
      if (Date.now() > deadline) throw new Error('the second tab never asked for a refresh');
      await second.waitForFunction(() => true); // one round trip to the page, then ask again
    }
    release();

    for (const tab of [page, second]) {
      await tab.getByTestId('account-username').waitFor();
      expect(await tab.getByTestId('account-username').textContent()).toBe('demo');
    }
    expect(refreshes).toEqual([{ status: 200 }, { status: 200 }]); // one after the other, no reuse
  });

  it('stays signed in when the page is reloaded while a refresh is on its way back', async () => {
    const { page } = browser;
    await signIn(page);
    // The server rotates the token, but the answer never reaches the page: the user reloaded first.
    let rotated: () => void = () => undefined;
    const serverRotated = new Promise<void>((resolve) => (rotated = resolve));
    await page.route(
      '**/api/token/refresh/',
      async (route) => {
        const answer = await route.fetch();
        expect(answer.status()).toBe(200);
        rotated();
      },
      { times: 1 },
    );
    await page.goto('/app/settings', { waitUntil: 'commit' }); // a fresh page has no access token: its first call refreshes
    await serverRotated;
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByTestId('account-username').waitFor();
    expect(pathOf(page)).toBe('/profile');
  });

  it('logs out with a message when the refresh is refused', async () => {
    const { page, baseUrl } = browser;
    await signIn(page);
    await page.evaluate(() => localStorage.setItem('stockwise.refreshToken', 'not-a-valid-refresh-token'));
    await waitUntilAccessTokensIssuedNowExpire(baseUrl);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/login');
    await page.getByTestId('login-error').waitFor();
    expect(await page.getByTestId('login-error').textContent()).toBe('Session expired. Please log in again.');
    expect(await page.evaluate(() => localStorage.getItem('stockwise.refreshToken'))).toBeNull();
  });
});
