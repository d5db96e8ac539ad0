// The shared date field (ADR 0171's amendment "a date picker"): typed as the person writes a day, or
// picked from its calendar — a grid of day buttons named by their full date, one of them in the tab
// order, moved by the arrow keys — and written into the field in the person's order, day first or
// month first. Escape and a pick give the focus back to the field; Alt+↓ there opens the calendar.
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { DateOrder, DayPattern } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { DayField } from './DayField.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

type Props = { order: DateOrder; pattern: DayPattern; typed?: string; opensOn?: string };

/** The field as a form holds it: what it writes is what it shows. */
function Field({ order, pattern, typed = '', opensOn }: Props) {
  const [value, setValue] = useState(typed);
  return <DayField label="From" order={order} pattern={pattern} today="2026-12-05" opensOn={opensOn} value={value} onChange={setValue} />;
}

const renderField = (props: Props) => render(<MantineProvider env="test"><Field {...props} /></MantineProvider>);
const field = () => screen.getByRole('textbox', { name: 'From' }) as HTMLInputElement;
const open = () => fireEvent.click(screen.getByRole('button', { name: 'Pick From from the calendar' }));
const calendar = () => screen.findByRole('dialog', { name: 'Calendar: From' });
const month = () => screen.getByTestId('calendar-month').textContent;
const focusedDay = () => document.activeElement?.getAttribute('aria-label');
const press = (key: string) => fireEvent.keyDown(document.activeElement ?? document.body, { key });

describe('the date field calendar', () => {
  it('opens on the day typed (day first), moves by the arrow keys and writes the day picked as DD/MM/YYYY, focus back in the field', async () => {
    renderField({ order: 'day-first', pattern: 'DD/MM/YYYY', typed: '28/12/2026' });
    open();
    const dialog = await calendar();
    const grid = within(dialog).getByRole('grid', { name: 'December 2026' });
    expect(month()).toBe('December 2026');
    // Named in full; the typed day chosen, today ringed and said to be today; one day in the tab order.
    const chosen = within(grid).getByRole('button', { name: 'Monday 28 December 2026' });
    expect(chosen.getAttribute('aria-pressed')).toBe('true');
    expect(chosen.closest('td')?.getAttribute('aria-selected')).toBe('true');
    expect(within(grid).getByRole('button', { name: 'Saturday 5 December 2026' }).getAttribute('aria-current')).toBe('date');
    expect(within(grid).getAllByRole('button').filter((day) => day.tabIndex === 0)).toEqual([chosen]);
    await waitFor(() => expect(focusedDay()).toBe('Monday 28 December 2026'));

    press('ArrowRight');
    await waitFor(() => expect(focusedDay()).toBe('Tuesday 29 December 2026'));
    press('ArrowDown');
    await waitFor(() => expect(focusedDay()).toBe('Tuesday 5 January 2027'));
    expect(month()).toBe('January 2027');
    press('ArrowLeft');
    press('ArrowUp');
    await waitFor(() => expect(focusedDay()).toBe('Monday 28 December 2026'));
    press('PageDown');
    await waitFor(() => expect(focusedDay()).toBe('Thursday 28 January 2027'));
    press('Home');
    await waitFor(() => expect(focusedDay()).toBe('Monday 25 January 2027'));
    // The one in the tab order is the one focused (roving), not the chosen day of another month.
    expect(screen.getAllByRole('button').filter((day) => day.tabIndex === 0 && day.hasAttribute('data-day')).map((day) => day.getAttribute('data-day'))).toEqual(['2027-01-25']);

    // Enter on a button is its click.
    fireEvent.click(document.activeElement as HTMLElement);
    expect(field().value).toBe('25/01/2027');
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(document.activeElement).toBe(field());
  });

  it('writes the day picked month first as MM/DD/YYYY, and reads a typed day month first', async () => {
    renderField({ order: 'month-first', pattern: 'MM/DD/YYYY', typed: '01/02/2027' });
    open();
    await calendar();
    expect(month()).toBe('January 2027');
    await waitFor(() => expect(focusedDay()).toBe('Saturday 2 January 2027'));
    press('ArrowRight');
    await waitFor(() => expect(focusedDay()).toBe('Sunday 3 January 2027'));
    fireEvent.click(document.activeElement as HTMLElement);
    expect(field().value).toBe('01/03/2027');
    expect(document.activeElement).toBe(field());
  });

  it('keeps typing: what is typed stays, and the calendar follows it; Escape closes it with the field focused and unchanged', async () => {
    renderField({ order: 'day-first', pattern: 'DD.MM.YYYY' });
    expect(field().placeholder).toBe('DD.MM.YYYY');
    fireEvent.change(field(), { target: { value: '1.2.2027' } });
    expect(field().value).toBe('1.2.2027');
    open();
    await calendar();
    expect(month()).toBe('February 2027');
    await waitFor(() => expect(focusedDay()).toBe('Monday 1 February 2027'));
    press('ArrowDown');
    await waitFor(() => expect(focusedDay()).toBe('Monday 8 February 2027'));
    press('Escape');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Calendar: From' })).toBeNull());
    expect(document.activeElement).toBe(field());
    expect(field().value).toBe('1.2.2027');
  });

  it('opens from the field by Alt+↓, on today while nothing is typed, or on the day it is given to open on', async () => {
    renderField({ order: 'day-first', pattern: 'DD/MM/YYYY' });
    expect(field().getAttribute('aria-keyshortcuts')).toBe('Alt+ArrowDown');
    fireEvent.keyDown(field(), { key: 'ArrowDown', altKey: true });
    await calendar();
    expect(month()).toBe('December 2026');
    await waitFor(() => expect(focusedDay()).toBe('Saturday 5 December 2026'));
    press('Escape');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // A plain ↓ in the field is the field's own.
    fireEvent.keyDown(field(), { key: 'ArrowDown' });
    expect(screen.queryByRole('dialog')).toBeNull();
    cleanup();

    // A To field opens on its From day.
    renderField({ order: 'day-first', pattern: 'DD/MM/YYYY', opensOn: '2027-07-01' });
    open();
    await calendar();
    await waitFor(() => expect(focusedDay()).toBe('Thursday 1 July 2027'));
  });
});
