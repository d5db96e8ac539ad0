// "Leave out lines where" on the Import screen: the draft's filters (a proposed one too) listed
// with Remove, a new filter chosen from a column's values seen in the file with their line counts
// and an order column for blank cells, the previewed lines it leaves out marked, and the counts
// of a finished import saying how many lines each filter left out.
import { mappingFromProposal } from '@stockwise/contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { PreviewFileResponse } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { initialImportState, useImportStore } from '../../stores/import.ts';
import { ImportForm } from './ImportForm.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});

beforeEach(() => useImportStore.setState(initialImportState));
afterEach(cleanup);

const refunds = { column: 'Financial Status', values: ['refunded', 'voided'], blank_means_same_as: 'Name' };
const orders: PreviewFileResponse = {
  format: 'csv',
  separator: ',',
  header: ['Name', 'Financial Status', 'Created at', 'Lineitem quantity', 'Lineitem sku'],
  raw_rows: [['#1001', 'paid', '2026-11-28 09:15:02 -0500', '2', 'A-1']],
  targets: [
    { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
    { field: 'date', label: 'Date', type: 'DateField', required: true },
    { field: 'quantity', label: 'Quantity', type: 'IntegerField', required: true },
  ],
  proposed_mapping: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' },
  date_format: { detected: 'iso', ambiguous: false, candidates: ['iso'] },
  decimal_separator: { detected: null, used: '.' },
  rows: [
    { row: 2, values: { product_id: 'A-1', date: '2026-11-28', quantity: 2 }, problems: {} },
    { row: 3, values: { product_id: 'A-2', date: '2026-11-28 10:00:00 -0500', quantity: '1' }, problems: {}, left_out: { column: 'Financial Status', value: 'refunded' } },
  ],
  column_values: { 'Financial Status': [{ value: 'paid', lines: 40 }, { value: 'refunded', lines: 3 }, { value: 'voided', lines: 1 }, { value: 'partially_refunded', lines: 2 }] },
  proposed_row_filters: [refunds],
};
const renderForm = () => render(<MantineProvider><ImportForm /></MantineProvider>);

describe('leave out lines where', () => {
  it('starts a new mapping with the proposed filter, shown with Remove, and marks the previewed lines it leaves out', () => {
    const draft = mappingFromProposal(orders);
    expect(draft.skip_rows_where).toEqual([refunds]);
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', draft, previewData: orders });
    renderForm();
    const section = screen.getByRole('region', { name: 'Leave out lines where' });
    expect(within(section).getAllByTestId('row-filter').map((item) => item.textContent)).toEqual([
      'Lines of orders whose Financial Status is refunded or voided (a blank cell: as the line above with the same Name)Remove',
    ]);
    const rows = screen.getAllByTestId('preview-row');
    expect(rows.map((row) => row.hasAttribute('data-left-out'))).toEqual([false, true]);
    expect(within(rows[1] as HTMLElement).getByTestId('row-left-out').textContent).toBe('Left out: Financial Status is refunded');

    expect(within(section).queryByTestId('row-filter-not-in-file')).toBeNull();

    fireEvent.click(within(section).getByRole('button', { name: 'Remove the filter on Financial Status' }));
    expect(useImportStore.getState().draft?.skip_rows_where).toBeUndefined();
    expect(within(section).queryAllByTestId('row-filter')).toEqual([]);
  });

  it("adds a filter from the values seen in the file's column, with their line counts, and an order column for blank cells", () => {
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', draft: { field_mappings: orders.proposed_mapping as Record<string, string> }, previewData: orders });
    renderForm();
    const section = screen.getByRole('region', { name: 'Leave out lines where' });
    const add = within(section).getByRole('button', { name: 'Leave these lines out' }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    fireEvent.change(within(section).getByLabelText('Column'), { target: { value: 'Financial Status' } });
    const values = within(section).getAllByRole('checkbox').map((box) => document.querySelector(`label[for="${box.id}"]`)?.textContent);
    expect(values).toEqual(['paid (40 lines)', 'refunded (3 lines)', 'voided (1 line)', 'partially_refunded (2 lines)']);
    fireEvent.click(within(section).getByLabelText('refunded (3 lines)'));
    fireEvent.click(within(section).getByLabelText('voided (1 line)'));
    fireEvent.change(within(section).getByLabelText('A blank cell means the same as the line above with the same'), { target: { value: 'Name' } });
    expect(add.disabled).toBe(false);
    fireEvent.click(add);
    expect(useImportStore.getState().draft?.skip_rows_where).toEqual([refunds]);
    expect((within(section).getByLabelText('Column') as HTMLSelectElement).value).toBe('');

    // A column holding too many different values to list says so.
    fireEvent.change(within(section).getByLabelText('Column'), { target: { value: 'Lineitem sku' } });
    expect(within(section).getByTestId('leave-out-no-values').textContent).toBe("Lineitem sku holds too many different values in the file's first records to choose from.");
  });

  it("says how many lines each filter left out under a finished import's counts", () => {
    const counts = { rows: 4, written: 4, inserted: 4, updated: 0, duplicates: 0, filtered: 5, filtered_by: [{ column: 'Financial Status', values: ['refunded', 'voided'], lines: 5 }] };
    useImportStore.setState({ result: { message: 'Imported 4 rows into sales.', import_id: 'i', entity_type: 'sales', table: 'sales', counts, duration_ms: 40 } });
    renderForm();
    expect(screen.getByTestId('result-filtered').textContent).toBe('5');
    expect(screen.getByTestId('import-filtered').textContent).toBe('5 lines whose Financial Status is refunded or voided were left out.');
  });

  it("says a saved filter's column is not in this file, so it can be removed before the import is refused", () => {
    useImportStore.setState({ entityType: 'sales', draft: { field_mappings: {}, skip_rows_where: [{ column: 'Order status', values: ['storniert'] }] }, previewData: orders });
    renderForm();
    expect(screen.getByTestId('row-filter-not-in-file').textContent).toBe('This file has no such column: the import would be refused. Remove the filter or choose another file.');
  });
});
