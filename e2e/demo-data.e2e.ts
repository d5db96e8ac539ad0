// Settings → Demo data: an administrator of a server started with the demo shop removes it before the
// shop's own data goes in — by keyboard, through a confirmation whose safe choice has the focus —
// and the panel is gone for good (ADR 0165). Its own server: the removal must not touch the others'.
// axe WCAG 2 A/AA on the panel and on the dialog.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
const browser = useBrowser({ baseUrl: () => server.baseUrl });

beforeAll(async () => {
  server = await startServer({ name: 'demo-data', accessTokenTtlSeconds: 900 });
});

afterAll(async () => {
  await server?.stop();
});

describe('the demo data', () => {
  it('is removed from Settings by an administrator, after a confirmation, and stays removed', async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/app/settings');
    const panel = page.getByTestId('demo-data-panel');
    await panel.getByText('240 made-up products').waitFor();
    expect(await axeViolations(page, 'main')).toEqual([]);

    // Keyboard: the button opens the dialog, whose focused choice keeps the data.
    await panel.getByRole('button', { name: 'Remove the demo data' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Remove the demo data?' });
    await dialog.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Keep the demo data');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await panel.waitFor();

    await panel.getByRole('button', { name: 'Remove the demo data' }).click();
    await dialog.getByRole('button', { name: 'Remove for good' }).click();
    const done = page.getByTestId('demo-data-removed');
    await done.waitFor();
    expect(await done.textContent()).toMatch(/^Removed the demo data: 240 products with their [\d,]+ rows of sales, their stock counts, deliveries and forecasts\./);
    expect(await panel.count()).toBe(0);

    // Gone after a reload too: nothing left to offer, and the dashboard waits for the shop's own products.
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByTestId('users-panel').waitFor();
    expect(await page.getByTestId('demo-data-panel').count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.getByTestId('dashboard-empty').waitFor();
  });
});
