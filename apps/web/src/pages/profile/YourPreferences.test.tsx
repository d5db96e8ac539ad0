// Profile → Your preferences against a loopback HTTP server playing /api/accounts/me/preferences/:
// the three choices with what each writes, chosen with the keyboard, saved for the person; the
// screens' dates follow; a refusal says why and keeps what was saved.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { OwnAccount } from '@stockwise/contract';
import { useAccountStore } from '../../stores/account.ts';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout, useBrowserLanguages } from '../../test/jsdom.ts';
import { sendJson, type Loopback } from '../../test/loopback.ts';
import { startLoopbackApi } from '../../test/loopback-api.ts';
import { viewerDates } from '../../components/viewer-dates.ts';
import { YourPreferences } from './YourPreferences.tsx';

let loopback: Loopback;
let saves: unknown[] = [];
let stored: OwnAccount;
/** The server refuses the next save, as it would a value it does not know. */
let refuseNext = false;
let restoreLanguages: () => void;

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopbackApi((request, body, response) => {
    if (request.url !== '/api/accounts/me/preferences/' || request.method !== 'PUT') return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
    const update = JSON.parse(body) as { date_order: string };
    saves.push(update);
    if (refuseNext || !['browser', 'day-first', 'month-first'].includes(update.date_order)) {
      refuseNext = false;
      return sendJson(response, 400, { detail: 'Invalid request: date_order: Invalid option.', code: 'validation_error', errors: { date_order: ['Invalid option.'] } });
    }
    stored = { ...stored, date_order: update.date_order as OwnAccount['date_order'] };
    return sendJson(response, 200, stored);
  });
});
afterAll(() => loopback.close());
beforeEach(() => {
  saves = [];
  refuseNext = false;
  stored = { id: 7, username: 'pat', email: null, role: 'viewer', must_change_password: false, date_order: 'browser' };
  useAccountStore.setState({ account: stored, dateOrder: 'browser' });
  restoreLanguages = useBrowserLanguages(['en-US', 'en']);
});
afterEach(() => {
  cleanup();
  restoreLanguages();
  useAccountStore.setState({ account: null, dateOrder: 'browser' });
});

const renderPreferences = () => render(<MantineProvider env="test"><YourPreferences /></MantineProvider>);
const choice = (name: RegExp) => screen.getByRole('radio', { name }) as HTMLInputElement;
const saveButton = () => screen.getByRole('button', { name: 'Save preferences' }) as HTMLButtonElement;

describe('Your preferences: dates', () => {
  it('offers the three choices in a labelled group, each with what it writes, the saved one checked', () => {
    renderPreferences();
    expect(screen.getByRole('radiogroup', { name: /^Dates/ })).toBeTruthy();
    expect(choice(/^As this browser writes them — MM\/DD\/YYYY \(en-US\)$/).checked).toBe(true);
    expect(choice(/^Day first — 30\/11\/2026$/).checked).toBe(false);
    expect(choice(/^Month first — 11\/30\/2026$/).checked).toBe(false);
    expect(saveButton().disabled).toBe(true);
  });

  it('writes each example with the separator of the browser’s language where it writes that order', () => {
    restoreLanguages();
    restoreLanguages = useBrowserLanguages(['de-DE', 'de']);
    renderPreferences();
    expect(choice(/^As this browser writes them — DD\.MM\.YYYY \(de-DE\)$/)).toBeTruthy();
    expect(choice(/^Day first — 30\.11\.2026$/)).toBeTruthy();
    expect(choice(/^Month first — 11\/30\/2026$/)).toBeTruthy();
  });

  it('saves Day first for the person: the screens then read 03/04/2026 as 3 April', async () => {
    renderPreferences();
    // One group of native radios (arrow keys move between them in a browser: e2e/datatab.e2e.ts).
    expect(new Set(screen.getAllByRole('radio').map((radio) => (radio as HTMLInputElement).name)).size).toBe(1);
    fireEvent.click(choice(/^Day first/));
    await waitFor(() => expect(choice(/^Day first/).checked).toBe(true));
    expect(saveButton().disabled).toBe(false);
    fireEvent.click(saveButton());
    expect((await screen.findByTestId('preferences-message')).textContent).toBe('Saved. Dates: Day first — 30/11/2026.');
    expect(saves).toEqual([{ date_order: 'day-first' }]);
    expect(useAccountStore.getState()).toMatchObject({ dateOrder: 'day-first', account: { date_order: 'day-first' } });
    expect(viewerDates()).toEqual({ order: 'day-first', pattern: 'DD/MM/YYYY' });
    expect(saveButton().disabled).toBe(true);
  });

  it('says why a save was refused and keeps the order saved before', async () => {
    renderPreferences();
    fireEvent.click(choice(/^Month first/));
    refuseNext = true;
    fireEvent.click(saveButton());
    expect((await screen.findByRole('alert')).textContent).toContain('date_order');
    expect(saves).toEqual([{ date_order: 'month-first' }]);
    expect(useAccountStore.getState().dateOrder).toBe('browser');
    expect(choice(/^Month first/).checked).toBe(true);
    expect(viewerDates()).toEqual({ order: 'month-first', pattern: 'MM/DD/YYYY' });
  });
});
