// A supplier's orders recorded at once (ADR 0185), against a loopback server playing the routes: a
// list narrowed to one supplier shows editors "<supplier>: record N orders…" (none to a viewer,
// none for every supplier); the dialog lists every order of the whole list (not the rows to hurry),
// prefilled as "Record order…" prefills one; an unticked row is not sent, an edited quantity is sent
// as typed; a 400 naming a row's field is shown under that row's field; once saved, one notice says
// "Recorded N orders for <supplier>", then that their advice is updated.
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { dayInPattern, formatDay, orderArrivalDay, type InventoryReport, type Role } from '@stockwise/contract';
import { sendJson } from '../../test/loopback.ts';
import { answerOpenDay, setUpOrderDialogTests } from '../../test/order-dialog-tests.ts';
import { accessTokenWithRole } from '../../test/role-token.ts';
import { shopToday } from '../../api/shop-day.ts';
import { useSessionStore } from '../../stores/session.ts';
import { useForecastingStore } from '../../stores/forecasting.ts';
import type { SupplierFilter } from '../../api/forecasting.ts';
import { LowStockPanel } from './ReportPanels.tsx';
import { OrderNotice } from './OrderNotice.tsx';

const TODAY = shopToday('UTC');
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const lamp: InventoryReport['products'][number] = {
  styleCode: 'LAMP-1', name: 'Desk Lamp Pro', currentStock: 40, onHand: null, unit: null, supplier: 'Lumen Ltd', unitCost: 12, leadTimeDays: 7,
  firstStockout: shift(TODAY, 12), stockoutType: 'stockForecast', reorderPoint: 3, orderQuantity: 48, orderMultiple: 24, orderQuantityNeeded: 40, orderBy: shift(TODAY, 2), model: 'SES', urgencyDays: 2, recentDemand: 30, shortHistory: false,
  arrivalDate: shift(TODAY, 7),
};
const floor: InventoryReport['products'][number] = { ...lamp, styleCode: 'LAMP-2', name: 'Floor Lamp', orderQuantity: 10, orderMultiple: undefined, orderQuantityNeeded: undefined, leadTimeDays: 5, arrivalDate: shift(TODAY, 6), urgencyDays: 3 };
const shade: InventoryReport['products'][number] = { ...lamp, styleCode: 'SHADE-1', name: 'Lamp shade', orderQuantity: 6, orderMultiple: undefined, orderQuantityNeeded: undefined, leadTimeDays: 4, arrivalDate: shift(TODAY, 4), urgencyDays: 5 };
// A delivery to hurry: no order to record.
const hurried: InventoryReport['products'][number] = { ...lamp, styleCode: 'BULB-1', name: 'Bulb', orderQuantity: 0, orderBy: null, onOrderArrives: shift(TODAY, 9), urgencyDays: 1 };
const listed = [hurried, lamp, floor, shade];
const reportOf = (products: InventoryReport['products'], page: number, pageSize: number): InventoryReport => ({
  id: 'r', type: 'inventory', title: 'Inventory forecast report', productCode: null, timestamp: `${TODAY}T00:00:00.000Z`, forecast_days: 90,
  total: products.length, inactive: 0, inactive_days: 90, order_units: 0, order_quantities: [], order_cost: 0, first_order_by: lamp.orderBy, on_order_late: 1,
  page, page_size: pageSize, suppliers: [{ supplier: 'Lumen Ltd', count: products.length }], products: products.slice((page - 1) * pageSize, page * pageSize), unknown_stock: { count: 0, codes: [], counted_after_sales: { count: 0, codes: [], sales_end: null } },
});

let sent: { orders: { styleCode: string; quantity: string; expectedDate: string }[] }[] = [];
let answer: { status: number; body: unknown } = { status: 201, body: {} };
/** The days the shop is closed on (each with its note), and the days the dialog asked about. */
let closedDays: Record<string, string | null> = {};
let askedOpenDays: string[] = [];

setUpOrderDialogTests((url, body, response) => {
  // The panel shows pages of two; the dialog asks for the whole list at once.
  if (url.pathname === '/api/forecasting/latest-report/') sendJson(response, 200, { success: true, report: reportOf(listed, Number(url.searchParams.get('page') ?? 1), Number(url.searchParams.get('page_size') ?? 2)) });
  else if (url.pathname === '/api/forecasting/open-day/') askedOpenDays.push(answerOpenDay(url, response, closedDays));
  else if (url.pathname === '/api/order-advice/orders/batch/') {
    sent.push(JSON.parse(body));
    sendJson(response, answer.status, answer.body);
  } else return false;
  return true;
}, 4);

beforeEach(() => {
  sent = [];
  closedDays = {};
  askedOpenDays = [];
});

function Screen({ supplier }: { supplier: SupplierFilter }) {
  const advice = useForecastingStore((state) => state.lowStock);
  return (
    <MantineProvider>
      <LowStockPanel advice={advice} today={TODAY} includeInactive={false} supplier={supplier} message={null} isLoading={false} error={null} onSelect={() => {}} onRetry={() => {}} onView={() => {}} />
      <OrderNotice />
    </MantineProvider>
  );
}

async function renderAs(role: Role, { supplier }: { supplier: SupplierFilter } = { supplier: 'Lumen Ltd' }) {
  useSessionStore.setState({ isLoading: true, isLoggedIn: false, accessToken: accessTokenWithRole(role) });
  await useForecastingStore.getState().loadLowStock({ supplier });
  render(<Screen supplier={supplier} />);
}

const openDialog = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Lumen Ltd: record 3 orders…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Record the orders placed: Lumen Ltd' });
  await within(dialog).findByTestId('supplier-orders-table');
  return dialog;
};
const quantityOf = (code: string, name: string) => screen.getByRole('textbox', { name: new RegExp(`^Quantity ordered of ${code} — ${name}`) }) as HTMLInputElement;
const arrivalFieldOf = (code: string) => screen.getByRole('textbox', { name: new RegExp(`^Expected arrival of ${code}`) }) as HTMLInputElement;
const closedNoteOf = (code: string) => within(document.querySelector(`tr[data-style-code="${code}"]`) as HTMLElement).getByTestId('arrival-closed-note');
const arrivalOf = (code: string) => (screen.getByRole('textbox', { name: new RegExp(`^Expected arrival of ${code}`) }) as HTMLInputElement).value;

describe("recording a supplier's orders at once", () => {
  it('lists every order of the whole filtered list, not the rows to hurry, prefilled, the case note under the quantity', async () => {
    await renderAs('editor');
    const dialog = await openDialog();
    const rows = within(dialog).getByTestId('supplier-orders-table').querySelectorAll('tbody tr');
    expect([...rows].map((row) => row.getAttribute('data-style-code'))).toEqual(['LAMP-1', 'LAMP-2', 'SHADE-1']);
    expect(quantityOf('LAMP-1', 'Desk Lamp Pro').value).toBe('48');
    // Each the list's open day after its lead time, as the server says: LAMP-2's today plus 5 is a closed day, so the day after.
    expect(arrivalOf('LAMP-2')).toBe(dayInPattern(shift(TODAY, 6), 'DD/MM/YYYY'));
    expect(arrivalOf('LAMP-2')).not.toBe(dayInPattern(orderArrivalDay(TODAY, 5), 'DD/MM/YYYY'));
    expect(arrivalOf('SHADE-1')).toBe(dayInPattern(shift(TODAY, 4), 'DD/MM/YYYY'));
    expect(within(rows[0] as HTMLElement).getByTestId('supplier-order').textContent).toContain('2 cases of 24');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('checkbox', { name: 'Ordered: LAMP-1 — Desk Lamp Pro' })));
  });

  it('sends the ticked rows with their edits, then one notice for the batch and the rows updating', async () => {
    answer = {
      status: 201,
      body: { taskId: 'task-1', recorded: 2, deliveries: [{ styleCode: 'LAMP-1', name: 'Desk Lamp Pro', unit: null, ordered: 60, expectedDate: lamp.arrivalDate, delivery: { id: 1, quantity: 60 } }, { styleCode: 'SHADE-1', name: 'Lamp shade', unit: null, ordered: 6, expectedDate: shade.arrivalDate, delivery: { id: 2, quantity: 6 } }] },
    };
    await renderAs('editor');
    await openDialog();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ordered: LAMP-2 — Floor Lamp' }));
    fireEvent.change(quantityOf('LAMP-1', 'Desk Lamp Pro'), { target: { value: '60' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save 2 orders' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([
      {
        orders: [
          { styleCode: 'LAMP-1', quantity: '60', expectedDate: lamp.arrivalDate },
          { styleCode: 'SHADE-1', quantity: '6', expectedDate: shade.arrivalDate },
        ],
      },
    ]);
    const notices = () => screen.getAllByTestId('order-notice-text').map((notice) => notice.textContent);
    await waitFor(() => expect(notices()).toEqual(['Recorded 2 orders for Lumen Ltd. Their advice is updated.']));
  });

  // ADR 0182, amendment "a typed day the shop is closed on": the rows share the field, so the note too.
  it("notes under a row's arrival a typed day the shop is closed on, with the next open day, asking once per day, and saves it as typed", async () => {
    const [closed, alsoClosed] = [shift(TODAY, 9), shift(TODAY, 10)];
    closedDays = { [closed]: 'Stock-take', [alsoClosed]: null };
    await renderAs('editor');
    await openDialog();
    // The proposed days are open: no note, each day asked about once.
    await waitFor(() => expect([...askedOpenDays].sort()).toEqual([shift(TODAY, 4), shift(TODAY, 6), shift(TODAY, 7)]));
    for (const code of ['LAMP-1', 'LAMP-2', 'SHADE-1']) expect(closedNoteOf(code).textContent).toBe('');

    const weekday = (day: string) => new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
    const words = `The shop is closed on ${weekday(closed)} ${formatDay(closed)} (Stock-take): the next day it is open is ${weekday(shift(TODAY, 11))} ${formatDay(shift(TODAY, 11))}. The order can still be saved for this day.`;
    fireEvent.change(arrivalFieldOf('SHADE-1'), { target: { value: dayInPattern(closed, 'DD/MM/YYYY') } });
    await waitFor(() => expect(closedNoteOf('SHADE-1').textContent).toBe(words));
    expect(closedNoteOf('SHADE-1').getAttribute('role')).toBe('status');
    expect(closedNoteOf('LAMP-1').textContent).toBe('');
    // The same day typed in a second row: its note, without asking again.
    fireEvent.change(arrivalFieldOf('LAMP-2'), { target: { value: dayInPattern(closed, 'DD/MM/YYYY') } });
    await waitFor(() => expect(closedNoteOf('LAMP-2').textContent).toBe(words));
    expect(askedOpenDays.filter((day) => day === closed)).toEqual([closed]);
    // A row left out has no note; an open day typed, none either.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ordered: LAMP-2 — Floor Lamp' }));
    await waitFor(() => expect(closedNoteOf('LAMP-2').textContent).toBe(''));
    fireEvent.change(arrivalFieldOf('LAMP-1'), { target: { value: dayInPattern(shift(TODAY, 11), 'DD/MM/YYYY') } });
    await waitFor(() => expect(askedOpenDays).toContain(shift(TODAY, 11)));
    expect(closedNoteOf('LAMP-1').textContent).toBe('');
    // A closed day without a note of its own: no brackets.
    fireEvent.change(arrivalFieldOf('LAMP-1'), { target: { value: dayInPattern(alsoClosed, 'DD/MM/YYYY') } });
    await waitFor(() => expect(closedNoteOf('LAMP-1').textContent).toBe(`The shop is closed on ${weekday(alsoClosed)} ${formatDay(alsoClosed)}: the next day it is open is ${weekday(shift(TODAY, 11))} ${formatDay(shift(TODAY, 11))}. The order can still be saved for this day.`));

    // Never a refusal: the closed days are sent as typed.
    answer = { status: 201, body: { taskId: 'task-3', recorded: 2, deliveries: [] } };
    fireEvent.click(screen.getByRole('button', { name: 'Save 2 orders' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.orders).toEqual([
      { styleCode: 'LAMP-1', quantity: '48', expectedDate: alsoClosed },
      { styleCode: 'SHADE-1', quantity: '6', expectedDate: closed },
    ]);
    // The run the batch queued is followed to its end here, not into the next test's list.
    await waitFor(() => expect(useForecastingStore.getState().orderNotices.map((notice) => notice.settled)).toEqual([true]), { timeout: 5_000 });
  });

  it("shows a refusal of a row's field under that row's field, and sends nothing when no row is ticked", async () => {
    answer = { status: 400, body: { code: 'validation_error', detail: 'orders[1].quantity: 2.5 is not a whole number.', errors: { 'orders.1.quantity': ['2.5 is not a whole number.'] } } };
    await renderAs('editor');
    await openDialog();
    // Left out: the request's second order is the third row.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Ordered: LAMP-2 — Floor Lamp' }));
    fireEvent.change(quantityOf('SHADE-1', 'Lamp shade'), { target: { value: '2.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save 2 orders' }));
    const field = quantityOf('SHADE-1', 'Lamp shade');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('2.5 is not a whole number.')).toBeTruthy();
    expect(quantityOf('LAMP-1', 'Desk Lamp Pro').getAttribute('aria-invalid')).not.toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(screen.getByRole('dialog')).toBeTruthy();

    for (const name of ['Ordered: LAMP-1 — Desk Lamp Pro', 'Ordered: SHADE-1 — Lamp shade']) fireEvent.click(screen.getByRole('checkbox', { name }));
    fireEvent.click(screen.getByRole('button', { name: 'Save 0 orders' }));
    expect(await screen.findByText('Tick at least one order to record.')).toBeTruthy();
    expect(sent).toHaveLength(1);
  });

  it("names a supplier whose name ends in a full stop before its ellipsis, not \"Co.…\" (ADR 0185 amendment)", async () => {
    await renderAs('editor', { supplier: 'Fresh Drinks Co.' });
    const button = screen.getByTestId('record-supplier-orders');
    expect(button.textContent).toBe('Fresh Drinks Co.: record 3 orders…');
    expect(screen.getByRole('button', { name: 'Fresh Drinks Co.: record 3 orders…' })).toBe(button);
    fireEvent.click(button);
    expect(await screen.findByRole('dialog', { name: 'Record the orders placed: Fresh Drinks Co.' })).toBeTruthy();
    cleanup();
    // The products without a supplier: no name, the words as before.
    await renderAs('editor', { supplier: null });
    expect(screen.getByTestId('record-supplier-orders').textContent).toBe('Record 3 orders without a supplier…');
  });

  it('is not there for a viewer, nor for every supplier at once', async () => {
    await renderAs('viewer');
    expect(screen.queryByTestId('record-supplier-orders')).toBeNull();
    cleanup();
    await renderAs('editor', { supplier: undefined });
    expect(screen.queryByTestId('record-supplier-orders')).toBeNull();
  });
});
