// The low-stock panel from the server's order advice: the header counts the whole list, rows show
// the forecast's quantity, order-by date and cost (never a fixed 100), the inactive filter and the
// pages ask the server, and each empty state says what to do.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { InventoryReport } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { LatestReportPanel, LowStockPanel, type ReportView } from './ReportPanels.tsx';
import type { SupplierFilter } from '../../api/forecasting.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

// The viewer's day: the day before the fixtures' first order-by day, so each still reads as its date.
const TODAY = '2026-01-03';

const product = (styleCode: string, orderQuantity: number, unitCost: number, orderBy: string): InventoryReport['products'][number] => ({
  styleCode, name: `Product ${styleCode}`, currentStock: 5, onHand: { units: 3.5, countedUnits: 5, countedOn: '2026-01-01' }, unit: null, unitCost, leadTimeDays: 7, firstStockout: orderBy, stockoutType: 'stockForecast', reorderPoint: 10, orderQuantity, orderBy, model: 'SES', urgencyDays: -2, recentDemand: 30, shortHistory: false, arrivalDate: '2026-01-12',
});
const NONE_COUNTED_LATER = { count: 0, codes: [], sales_end: null };
const advice = (overrides: Partial<InventoryReport> = {}): InventoryReport => ({
  id: 'r', type: 'inventory', title: 'Inventory forecast report', productCode: null, timestamp: '2026-01-04T00:00:00.000Z', forecast_days: 90,
  total: 120, inactive: 7, inactive_days: 90, order_units: 4321, order_cost: 9876.5, first_order_by: '2026-01-05', page: 1, page_size: 50, suppliers: [],
  products: [product('A-1', 12, 2.5, '2026-01-05'), product('B-2', 3, 10, '2026-01-09')],
  unknown_stock: { count: 0, codes: [], counted_after_sales: NONE_COUNTED_LATER },
  order_quantities: [{ unit: null, quantity: overrides.order_units ?? 4321 }],
  ...overrides,
});

function renderPanel(props: { advice: InventoryReport | null; includeInactive?: boolean; supplier?: SupplierFilter; message?: string | null; today?: string }) {
  const views: ReportView[] = [];
  const selected: string[] = [];
  render(
    <MantineProvider>
      <LowStockPanel
        advice={props.advice}
        today={props.today ?? TODAY}
        includeInactive={props.includeInactive ?? false}
        supplier={props.supplier}
        message={props.message ?? null}
        isLoading={false}
        error={null}
        onSelect={(code) => selected.push(code)}
        onRetry={() => {}}
        onView={(view) => views.push(view)}
      />
    </MantineProvider>,
  );
  return { views, selected };
}

describe('low-stock panel', () => {
  describe('by supplier (ADR 0184)', () => {
    const ACME = 'Acme Wholesale';
    const bySupplier = advice({
      total: 3,
      products: [{ ...product('A-1', 12, 2.5, '2026-01-05'), supplier: ACME }, { ...product('B-2', 3, 10, '2026-01-09'), supplier: null }, { ...product('C-3', 4, 1, '2026-01-09'), supplier: ACME }],
      suppliers: [
        { supplier: ACME, count: 2 },
        { supplier: null, count: 1 },
      ],
    });
    const filter = () => screen.getByRole('combobox', { name: 'Supplier' }) as HTMLInputElement;

    it("writes each row's supplier under its name, and nothing for a product without one", () => {
      renderPanel({ advice: bySupplier });
      const rows = within(screen.getByTestId('low-stock-table')).getAllByRole('row').slice(1);
      expect(rows.map((row) => within(row).queryByTestId('row-supplier')?.textContent ?? null)).toEqual([ACME, null, ACME]);
      expect(within(rows[0]!).getAllByRole('cell')[1]?.textContent).toBe(`Product A-1${ACME}`);
    });

    it('chooses a supplier, or the products with none, by keyboard, from the first page', async () => {
      const { views } = renderPanel({ advice: bySupplier });
      expect(filter().value).toBe('All suppliers (3)');
      filter().focus();
      fireEvent.keyDown(filter(), { key: 'ArrowDown', code: 'ArrowDown' });
      const options = await screen.findAllByRole('option');
      expect(options.map((option) => option.textContent)).toEqual(['All suppliers (3)', `${ACME} (2)`, 'No supplier (1)']);
      // Opened on the choice shown: the next one down is the first supplier.
      fireEvent.keyDown(filter(), { key: 'ArrowDown', code: 'ArrowDown' });
      fireEvent.keyDown(filter(), { key: 'Enter', code: 'Enter' });
      expect(views).toEqual([{ page: 1, supplier: ACME }]);
      cleanup();
      const again = renderPanel({ advice: bySupplier, supplier: ACME });
      expect(filter().value).toBe(`${ACME} (2)`);
      filter().focus();
      fireEvent.keyDown(filter(), { key: 'ArrowDown', code: 'ArrowDown' });
      await screen.findAllByRole('option');
      fireEvent.keyDown(filter(), { key: 'ArrowDown', code: 'ArrowDown' });
      fireEvent.keyDown(filter(), { key: 'Enter', code: 'Enter' });
      expect(again.views).toEqual([{ page: 1, supplier: null }]);
    });

    it("shows the supplier chosen, and says there is nothing to order from it when its list is empty; no filter while no product has a supplier", () => {
      const { views } = renderPanel({ advice: advice({ total: 0, products: [], first_order_by: null, inactive: 0, suppliers: [{ supplier: 'Nobody Ltd', count: 0 }] }), supplier: 'Nobody Ltd' });
      expect(filter().value).toBe('Nobody Ltd (0)');
      expect(screen.getByTestId('low-stock-empty').textContent).toBe('Nothing to order from Nobody Ltd in the horizon.');
      filter().focus();
      fireEvent.keyDown(filter(), { key: 'ArrowDown', code: 'ArrowDown' });
      fireEvent.click(screen.getByRole('option', { name: 'All suppliers (0)' }));
      expect(views).toEqual([{ page: 1, supplier: undefined }]);
      cleanup();
      renderPanel({ advice: advice({ suppliers: [{ supplier: null, count: 2 }] }) });
      expect(screen.queryByRole('combobox', { name: 'Supplier' })).toBeNull();
    });
  });

  it("counts the whole list and shows the forecast's advice per row", () => {
    const { selected } = renderPanel({ advice: advice() });
    expect(screen.getByTestId('low-stock-count').textContent).toBe('120 products need an order; the most urgent must be ordered by 5 Jan 2026 · 4,321 units · cost 9,876.50');
    // The shop's word for the code, as on the Data screen and in the import (not the API's styleCode).
    expect(within(screen.getByTestId('low-stock-table')).getAllByRole('columnheader')[0]?.textContent).toBe('Product code');
    const rows = within(screen.getByTestId('low-stock-table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => [row.getAttribute('data-style-code'), within(row).getByTestId('order-quantity').textContent, within(row).getByTestId('order-cost').textContent])).toEqual([
      ['A-1', '12', '30.00'],
      ['B-2', '3', '30.00'],
    ]);
    expect(screen.queryByText('100')).toBeNull();
    // Order-by days as the rest of the app writes days.
    expect(within(screen.getByTestId('low-stock-table')).getAllByTestId('order-by').map((cell) => cell.textContent)).toEqual(['5 Jan 2026', '9 Jan 2026']);
    fireEvent.click(screen.getByRole('button', { name: 'B-2' }));
    expect(selected).toEqual(['B-2']);
  });

  it("writes the product's unit after its on hand and its order (ADR 0177)", () => {
    const kilos = { ...product('CHE-1', 2.35, 9.8, '2026-01-05'), unit: 'kg' };
    renderPanel({ advice: advice({ products: [kilos, product('B-2', 3, 10, '2026-01-09')] }) });
    const rows = within(screen.getByTestId('low-stock-table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => [within(row).getByTestId('on-hand').textContent, within(row).getByTestId('order-quantity').textContent])).toEqual([
      ['≈ 3.5 kg', '2.35 kg'],
      ['≈ 3.5', '3'],
    ]);
    expect(within(rows[0]!).getByTestId('on-hand').getAttribute('title')).toBe('counted 5 kg on 1 Jan 2026');
  });

  it("notes the supplier's cases or minimum under an order they shaped, in full on hover and to a screen reader (ADR 0183)", () => {
    const cased = { ...product('HWB-24', 48, 3.1, '2026-01-05'), orderMultiple: 24, orderQuantityNeeded: 40 };
    const wheel = { ...product('CHE-W', 50, 9.8, '2026-01-05'), unit: 'kg', orderMultiple: 2.5, orderQuantityNeeded: 48.2 };
    const minimum = { ...product('GLV-1', 10, 1, '2026-01-09'), minOrderQuantity: 10, orderQuantityNeeded: 3 };
    // Both at once (the demo's Drill Bits): the minimum is seen beside the cases, not only on hover.
    const both = { ...product('DRL-5', 20, 2, '2026-01-09'), orderMultiple: 5, minOrderQuantity: 20, orderQuantityNeeded: 7 };
    // A minimum below the need shaped nothing: no note.
    const above = { ...product('B-2', 30, 10, '2026-01-09'), minOrderQuantity: 10 };
    renderPanel({ advice: advice({ products: [cased, wheel, minimum, both, above] }) });
    const rows = within(screen.getByTestId('low-stock-table')).getAllByRole('row').slice(1);
    const notes = rows.map((row) => {
      const note = within(row).queryByTestId('supplier-order');
      return note && [note.querySelector('[aria-hidden]')?.textContent, note.getAttribute('title')];
    });
    expect(notes).toEqual([
      ['2 × 24', '2 cases of 24; 40 needed'],
      ['20 × 2.5 kg', '20 cases of 2.5 kg; 48.2 kg needed'],
      ["supplier's minimum", "the supplier's minimum; 3 needed"],
      ['4 × 5 · min. 20', "4 cases of 5, the supplier's minimum; 7 needed"],
      null,
    ]);
    // A screen reader reads the words after the quantity, not "2 × 24"; the cost is the rounded order's.
    const cell = within(rows[0]!).getByTestId('order-quantity');
    expect(cell.firstChild?.textContent).toBe('48');
    expect(within(cell).getByText('2 cases of 24; 40 needed')).toBeTruthy();
    expect(within(rows[0]!).getByTestId('order-cost').textContent).toBe('148.80');
  });

  it('counts the orders of a list in several units one total per unit, not one sum (ADR 0177, amendment 2026-12-06)', () => {
    renderPanel({ advice: advice({ order_units: 4324.5, order_quantities: [{ unit: null, quantity: 4321 }, { unit: 'kg', quantity: 3.5 }] }) });
    expect(screen.getByTestId('low-stock-count').textContent).toBe('120 products need an order; the most urgent must be ordered by 5 Jan 2026 · 4,321 units, 3.5 kg · cost 9,876.50');
    cleanup();
    renderPanel({ advice: advice({ total: 1, order_units: 1, order_cost: 30, order_quantities: [{ unit: null, quantity: 1 }], products: [product('A-1', 1, 30, '2026-01-05')] }) });
    expect(screen.getByTestId('low-stock-count').textContent).toBe('1 product needs an order, by 5 Jan 2026 · 1 unit · cost 30.00');
  });

  it('marks an order that can no longer arrive before the stock runs out, as the product panel says it (QA4 #23)', () => {
    renderPanel({ advice: advice({ products: [{ ...product('A-1', 12, 2.5, '2026-01-04'), urgencyDays: -3 }, { ...product('B-2', 3, 10, '2026-01-09'), urgencyDays: 0 }] }) });
    const [late, inTime] = within(screen.getByTestId('low-stock-table')).getAllByRole('row').slice(1);
    const mark = within(late!).getByTestId('too-late');
    expect(mark.textContent).toBe('Too late: arrives after it runs out');
    expect(mark.getAttribute('title')).toBe('Even ordered today, it arrives about 3 days after the stock is expected to run out: hurry the delivery or buy elsewhere to cover those days.');
    // Arriving on the day it runs out is in time; the order-by date stays the cell's own text.
    expect(within(inTime!).queryByTestId('too-late')).toBeNull();
    expect(within(late!).getByTestId('order-by').textContent).toBe('4 Jan 2026');
  });

  it("shows on hand now as the product header does, says what it is, and 'Not counted yet' rather than 0", () => {
    renderPanel({ advice: advice({ products: [product('A-1', 12, 2.5, '2026-01-05'), { ...product('B-2', 3, 10, '2026-01-09'), onHand: { units: 8, countedUnits: 8, countedOn: '2026-01-03' } }, { ...product('C-3', 1, 1, '2026-01-09'), onHand: null }] }) });
    const table = screen.getByTestId('low-stock-table');
    const header = within(table).getByRole('columnheader', { name: 'On hand now' });
    expect(document.getElementById(header.getAttribute('aria-describedby') ?? '')?.textContent).toBe('On hand now: the last count minus the sales since, plus deliveries (the figure above the chart).');
    const cells = within(table).getAllByTestId('on-hand');
    expect(cells.map((cell) => cell.textContent)).toEqual(['≈ 3.5', '8', 'Not counted yet']);
    expect(cells[0]?.getAttribute('title')).toBe('counted 5 on 1 Jan 2026');
    // The stored count (5) is not what the list shows.
    expect(within(table).queryByText('5')).toBeNull();
  });

  // QA café F9 (ADR 0193 amendment): a product counted 0 by the products file on the shop's today,
  // a day after the last sales day, is counted — "0" with its count, never also named in the
  // "Stock unknown" notice (the server's one rule); one without a count reads so, in both lists.
  it('shows a count of 0 as 0 with its count, and a product without a count as not counted, in both lists', () => {
    const counted0 = { ...product('CROISSANT', 40, 1, '2026-01-05'), onHand: { units: 0, countedUnits: 0, countedOn: '2026-01-04' } };
    const uncounted = { ...product('BANANA-BREAD', 12, 1, '2026-01-09'), onHand: null };
    const listed = advice({ total: 2, products: [counted0, uncounted], unknown_stock: { count: 1, codes: ['FLAT-WHITE'], counted_after_sales: NONE_COUNTED_LATER } });
    renderPanel({ advice: listed });
    render(
      <MantineProvider>
        <LatestReportPanel report={listed} today={TODAY} includeInactive={false} message={null} isLoading={false} error={null} onSelect={() => {}} onRetry={() => {}} onView={() => {}} />
      </MantineProvider>,
    );
    for (const table of [screen.getByTestId('low-stock-table'), screen.getByTestId('at-risk-table')]) {
      const cells = within(table).getAllByTestId('on-hand');
      expect(cells.map((cell) => cell.textContent)).toEqual(['0', 'Not counted yet']);
      expect(cells.map((cell) => cell.getAttribute('title'))).toEqual(['counted 0 on 4 Jan 2026', null]);
    }
    for (const notice of screen.getAllByTestId('unknown-stock')) {
      expect(notice.textContent).toContain('FLAT-WHITE');
      expect(notice.textContent).not.toContain('CROISSANT');
    }
  });

  it("dates its urgency by the list's most urgent order, however far off (QA F10)", () => {
    // Page 2 of a list whose first order is due in two months: the sentence says the list's date, not this page's.
    renderPanel({ advice: advice({ page: 2, first_order_by: '2026-03-02' }) });
    expect(screen.getByTestId('low-stock-count').textContent).toBe('120 products need an order; the most urgent must be ordered by 2 Mar 2026 · 4,321 units · cost 9,876.50');
    expect(screen.getByTestId('low-stock').textContent).not.toMatch(/before a new order could arrive/);
    cleanup();
    renderPanel({ advice: advice({ total: 1, order_units: 12, order_cost: 30, first_order_by: '2026-01-05', products: [product('A-1', 12, 2.5, '2026-01-05')] }) });
    expect(screen.getByTestId('low-stock-count').textContent).toBe('1 product needs an order, by 5 Jan 2026 · 12 units · cost 30.00');
    cleanup();
    renderPanel({ advice: advice({ total: 0, inactive: 0, order_units: 0, order_cost: 0, first_order_by: null, products: [] }) });
    expect(screen.getByTestId('low-stock-count').textContent).toBe('No product needs an order');
  });

  it('asks the server for another page and for the products without recent sales', () => {
    const { views } = renderPanel({ advice: advice() });
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Show products without sales in the last 90 days (7 hidden)' }));
    expect(views).toEqual([{ page: 3 }, { page: 1, includeInactive: true }]);
  });

  it('names the products that sell but were never counted, which the list cannot advise', () => {
    const { selected } = renderPanel({ advice: advice({ unknown_stock: { count: 12, codes: ['N-1', 'N-2'], counted_after_sales: NONE_COUNTED_LATER } }) });
    expect(screen.getByTestId('unknown-stock').textContent).toBe(
      'Stock unknown12 products that sold in the last 90 days have no stock count, so when they run out cannot be told and no order is advised for them: N-1, N-2 and 10 more. ' +
        'Import a stock count (Settings → Data integration, stock snapshots) or their current stock.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'N-2' }));
    expect(selected).toEqual(['N-2']);
    cleanup();
    renderPanel({ advice: advice({ total: 0, inactive: 0, order_units: 0, order_cost: 0, products: [], unknown_stock: { count: 1, codes: ['N-1'], counted_after_sales: NONE_COUNTED_LATER } }) });
    expect(screen.getByTestId('unknown-stock').textContent).toContain('1 product that sold in the last 90 days has no stock count, so when it runs out cannot be told and no order is advised for it: N-1 Import');
    cleanup();
    renderPanel({ advice: advice() });
    expect(screen.queryByTestId('unknown-stock')).toBeNull();
  });

  // ADR 0193 F9 (amendment "counted after the sales data ends"): sales imported up to Saturday, the
  // products file's counts dated Monday — counted, but not yet projected: named apart, with the
  // import that opens them, never as "no stock count".
  it('names the products counted after the sales data ends apart, saying to import the sales since', () => {
    const later = { count: 15, codes: ['CROISSANT', 'LATTE'], sales_end: '2025-12-05' };
    const listed = advice({ unknown_stock: { count: 1, codes: ['FLAT-WHITE'], counted_after_sales: later } });
    const { selected } = renderPanel({ advice: listed });
    render(
      <MantineProvider>
        <LatestReportPanel report={listed} today={TODAY} includeInactive={false} message={null} isLoading={false} error={null} onSelect={() => {}} onRetry={() => {}} onView={() => {}} />
      </MantineProvider>,
    );
    const notices = screen.getAllByTestId('counted-after-sales');
    expect(notices).toHaveLength(2);
    for (const notice of notices) {
      expect(notice.textContent).toBe(
        'Counted after the sales data ends15 products that sold in the last 90 days were counted after the sales data ends on 5 Dec 2025: the sales since are missing, so when they run out cannot be told and no order is advised for them: CROISSANT, LATTE and 13 more. ' +
          'Import the sales after 5 Dec 2025 (Settings → Data integration, sales): their counts then open their stock projections.',
      );
    }
    for (const notice of screen.getAllByTestId('unknown-stock')) {
      expect(notice.textContent).toContain('1 product that sold in the last 90 days has no stock count');
      expect(notice.textContent).not.toContain('CROISSANT');
    }
    fireEvent.click(within(notices[0]!).getByRole('button', { name: 'LATTE' }));
    expect(selected).toEqual(['LATTE']);
    cleanup();
    // Only counted later: no "Stock unknown" notice; one product, and no day known.
    renderPanel({ advice: advice({ unknown_stock: { count: 0, codes: [], counted_after_sales: { count: 1, codes: ['LATTE'], sales_end: null } } }) });
    expect(screen.queryByTestId('unknown-stock')).toBeNull();
    expect(screen.getByTestId('counted-after-sales').textContent).toBe(
      'Counted after the sales data ends1 product that sold in the last 90 days was counted after the sales data ends: the sales since are missing, so when it runs out cannot be told and no order is advised for it: LATTE ' +
        'Import recent sales (Settings → Data integration, sales): its count then opens its stock projection.',
    );
    cleanup();
    renderPanel({ advice: advice() });
    expect(screen.queryByTestId('counted-after-sales')).toBeNull();
  });

  it('says what to do when there is nothing to show', () => {
    renderPanel({ advice: null, message: 'No latest report available...' });
    expect(screen.getByTestId('low-stock-empty').textContent).toContain('Choose “Regenerate whole catalogue” above');
    cleanup();
    renderPanel({ advice: advice({ total: 0, order_units: 0, order_cost: 0, products: [] }) });
    expect(screen.getByTestId('low-stock-empty').textContent).toBe('Nothing to order among products that sold in the last 90 days. 7 without recent sales would need one: switch on the filter above to see them.');
    cleanup();
    renderPanel({ advice: advice({ total: 0, inactive: 0, order_units: 0, order_cost: 0, products: [] }) });
    expect(screen.getByTestId('low-stock-empty').textContent).toBe('Nothing to order: no product is expected to run out before a new order could arrive.');
  });
});

describe('an order on under four weeks of sales', () => {
  const listed = advice({ products: [product('A-1', 12, 2.5, '2026-01-05'), { ...product('NEW-9', 54, 4, '2026-01-06'), shortHistory: true }] });
  const quantityCells = (table: HTMLElement) =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [row.getAttribute('data-style-code'), within(row).getByTestId('order-quantity').textContent]);
  const caution = 'This order rests on under four weeks of sales, too few to show how the product sells: check the quantity against what you expect before you order.';

  it('is marked in the low-stock list, in the words of its advice', () => {
    renderPanel({ advice: listed });
    expect(quantityCells(screen.getByTestId('low-stock-table'))).toEqual([
      ['A-1', '12'],
      ['NEW-9', `54Check before ordering ${caution}`],
    ]);
    expect(screen.getByTestId('short-history-mark').getAttribute('title')).toBe(caution);
  });

  it("is marked in the latest report's rows", () => {
    render(
      <MantineProvider>
        <LatestReportPanel report={listed} today={TODAY} includeInactive={false} message={null} isLoading={false} error={null} onSelect={() => {}} onRetry={() => {}} onView={() => {}} />
      </MantineProvider>,
    );
    expect(quantityCells(screen.getByTestId('at-risk-table'))).toEqual([
      ['A-1', '12'],
      ['NEW-9', `54Check before ordering ${caution}`],
    ]);
  });
});

describe('a delivery on its way that arrives after the stock runs out', () => {
  // No order to place (a new one could not come sooner): listed to hurry the delivery, counted with the orders.
  const hurry = { ...product('LATE-1', 0, 2, '2026-01-04'), orderBy: null, firstStockout: '2026-01-04', urgencyDays: -14, onOrderArrives: '2026-01-14' };
  const listed = advice({ total: 3, on_order_late: 1, products: [hurry, product('A-1', 12, 2.5, '2026-01-05'), product('B-2', 3, 10, '2026-01-09')] });
  const label = 'On order: arrives 14 Jan 2026, after it runs out — hurry it';
  const why = 'No new order could arrive sooner. The delivery on its way arrives about 10 days after the stock is expected to run out on 4 Jan 2026: hurry it or buy elsewhere to cover those days.';

  it('is a row of the low-stock list, marked to hurry it rather than too late to order, and counted apart from the orders', () => {
    renderPanel({ advice: listed });
    expect(screen.getByTestId('low-stock-count').textContent).toBe(
      '2 products need an order; the most urgent must be ordered by 5 Jan 2026 · 4,321 units · cost 9,876.50 · 1 delivery on its way arrives after its product runs out: hurry it',
    );
    const [late, ...orders] = within(screen.getByTestId('low-stock-table')).getAllByRole('row').slice(1);
    expect(late?.getAttribute('data-style-code')).toBe('LATE-1');
    const mark = within(late!).getByTestId('on-order-late');
    expect(mark.textContent).toBe(label);
    expect(mark.getAttribute('title')).toBe(why);
    expect(within(late!).queryByTestId('too-late')).toBeNull();
    expect(within(late!).getByTestId('order-by').textContent).toBe('');
    // It orders nothing: a dash, said in words, where "0" and "0.00" stood; the orders' cost keeps its pence.
    const noOrder = 'No new order: hurry the delivery on its way';
    expect([within(late!).getByTestId('order-quantity').textContent, within(late!).getByTestId('order-cost').textContent]).toEqual([`—${noOrder}`, `—${noOrder}`]);
    expect(within(late!).getAllByTestId('no-new-order').map((cell) => cell.getAttribute('title'))).toEqual([noOrder, noOrder]);
    expect(orders.map((row) => within(row).getByTestId('order-cost').textContent)).toEqual(['30.00', '30.00']);
    // The orders keep their own marks.
    expect(orders.map((row) => within(row).queryByTestId('on-order-late'))).toEqual([null, null]);
    expect(orders.map((row) => within(row).getByTestId('too-late').textContent)).toEqual(['Too late: arrives after it runs out', 'Too late: arrives after it runs out']);
  });

  it('says so when the list holds deliveries to hurry but no order', () => {
    renderPanel({ advice: advice({ total: 2, on_order_late: 2, order_units: 0, order_cost: 0, first_order_by: null, products: [hurry, { ...hurry, styleCode: 'LATE-2' }] }) });
    expect(screen.getByTestId('low-stock-count').textContent).toBe('No product needs a new order · 2 deliveries on their way arrive after their products run out: hurry them');
    expect(screen.getAllByTestId('on-order-late')).toHaveLength(2);
  });

  it("is a row of the latest report too, whose heading counts it", () => {
    render(
      <MantineProvider>
        <LatestReportPanel report={listed} today={TODAY} includeInactive={false} message={null} isLoading={false} error={null} onSelect={() => {}} onRetry={() => {}} onView={() => {}} />
      </MantineProvider>,
    );
    expect(screen.getByTestId('at-risk-count').textContent).toBe('Products to order or to hurry, most urgent first (3)');
    const late = within(screen.getByTestId('at-risk-table')).getAllByRole('row')[1]!;
    expect(within(late).getByTestId('on-order-late').textContent).toBe(label);
    expect(within(late).queryByTestId('too-late')).toBeNull();
    expect(within(late).getByTestId('no-new-order').textContent).toBe('—No new order: hurry the delivery on its way');
  });
});

describe('an order-by day that has come', () => {
  // Read on 6 Jan a catalogue run made days before: A-1's day (5 Jan) has passed, C-3's is today, B-2's (9 Jan) is ahead.
  const listed = advice({
    products: [{ ...product('A-1', 12, 2.5, '2026-01-05'), urgencyDays: -3 }, product('C-3', 2, 1, '2026-01-06'), { ...product('B-2', 3, 10, '2026-01-09'), urgencyDays: 1 }],
  });
  const orderByCells = (table: HTMLElement) =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [row.getAttribute('data-style-code'), within(row).getByTestId('order-by').textContent, within(row).queryByTestId('too-late')?.textContent ?? null]);
  const expected = [
    ['A-1', 'Now', 'Too late: arrives after it runs out'],
    ['C-3', 'Now', 'Too late: arrives after it runs out'],
    ['B-2', '9 Jan 2026', null],
  ];

  it('reads "Now" in both lists, as the product panel says it, a later day its date, the too-late mark still beside it', () => {
    renderPanel({ advice: listed, today: '2026-01-06' });
    expect(orderByCells(screen.getByTestId('low-stock-table'))).toEqual(expected);
    // The count's most urgent order is due now, not by a day gone by.
    expect(screen.getByTestId('low-stock-count').textContent).toBe('120 products need an order; the most urgent must be ordered now · 4,321 units · cost 9,876.50');
    cleanup();
    render(
      <MantineProvider>
        <LatestReportPanel report={listed} today="2026-01-06" includeInactive={false} message={null} isLoading={false} error={null} onSelect={() => {}} onRetry={() => {}} onView={() => {}} />
      </MantineProvider>,
    );
    expect(orderByCells(screen.getByTestId('at-risk-table'))).toEqual(expected);
    cleanup();
    renderPanel({ advice: advice({ total: 1, order_units: 12, order_cost: 30, first_order_by: '2026-01-05', products: [product('A-1', 12, 2.5, '2026-01-05')] }), today: '2026-01-06' });
    expect(screen.getByTestId('low-stock-count').textContent).toBe('1 product needs an order now · 12 units · cost 30.00');
  });
});

describe('products made here (ADR 0194)', () => {
  it('says in one line how many are not on the list, and its switch shows them, marked made here', () => {
    const { views } = renderPanel({ advice: advice({ made_here: 3 }) });
    fireEvent.click(screen.getByRole('switch', { name: '3 products made here are not on the order list: show them' }));
    expect(views).toEqual([{ page: 1, includeMadeHere: true }]);
    cleanup();
    render(
      <MantineProvider>
        <LowStockPanel
          advice={advice({ made_here: 0, products: [{ ...product('CRO-1', 40, 0.9, '2026-01-05'), madeHere: true }, product('MILK-2', 12, 1.5, '2026-01-09')] })}
          today={TODAY}
          includeInactive={false}
          includeMadeHere
          message={null}
          isLoading={false}
          error={null}
          onSelect={() => {}}
          onRetry={() => {}}
          onView={() => {}}
        />
      </MantineProvider>,
    );
    expect(screen.getByRole('switch', { name: 'Products made here are shown (nothing is bought for them)' })).toHaveProperty('checked', true);
    const rows = within(screen.getByTestId('low-stock-table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).queryByTestId('row-made-here')?.textContent ?? null)).toEqual(['Made here — not ordered', null]);
  });

  it('has no such line when none is left out, nor on a report from a server without the count', () => {
    renderPanel({ advice: advice({ made_here: 0 }) });
    expect(screen.queryByTestId('made-here-switch')).toBeNull();
    cleanup();
    renderPanel({ advice: advice() });
    expect(screen.queryByTestId('made-here-switch')).toBeNull();
  });
});

describe('products not stocked (ADR 0200)', () => {
  it('says in one line how many are not on the list, beside the made-here switch, and nothing when none is or a server does not say', () => {
    renderPanel({ advice: advice({ made_here: 1, not_stocked: 1 }) });
    expect(screen.getByTestId('not-stocked-notice').textContent).toBe('1 product not stocked (a service or fee) is not on the order list: no stock is kept of it.');
    expect(screen.getByRole('switch', { name: '1 product made here is not on the order list: show it' })).toBeTruthy();
    cleanup();
    renderPanel({ advice: advice({ not_stocked: 2 }) });
    expect(screen.getByTestId('not-stocked-notice').textContent).toBe('2 products not stocked (services or fees) are not on the order list: no stock is kept of them.');
    expect(screen.queryByTestId('made-here-switch')).toBeNull();
    cleanup();
    renderPanel({ advice: advice({ not_stocked: 0 }) });
    expect(screen.queryByTestId('not-stocked-notice')).toBeNull();
    cleanup();
    renderPanel({ advice: advice() });
    expect(screen.queryByTestId('not-stocked-notice')).toBeNull();
  });
});
