// What a signed-out visitor downloads for /login: the JavaScript files Chromium requests, read from
// the built dist and gzipped (level 9, as Vite reports). Prints the figure; fails over the budget.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './support/browser.ts';
import { repoRoot } from './support/server.ts';

const browser = useBrowser();
const distDir = join(repoRoot, 'apps/web/dist');
const budgetBytes = 200 * 1024;

describe('login route weight', () => {
  it('loads only the login code, under budget', async () => {
    const { page, baseUrl } = browser;
    const requested: { path: string; type: string }[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin === new URL(baseUrl).origin) requested.push({ path: url.pathname, type: request.resourceType() });
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    const sizes = async (type: string) =>
      Promise.all(
        requested
          .filter((r) => r.type === type)
          .map(async ({ path }) => {
            const bytes = await readFile(join(distDir, path));
            return { path, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
          }),
      );
    const scripts = await sizes('script');
    const styles = await sizes('stylesheet');
    const total = (files: { raw: number; gzip: number }[]) => ({
      raw: files.reduce((sum, f) => sum + f.raw, 0),
      gzip: files.reduce((sum, f) => sum + f.gzip, 0),
    });
    const js = total(scripts);
    const css = total(styles);
    const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
    console.log(
      [
        `/login loads ${scripts.length} JS files: ${kib(js.gzip)} gzip (${kib(js.raw)} raw); CSS ${styles.length} files: ${kib(css.gzip)} gzip`,
        ...scripts.map((f) => `  ${f.path}  ${kib(f.gzip)} gzip`),
      ].join('\n'),
    );

    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.some((f) => f.path.includes('LoginPage'))).toBe(true);
    for (const other of ['ShellLayout', 'DashboardPage', 'ForecastingPage', 'ReportsPage', 'DataPage', 'SettingsPage', 'ProfilePage']) {
      expect(scripts.map((f) => f.path).join(' ')).not.toContain(other);
    }
    expect(js.gzip).toBeLessThan(budgetBytes);

    // Typing loads the sign-in code (HTTP client) before the user submits.
    const before = requested.length;
    const signInCode = page.waitForResponse((response) => response.url().includes('/assets/sign-in-'));
    await page.getByLabel('Username', { exact: true }).fill('d');
    await signInCode;
    await page.waitForLoadState('networkidle');
    const later = await Promise.all(
      requested
        .slice(before)
        .filter((r) => r.type === 'script')
        .map(async ({ path }) => gzipSync(await readFile(join(distDir, path)), { level: 9 }).length),
    );
    const laterGzip = later.reduce((sum, n) => sum + n, 0);
    console.log(`after the first keystroke: ${later.length} more JS files, ${kib(laterGzip)} gzip (sign-in code and HTTP client)`);
    expect(later.length).toBeGreaterThan(0);
  });
});
