// An answer's table shows its figures as the screens do (thousands grouped, right-aligned) and its
// days as the answer's sentences write them (7 Dec 2026); codes stay as the server wrote them.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import type { AssistantBlock } from '@stockwise/contract';
import { AnswerBlocks } from './AnswerBlocks.tsx';
import { initialAssistantState, useAssistantStore } from '../../stores/assistant.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

type TableBlock = Extract<AssistantBlock, { type: 'table' }>;
/** An answer of one table, its totals and download none unless given. */
function renderTable({ columns, rows, totals = null, download = null }: Pick<TableBlock, 'columns' | 'rows'> & Partial<Pick<TableBlock, 'totals' | 'download'>>) {
  render(
    <MantineProvider>
      <MemoryRouter>
        <AnswerBlocks blocks={[{ type: 'table', columns, rows, totals, download }]} />
      </MemoryRouter>
    </MantineProvider>,
  );
  return screen.getByTestId('assistant-table');
}

describe('an answer table', () => {
  it('groups and right-aligns figures, writes days as the sentences do, and leaves codes as written', () => {
    const table = renderTable({
      columns: [
        { key: 'styleCode', label: 'Product code' },
        { key: 'orderBy', label: 'Order by' },
        { key: 'cost', label: 'Cost' },
      ],
      rows: [
        { styleCode: 'HEA-1217', orderBy: '2026-11-25', cost: 82648.68 },
        // A code that looks like a day, in a column of codes: not a day.
        { styleCode: '2026-01-02', orderBy: null, cost: 1 },
      ],
      totals: { styleCode: 'Total', orderBy: null, cost: 1234567.891 },
    });
    const cells = within(table).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells).toEqual(['HEA-1217', '25 Nov 2026', '82,648.68', '2026-01-02', '', '1']);
    expect(within(table).getByText('1,234,567.89')).toBeTruthy();
    const cost = within(table).getByText('82,648.68');
    expect(getComputedStyle(cost).textAlign).toBe('right');
  });

  it('writes a money column with its pence (1,240.50), as the screens write money; other figures as they are', () => {
    const table = renderTable({
      columns: [
        { key: 'quantity', label: 'Quantity' },
        { key: 'cost', label: 'Cost', kind: 'money' },
      ],
      rows: [
        { quantity: 2.5, cost: 1240.5 },
        { quantity: 3, cost: 12 },
        // A delivery to hurry orders nothing: blank, not 0.00.
        { quantity: null, cost: null },
      ],
      totals: { quantity: 5.5, cost: 1252.5 },
    });
    expect(within(table).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['2.5', '1,240.50', '3', '12.00', '', '']);
    expect(within(table).getByText('1,252.50')).toBeTruthy();
  });

  it("names a category column's paths by their last parts (more where two would read the same), the path in the title", () => {
    const table = renderTable({
      columns: [
        { key: 'category', label: 'Category', kind: 'category' },
        { key: 'products', label: 'Products' },
      ],
      rows: [
        { category: 'All / Saleable / Office Furniture', products: 12 },
        { category: 'All / Office / Chairs', products: 3 },
        { category: 'All / Garden / Chairs', products: 2 },
        { category: 'Paper', products: 4 },
        { category: 'No category', products: 1 },
      ],
      totals: { category: 'Total', products: 22 },
    });
    expect(within(table).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Office Furniture', '12', 'Office / Chairs', '3', 'Garden / Chairs', '2', 'Paper', '4', 'No category', '1']);
    expect(within(table).getByText('Office Furniture').getAttribute('title')).toBe('All / Saleable / Office Furniture');
    expect(within(table).getByText('Paper').getAttribute('title')).toBeNull();
    expect(within(table).getByText('Total')).toBeTruthy();
  });

  describe('an order-by column, on a Monday', () => {
    // Midday in UTC: Monday 7 December in every time zone a test may run in.
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-12-07T12:00:00Z'));
    });
    afterEach(() => {
      vi.useRealTimers();
      vi.unstubAllGlobals();
      vi.restoreAllMocks();
    });

    it('writes a day that has come "Now", as the Forecasting screen\'s lists do, and keeps the days in the CSV', async () => {
      const saved: Blob[] = [];
      // The browser's side of a download, which jsdom has not: the file handed over, no navigation.
      vi.stubGlobal('URL', Object.assign(class extends URL {}, { createObjectURL: (file: Blob) => (saved.push(file), 'blob:answer'), revokeObjectURL: () => undefined }));
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
      const table = renderTable({
        columns: [
          { key: 'styleCode', label: 'Product code' },
          { key: 'orderBy', label: 'Order by', kind: 'order_by' },
        ],
        // Saturday's advice of a shop closed at weekends, today's, and Wednesday's.
        rows: [
          { styleCode: 'PAP_A4_80', orderBy: '2026-12-05' },
          { styleCode: 'FURN_7800', orderBy: '2026-12-07' },
          { styleCode: 'PAP_NOTE', orderBy: '2026-12-09' },
          { styleCode: 'SERV_DEL', orderBy: null },
        ],
        download: 'reorder-report.csv',
      });
      expect(within(table).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['PAP_A4_80', 'Now', 'FURN_7800', 'Now', 'PAP_NOTE', '9 Dec 2026', 'SERV_DEL', '']);
      fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
      expect(saved).toHaveLength(1);
      expect((await saved[0]?.text())?.replace(/^\uFEFF/, '').split(/\r?\n/).filter(Boolean)).toEqual(['Product code,Order by', 'PAP_A4_80,2026-12-05', 'FURN_7800,2026-12-07', 'PAP_NOTE,2026-12-09', 'SERV_DEL,']);
    });
  });
});

describe("an answer's action", () => {
  afterEach(() => useAssistantStore.setState(initialAssistantState));

  it('waits, disabled, while a question is being answered (the store would ignore it), and is pressable after', () => {
    useAssistantStore.setState({ isLoading: true });
    render(
      <MantineProvider>
        <MemoryRouter>
          <AnswerBlocks blocks={[{ type: 'action', label: 'Add as a task', action: 'add_task', payload: { text: 'Count the hoses' } }]} />
        </MemoryRouter>
      </MantineProvider>,
    );
    const button = screen.getByRole('button', { name: 'Add as a task' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    act(() => useAssistantStore.setState({ isLoading: false }));
    expect(button.disabled).toBe(false);
  });
});
