// The built app runs under its Content-Security-Policy: no screen triggers a violation in Chromium.
import { describe, expect, it } from 'vitest';
import { signIn, useBrowser } from './support/browser.ts';

const browser = useBrowser();

const screens = ['/app/home', '/app/forecasting', '/app/reports', '/app/datatab', '/app/settings', '/profile', '/api/docs/'];

describe('content security policy', () => {
  it('is sent with the app and violated by no screen', async () => {
    const { page } = browser;
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    // Collected inside the page too: a violation event also fires for refusals that log nothing.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const seen = JSON.parse(sessionStorage.getItem('csp-violations') ?? '[]') as string[];
        seen.push(`${location.pathname}: ${event.violatedDirective} ${event.blockedURI}`);
        sessionStorage.setItem('csp-violations', JSON.stringify(seen));
      });
    });
    const login = await page.goto('/login');
    expect(login?.headers()['content-security-policy']).toContain("script-src 'self'");
    await signIn(page);
    for (const screen of screens) {
      await page.goto(screen);
      await page.waitForLoadState('networkidle');
    }
    const inPage = await page.evaluate(() => sessionStorage.getItem('csp-violations') ?? '[]');
    expect([...violations, ...(JSON.parse(inPage) as string[])]).toEqual([]);
  });
});
