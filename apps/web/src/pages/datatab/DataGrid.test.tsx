// The grid's End key on a table larger than the rows loaded: the scrollbar spans every row, End
// focuses the table's last row and asks for the end (not the next page); the rows in between are
// placeholders until they arrive, and Home returns to the first row.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { TableColumn, TableRow } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout, useBrowserLanguages } from '../../test/jsdom.ts';
import { initialShopState, useShopStore } from '../../stores/shop.ts';
import { DataGrid, gridRowHeight } from './DataGrid.tsx';
import type { FilterInputs, FilterProblems, UnknownValues } from './table-query.ts';

const viewportHeight = 400;

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  // jsdom has no layout: the grid's viewport gets a height, and scrolling moves scrollTop.
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => viewportHeight });
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  // The scrollable height is the rows' body (its style carries the virtual height).
  Object.defineProperty(HTMLElement.prototype, 'scrollHeight', {
    configurable: true,
    get(this: HTMLElement) {
      const body = this.querySelector<HTMLElement>('[role="rowgroup"] + [role="rowgroup"]');
      return body ? Number.parseFloat(body.style.height) : 0;
    },
  });
  const scrolled = new WeakMap<HTMLElement, number>();
  Object.defineProperty(HTMLElement.prototype, 'scrollTop', {
    configurable: true,
    get(this: HTMLElement) {
      return scrolled.get(this) ?? 0;
    },
    set(this: HTMLElement, top: number) {
      scrolled.set(this, top);
    },
  });
  HTMLElement.prototype.scrollTo = function scrollTo(this: HTMLElement, options?: ScrollToOptions | number) {
    if (typeof options === 'object' && options.top !== undefined) this.scrollTop = options.top;
    // As in a browser: the scroll event comes after the call, not inside it.
    queueMicrotask(() => this.dispatchEvent(new Event('scroll')));
  } as typeof HTMLElement.prototype.scrollTo;
});
afterEach(cleanup);

const columns: TableColumn[] = [{ key: 'id', label: 'ID', type: 'AutoField', read_only: true } as TableColumn, { key: 'name', label: 'Name', type: 'CharField' } as TableColumn];
const rowsFrom = (first: number, count: number): TableRow[] => Array.from({ length: count }, (_, i) => ({ id: first + i, name: `Row ${first + i}` }));

function renderGrid(props: { rows: TableRow[]; tail?: TableRow[]; tailOffset?: number; totalRows: number; canEditRows?: boolean; columns?: TableColumn[]; unknownValues?: UnknownValues; filters?: FilterInputs; filterProblems?: FilterProblems }) {
  const asked: string[] = [];
  const view = (tail: TableRow[], tailOffset: number) => (
    <MantineProvider>
      <DataGrid
        tableName="sales"
        columns={props.columns ?? columns}
        rows={props.rows}
        unknownValues={props.unknownValues}
        tail={tail}
        tailOffset={tailOffset}
        totalRows={props.totalRows}
        sort={{ sortBy: null, sortDir: 'asc' }}
        filters={props.filters ?? {}}
        filterProblems={props.filterProblems}
        hasNext
        isLoadingMore={false}
        canMakeVariation={false}
        canEditRows={props.canEditRows ?? false}
        onSort={() => {}}
        onFilter={() => {}}
        onLoadMore={() => asked.push('more')}
        onLoadEnd={() => asked.push('end')}
        onRowAction={() => {}}
      />
    </MantineProvider>
  );
  const result = render(view(props.tail ?? [], props.tailOffset ?? 0));
  return { asked, rerender: (tail: TableRow[], tailOffset: number) => result.rerender(view(tail, tailOffset)) };
}

describe('data grid End and Home', () => {
  it('spans the whole table, asks for the end on End, shows the last row once it arrives, and Home goes back', async () => {
    const { asked, rerender } = renderGrid({ rows: rowsFrom(1, 50), totalRows: 140_000 });
    const grid = screen.getByTestId('data-grid');
    expect(grid.getAttribute('data-row-count')).toBe('140000');
    expect(grid.getAttribute('aria-rowcount')).toBe('140002');
    fireEvent.keyDown(grid, { key: 'End', ctrlKey: true });
    // The rows in view are not loaded yet: placeholders, and the end is asked for.
    expect((await screen.findAllByText('Loading…')).length).toBeGreaterThan(5);
    expect(grid.scrollTop).toBeGreaterThan((140_000 - 20) * gridRowHeight - viewportHeight);
    expect(asked).toContain('end');
    expect(asked).not.toContain('more');
    rerender(rowsFrom(139_951, 50), 139_950);
    const last = await screen.findByText('Row 140000');
    expect(last.closest('[role="row"]')?.getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(grid, { key: 'Home', ctrlKey: true });
    const first = await screen.findByText('Row 1');
    expect(first.closest('[role="row"]')?.getAttribute('aria-selected')).toBe('true');
  });
});

describe('data grid values never recorded', () => {
  it('says "not counted", set apart and explained, where a product has no stock count; a counted 0 stays 0', () => {
    const stockColumns = [...columns, { key: 'current_stock', label: 'Current stock', type: 'IntegerField' } as TableColumn];
    const rows = [
      { id: 1, name: 'Never counted', current_stock: 0 },
      { id: 2, name: 'Counted empty', current_stock: 0 },
    ];
    renderGrid({ rows, totalRows: 2, columns: stockColumns, unknownValues: { current_stock: { '1': 'not_counted' } } });
    const cellOf = (name: string) => screen.getByText(name).closest('[role="row"]')?.querySelector('[data-column="current_stock"]');
    const unknown = cellOf('Never counted');
    expect(unknown?.textContent).toBe('not counted');
    expect(unknown?.getAttribute('title')).toBe('No stock count yet: import a stock take or type the count');
    expect(unknown?.hasAttribute('data-unknown')).toBe(true);
    const counted = cellOf('Counted empty');
    expect(counted?.textContent).toBe('0');
    expect(counted?.hasAttribute('title')).toBe(false);
    expect(counted?.hasAttribute('data-unknown')).toBe(false);
  });
});

describe('data grid moments', () => {
  it('writes a timestamp as it writes days, YYYY-MM-DD, then the time on the viewer’s clock, whatever the browser’s locale', () => {
    const momentColumns = [...columns, { key: 'counted_on', label: 'Counted on', type: 'DateField' } as TableColumn, { key: 'created_at', label: 'Created at', type: 'DateTimeField' } as TableColumn];
    // A timestamp without an offset is read on the viewer's clock, so this test holds in any time zone.
    const rows = [
      { id: 1, name: 'Typed', counted_on: '2026-12-07', created_at: '2026-12-07T09:04:05' },
      { id: 2, name: 'Unreadable', counted_on: null, created_at: 'yesterday' },
    ];
    renderGrid({ rows, totalRows: 2, columns: momentColumns });
    const cellOf = (name: string, column: string) => screen.getByText(name).closest('[role="row"]')?.querySelector(`[data-column="${column}"]`)?.textContent;
    expect(cellOf('Typed', 'counted_on')).toBe('2026-12-07');
    expect(cellOf('Typed', 'created_at')).toBe('2026-12-07 09:04:05');
    expect(cellOf('Unreadable', 'created_at')).toBe('yesterday');
  });
});

describe('data grid numbers', () => {
  // A quantity (3 places, not money) only as far as the figure needs them since ADR 0176: every shop's sales are such a
  // column now, and a shop selling whole units would read 12.000 on each line.
  it('writes a decimal with its column’s places (money: 7.50, not 7.5), a quantity as its figure needs (0.25, 12); whole numbers and blanks as they are', () => {
    const numberColumns = [
      ...columns,
      { key: 'unit_cost', label: 'Unit cost', type: 'DecimalField' } as TableColumn,
      { key: 'weight', label: 'Weight', type: 'DecimalField', decimal_places: 3 } as TableColumn,
      { key: 'lead_time_days', label: 'Lead time', type: 'IntegerField' } as TableColumn,
    ];
    const rows = [
      { id: 1, name: 'Trowel', unit_cost: 7.5, weight: 0.25, lead_time_days: 7 },
      { id: 2, name: 'Unpriced', unit_cost: null, weight: 12, lead_time_days: null },
    ];
    renderGrid({ rows, totalRows: 2, columns: numberColumns });
    const cellOf = (name: string, column: string) => screen.getByText(name).closest('[role="row"]')?.querySelector(`[data-column="${column}"]`)?.textContent;
    expect(cellOf('Trowel', 'unit_cost')).toBe('7.50');
    expect(cellOf('Trowel', 'weight')).toBe('0.25');
    expect(cellOf('Trowel', 'lead_time_days')).toBe('7');
    expect(cellOf('Unpriced', 'unit_cost')).toBe('');
    expect(cellOf('Unpriced', 'weight')).toBe('12');
  });

  it("writes a column marked as money in the shop's currency once one is chosen; other decimals stay bare, two places or not", () => {
    useShopStore.setState({ currency: 'GBP', requested: true });
    try {
      const numberColumns = [
        ...columns,
        { key: 'unit_cost', label: 'Unit cost', type: 'DecimalField', decimal_places: 2, money: true } as TableColumn,
        { key: 'weight', label: 'Weight', type: 'DecimalField', decimal_places: 3 } as TableColumn,
        { key: 'discount', label: 'Discount rate', type: 'DecimalField', decimal_places: 2 } as TableColumn,
        { key: 'kilos', label: 'Weight (kg)', type: 'DecimalField' } as TableColumn,
      ];
      renderGrid({ rows: [{ id: 1, name: 'Trowel', unit_cost: 1240.5, weight: 0.25, discount: 0.25, kilos: 1.2 }], totalRows: 1, columns: numberColumns });
      const cellOf = (column: string) => screen.getByText('Trowel').closest('[role="row"]')?.querySelector(`[data-column="${column}"]`)?.textContent;
      expect(cellOf('unit_cost')).toBe('£1240.50');
      expect(cellOf('weight')).toBe('0.25');
      expect(cellOf('discount')).toBe('0.25');
      expect(cellOf('kilos')).toBe('1.20');
    } finally {
      useShopStore.setState(initialShopState);
    }
  });
});

describe('date filter boxes', () => {
  const dated = [...columns, { key: 'counted_on', label: 'Counted on', type: 'DateField' } as TableColumn];
  let restoreLanguages = () => {};
  afterEach(() => restoreLanguages());

  it('say how a day-first date was read while the box has the focus (en-GB)', () => {
    restoreLanguages = useBrowserLanguages(['en-GB']);
    renderGrid({ rows: rowsFrom(1, 2), totalRows: 2, columns: dated, filters: { counted_on: '03.04.2026' } });
    const box = screen.getByLabelText('Filter Counted on');
    expect(screen.queryByTestId('filter-reading')).toBeNull();
    fireEvent.focus(box);
    const reading = screen.getByTestId('filter-reading');
    expect(reading.textContent).toBe('Read as 3 Apr 2026');
    expect(box.getAttribute('aria-describedby')).toBe(reading.id);
    fireEvent.blur(box);
    expect(screen.queryByTestId('filter-reading')).toBeNull();
    expect(box.getAttribute('placeholder')).toBe('e.g. >=01/11/2026');
  });

  // QA6 #15, QA7 F13: placeholder, tooltip, reading and hint in the viewer's order.
  it('read, show and explain dates month first for en-US, day first with dots for de', () => {
    restoreLanguages = useBrowserLanguages(['en-US', 'en']);
    const dateProblem = { problem: 'date' as const, text: 'soon' };
    renderGrid({ rows: rowsFrom(1, 2), totalRows: 2, columns: dated, filters: { counted_on: '03/04/2026' }, filterProblems: {} });
    const box = screen.getByLabelText('Filter Counted on');
    expect(box.getAttribute('placeholder')).toBe('e.g. >=11/01/2026');
    expect(box.getAttribute('title')).toBe('Type a date as MM/DD/YYYY (11/30/2026) or as 2026-11-30, a month (11/2026 or 2026-11), <, <=, >, >= and one, or a range like 11/01/2026..11/30/2026');
    fireEvent.focus(box);
    expect(screen.getByTestId('filter-reading').textContent).toBe('Read as 4 Mar 2026');
    cleanup();
    renderGrid({ rows: rowsFrom(1, 2), totalRows: 2, columns: dated, filterProblems: { counted_on: dateProblem } });
    expect(screen.getByRole('alert').textContent).toBe('Type a date like 11/30/2026 or a month like 11/2026, or <, >, or a range like 11/01/2026..11/30/2026');
    cleanup();
    restoreLanguages();
    restoreLanguages = useBrowserLanguages(['de-DE']);
    renderGrid({ rows: rowsFrom(1, 2), totalRows: 2, columns: dated, filterProblems: { counted_on: dateProblem } });
    expect(screen.getByLabelText('Filter Counted on').getAttribute('placeholder')).toBe('e.g. >=01.11.2026');
    expect(screen.getByRole('alert').textContent).toBe('Type a date like 30.11.2026 or a month like 11.2026, or <, >, or a range like 01.11.2026..30.11.2026');
  });

  it('say why a date is no day, instead of how it was read', () => {
    const problem = { problem: 'noSuchDay' as const, day: '31.11.2026', why: 'November 2026 has 30 days', text: '31.11.2026' };
    renderGrid({ rows: rowsFrom(1, 2), totalRows: 2, columns: dated, filterProblems: { counted_on: problem } });
    fireEvent.focus(screen.getByLabelText('Filter Counted on'));
    expect(screen.getByRole('alert').textContent).toBe('31.11.2026 is not a real date: November 2026 has 30 days');
    expect(screen.queryByTestId('filter-reading')).toBeNull();
  });
});

describe('data grid row buttons', () => {
  it('name the row as people know it (code — name), and by its number where the table has no code', () => {
    const productColumns = [
      columns[0]!,
      { key: 'product_code', label: 'Product code', type: 'CharField', required: true } as TableColumn,
      { key: 'name', label: 'Name', type: 'CharField', required: true } as TableColumn,
    ];
    renderGrid({ rows: [{ id: 7, product_code: 'GAR-1099', name: 'Pflanzschaufel Edelstahl' }], totalRows: 1, columns: productColumns, canEditRows: true });
    expect(screen.getByRole('button', { name: 'Edit GAR-1099 — Pflanzschaufel Edelstahl' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete GAR-1099 — Pflanzschaufel Edelstahl' })).toBeTruthy();
    cleanup();
    const saleColumns = [columns[0]!, { key: 'quantity', label: 'Quantity', type: 'IntegerField', required: true } as TableColumn];
    renderGrid({ rows: [{ id: 12, quantity: 3 }], totalRows: 1, columns: saleColumns, canEditRows: true });
    expect(screen.getByRole('button', { name: 'Delete row 12' })).toBeTruthy();
  });
});
