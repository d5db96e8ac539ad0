// An ERP's exports on the Import screen (ADR 0198): "Read the product code in the brackets" for an Odoo order lines
// export's "[FURN_7800] Desk Combination" proposed so, the draft taking it from the proposal, the
// checkbox turning it off and on; no such line for a file of plain codes; a stock count by location added up, the select saying why.
import { mappingFromProposal } from '@stockwise/contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
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

const orderLines: PreviewFileResponse = {
  format: 'csv',
  separator: ',',
  header: ['Order Reference', 'Order Date', 'Product', 'Quantity', 'Status'],
  raw_rows: [['S00001', '10/01/2025 15:42:16', '[PAP_NOTE] Sticky Notes 76x76', '3.00', 'Sales Order']],
  targets: [
    { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
    { field: 'date', label: 'Date', type: 'DateField', required: true },
    { field: 'quantity', label: 'Quantity', type: 'DecimalField', required: true },
  ],
  proposed_mapping: { product_id: 'Product', date: 'Order Date', quantity: 'Quantity' },
  proposed_code_in_brackets: true,
  date_format: { detected: 'mm/dd/yyyy', ambiguous: false, candidates: ['mm/dd/yyyy'] },
  decimal_separator: { detected: '.', used: '.' },
  rows: [{ row: 2, values: { product_id: 'PAP_NOTE', date: '2025-10-01', quantity: 3 }, problems: {} }],
};
const renderForm = () => render(<MantineProvider><ImportForm /></MantineProvider>);
const label = 'Read the product code in the brackets: “[CODE] Name” is CODE';

describe('the product code in brackets', () => {
  it('is proposed for an Odoo order lines export, and turned off and on by a checkbox', () => {
    const draft = mappingFromProposal(orderLines);
    expect(draft.code_in_brackets).toBe(true);
    useImportStore.setState({ entityType: 'sales', draft, previewData: orderLines });
    renderForm();
    const choice = () => screen.getByLabelText(label) as HTMLInputElement;
    // A native checkbox: reached with Tab, toggled with Space.
    expect(choice().type).toBe('checkbox');
    expect(choice().tabIndex).not.toBe(-1);
    expect(choice().checked).toBe(true);
    fireEvent.click(choice());
    expect(useImportStore.getState().draft && 'code_in_brackets' in useImportStore.getState().draft!).toBe(false);
    expect(choice().checked).toBe(false);
    fireEvent.click(choice());
    expect(useImportStore.getState().draft?.code_in_brackets).toBe(true);
  });

  it('is not offered for a file of plain codes', () => {
    const withoutIt: PreviewFileResponse = { ...orderLines, raw_rows: [['S00001', '10/01/2025 15:42:16', 'PAP_NOTE', '3.00', 'Sales Order']] };
    delete withoutIt.proposed_code_in_brackets;
    useImportStore.setState({ entityType: 'sales', draft: mappingFromProposal(withoutIt), previewData: withoutIt });
    renderForm();
    expect(screen.queryByTestId('code-in-brackets')).toBeNull();
    expect(mappingFromProposal(withoutIt).code_in_brackets).toBeUndefined();
  });
});

describe('a stock count by location', () => {
  it('adds up the lines of one product, as proposed, and says why under Rows with the same key', () => {
    const count: PreviewFileResponse = {
      ...orderLines,
      header: ['Product', 'Location', 'Quantity'],
      raw_rows: [['[FURN_7800] Desk Combination', 'WH/Stock', '4.00'], ['[FURN_7800] Desk Combination', 'WH/Stock/Shelf 2', '1.00']],
      proposed_mapping: { product_id: 'Product', date: null, quantity: null },
      counted_by_location: 'Location',
    };
    const draft = mappingFromProposal(count);
    expect(draft.repeated_keys).toBe('sum');
    useImportStore.setState({ entities: [{ name: 'stock_snapshots', repeatedKeys: 'last' }], entityType: 'stock_snapshots', draft, previewData: count });
    renderForm();
    const rows = screen.getByLabelText('Rows with the same key') as HTMLSelectElement;
    expect(rows.value).toBe('sum');
    expect(document.getElementById(rows.getAttribute('aria-describedby')?.split(' ')[0] ?? '')?.textContent).toBe('A product is counted in several places (Location): add them up for its stock');
  });
});
