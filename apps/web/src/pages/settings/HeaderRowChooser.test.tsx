// "Column names are on row [N]" on the Import screen: the row the server found, said as found, the
// rows above it listed as not imported, and a choice of another row going into the draft (keyboard:
// a labelled select).
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
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

const stockTake: PreviewFileResponse = {
  format: 'csv',
  separator: ';',
  header: ['Artikelnummer', 'Bezeichnung', 'Bestand'],
  header_row: 3,
  detected_header_row: 3,
  skipped_rows: [{ row: 1, text: 'Inventur 30.11.2026' }],
  raw_rows: [['HR-100', 'Rosenschere', '7']],
  targets: [
    { field: 'product_code', label: 'Product code', type: 'CharField', required: true },
    { field: 'current_stock', label: 'Current stock', type: 'IntegerField', required: false },
  ],
  proposed_mapping: { product_code: 'Artikelnummer', current_stock: 'Bestand' },
  date_format: { detected: null, ambiguous: false, candidates: [] },
  decimal_separator: { detected: null, used: '.' },
  rows: [{ row: 4, values: { product_code: 'HR-100', current_stock: 7 }, problems: {} }],
};
const renderForm = () => render(<MantineProvider><ImportForm /></MantineProvider>);

describe('column names are on row', () => {
  it('shows the row found in the file and the rows above it that are not imported', () => {
    useImportStore.setState({ selectedFile: new File(['x'], 'inventur.csv'), draft: { field_mappings: { product_code: 'Artikelnummer' } }, previewData: stockTake });
    renderForm();
    const select = screen.getByLabelText('Column names are on row') as HTMLSelectElement;
    expect(select.value).toBe('3');
    expect(select.selectedOptions[0]?.textContent).toBe('3 (found in the file)');
    expect(select.options).toHaveLength(20);
    expect(screen.getByText('Rows above them are not imported: row 1 “Inventur 30.11.2026”')).toBeTruthy();
  });

  it("shows the names found below a till's branch and date labels, both labels listed as not imported", () => {
    const till: PreviewFileResponse = {
      ...stockTake,
      header: ['Artikelnummer', 'Menge'],
      header_row: 4,
      detected_header_row: 4,
      skipped_rows: [{ row: 1, text: 'Filiale · Nord' }, { row: 2, text: 'Datum · 30.11.2026' }],
      raw_rows: [['GAR-1001', '3'], ['GAR-1002', '12']],
      proposed_mapping: { product_code: 'Artikelnummer', current_stock: 'Menge' },
      rows: [{ row: 5, values: { product_code: 'GAR-1001', current_stock: 3 }, problems: {} }],
    };
    useImportStore.setState({ selectedFile: new File(['x'], 'kasse.csv'), draft: { field_mappings: { product_code: 'Artikelnummer' } }, previewData: till });
    renderForm();
    const select = screen.getByLabelText('Column names are on row') as HTMLSelectElement;
    expect(select.value).toBe('4');
    expect(select.selectedOptions[0]?.textContent).toBe('4 (found in the file)');
    expect(screen.getByText('Rows above them are not imported: row 1 “Filiale · Nord”, row 2 “Datum · 30.11.2026”')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Menge' })).toBeTruthy();
  });

  it('sends another row chosen to the draft', () => {
    const setHeaderRow = vi.fn(async () => {});
    useImportStore.setState({ selectedFile: new File(['x'], 'inventur.csv'), draft: { field_mappings: {} }, previewData: stockTake, setHeaderRow });
    renderForm();
    fireEvent.change(screen.getByLabelText('Column names are on row'), { target: { value: '2' } });
    expect(setHeaderRow).toHaveBeenCalledWith(2);
  });

  it('says nothing of skipped rows for names on row 1, and is not offered for JSON', () => {
    useImportStore.setState({ selectedFile: new File(['x'], 'a.csv'), draft: { field_mappings: {} }, previewData: { ...stockTake, header_row: 1, detected_header_row: 1, skipped_rows: undefined } });
    const { unmount } = renderForm();
    expect((screen.getByLabelText('Column names are on row') as HTMLSelectElement).value).toBe('1');
    expect(screen.queryByText(/Rows above them/)).toBeNull();
    unmount();
    useImportStore.setState({ previewData: { ...stockTake, format: 'json', header_row: undefined, detected_header_row: undefined, skipped_rows: undefined } });
    renderForm();
    expect(screen.queryByLabelText('Column names are on row')).toBeNull();
  });
});
