// "Record order…" on the low-stock list (ADR 0182), against a loopback server playing the routes: an
// editor's row opens the dialog prefilled with the advice's quantity in the product's unit and the
// shop's today plus the lead time in the person's date order; Escape closes it with the focus back
// on the row; what cannot be an order is refused before sending, what the server refuses is shown
// under the field it names; a saved order shows on the row while its product runs again, then the
// lists and the notice say what the advice is now. A viewer sees no such button.
import { beforeEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { dayInPattern, formatDay, orderArrivalDay, type InventoryReport, type RecordedOrder, type Role } from '@stockwise/contract';
import { sendJson } from '../../test/loopback.ts';
import { answerOpenDay, setUpOrderDialogTests } from '../../test/order-dialog-tests.ts';
import { accessTokenWithRole } from '../../test/role-token.ts';
import { shopToday } from '../../api/shop-day.ts';
import { useSessionStore } from '../../stores/session.ts';
import { useForecastingStore } from '../../stores/forecasting.ts';
import { forecastFixture } from './fixtures.test-data.ts';
import { LowStockPanel } from './ReportPanels.tsx';
import { OrderNotice } from './OrderNotice.tsx';

const TODAY = shopToday('UTC');
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const cheese: InventoryReport['products'][number] = {
  styleCode: 'CHE-1', name: 'Cheddar', currentStock: 4, onHand: { units: 3.5, countedUnits: 4, countedOn: TODAY }, unit: 'kg', unitCost: 9.8, leadTimeDays: 3,
  firstStockout: shift(TODAY, 5), stockoutType: 'stockForecast', reorderPoint: 3, orderQuantity: 2.35, orderBy: shift(TODAY, 2), model: 'SES', urgencyDays: 2, recentDemand: 30, shortHistory: false,
  // The server's open day: today plus 3 is a day the shop is closed on, so the day after.
  arrivalDate: shift(TODAY, 4),
};
const lamp: InventoryReport['products'][number] = { ...cheese, styleCode: 'LAMP-1', name: 'Desk Lamp Pro', unit: null, orderQuantity: 32, leadTimeDays: 7, arrivalDate: shift(TODAY, 7), urgencyDays: 4 };
const reportOf = (products: InventoryReport['products']): InventoryReport => ({
  id: 'r', type: 'inventory', title: 'Inventory forecast report', productCode: null, timestamp: `${TODAY}T00:00:00.000Z`, forecast_days: 90,
  total: products.length, inactive: 0, inactive_days: 90, order_units: 0, order_quantities: [], order_cost: 0, first_order_by: products[0]?.orderBy ?? null, on_order_late: 0,
  page: 1, page_size: 50, suppliers: [], products, unknown_stock: { count: 0, codes: [], counted_after_sales: { count: 0, codes: [], sales_end: null } },
});

let report = reportOf([cheese, lamp]);
/** The bodies of the orders sent, and what the server answers the next one. */
let sent: unknown[] = [];
let answer: { status: number; body: unknown } = { status: 201, body: {} };
/** The days the shop is closed on, as GET /api/forecasting/open-day/ answers them (the note of its own closed day), and the days asked about. */
let closedDays: Record<string, string | null> = {};
let askedOpenDays: string[] = [];
/** The rows clicked: a click on a row selects its product, but not one on its button or in its dialog. */
let selected: string[] = [];
/** While true, the forecast run an order queues is still running, so what shows meanwhile can be read. */
let runHeld = false;

setUpOrderDialogTests((url, body, response) => {
  const path = url.pathname;
  if (path === '/api/forecasting/latest-report/') sendJson(response, 200, { success: true, report });
  else if (path === '/api/forecasting/open-day/') askedOpenDays.push(answerOpenDay(url, response, closedDays));
  else if (runHeld && path.startsWith('/api/forecasting/status/')) sendJson(response, 200, { task_id: path.split('/')[4], status: 'running', progress: { done: 0, total: 1 }, results: null, error: null, restart: null });
  else if (path === '/api/order-advice/orders/') {
    sent.push(JSON.parse(body));
    sendJson(response, answer.status, answer.body);
  } else {
    const forecastOf = [cheese, lamp].find((product) => path === `/api/forecasting/forecasts/${product.styleCode}`);
    if (!forecastOf) return false;
    const fixture = forecastFixture();
    sendJson(response, 200, { ...fixture, product: { ...fixture.product, styleCode: forecastOf.styleCode, name: forecastOf.name, unit: forecastOf.unit }, reorder: { ...fixture.reorder, orderQuantity: 0, orderBy: null } });
  }
  return true;
}, 1);

beforeEach(() => {
  report = reportOf([cheese, lamp]);
  sent = [];
  selected = [];
  runHeld = false;
  closedDays = {};
  askedOpenDays = [];
});

/** The low-stock panel as the screen shows it — the store's page of the list — with the notice, for `role`. */
function Screen() {
  const advice = useForecastingStore((state) => state.lowStock);
  return (
    <MantineProvider>
      <LowStockPanel advice={advice} today={TODAY} includeInactive={false} message={null} isLoading={false} error={null} onSelect={(code) => selected.push(code)} onRetry={() => {}} onView={() => {}} />
      <OrderNotice />
    </MantineProvider>
  );
}

async function renderAs(role: Role) {
  // Logged out as far as loading goes: nothing else is fetched.
  useSessionStore.setState({ isLoading: true, isLoggedIn: false, accessToken: accessTokenWithRole(role) });
  await useForecastingStore.getState().loadLowStock();
  render(<Screen />);
}

const rowOf = (code: string) => screen.getByTestId('low-stock-table').querySelector<HTMLElement>(`[data-style-code="${code}"]`)!;
const openDialog = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Record order… for CHE-1 — Cheddar' }));
  return screen.findByRole('dialog', { name: 'Record an order: CHE-1 — Cheddar' });
};
const quantityField = () => screen.getByRole('textbox', { name: /^Quantity ordered/ }) as HTMLInputElement;
const arrivalField = () => screen.getByRole('textbox', { name: /^Expected arrival/ }) as HTMLInputElement;

describe('recording an order from the low-stock list', () => {
  it("opens on the row's button, named for its product, prefilled with the advice in the product's unit and the server's first open day after the lead time", async () => {
    await renderAs('editor');
    const dialog = await openDialog();
    expect(quantityField().value).toBe('2.35');
    expect(within(dialog).getByText('In kg, as the product is counted')).toBeTruthy();
    // The list's arrival day (today plus 3 is closed: the day after), not today plus 3, written as an en-GB person writes a day.
    expect(arrivalField().value).toBe(dayInPattern(shift(TODAY, 4), 'DD/MM/YYYY'));
    expect(arrivalField().value).not.toBe(dayInPattern(orderArrivalDay(TODAY, 3), 'DD/MM/YYYY'));
    expect(arrivalField().getAttribute('placeholder')).toBe('DD/MM/YYYY');
    expect(within(dialog).getByText(/the first day the shop is open after the lead time of 3 days is proposed\.$/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(quantityField()));
    // The other row's button names its own product.
    expect(within(rowOf('LAMP-1')).getByRole('button', { name: 'Record order… for LAMP-1 — Desk Lamp Pro' })).toBeTruthy();
  });

  it('names the supplier the order is placed with, when the product has one (ADR 0184)', async () => {
    report = reportOf([{ ...cheese, supplier: 'Dairy Direct' }, lamp]);
    await renderAs('editor');
    const dialog = await openDialog();
    expect(within(dialog).getByTestId('record-order-supplier').textContent).toBe('Supplier: Dairy Direct');
    fireEvent.keyDown(quantityField(), { key: 'Escape' });
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Record order… for LAMP-1 — Desk Lamp Pro' }));
    const other = await screen.findByRole('dialog', { name: 'Record an order: LAMP-1 — Desk Lamp Pro' });
    expect(within(other).queryByTestId('record-order-supplier')).toBeNull();
  });

  it('closes on Escape, sending nothing, with the focus back on the row that opened it', async () => {
    await renderAs('admin');
    const button = screen.getByRole('button', { name: 'Record order… for CHE-1 — Cheddar' });
    button.focus();
    const dialog = await openDialog();
    await waitFor(() => expect(document.activeElement).toBe(quantityField()));
    fireEvent.keyDown(quantityField(), { key: 'Escape' });
    await waitFor(() => expect(dialog.isConnected).toBe(false));
    expect(document.activeElement).toBe(button);
    expect(sent).toEqual([]);
  });

  it('notes under the arrival a typed day the shop is closed on, with its note and the next open day, and still saves it', async () => {
    const [closed, alsoClosed] = [shift(TODAY, 6), shift(TODAY, 7)];
    closedDays = { [closed]: 'Stock-take', [alsoClosed]: null };
    await renderAs('editor');
    const dialog = await openDialog();
    // The proposed day is open: no note.
    await waitFor(() => expect(askedOpenDays).toEqual([shift(TODAY, 4)]));
    expect(within(dialog).getByTestId('arrival-closed-note').textContent).toBe('');
    fireEvent.change(arrivalField(), { target: { value: dayInPattern(closed, 'DD/MM/YYYY') } });
    const note = within(dialog).getByTestId('arrival-closed-note');
    const weekday = (day: string) => new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
    await waitFor(() => expect(note.textContent).toBe(`The shop is closed on ${weekday(closed)} ${formatDay(closed)} (Stock-take): the next day it is open is ${weekday(shift(TODAY, 8))} ${formatDay(shift(TODAY, 8))}. The order can still be saved for this day.`));
    expect(note.getAttribute('role')).toBe('status');
    // An open day typed: the note goes.
    fireEvent.change(arrivalField(), { target: { value: dayInPattern(shift(TODAY, 8), 'DD/MM/YYYY') } });
    await waitFor(() => expect(note.textContent).toBe(''));
    // Back to the closed day, and saved as typed: a note, never a refusal.
    fireEvent.change(arrivalField(), { target: { value: dayInPattern(alsoClosed, 'DD/MM/YYYY') } });
    await waitFor(() => expect(note.textContent).toMatch(/^The shop is closed on \w+ \d+ \w+ \d{4}: the next day it is open is /));
    answer = { status: 201, body: { styleCode: 'CHE-1', name: 'Cheddar', unit: 'kg', ordered: 2.35, expectedDate: alsoClosed, delivery: { id: 8, quantity: 2.35 }, taskId: 'task-2' } satisfies RecordedOrder };
    fireEvent.submit(screen.getByTestId('record-order-form'));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({ styleCode: 'CHE-1', expectedDate: alsoClosed });
    // The run the order queued is followed to its end here, not into the next test's list.
    await waitFor(() => expect(useForecastingStore.getState().ordersUpdating).toEqual({}), { timeout: 5_000 });
  });

  it('refuses no quantity and a day gone by under their fields, sending nothing', async () => {
    await renderAs('editor');
    await openDialog();
    fireEvent.change(quantityField(), { target: { value: ' ' } });
    fireEvent.change(arrivalField(), { target: { value: dayInPattern(shift(TODAY, -1), 'DD/MM/YYYY') } });
    fireEvent.submit(screen.getByTestId('record-order-form'));
    await waitFor(() => expect(quantityField().getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Enter the quantity ordered.')).toBeTruthy();
    expect(arrivalField().getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/is in the past: an order placed now arrives today/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(quantityField()));
    // A day in the other order is named as the person writes days.
    fireEvent.change(arrivalField(), { target: { value: '12/31/2027' } });
    fireEvent.submit(screen.getByTestId('record-order-form'));
    expect(await screen.findByText(/dates are read as DD\/MM\/YYYY \(31\/12\/2027\)/)).toBeTruthy();
    expect(sent).toEqual([]);
  });

  it("shows the server's refusal under the field it names, keeping what was typed", async () => {
    await renderAs('editor');
    await openDialog();
    answer = { status: 400, body: { detail: 'nope', code: 'validation_error', errors: { quantity: ['Expected a quantity in kg (the unit of product CHE-1), not 0.5 l: l is a volume, kg is a weight; write the quantity in kg.'] } } };
    fireEvent.change(quantityField(), { target: { value: '0.5 l' } });
    fireEvent.submit(screen.getByTestId('record-order-form'));
    expect(await screen.findByText(/not 0.5 l: l is a volume/)).toBeTruthy();
    expect(quantityField().getAttribute('aria-invalid')).toBe('true');
    expect(quantityField().value).toBe('0.5 l');
    await waitFor(() => expect(document.activeElement).toBe(quantityField()));
    // The figure went as typed, the day as the day it names.
    expect(sent).toEqual([{ styleCode: 'CHE-1', quantity: '0.5 l', expectedDate: cheese.arrivalDate }]);

    answer = { status: 409, body: { detail: 'taken', code: 'conflict', errors: { expectedDate: ['The delivery of CHE-1 expected then is recorded as received: choose another day.'] } } };
    fireEvent.change(quantityField(), { target: { value: '2' } });
    fireEvent.submit(screen.getByTestId('record-order-form'));
    expect(await screen.findByText(/is recorded as received: choose another day/)).toBeTruthy();
    expect(arrivalField().getAttribute('aria-invalid')).toBe('true');

    // A refusal that names no field (the product deleted meanwhile) is said above them.
    answer = { status: 404, body: { detail: "Product 'CHE-1' not found.", code: 'not_found' } };
    fireEvent.submit(screen.getByTestId('record-order-form'));
    expect((await screen.findByTestId('record-order-error')).textContent).toContain("Product 'CHE-1' not found.");
  });

  it('saves, says so on the row while the product runs again, then the list and the notice show the advice now', async () => {
    await renderAs('editor');
    await openDialog();
    const recorded: RecordedOrder = { styleCode: 'CHE-1', name: 'Cheddar', unit: 'kg', ordered: 2.5, expectedDate: cheese.arrivalDate, delivery: { id: 7, quantity: 2.5 }, taskId: 'task-1' };
    answer = { status: 201, body: recorded };
    fireEvent.click(quantityField());
    fireEvent.change(quantityField(), { target: { value: '2,5' } });
    // The run takes the product off the list.
    report = reportOf([lamp]);
    runHeld = true;
    fireEvent.submit(screen.getByTestId('record-order-form'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ styleCode: 'CHE-1', quantity: '2,5', expectedDate: cheese.arrivalDate }]);
    expect(within(rowOf('CHE-1')).getByRole('button', { name: 'Updating advice… for CHE-1 — Cheddar' }).getAttribute('aria-disabled')).toBe('true');
    expect(screen.getByTestId('order-notice-text').textContent).toMatch(/^Recorded: 2\.5 kg Cheddar arriving \d+ \w{3}( \d{4})?\. Updating its advice…$/);
    runHeld = false;

    // The list and the notice are each updated when their answer arrives: either may show first.
    await waitFor(() => {
      expect(rowOf('CHE-1')).toBeNull();
      expect(screen.getByTestId('order-notice-text').textContent).toMatch(/ Its advice now: no other order is needed in the next 2 days\.$/);
    }, { timeout: 5_000 });
    expect(useForecastingStore.getState().ordersUpdating).toEqual({});
    expect(selected).toEqual([]);
  });

  it('keeps a notice for each order saved in a row, each naming its product and closed on its own', async () => {
    await renderAs('editor');
    const save = async (code: string, name: string, taskId: string) => {
      fireEvent.click(screen.getByRole('button', { name: `Record order… for ${code} — ${name}` }));
      await screen.findByRole('dialog', { name: `Record an order: ${code} — ${name}` });
      answer = { status: 201, body: { styleCode: code, name, unit: null, ordered: 3, expectedDate: lamp.arrivalDate, delivery: { id: 1, quantity: 3 }, taskId } satisfies RecordedOrder };
      fireEvent.change(quantityField(), { target: { value: '3' } });
      fireEvent.submit(screen.getByTestId('record-order-form'));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    };
    await save('CHE-1', 'Cheddar', 'task-1');
    await save('LAMP-1', 'Desk Lamp Pro', 'task-2');
    const texts = () => screen.getAllByTestId('order-notice-text').map((notice) => notice.textContent);
    expect(texts()).toEqual([expect.stringMatching(/^Recorded: 3 Cheddar arriving /), expect.stringMatching(/^Recorded: 3 Desk Lamp Pro arriving /)]);
    // Each settles in its own notice, the first not replaced by the second's.
    await waitFor(() => expect(texts()).toEqual([expect.stringMatching(/Cheddar .* Its advice now: /), expect.stringMatching(/Desk Lamp Pro .* Its advice now: /)]), { timeout: 5_000 });

    fireEvent.click(screen.getByRole('button', { name: 'Close the notice about Cheddar' }));
    expect(texts()).toEqual([expect.stringMatching(/^Recorded: 3 Desk Lamp Pro arriving /)]);
    expect(screen.queryByRole('button', { name: /^Close all/ })).toBeNull();
    await save('CHE-1', 'Cheddar', 'task-3');
    fireEvent.click(screen.getByRole('button', { name: 'Close all 2 notices' }));
    expect(screen.queryAllByTestId('order-notice-text')).toEqual([]);
  });

  it('offers a viewer no Record order, nor its column', async () => {
    await renderAs('viewer');
    expect(screen.queryByRole('button', { name: /^Record order/ })).toBeNull();
    expect(within(screen.getByTestId('low-stock-table')).getAllByRole('columnheader')).toHaveLength(6);
  });
});
