// The row form as the Data screen opens it: its title names the row as the row's own buttons do;
// a date is typed in the viewer's order (de: day first, en-US: month first) or picked from the
// field's calendar, which Escape closes alone.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { TableColumn, TableRow } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout, useBrowserLanguages } from '../../test/jsdom.ts';
import { RowFormModal } from './RowFormModal.tsx';
import { addPayload, editPayload, toFormValue } from './row-form.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

const id = { key: 'id', label: 'ID', type: 'AutoField', read_only: true } as TableColumn;
const products: TableColumn[] = [id, { key: 'product_code', label: 'Product code', type: 'CharField', required: true } as TableColumn, { key: 'name', label: 'Name', type: 'CharField', required: true } as TableColumn];
const sales: TableColumn[] = [id, { key: 'quantity', label: 'Quantity', type: 'IntegerField', required: true } as TableColumn, { key: 'date', label: 'Date', type: 'DateField', required: true } as TableColumn];

function renderForm(columns: TableColumn[], row: TableRow | null, onClose = () => {}) {
  render(
    <MantineProvider env="test">
      <RowFormModal tableName="products" encodedName="products" columns={columns} row={row} unknownValues={{}} onClose={onClose} onOpenVariation={() => {}} />
    </MantineProvider>,
  );
}

describe('the row form title', () => {
  it('names the row by its code and name, as its Edit button does', () => {
    renderForm(products, { id: 12, product_code: 'GAR-1099', name: 'Pflanzschaufel Edelstahl' });
    expect(screen.getByRole('dialog', { name: 'Edit GAR-1099 — Pflanzschaufel Edelstahl' })).toBeTruthy();
  });

  it('names a row of a table without a code by its number', () => {
    renderForm(sales, { id: 12, quantity: 3, date: '2026-12-01' });
    expect(screen.getByRole('dialog', { name: 'Edit row 12' })).toBeTruthy();
  });

  it('names the table for a new row', () => {
    renderForm(products, null);
    expect(screen.getByRole('dialog', { name: 'Add row to products' })).toBeTruthy();
  });
});

describe('the row form date field', () => {
  let restoreLanguages = () => {};
  afterEach(() => restoreLanguages());

  it('opens a calendar on the typed day; the keys move the day and Enter writes it day first (de)', async () => {
    restoreLanguages = useBrowserLanguages(['de-DE', 'de']);
    let closed = 0;
    renderForm(sales, null, () => closed++);
    const field = screen.getByRole('textbox', { name: /^Date/ });
    expect(field.getAttribute('placeholder')).toBe('DD.MM.YYYY');
    fireEvent.change(field, { target: { value: '2026-03-15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pick Date from the calendar' }));
    const calendar = await screen.findByRole('dialog', { name: 'Calendar: Date' });
    expect(screen.getByTestId('calendar-month').textContent).toBe('March 2026');
    expect(screen.getByRole('button', { name: 'Sunday 15 March 2026' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Sunday 15 March 2026' }), { key: 'ArrowDown' });
    fireEvent.keyDown(screen.getByRole('button', { name: 'Sunday 22 March 2026' }), { key: 'PageDown' });
    expect(screen.getByTestId('calendar-month').textContent).toBe('April 2026');
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Wednesday 22 April 2026'));
    fireEvent.click(screen.getByRole('button', { name: 'Wednesday 22 April 2026' }));
    expect((field as HTMLInputElement).value).toBe('22.04.2026');
    await waitFor(() => expect(calendar.isConnected).toBe(false));

    // Typing still works, and the calendar follows what is typed; Escape closes it, not the form.
    fireEvent.change(field, { target: { value: '1.2.2027' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pick Date from the calendar' }));
    await screen.findByRole('dialog', { name: 'Calendar: Date' });
    expect(screen.getByTestId('calendar-month').textContent).toBe('February 2027');
    fireEvent.keyDown(screen.getByRole('button', { name: 'Monday 1 February 2027' }), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Calendar: Date' })).toBeNull());
    expect(closed).toBe(0);
    expect(document.activeElement).toBe(field);
    expect((field as HTMLInputElement).value).toBe('1.2.2027');
  });

  // QA6 #15, QA7 F13: an en-US buyer types 11/30/2026, and 03/04/2026 is 4 March to them.
  it('reads and writes the day month first for en-US, and refuses a day-first date naming the order', async () => {
    restoreLanguages = useBrowserLanguages(['en-US', 'en']);
    renderForm(sales, null);
    const field = screen.getByRole('textbox', { name: /^Date/ });
    expect(field.getAttribute('placeholder')).toBe('MM/DD/YYYY');
    fireEvent.change(field, { target: { value: '03/04/2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Pick Date from the calendar' }));
    await screen.findByRole('dialog', { name: 'Calendar: Date' });
    expect(screen.getByRole('button', { name: 'Wednesday 4 March 2026' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Monday 30 March 2026' }));
    expect((field as HTMLInputElement).value).toBe('03/30/2026');
    fireEvent.change(field, { target: { value: '13/04/2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('13/04/2026 is not a real date: dates are read as MM/DD/YYYY (04/13/2026), and a year has 12 months.')).toBeTruthy();
    fireEvent.change(field, { target: { value: 'soon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Type the date as MM/DD/YYYY, like 12/24/2026 (or as 2026-12-24).')).toBeTruthy();
  });

  it('shows an Australian the day first with slashes', () => {
    restoreLanguages = useBrowserLanguages(['en-AU']);
    renderForm(sales, null);
    expect(screen.getByRole('textbox', { name: /^Date/ }).getAttribute('placeholder')).toBe('DD/MM/YYYY');
  });
});

describe('the Made here (not ordered) check box (ADR 0194)', () => {
  const madeHere = { key: 'made_here', label: 'Made here (not ordered)', type: 'BooleanField' } as TableColumn;
  const withMadeHere = [...products, madeHere];

  it('shows a product made here ticked, and one not marked (blank) unticked', () => {
    renderForm(withMadeHere, { id: 3, product_code: 'CRO-1', name: 'Croissant', made_here: true });
    expect(screen.getByRole('checkbox', { name: 'Made here (not ordered)' })).toHaveProperty('checked', true);
    cleanup();
    renderForm(withMadeHere, { id: 4, product_code: 'MILK-2', name: 'Milk', made_here: null });
    expect(screen.getByRole('checkbox', { name: 'Made here (not ordered)' })).toHaveProperty('checked', false);
  });

  it('writes the ticked box as true, and only when it changed', () => {
    const initial = { product_code: 'MILK-2', name: 'Milk', made_here: toFormValue('BooleanField', null) };
    expect(editPayload(withMadeHere, initial, { ...initial, made_here: true }, 4)).toEqual({ id: 4, made_here: true });
    expect(editPayload(withMadeHere, initial, initial, 4)).toEqual({ id: 4 });
    expect(addPayload(withMadeHere, { product_code: 'CRO-1', name: 'Croissant', made_here: true })).toEqual({ product_code: 'CRO-1', name: 'Croissant', made_here: true });
  });
});
