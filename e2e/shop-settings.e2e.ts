// Settings → Shop: an administrator picks the shop's currency by keyboard and every money figure
// carries its sign — the dashboard's worth and the Forecasting screen's unit cost — also after a
// reload, and in another tab left open, without one (ADR 0166). Its own server: the other suites
// read bare figures. axe WCAG 2 A/AA on the panel, closed and with its list open. The closed days
// saved over another administrator's since the panel opened are refused, the typed day kept, and
// Reload shows their list (ADR 0168's amendment "the shop's settings"). A ten-day Christmas closure is
// added and removed by keyboard in one go each, as one line (ADR 0171's amendment "a run of closed
// days in one go"). The shop's time zone is chosen by keyboard from a typed city and is still
// in effect after a reload (ADR 0173).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
/** A screen opened or reloaded shows its figures after its reads: seconds, not a poll's default one, on two busy cores. */
const PAGE_LOAD = 15_000;
const browser = useBrowser({ baseUrl: () => server.baseUrl });

beforeAll(async () => {
  server = await startServer({ name: 'shop-settings', accessTokenTtlSeconds: 900 });
});

afterAll(async () => {
  await server?.stop();
});

describe("the shop's currency", () => {
  it('is chosen by keyboard in Settings → Shop and shows on the dashboard and the Forecasting screen', async () => {
    const { page } = browser;
    await signIn(page);
    // No currency yet: the worth is the bare figure, as before.
    expect(await page.getByTestId('total-value').textContent()).toMatch(/^Worth [\d,]+\.\d\d at unit cost/);
    // A second tab of the same browser, left open on the dashboard: it follows the save without a reload.
    const otherTab = await browser.context.newPage();
    await otherTab.goto('/app/home');
    expect(await otherTab.getByTestId('total-value').textContent()).toMatch(/^Worth [\d,]+\.\d\d at unit cost/);
    await page.bringToFront();

    await page.goto('/app/settings');
    const panel = page.getByTestId('shop-panel');
    await panel.waitFor();
    const currency = panel.getByRole('combobox', { name: /Currency/ });
    expect(await currency.inputValue()).toBe('None — plain figures (1,240.50)');
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Keyboard only: into the box, a name typed, the option taken with the arrows and Enter, then Tab to Save.
    await currency.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('us dollar');
    await page.getByRole('option', { name: 'USD — US Dollar' }).waitFor();
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.getByTestId('shop-example').textContent()).toBe('Money shows as $1,240.50');
    expect(await currency.inputValue()).toBe('USD — US Dollar');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Save currency');
    await page.keyboard.press('Enter');
    expect(await panel.getByTestId('shop-saved').textContent()).toBe('Saved: money now shows as $1,240.50 on every screen.');
    await expect.poll(() => otherTab.getByTestId('total-value').textContent()).toMatch(/^Worth \$[\d,]+\.\d\d at unit cost/);
    await otherTab.close();
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Every screen follows at once, and after a reload (read from the server).
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect.poll(() => page.getByTestId('total-value').textContent(), { timeout: PAGE_LOAD }).toMatch(/^Worth \$[\d,]+\.\d\d at unit cost/);
    await page.reload();
    await expect.poll(() => page.getByTestId('total-value').textContent(), { timeout: PAGE_LOAD }).toMatch(/^Worth \$[\d,]+\.\d\d at unit cost/);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Forecasting', exact: true }).click();
    const picker = page.getByRole('combobox', { name: 'Product' });
    await picker.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('option').first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('selected-unit-cost').textContent(), { timeout: PAGE_LOAD }).toMatch(/^\$\d[\d,]*\.\d\d$/);

    await page.goto('/app/settings');
    expect(await page.getByTestId('shop-panel').getByRole('combobox', { name: /Currency/ }).inputValue()).toBe('USD — US Dollar');
  }, 120_000);
});

describe("the shop's closed days (ADR 0171)", () => {
  /** From the From field, keyboard only: the days as this browser (en-US) writes them, Tab to To (empty: one day), Tab to the note, Enter adds. */
  const addByKeyboard = async (page: Page, from: string, to: string, note: string) => {
    for (const [field, text] of [from, to, note].entries()) {
      if (field) await page.keyboard.press('Tab');
      await page.keyboard.type(text);
    }
    await page.keyboard.press('Enter');
  };

  it('are added by keyboard in the browser\'s date order, listed with their weekday, and removed', async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/app/settings');
    const closed = page.getByTestId('shop-closed');
    await closed.getByText('No closed days yet', { exact: false }).waitFor();
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Keyboard only: one day (To left empty) with its note.
    const date = closed.getByRole('textbox', { name: /^From/ });
    expect(await date.getAttribute('placeholder')).toBe('12/28/2026');
    await date.focus();
    await addByKeyboard(page, '12/28/2026', '', 'Bank holiday (substitute)');
    const list = closed.getByTestId('shop-closed-list');
    await expect.poll(() => list.textContent(), { timeout: PAGE_LOAD }).toBe('Mon 28 Dec 2026 — Bank holiday (substitute)Remove');
    await date.focus();
    await page.keyboard.type('2027-01-04');
    await page.keyboard.press('Enter');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Kept by the server: still there after a reload; then removed by keyboard.
    await page.reload();
    const remove = page.getByRole('button', { name: 'Remove 28 Dec 2026' });
    await remove.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('shop-closed-list').textContent(), { timeout: PAGE_LOAD }).toBe('Mon 4 Jan 2027Remove');

    // Another administrator adds a day while this panel is open, at the version they read.
    const json = { 'content-type': 'application/json' };
    const { access } = (await (await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: json, body: JSON.stringify(demoUser) })).json()) as { access: string };
    const shopNow = async () => (await (await fetch(`${server.baseUrl}/api/shop/`, { headers: { authorization: `Bearer ${access}` } })).json()) as { closedDates: { date: string; note: string | null }[]; closedDatesVersion: string };
    const opened = await shopNow();
    const theirs = await fetch(`${server.baseUrl}/api/shop/closed-dates/`, {
      method: 'PUT',
      headers: { ...json, authorization: `Bearer ${access}`, 'if-match': `"${opened.closedDatesVersion}"` },
      body: JSON.stringify({ closedDates: [...opened.closedDates, { date: '2026-12-28', note: 'Bank holiday (substitute)' }] }),
    });
    expect(theirs.status).toBe(200);

    // This panel's add, from the list it read before: refused, the day and note kept.
    const panelClosed = page.getByTestId('shop-closed');
    const dateBox = panelClosed.getByRole('textbox', { name: /^From/ });
    const noteBox = panelClosed.getByRole('textbox', { name: /^Note/ });
    await dateBox.fill('01/11/2027');
    await noteBox.fill('Inventory');
    await noteBox.press('Enter');
    const refusal = panelClosed.getByTestId('shop-closed-error');
    await expect.poll(() => refusal.textContent(), { timeout: PAGE_LOAD }).toMatch(/^The closed dates were changed by demo at \d\d:\d\d after you opened them\. Reload to see their change, then edit again\./);
    expect(await page.getByTestId('shop-closed-list').textContent()).toBe('Mon 4 Jan 2027Remove');
    expect([await dateBox.inputValue(), await noteBox.inputValue()]).toEqual(['01/11/2027', 'Inventory']);
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Reload from the keyboard: their list, the typed day still there; Add puts it in their list.
    await refusal.getByRole('button', { name: 'Reload' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('shop-closed-list').textContent()).toBe('Mon 28 Dec 2026 — Bank holiday (substitute)RemoveMon 4 Jan 2027Remove');
    expect(await refusal.count()).toBe(0);
    await noteBox.press('Enter');
    await expect.poll(() => page.getByTestId('shop-closed-list').getByRole('listitem').count(), { timeout: PAGE_LOAD }).toBe(3);
    expect((await shopNow()).closedDates).toEqual([
      { date: '2026-12-28', note: 'Bank holiday (substitute)' },
      { date: '2027-01-04', note: null },
      { date: '2027-01-11', note: 'Inventory' },
    ]);
  }, 120_000);

  it('are added as a run from one day to another by keyboard, shown as one line, and removed in one go', async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/app/settings');
    const closed = page.getByTestId('shop-closed');
    const list = closed.getByTestId('shop-closed-list');
    // The days the test before left: 28 Dec, 4 Jan, 11 Jan.
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: PAGE_LOAD }).toBe(3);

    // Keyboard only: From, Tab, To, Tab, the note, Enter — ten days, 28 Dec among them, in one save.
    await closed.getByRole('textbox', { name: /^From/ }).focus();
    await addByKeyboard(page, '12/24/2026', '01/02/2027', 'Christmas closure');
    const status = closed.getByTestId('shop-closed-status');
    await expect.poll(() => status.textContent(), { timeout: PAGE_LOAD }).toBe('Added 24 Dec 2026 – 2 Jan 2027 (10 days). 1 of these days was already on the list; its note is now “Christmas closure”.');
    expect(await list.textContent()).toBe('Thu 24 Dec 2026 – Sat 2 Jan 2027 — Christmas closure · 10 daysRemoveMon 4 Jan 2027RemoveMon 11 Jan 2027 — InventoryRemove');
    const focusedName = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? null);
    // Back in From, for the next closure.
    expect(await focusedName()).toMatch(/^From/);
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    const json = { 'content-type': 'application/json' };
    const { access } = (await (await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: json, body: JSON.stringify(demoUser) })).json()) as { access: string };
    const savedDates = async () => ((await (await fetch(`${server.baseUrl}/api/shop/`, { headers: { authorization: `Bearer ${access}` } })).json()) as { closedDates: { date: string; note: string | null }[] }).closedDates;
    const saved = await savedDates();
    expect(saved).toHaveLength(12);
    expect(saved.filter((day) => day.note === 'Christmas closure').map((day) => day.date)).toEqual([
      '2026-12-24', '2026-12-25', '2026-12-26', '2026-12-27', '2026-12-28', '2026-12-29', '2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02',
    ]);

    // Tab past To, the note and Add to the run's one Remove, named by the run; Enter removes all ten.
    for (let field = 0; field < 4; field += 1) await page.keyboard.press('Tab');
    expect(await focusedName()).toBe('Remove 24 Dec 2026 – 2 Jan 2027');
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent(), { timeout: PAGE_LOAD }).toBe('Removed 24 Dec 2026 – 2 Jan 2027 (10 days).');
    expect(await list.textContent()).toBe('Mon 4 Jan 2027RemoveMon 11 Jan 2027 — InventoryRemove');
    // The row now in its place has the focus.
    expect(await focusedName()).toBe('Remove 4 Jan 2027');
    expect(await savedDates()).toEqual([
      { date: '2027-01-04', note: null },
      { date: '2027-01-11', note: 'Inventory' },
    ]);
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);
  }, 120_000);
});

describe("the shop's time zone (ADR 0173)", () => {
  it('is chosen by keyboard from a typed city, saved on its own and in effect after a reload', async () => {
    const { page } = browser;
    await signIn(page);
    await page.goto('/app/settings');
    const zonePanel = page.getByTestId('shop-zone');
    const inEffect = zonePanel.getByTestId('shop-zone-in-effect');
    await expect.poll(() => inEffect.textContent(), { timeout: PAGE_LOAD }).toMatch(/^In effect: \S+, the server's zone \(none chosen here\)\.$/);
    const zone = zonePanel.getByRole('combobox', { name: /^Time zone/ });
    expect(await zone.inputValue()).toBe("None — use the server's zone");
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Keyboard only: a city typed, the option taken with the arrows and Enter, then Tab to Save.
    await zone.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('chicago');
    await page.getByRole('option', { name: /^America\/Chicago \(GMT-0[56]:00\)$/ }).waitFor();
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => zone.inputValue()).toMatch(/^America\/Chicago /);
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Save time zone');
    await page.keyboard.press('Enter');
    await expect.poll(() => zonePanel.getByTestId('shop-zone-saved').textContent(), { timeout: PAGE_LOAD }).toBe("Saved: the shop's day is now America/Chicago's, from the next forecast run.");
    expect(await inEffect.textContent()).toBe('In effect: America/Chicago.');
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    await page.reload();
    const reloaded = page.getByTestId('shop-zone');
    await expect.poll(() => reloaded.getByTestId('shop-zone-in-effect').textContent(), { timeout: PAGE_LOAD }).toBe('In effect: America/Chicago.');
    expect(await reloaded.getByRole('combobox', { name: /^Time zone/ }).inputValue()).toMatch(/^America\/Chicago /);
  }, 120_000);
});
