// Settings → Shop against a loopback HTTP server playing /api/shop/: the saved currency shows by
// code and name, a currency is found by its name and chosen with the keyboard, the example follows
// the choice, saving sends the code and the screens' money follows; a refusal says why. Each save goes
// at the version its panel read (If-Match); one the server refuses as saved meanwhile keeps what
// was chosen or typed until Reload shows the settings as they are now (ADR 0168's amendment). The
// shop's time zone (ADR 0173) is found by a city typed and taken with the keyboard, saved on its own.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { moneyFormat, type ShopSettings } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout, useBrowserLanguages } from '../../test/jsdom.ts';
import { sendJson, type Loopback } from '../../test/loopback.ts';
import { startLoopbackApi } from '../../test/loopback-api.ts';
import { useAccountStore } from '../../stores/account.ts';
import { initialShopState, useShopStore } from '../../stores/shop.ts';
import { currencyOptions, ShopPanel } from './ShopPanel.tsx';
import { timeZoneOptions } from './ShopTimeZone.tsx';

let loopback: Loopback;
let saves: unknown[] = [];
let closedSaves: unknown[] = [];
let zoneSaves: unknown[] = [];
/** The If-Match of each save, in order. */
let sentVersions: (string | undefined)[] = [];
/** What the server has saved: the closed dates and each panel's version. */
let stored: ShopSettings;
/** The 409 of a save at a version no longer stored, as the server words it. */
const conflict = (detail: string) => ({ code: 'edit_conflict', detail, current: stored, changed_by: 'sam', changed_at: '2026-12-05T14:02:00.000Z' });
const stale = (header: string | string[] | undefined, version: string) => header !== undefined && header !== `"${version}"`;

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopbackApi((request, body, response) => {
    const path = request.url?.split('?')[0];
    if (path === '/api/shop/' && request.method === 'GET') return sendJson(response, 200, stored);
    if (request.method === 'PUT') sentVersions.push(request.headers['if-match']);
    if (path === '/api/shop/closed-dates/' && request.method === 'PUT') {
      const update = JSON.parse(body) as { closedDates: { date: string; note: string | null }[] };
      closedSaves.push(update);
      if (stale(request.headers['if-match'], stored.closedDatesVersion)) return sendJson(response, 409, conflict('The closed dates were changed by sam at 14:02 after you opened them. Reload to see their change, then edit again.'));
      stored = { ...stored, closedDates: [...update.closedDates].sort((a, b) => a.date.localeCompare(b.date)), closedDatesVersion: String(Number(stored.closedDatesVersion) + 1) };
      return sendJson(response, 200, stored);
    }
    if (path === '/api/shop/time-zone/' && request.method === 'PUT') {
      const update = JSON.parse(body) as { timeZone: string | null };
      zoneSaves.push(update);
      if (stale(request.headers['if-match'], stored.timeZoneVersion)) return sendJson(response, 409, conflict("The shop's time zone was changed by sam at 14:02 after you opened it. Reload to see their change, then edit again."));
      stored = { ...stored, timeZone: update.timeZone, timeZoneVersion: String(Number(stored.timeZoneVersion) + 1), timeZoneInEffect: update.timeZone ?? 'UTC', timeZoneSource: update.timeZone ? 'shop' : 'server' };
      return sendJson(response, 200, stored);
    }
    if (path !== '/api/shop/' || request.method !== 'PUT') return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
    const update = JSON.parse(body) as { currency: string | null };
    saves.push(update);
    if (update.currency === 'XSU') return sendJson(response, 400, { detail: 'Invalid request: currency: Choose a currency by its ISO 4217 code, such as USD, GBP, EUR or AUD.', code: 'validation_error', errors: { currency: ['Choose a currency by its ISO 4217 code, such as USD, GBP, EUR or AUD.'] } });
    if (stale(request.headers['if-match'], stored.currencyVersion)) return sendJson(response, 409, conflict("The shop's currency was changed by sam at 14:02 after you opened it. Reload to see their change, then edit again."));
    stored = { ...stored, currency: update.currency, currencyVersion: String(Number(stored.currencyVersion) + 1) };
    return sendJson(response, 200, stored);
  });
});
afterAll(() => loopback.close());
beforeEach(() => {
  saves = [];
  closedSaves = [];
  zoneSaves = [];
  sentVersions = [];
  stored = {
    currency: 'GBP',
    currencyVersion: '3',
    closedDates: [{ date: '2026-12-28', note: 'Bank holiday (substitute)' }],
    closedDatesVersion: '5',
    ...{ timeZone: null, timeZoneVersion: '2', timeZoneInEffect: 'UTC', timeZoneSource: 'server' },
  };
  useShopStore.setState({ ...initialShopState, currency: 'GBP', currencyVersion: '3', requested: true });
});
afterEach(cleanup);

const renderPanel = () => render(<MantineProvider env="test"><ShopPanel /></MantineProvider>);
const box = () => screen.getByRole('combobox', { name: /Currency/ }) as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: 'Save currency' }) as HTMLButtonElement;
const example = () => screen.getByTestId('shop-example').textContent;

describe('the Shop panel', () => {
  it('lists every currency by code and name', () => {
    const options = currencyOptions(null);
    expect(options).toContainEqual({ value: 'USD', label: 'USD — US Dollar' });
    expect(options).toContainEqual({ value: 'EUR', label: 'EUR — Euro' });
    expect(options.length).toBeGreaterThan(100);
    // A saved code this browser does not list stays choosable.
    expect(currencyOptions('XQQ').at(-1)).toEqual({ value: 'XQQ', label: 'XQQ' });
  });

  it("lists the browser region's currency first, so its name typed offers it first (QA8 F1)", () => {
    expect(currencyOptions(null, 'en-GB')[0]).toEqual({ value: 'GBP', label: 'GBP — British Pound' });
    expect(currencyOptions(null, 'en-GB').filter((option) => option.label.includes('Pound'))[0]?.value).toBe('GBP');
    expect(currencyOptions(null, 'de-AT')[0]?.value).toBe('EUR');
    expect(currencyOptions(null, 'de-CH')[0]?.value).toBe('CHF');
    expect(currencyOptions(null, 'en-AU')[0]?.value).toBe('AUD');
    expect(currencyOptions(null, 'en')[0]?.value).toBe('USD');
    expect(currencyOptions(null, 'en-GB').filter((option) => option.value === 'GBP')).toHaveLength(1);
  });

  it('shows the saved currency and how money looks in it, with nothing to save yet', () => {
    renderPanel();
    expect(box().value).toBe('GBP — British Pound');
    expect(example()).toBe('Money shows as £1,240.50');
    expect(saveButton().disabled).toBe(true);
  });

  it('finds a currency by its name, takes it with the keyboard and saves it for every screen', async () => {
    renderPanel();
    box().focus();
    fireEvent.change(box(), { target: { value: 'euro' } });
    await screen.findByRole('option', { name: 'EUR — Euro' });
    fireEvent.keyDown(box(), { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(box(), { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(example()).toBe('Money shows as €1,240.50'));
    expect(saveButton().disabled).toBe(false);
    fireEvent.click(saveButton());
    expect((await screen.findByTestId('shop-saved')).textContent).toBe('Saved: money now shows as €1,240.50 on every screen.');
    expect(saves).toEqual([{ currency: 'EUR' }]);
    expect(sentVersions).toEqual(['"3"']);
    expect(useShopStore.getState()).toMatchObject({ currency: 'EUR', currencyVersion: '4' });
    expect(moneyFormat(useShopStore.getState().currency).format(24.99)).toBe('€24.99');
    expect(saveButton().disabled).toBe(true);
  });

  it('goes back to plain figures when None is chosen and saved', async () => {
    renderPanel();
    box().focus();
    fireEvent.change(box(), { target: { value: 'none' } });
    fireEvent.click(await screen.findByRole('option', { name: 'None — plain figures (1,240.50)' }));
    await waitFor(() => expect(example()).toBe('Money shows as 1,240.50'));
    fireEvent.click(saveButton());
    expect((await screen.findByTestId('shop-saved')).textContent).toBe('Saved: money shows as plain figures again (1,240.50).');
    expect(saves).toEqual([{ currency: null }]);
    expect(useShopStore.getState().currency).toBeNull();
  });

  it("shows the server's refusal and keeps the saved currency", async () => {
    renderPanel();
    box().focus();
    fireEvent.change(box(), { target: { value: 'XSU' } });
    fireEvent.click(await screen.findByRole('option', { name: /^XSU — / }));
    fireEvent.click(saveButton());
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid request: currency: Choose a currency by its ISO 4217 code, such as USD, GBP, EUR or AUD.');
    expect(saves).toEqual([{ currency: 'XSU' }]);
    expect(useShopStore.getState().currency).toBe('GBP');
    expect(example()).toBe('Money shows as XSU\u00a01,240.50');
    expect(screen.queryByTestId('shop-reload')).toBeNull();
  });

  it("refuses a save over another administrator's since, keeping the choice until Reload shows theirs; then saves at their version", async () => {
    stored = { ...stored, currency: 'USD', currencyVersion: '4' };
    renderPanel();
    box().focus();
    fireEvent.change(box(), { target: { value: 'euro' } });
    fireEvent.click(await screen.findByRole('option', { name: 'EUR — Euro' }));
    fireEvent.click(saveButton());
    const refusal = await screen.findByTestId('shop-error');
    expect(refusal.textContent).toContain("The shop's currency was changed by sam at 14:02 after you opened it.");
    expect(sentVersions).toEqual(['"3"']);
    expect(box().value).toBe('EUR — Euro');
    expect(useShopStore.getState()).toMatchObject({ currency: 'GBP', currencyVersion: '3' });

    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(box().value).toBe('USD — US Dollar'));
    expect(screen.queryByTestId('shop-error')).toBeNull();
    expect(useShopStore.getState()).toMatchObject({ currency: 'USD', currencyVersion: '4' });
    box().focus();
    fireEvent.change(box(), { target: { value: 'euro' } });
    fireEvent.click(await screen.findByRole('option', { name: 'EUR — Euro' }));
    fireEvent.click(saveButton());
    await screen.findByTestId('shop-saved');
    expect(sentVersions).toEqual(['"3"', '"4"']);
    expect(stored).toMatchObject({ currency: 'EUR', currencyVersion: '5' });
  });
});

describe("the Shop panel's closed days (ADR 0171)", () => {
  let restoreLanguages: () => void;
  beforeEach(() => {
    restoreLanguages = useBrowserLanguages(['en-GB']);
    // The shop's today is fixed (5 Dec 2026, before every day the tests list), so what is past or under way is the tests' own.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-12-05T12:00:00Z') });
  });
  afterEach(() => {
    restoreLanguages();
    vi.useRealTimers();
  });

  const dateBox = () => screen.getByRole('textbox', { name: /^From/ }) as HTMLInputElement;
  const toBox = () => screen.getByRole('textbox', { name: /^To/ }) as HTMLInputElement;
  const noteBox = () => screen.getByRole('textbox', { name: /^Note/ }) as HTMLInputElement;
  const listed = () => Array.from(screen.getByTestId('shop-closed-list').querySelectorAll('li'), (item) => item.textContent);
  const addForm = () => screen.getByRole('form', { name: 'Add closed days' });
  const status = () => screen.getByTestId('shop-closed-status').textContent;
  /** Every day from `from`, `days` of them, with one note: a run as the server stores it. */
  const run = (from: string, days: number, note: string | null) =>
    Array.from({ length: days }, (_, index) => ({ date: new Date(Date.parse(`${from}T00:00:00Z`) + index * 86_400_000).toISOString().slice(0, 10), note }));
  const typeRun = (from: string, to: string, note: string) => {
    fireEvent.change(dateBox(), { target: { value: from } });
    fireEvent.change(toBox(), { target: { value: to } });
    fireEvent.change(noteBox(), { target: { value: note } });
    fireEvent.submit(addForm());
  };

  /** The calendar of the field labelled `label`, opened from its button; the day focused in it as a screen reader names it. */
  const openCalendar = async (label: string) => {
    fireEvent.click(screen.getByRole('button', { name: `Pick ${label} from the calendar` }));
    return screen.findByRole('dialog', { name: `Calendar: ${label}` });
  };
  const focusedDay = () => document.activeElement?.getAttribute('aria-label');
  const press = (...keys: string[]) => keys.forEach((key) => fireEvent.keyDown(document.activeElement ?? document.body, { key }));

  it("picks From and To from their calendars by keyboard, on the shop's today and then on From's day, written day first, and adds the run", async () => {
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    const from = await openCalendar('From');
    // Opening the calendar sends nothing: its button is no submit of the form.
    expect(closedSaves).toEqual([]);
    await waitFor(() => expect(focusedDay()).toBe('Saturday 5 December 2026'));
    expect(screen.getByRole('button', { name: 'Saturday 5 December 2026' }).getAttribute('aria-current')).toBe('date');
    press('ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowLeft', 'ArrowLeft');
    await waitFor(() => expect(focusedDay()).toBe('Thursday 24 December 2026'));
    fireEvent.click(document.activeElement as HTMLElement);
    expect(dateBox().value).toBe('24/12/2026');
    await waitFor(() => expect(from.isConnected).toBe(false));
    await waitFor(() => expect(document.activeElement).toBe(dateBox()));

    await openCalendar('To (optional)');
    await waitFor(() => expect(focusedDay()).toBe('Thursday 24 December 2026'));
    press('ArrowDown', 'ArrowRight', 'ArrowRight');
    await waitFor(() => expect(focusedDay()).toBe('Saturday 2 January 2027'));
    fireEvent.click(document.activeElement as HTMLElement);
    expect(toBox().value).toBe('02/01/2027');
    await waitFor(() => expect(document.activeElement).toBe(toBox()));

    fireEvent.change(noteBox(), { target: { value: 'Christmas closure' } });
    fireEvent.submit(addForm());
    await waitFor(() => expect(listed()).toEqual(['Thu 24 Dec 2026 – Sat 2 Jan 2027 — Christmas closure · 10 daysRemove']));
    expect(closedSaves).toEqual([{ closedDates: run('2026-12-24', 10, 'Christmas closure') }]);
  });

  it('writes a day picked month first for a month-first person, and the typed day then opens the calendar', async () => {
    restoreLanguages();
    restoreLanguages = useBrowserLanguages(['en-US', 'en']);
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    await openCalendar('From');
    await waitFor(() => expect(focusedDay()).toBe('Saturday 5 December 2026'));
    press('ArrowRight', 'ArrowRight');
    await waitFor(() => expect(focusedDay()).toBe('Monday 7 December 2026'));
    fireEvent.click(document.activeElement as HTMLElement);
    expect(dateBox().value).toBe('12/07/2026');
    // Typed over, month first: the calendar opens on that day.
    fireEvent.change(dateBox(), { target: { value: '01/04/2027' } });
    await openCalendar('From');
    await waitFor(() => expect(focusedDay()).toBe('Monday 4 January 2027'));
    press('Escape');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Calendar: From' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(dateBox()));
    fireEvent.submit(addForm());
    await waitFor(() => expect(status()).toBe('Added 4 Jan 2027.'));
  });

  describe("the run under way on the shop's today, and the past", () => {
    const listedOn = async (now: string, zone = 'UTC') => {
      vi.setSystemTime(Date.parse(now));
      stored = {
        ...stored,
        closedDates: [{ date: '2026-12-20', note: 'Stock-take' }, ...run('2026-12-24', 10, 'Christmas closure'), { date: '2027-01-04', note: null }],
        timeZoneInEffect: zone,
      };
      renderPanel();
      await waitFor(() => expect(listed()).toHaveLength(3));
      return listed();
    };
    const when = () => Array.from(screen.getByTestId('shop-closed-list').querySelectorAll('li'), (item) => item.dataset['when']);

    it('says a run closed now and until when, and a run over as past', async () => {
      expect(await listedOn('2026-12-28T12:00:00Z')).toEqual([
        'Sun 20 Dec 2026 — Stock-take (past)Remove',
        'Thu 24 Dec 2026 – Sat 2 Jan 2027 — Christmas closure · 10 days (closed now, until 2 Jan)Remove',
        'Mon 4 Jan 2027Remove',
      ]);
      expect(when()).toEqual(['past', 'now', 'ahead']);
    });

    it("says the run's last day is today, and a day alone closed today", async () => {
      expect((await listedOn('2027-01-02T10:00:00Z'))[1]).toBe('Thu 24 Dec 2026 – Sat 2 Jan 2027 — Christmas closure · 10 days (closed now, until today)Remove');
      cleanup();
      expect(await listedOn('2027-01-04T10:00:00Z')).toEqual([
        'Sun 20 Dec 2026 — Stock-take (past)Remove',
        'Thu 24 Dec 2026 – Sat 2 Jan 2027 — Christmas closure · 10 days (past)Remove',
        'Mon 4 Jan 2027 (closed today)Remove',
      ]);
    });

    it("takes the shop's day, not the browser's: 23:30 UTC on 23 Dec is Christmas Eve in Auckland, and still the 23rd in Chicago", async () => {
      expect((await listedOn('2026-12-23T23:30:00Z', 'Pacific/Auckland'))[1]).toBe('Thu 24 Dec 2026 – Sat 2 Jan 2027 — Christmas closure · 10 days (closed now, until 2 Jan)Remove');
      cleanup();
      expect((await listedOn('2026-12-24T03:00:00Z', 'America/Chicago'))[1]).toBe('Thu 24 Dec 2026 – Sat 2 Jan 2027 — Christmas closure · 10 daysRemove');
      expect(when()).toEqual(['past', 'ahead', 'ahead']);
    });

    it('names the year of a last day a year or more away (a list saved through the API)', async () => {
      vi.setSystemTime(Date.parse('2026-12-01T12:00:00Z'));
      stored = { ...stored, closedDates: run('2026-12-01', 366, null) };
      renderPanel();
      await waitFor(() => expect(listed()).toEqual(['Tue 1 Dec 2026 – Wed 1 Dec 2027 · 366 days (closed now, until 1 Dec 2027)Remove']));
    });
  });

  it("lists the saved days, adds one typed in the browser's order, and removes one", async () => {
    renderPanel();
    await waitFor(() => expect(listed()).toEqual(['Mon 28 Dec 2026 — Bank holiday (substitute)Remove']));
    expect(dateBox().placeholder).toBe('28/12/2026');
    fireEvent.change(dateBox(), { target: { value: '4/1/2027' } });
    fireEvent.change(noteBox(), { target: { value: ' Stock-take ' } });
    fireEvent.submit(addForm());
    await waitFor(() => expect(listed()).toEqual(['Mon 28 Dec 2026 — Bank holiday (substitute)Remove', 'Mon 4 Jan 2027 — Stock-takeRemove']));
    expect(closedSaves).toEqual([{ closedDates: [{ date: '2026-12-28', note: 'Bank holiday (substitute)' }, { date: '2027-01-04', note: 'Stock-take' }] }]);
    expect(dateBox().value).toBe('');
    expect(status()).toBe('Added 4 Jan 2027.');
    await waitFor(() => expect(document.activeElement).toBe(dateBox()));

    fireEvent.click(screen.getByRole('button', { name: 'Remove 28 Dec 2026' }));
    await waitFor(() => expect(listed()).toEqual(['Mon 4 Jan 2027 — Stock-takeRemove']));
    expect(status()).toBe('Removed 28 Dec 2026.');
    // The removed row's button is gone: the row now in its place has the focus.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove 4 Jan 2027' })));
    expect(closedSaves.at(-1)).toEqual({ closedDates: [{ date: '2027-01-04', note: 'Stock-take' }] });
    // Each save at the version the one before gave.
    expect(sentVersions).toEqual(['"5"', '"6"']);
  });

  it("refuses an added day over another administrator's list since, keeping the day typed; Reload shows their list and Add puts the day in it", async () => {
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    stored = { ...stored, closedDates: [...stored.closedDates, { date: '2027-01-11', note: 'Inventory' }], closedDatesVersion: '6' };
    typeRun('4/1/2027', '5/1/2027', 'Stock-take');
    expect((await screen.findByTestId('shop-closed-error')).textContent).toContain('The closed dates were changed by sam at 14:02 after you opened them.');
    expect(listed()).toEqual(['Mon 28 Dec 2026 — Bank holiday (substitute)Remove']);
    expect([dateBox().value, toBox().value, noteBox().value]).toEqual(['4/1/2027', '5/1/2027', 'Stock-take']);
    expect(status()).toBe('');

    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(listed()).toEqual(['Mon 28 Dec 2026 — Bank holiday (substitute)Remove', 'Mon 11 Jan 2027 — InventoryRemove']));
    expect(screen.queryByTestId('shop-closed-error')).toBeNull();
    expect([dateBox().value, toBox().value, noteBox().value]).toEqual(['4/1/2027', '5/1/2027', 'Stock-take']);
    fireEvent.submit(addForm());
    await waitFor(() => expect(listed()).toHaveLength(3));
    expect(listed()[1]).toBe('Mon 4 Jan 2027 – Tue 5 Jan 2027 — Stock-take · 2 daysRemove');
    expect(sentVersions).toEqual(['"5"', '"6"']);
    expect(stored.closedDates.map((day) => day.date)).toEqual(['2026-12-28', '2027-01-04', '2027-01-05', '2027-01-11']);
  });

  it('says how to type a date it cannot read, and which day does not exist, sending nothing', async () => {
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    fireEvent.change(dateBox(), { target: { value: 'next Monday' } });
    fireEvent.submit(addForm());
    expect(await screen.findByText('Type the date as DD/MM/YYYY, like 28/12/2026 (or as 2026-12-28).')).toBeTruthy();
    fireEvent.change(dateBox(), { target: { value: '30/02/2027' } });
    fireEvent.submit(addForm());
    expect(await screen.findByText('30/02/2027 is not a real date: February 2027 has 28 days.')).toBeTruthy();
    expect(closedSaves).toEqual([]);
  });

  it("reads the days in the person's own order over the browser's: day first on an en-US laptop (ADR 0167, amendment)", async () => {
    restoreLanguages();
    restoreLanguages = useBrowserLanguages(['en-US', 'en']);
    useAccountStore.setState({ dateOrder: 'day-first' });
    try {
      renderPanel();
      await screen.findByTestId('shop-closed-list');
      expect(dateBox().placeholder).toBe('28/12/2026');
      typeRun('4/1/2027', '4/1/2027', 'Stock-take');
      await waitFor(() => expect(status()).toBe('Added 4 Jan 2027.'));
      expect(closedSaves.at(-1)).toEqual({ closedDates: [{ date: '2026-12-28', note: 'Bank holiday (substitute)' }, { date: '2027-01-04', note: 'Stock-take' }] });
    } finally {
      useAccountStore.setState({ dateOrder: 'browser' });
    }
    cleanup();
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    expect(dateBox().placeholder).toBe('12/28/2026');
  });

  it('adds a run from one day to another with one note in one save, says which days it re-noted, and lists it as one line', async () => {
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    typeRun('24/12/2026', '02/01/2027', ' Christmas closure ');
    await waitFor(() => expect(listed()).toEqual(['Thu 24 Dec 2026 – Sat 2 Jan 2027 — Christmas closure · 10 daysRemove']));
    expect(closedSaves).toEqual([{ closedDates: run('2026-12-24', 10, 'Christmas closure') }]);
    expect(status()).toBe('Added 24 Dec 2026 – 2 Jan 2027 (10 days). 1 of these days was already on the list; its note is now “Christmas closure”.');
    expect([dateBox().value, toBox().value, noteBox().value]).toEqual(['', '', '']);
    await waitFor(() => expect(document.activeElement).toBe(dateBox()));

    // The run's button names the run and removes all of it, in one save.
    fireEvent.click(screen.getByRole('button', { name: 'Remove 24 Dec 2026 – 2 Jan 2027' }));
    await screen.findByText('No closed days yet: the forecast only knows the closures your sales show.');
    expect(closedSaves.at(-1)).toEqual({ closedDates: [] });
    expect(status()).toBe('Removed 24 Dec 2026 – 2 Jan 2027 (10 days).');
    await waitFor(() => expect(document.activeElement).toBe(dateBox()));
    expect(sentVersions).toEqual(['"5"', '"6"']);
  });

  it('shows consecutive days with one note as one line, a changed note or a gap as another, and removes one run', async () => {
    stored = {
      ...stored,
      closedDates: [...run('2026-12-24', 3, 'Christmas'), { date: '2026-12-28', note: 'Bank holiday (substitute)' }, ...run('2026-12-29', 2, null), ...run('2027-01-04', 1, null)],
    };
    renderPanel();
    await waitFor(() =>
      expect(listed()).toEqual([
        'Thu 24 Dec 2026 – Sat 26 Dec 2026 — Christmas · 3 daysRemove',
        'Mon 28 Dec 2026 — Bank holiday (substitute)Remove',
        'Tue 29 Dec 2026 – Wed 30 Dec 2026 · 2 daysRemove',
        'Mon 4 Jan 2027Remove',
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove 29 Dec 2026 – 30 Dec 2026' }));
    await waitFor(() => expect(listed()).toHaveLength(3));
    expect(stored.closedDates.map((day) => day.date)).toEqual(['2026-12-24', '2026-12-25', '2026-12-26', '2026-12-28', '2027-01-04']);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove 4 Jan 2027' })));
    // The last row removed: the one before it takes the focus.
    fireEvent.click(screen.getByRole('button', { name: 'Remove 4 Jan 2027' }));
    await waitFor(() => expect(listed()).toHaveLength(2));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove 28 Dec 2026' })));
  });

  it('gives a day already listed the new note, and says so', async () => {
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    typeRun('28/12/2026', '', '');
    await waitFor(() => expect(listed()).toEqual(['Mon 28 Dec 2026Remove']));
    expect(status()).toBe('Added 28 Dec 2026. It was already on the list; it now has no note.');
    expect(closedSaves).toEqual([{ closedDates: [{ date: '2026-12-28', note: null }] }]);
  });

  it('refuses a run that ends before it starts, or is longer than two months, on the To field, sending nothing', async () => {
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    typeRun('24/12/2026', '02/01/2026', 'Christmas closure');
    expect(await screen.findByText('2 Jan 2026 is before 24 Dec 2026: type the last day closed in To, on or after the first.')).toBeTruthy();
    expect(toBox().getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(toBox()));

    // 2028 for 2027: a year and more.
    typeRun('24/12/2026', '02/01/2028', 'Christmas closure');
    expect(await screen.findByText('24 Dec 2026 – 2 Jan 2028 is 375 days: at most 62 days in a row are added at once. Check the year, or add a longer closure in parts.')).toBeTruthy();
    typeRun('1/7/2027', '1/9/2027', 'Summer');
    expect(await screen.findByText('1 Jul 2027 – 1 Sep 2027 is 63 days: at most 62 days in a row are added at once. Check the year, or add a longer closure in parts.')).toBeTruthy();
    // A day the To field cannot read: the same sentences as From's.
    typeRun('1/7/2027', '31/9/2027', 'Summer');
    expect(await screen.findByText('31/9/2027 is not a real date: September 2027 has 30 days.')).toBeTruthy();
    expect(closedSaves).toEqual([]);
    expect([dateBox().value, toBox().value, noteBox().value]).toEqual(['1/7/2027', '31/9/2027', 'Summer']);

    // Two months exactly is one Add.
    typeRun('1/7/2027', '31/8/2027', 'Summer');
    await waitFor(() => expect(listed()).toContain('Thu 1 Jul 2027 – Tue 31 Aug 2027 — Summer · 62 daysRemove'));
    expect(closedSaves).toHaveLength(1);
  });

  it('refuses days that would take the list past its 366, naming the limit, sending nothing', async () => {
    stored = { ...stored, closedDates: run('2027-01-01', 360, null) };
    renderPanel();
    await screen.findByTestId('shop-closed-list');
    typeRun('15/12/2026', '24/12/2026', 'Christmas');
    expect(await screen.findByText('The list would then hold 370 closed days: it holds at most 366. Remove past days first.')).toBeTruthy();
    // Days already on the list do not count twice: six of these eleven make 366.
    typeRun('26/12/2026', '05/01/2027', 'Christmas');
    await waitFor(() => expect(listed()[0]).toBe('Sat 26 Dec 2026 – Tue 5 Jan 2027 — Christmas · 11 daysRemove'));
    expect(status()).toBe('Added 26 Dec 2026 – 5 Jan 2027 (11 days). 5 of these days were already on the list; their note is now “Christmas”.');
    expect(stored.closedDates).toHaveLength(366);
    typeRun('2/6/2028', '', '');
    expect(await screen.findByText('The list would then hold 367 closed days: it holds at most 366. Remove past days first.')).toBeTruthy();
    expect(dateBox().getAttribute('aria-invalid')).toBe('true');
    expect(closedSaves).toHaveLength(1);
  });
});

describe("the Shop panel's time zone (ADR 0173)", () => {
  const zoneBox = () => screen.getByRole('combobox', { name: /^Time zone/ }) as HTMLInputElement;
  const saveZone = () => screen.getByRole('button', { name: 'Save time zone' }) as HTMLButtonElement;
  const inEffect = () => screen.getByTestId('shop-zone-in-effect').textContent;
  const chooseByKeyboard = async (typed: string, option: RegExp) => {
    zoneBox().focus();
    fireEvent.change(zoneBox(), { target: { value: typed } });
    await screen.findByRole('option', { name: option });
    fireEvent.keyDown(zoneBox(), { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(zoneBox(), { key: 'Enter', code: 'Enter' });
  };

  it('lists every zone the browser knows with its offset now, and UTC and a saved one it does not', () => {
    const options = timeZoneOptions(null);
    expect(options.find((option) => option.value === 'UTC')?.label).toMatch(/^UTC \(GMT(\+00:00)?\)$/);
    expect(options.find((option) => option.value === 'America/Chicago')?.label).toMatch(/^America\/Chicago \(GMT-0[56]:00\)$/);
    expect(options.length).toBeGreaterThan(300);
    expect(timeZoneOptions('Etc/GMT-14')[0]).toEqual({ value: 'Etc/GMT-14', label: 'Etc/GMT-14 (GMT+14:00)' });
  });

  it("says the server's zone is in effect while none is chosen, with nothing to save", async () => {
    renderPanel();
    await waitFor(() => expect(inEffect()).toBe("In effect: UTC, the server's zone (none chosen here)."));
    expect(zoneBox().value).toBe("None — use the server's zone");
    expect(saveZone().disabled).toBe(true);
  });

  it("finds a zone by its city, takes it with the keyboard and saves it at the version read, for a new integration's clock too", async () => {
    renderPanel();
    await waitFor(() => expect(zoneBox().disabled).toBe(false));
    await chooseByKeyboard('chicago', /^America\/Chicago /);
    await waitFor(() => expect(zoneBox().value).toMatch(/^America\/Chicago /));
    fireEvent.click(saveZone());
    expect((await screen.findByTestId('shop-zone-saved')).textContent).toBe("Saved: the shop's day is now America/Chicago's, from the next forecast run.");
    expect(zoneSaves).toEqual([{ timeZone: 'America/Chicago' }]);
    expect(sentVersions).toEqual(['"2"']);
    expect(inEffect()).toBe('In effect: America/Chicago.');
    expect(useShopStore.getState().timeZone).toBe('America/Chicago');
    expect(saveZone().disabled).toBe(true);
  });

  it("saves this browser's zone at a click, the focus then on the zone's box", async () => {
    const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
    stored = { ...stored, timeZone: 'Pacific/Kiritimati', timeZoneInEffect: 'Pacific/Kiritimati', timeZoneSource: 'shop' };
    renderPanel();
    await waitFor(() => expect(zoneBox().value).toMatch(/^Pacific\/Kiritimati /));
    fireEvent.click(screen.getByRole('button', { name: `Use this browser's zone (${here})` }));
    expect((await screen.findByTestId('shop-zone-saved')).textContent).toBe(`Saved: the shop's day is now ${here}'s, from the next forecast run.`);
    expect(zoneSaves).toEqual([{ timeZone: here }]);
    expect(zoneBox().value.startsWith(`${here} (`)).toBe(true);
    expect(inEffect()).toBe(`In effect: ${here}.`);
    expect(document.activeElement).toBe(zoneBox());
    expect(saveZone().disabled).toBe(true);
  });

  it("refuses a save over another administrator's since, keeping the choice until Reload shows theirs", async () => {
    renderPanel();
    await waitFor(() => expect(zoneBox().disabled).toBe(false));
    stored = { ...stored, timeZone: 'Europe/London', timeZoneVersion: '3', timeZoneInEffect: 'Europe/London', timeZoneSource: 'shop' };
    await chooseByKeyboard('sydney', /^Australia\/Sydney /);
    fireEvent.click(saveZone());
    expect((await screen.findByTestId('shop-zone-error')).textContent).toContain("The shop's time zone was changed by sam at 14:02 after you opened it.");
    expect(zoneBox().value).toMatch(/^Australia\/Sydney /);
    expect(inEffect()).toBe("In effect: UTC, the server's zone (none chosen here).");

    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(zoneBox().value).toMatch(/^Europe\/London /));
    expect(inEffect()).toBe('In effect: Europe/London.');
    expect(screen.queryByTestId('shop-zone-error')).toBeNull();
    await chooseByKeyboard('sydney', /^Australia\/Sydney /);
    fireEvent.click(saveZone());
    await screen.findByTestId('shop-zone-saved');
    expect(sentVersions).toEqual(['"2"', '"3"']);
    expect(stored).toMatchObject({ timeZone: 'Australia/Sydney', timeZoneVersion: '4' });
  });
});
