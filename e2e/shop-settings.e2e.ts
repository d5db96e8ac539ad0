// Settings → Shop: an administrator picks the shop's currency by keyboard and every money figure
// carries its sign — the dashboard's worth and the Forecasting screen's unit cost — also after a
// reload, and in another tab left open, without one (ADR 0166). Its own server: the other suites
// read bare figures. axe WCAG 2 A/AA on the panel, closed and with its list open. The closed days
// saved over another administrator's since the panel opened are refused, the typed day kept, and
// Reload shows their list (ADR 0168's amendment "the shop's settings"). A ten-day Christmas closure is
// added and removed by keyboard in one go each, as one line (ADR 0171's amendment "a run of closed
// days in one go"). A closure is picked from the From and To fields' calendars by keyboard, axe-clean
// with a calendar open, and the closure under way on the shop's day says so, a past one "(past)"
// (its amendment "a date picker, and the closure under way"). The shop's time zone is chosen by
// keyboard from a typed city and is still in effect after a reload (ADR 0173). Each test sets the
// settings it starts from through the API, so it passes alone and in any order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dayInPattern, dayInTimeZone, formatDay, formatDayOfMonth, type ShopClosedDate, type ShopSettings } from '@stockwise/contract';
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

/** The shop's settings as an administrator reads and saves them over the API, each save at the version just read: a test's starting point, or another administrator's change. */
async function shopApi() {
  const json = { 'content-type': 'application/json' };
  const { access } = (await (await fetch(`${server.baseUrl}/api/token/`, { method: 'POST', headers: json, body: JSON.stringify(demoUser) })).json()) as { access: string };
  const auth = { authorization: `Bearer ${access}` };
  const read = async () => (await (await fetch(`${server.baseUrl}/api/shop/`, { headers: auth })).json()) as ShopSettings;
  const put = async (path: string, version: string, body: unknown) => {
    const answer = await fetch(`${server.baseUrl}${path}`, { method: 'PUT', headers: { ...json, ...auth, 'if-match': `"${version}"` }, body: JSON.stringify(body) });
    if (answer.status !== 200) throw new Error(`PUT ${path}: ${answer.status} ${await answer.text()}`);
  };
  return {
    read,
    closedDates: async (closedDates: ShopClosedDate[]) => put('/api/shop/closed-dates/', (await read()).closedDatesVersion, { closedDates }),
    currency: async (currency: string | null) => put('/api/shop/', (await read()).currencyVersion, { currency }),
    timeZone: async (timeZone: string | null) => put('/api/shop/time-zone/', (await read()).timeZoneVersion, { timeZone }),
  };
}

/** The name of the focused element: its aria-label, else its field's label. */
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? null);

describe("the shop's currency", () => {
  it('is chosen by keyboard in Settings → Shop and shows on the dashboard and the Forecasting screen', async () => {
    const { page } = browser;
    await (await shopApi()).currency(null);
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
  // Next year's Christmas and the first Mondays of the year after: days ahead whatever today is, so
  // none reads "(past)", and within the five years a planned day may lie ahead.
  const year = new Date().getUTCFullYear() + 1;
  const christmasEve = `${year}-12-24`;
  const bankHoliday = `${year}-12-28`;
  const newYear = `${year + 1}-01-02`;
  const firstMonday = `${year + 1}-01-04`;
  const secondMonday = `${year + 1}-01-11`;
  /** A day as this browser (en-US) types it, and as the list shows it with its weekday. */
  const typed = (date: string) => dayInPattern(date, 'MM/DD/YYYY');
  const listed = (date: string) => `${new Intl.DateTimeFormat('en', { weekday: 'short', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))} ${formatDay(date)}`;
  /** From the From field, keyboard only: the days as this browser (en-US) writes them, Tab past From's calendar button to To (empty: one day), past To's to the note, Enter adds. */
  const addByKeyboard = async (page: Page, from: string, to: string, note: string) => {
    for (const [field, text] of [from, to, note].entries()) {
      if (field) {
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
      }
      await page.keyboard.type(text);
    }
    await page.keyboard.press('Enter');
  };

  it('are added by keyboard in the browser\'s date order, listed with their weekday, and removed', async () => {
    const { page } = browser;
    const shop = await shopApi();
    await shop.closedDates([]);
    await signIn(page);
    await page.goto('/app/settings');
    const closed = page.getByTestId('shop-closed');
    await closed.getByText('No closed days yet', { exact: false }).waitFor();
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Keyboard only: one day (To left empty) with its note.
    const date = closed.getByRole('textbox', { name: /^From/ });
    expect(await date.getAttribute('placeholder')).toBe('12/28/2026');
    await date.focus();
    await addByKeyboard(page, typed(bankHoliday), '', 'Bank holiday (substitute)');
    const list = closed.getByTestId('shop-closed-list');
    await expect.poll(() => list.textContent(), { timeout: PAGE_LOAD }).toBe(`${listed(bankHoliday)} — Bank holiday (substitute)Remove`);
    await date.focus();
    await page.keyboard.type(firstMonday);
    await page.keyboard.press('Enter');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Kept by the server: still there after a reload; then removed by keyboard.
    await page.reload();
    const remove = page.getByRole('button', { name: `Remove ${formatDay(bankHoliday)}` });
    await remove.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('shop-closed-list').textContent(), { timeout: PAGE_LOAD }).toBe(`${listed(firstMonday)}Remove`);

    // Another administrator adds a day while this panel is open, at the version they read.
    await shop.closedDates([...(await shop.read()).closedDates, { date: bankHoliday, note: 'Bank holiday (substitute)' }]);

    // This panel's add, from the list it read before: refused, the day and note kept.
    const panelClosed = page.getByTestId('shop-closed');
    const dateBox = panelClosed.getByRole('textbox', { name: /^From/ });
    const noteBox = panelClosed.getByRole('textbox', { name: /^Note/ });
    await dateBox.fill(typed(secondMonday));
    await noteBox.fill('Inventory');
    await noteBox.press('Enter');
    const refusal = panelClosed.getByTestId('shop-closed-error');
    await expect.poll(() => refusal.textContent(), { timeout: PAGE_LOAD }).toMatch(/^The closed dates were changed by demo at \d\d:\d\d after you opened them\. Reload to see their change, then edit again\./);
    expect(await page.getByTestId('shop-closed-list').textContent()).toBe(`${listed(firstMonday)}Remove`);
    expect([await dateBox.inputValue(), await noteBox.inputValue()]).toEqual([typed(secondMonday), 'Inventory']);
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    // Reload from the keyboard: their list, the typed day still there; Add puts it in their list.
    await refusal.getByRole('button', { name: 'Reload' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('shop-closed-list').textContent()).toBe(`${listed(bankHoliday)} — Bank holiday (substitute)Remove${listed(firstMonday)}Remove`);
    expect(await refusal.count()).toBe(0);
    await noteBox.press('Enter');
    await expect.poll(() => page.getByTestId('shop-closed-list').getByRole('listitem').count(), { timeout: PAGE_LOAD }).toBe(3);
    expect((await shop.read()).closedDates).toEqual([
      { date: bankHoliday, note: 'Bank holiday (substitute)' },
      { date: firstMonday, note: null },
      { date: secondMonday, note: 'Inventory' },
    ]);
  }, 120_000);

  it('are added as a run from one day to another by keyboard, shown as one line, and removed in one go', async () => {
    const { page } = browser;
    const shop = await shopApi();
    await shop.closedDates([
      { date: bankHoliday, note: 'Bank holiday (substitute)' },
      { date: firstMonday, note: null },
      { date: secondMonday, note: 'Inventory' },
    ]);
    await signIn(page);
    await page.goto('/app/settings');
    const closed = page.getByTestId('shop-closed');
    const list = closed.getByTestId('shop-closed-list');
    await expect.poll(() => list.getByRole('listitem').count(), { timeout: PAGE_LOAD }).toBe(3);

    // Keyboard only: From, Tab, To, Tab, the note, Enter — ten days, 28 Dec among them, in one save.
    await closed.getByRole('textbox', { name: /^From/ }).focus();
    await addByKeyboard(page, typed(christmasEve), typed(newYear), 'Christmas closure');
    const status = closed.getByTestId('shop-closed-status');
    await expect.poll(() => status.textContent(), { timeout: PAGE_LOAD }).toBe(`Added ${formatDay(christmasEve)} – ${formatDay(newYear)} (10 days). 1 of these days was already on the list; its note is now “Christmas closure”.`);
    expect(await list.textContent()).toBe(`${listed(christmasEve)} – ${listed(newYear)} — Christmas closure · 10 daysRemove${listed(firstMonday)}Remove${listed(secondMonday)} — InventoryRemove`);
    // Back in From, for the next closure.
    expect(await focusedName(page)).toMatch(/^From/);
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);

    const savedDates = async () => (await shop.read()).closedDates;
    const saved = await savedDates();
    expect(saved).toHaveLength(12);
    expect(saved.filter((day) => day.note === 'Christmas closure').map((day) => day.date)).toEqual([
      ...[24, 25, 26, 27, 28, 29, 30, 31].map((date) => `${year}-12-${date}`), `${year + 1}-01-01`, newYear,
    ]);

    // Tab past From's calendar button, To and its button, the note and Add to the run's one Remove, named by the run; Enter removes all ten.
    for (let field = 0; field < 6; field += 1) await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe(`Remove ${formatDay(christmasEve)} – ${formatDay(newYear)}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => status.textContent(), { timeout: PAGE_LOAD }).toBe(`Removed ${formatDay(christmasEve)} – ${formatDay(newYear)} (10 days).`);
    expect(await list.textContent()).toBe(`${listed(firstMonday)}Remove${listed(secondMonday)} — InventoryRemove`);
    // The row now in its place has the focus.
    expect(await focusedName(page)).toBe(`Remove ${formatDay(firstMonday)}`);
    expect(await savedDates()).toEqual([
      { date: firstMonday, note: null },
      { date: secondMonday, note: 'Inventory' },
    ]);
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);
  }, 120_000);

  it("are picked from the From and To calendars by keyboard in the person's order; the closure under way on the shop's day says so, a past one is marked past", async () => {
    const { page } = browser;
    const shop = await shopApi();
    // A zone a day ahead of the server's UTC for half of each day: the list and the calendar take the shop's today, not the browser's.
    const zone = 'Pacific/Auckland';
    await shop.timeZone(zone);
    const today = dayInTimeZone(Date.now(), zone);
    const day = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
    const named = (date: string, weekday: 'short' | 'long') => new Intl.DateTimeFormat('en', { weekday, timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
    await shop.closedDates([{ date: day(-10), note: 'Stock-take' }, ...[0, 1, 2, 3].map((days) => ({ date: day(days), note: 'Refit' }))]);
    await signIn(page);
    await page.goto('/app/settings');
    const closed = page.getByTestId('shop-closed');
    const list = closed.getByTestId('shop-closed-list');
    await expect.poll(() => list.getByRole('listitem').allTextContents(), { timeout: PAGE_LOAD }).toEqual([
      `${listed(day(-10))} — Stock-take (past)Remove`,
      `${listed(today)} – ${listed(day(3))} — Refit · 4 days (closed now, until ${formatDayOfMonth(day(3))})Remove`,
    ]);

    // Keyboard only: From, Tab to its calendar button, Enter; the calendar opens on the shop's today.
    const from = closed.getByRole('textbox', { name: /^From/ });
    await from.focus();
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Pick From from the calendar');
    await page.keyboard.press('Enter');
    const fromCalendar = page.getByRole('dialog', { name: 'Calendar: From' });
    await fromCalendar.waitFor();
    const fullName = (date: string) => `${named(date, 'long')} ${new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`))}`;
    await expect.poll(() => focusedName(page)).toBe(fullName(today));
    expect(await fromCalendar.getByRole('grid').count()).toBe(1);
    expect(await axeViolations(page, '[data-testid="day-calendar"]'), 'the calendar').toEqual([]);
    expect(await axeViolations(page, '[data-testid="shop-panel"]'), 'the panel with its calendar open').toEqual([]);
    // Two weeks on by the arrows; Enter writes it into From as this browser (en-US) writes a day, and From has the focus again.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focusedName(page)).toBe(fullName(day(14)));
    await page.keyboard.press('Enter');
    await fromCalendar.waitFor({ state: 'detached' });
    expect(await from.inputValue()).toBe(dayInPattern(day(14), 'MM/DD/YYYY'));
    expect(await focusedName(page)).toMatch(/^From/);

    // Tab past From's button to To; Alt+↓ opens its calendar on From's day; a week on, Enter.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toMatch(/^To/);
    await page.keyboard.press('Alt+ArrowDown');
    const toCalendar = page.getByRole('dialog', { name: 'Calendar: To (optional)' });
    await toCalendar.waitFor();
    await expect.poll(() => focusedName(page)).toBe(fullName(day(14)));
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await toCalendar.waitFor({ state: 'detached' });
    const to = closed.getByRole('textbox', { name: /^To/ });
    expect(await to.inputValue()).toBe(dayInPattern(day(21), 'MM/DD/YYYY'));
    // Escape closes a calendar with nothing picked, the focus back in its field.
    await page.keyboard.press('Alt+ArrowDown');
    await toCalendar.waitFor();
    await page.keyboard.press('Escape');
    await toCalendar.waitFor({ state: 'detached' });
    expect(await focusedName(page)).toMatch(/^To/);
    expect(await to.inputValue()).toBe(dayInPattern(day(21), 'MM/DD/YYYY'));

    // Past To's button to the note; Enter adds the eight days.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Inventory week');
    await page.keyboard.press('Enter');
    await expect.poll(() => closed.getByTestId('shop-closed-status').textContent(), { timeout: PAGE_LOAD }).toBe(`Added ${formatDay(day(14))} – ${formatDay(day(21))} (8 days).`);
    expect((await shop.read()).closedDates.filter((closedDay) => closedDay.note === 'Inventory week').map((closedDay) => closedDay.date)).toEqual([14, 15, 16, 17, 18, 19, 20, 21].map(day));
    expect(await axeViolations(page, '[data-testid="shop-panel"]')).toEqual([]);
  }, 120_000);
});

describe("the shop's time zone (ADR 0173)", () => {
  it('is chosen by keyboard from a typed city, saved on its own and in effect after a reload', async () => {
    const { page } = browser;
    await (await shopApi()).timeZone(null);
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
