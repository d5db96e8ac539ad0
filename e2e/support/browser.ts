// One Chromium per test file, a fresh context (no storage, no cookies) per test.
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { demoUser } from './context.ts';

export const chromiumPath = '/usr/bin/chromium';
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

/** `browser`: the file's Chromium, for a test that needs a context of its own (a locale, a time zone). */
export type BrowserFixture = { readonly page: Page; readonly context: BrowserContext; readonly baseUrl: string; readonly browser: Browser };

/** Registers the hooks; read `page` inside tests. `locale`: the contexts' language (Chromium's own, en-US, without one). */
export function useBrowser(options: { baseUrl?: () => string; locale?: string } = {}): BrowserFixture {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const baseUrl = () => options.baseUrl?.() ?? inject('baseUrl');
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ baseURL: baseUrl(), ...(options.locale ? { locale: options.locale } : {}) });
    // Generous: the e2e machine is shared with builds and benchmarks (2 cores).
    context.setDefaultTimeout(30_000);
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
  });
  return {
    get page() {
      return page;
    },
    get context() {
      return context;
    },
    get baseUrl() {
      return baseUrl();
    },
    get browser() {
      return browser;
    },
  };
}

export async function fillLogin(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
}

/** Signs in through the login screen and waits for the dashboard. */
export async function signIn(page: Page, user: { username: string; password: string } = demoUser): Promise<void> {
  await page.goto('/login');
  await fillLogin(page, user.username, user.password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.waitForURL('**/app/home');
  await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
}

/** The path of the page's URL. */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}
