// The import form rendered from store state: the field mappings of the products entity, hints on
// preview cells, the row errors with "and N more", the success counts, the upload and server
// progress, and the file input reachable by its label (keyboard users tab to it).
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { TableColumn } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { initialImportState, useImportStore } from '../../stores/import.ts';
import { ImportForm } from './ImportForm.tsx';
import { buildPreview } from './preview.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});

beforeEach(() => useImportStore.setState(initialImportState));
afterEach(cleanup);

const mapping = { description: 'A web shop export.', entities: { products: { field_mappings: { product_code: 'sku', current_stock: 'stock.on_hand' } } } };
const columns: TableColumn[] = [
  { key: 'product_code', label: 'Product code', type: 'CharField', max_length: 8, required: true, read_only: false },
  { key: 'current_stock', label: 'Current stock', type: 'IntegerField', read_only: false },
];
const renderForm = () => render(<MantineProvider><ImportForm /></MantineProvider>);

describe('import form', () => {
  it('shows the chosen mapping, its description and its field mappings', () => {
    useImportStore.setState({ availableMappings: [{ name: 'shop', description: 'A web shop export.' }], selectedMapping: 'shop', mappingConfig: mapping, availableEntities: ['products'] });
    renderForm();
    expect((screen.getByLabelText('Mapping') as HTMLSelectElement).value).toBe('shop');
    expect(screen.getByTestId('mapping-description').textContent).toBe('A web shop export.');
    const rows = within(screen.getByTestId('field-mappings')).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['product_code←sku', 'current_stock←stock.on_hand']);
    expect(screen.getByLabelText('File (CSV or JSON)').getAttribute('type')).toBe('file');
  });

  it('marks the preview cells the server will refuse', () => {
    const previewData = buildPreview('json', [{ sku: 'A-1', stock: { on_hand: 3 } }, { sku: 'TOO-LONG-CODE', stock: { on_hand: 'many' } }, { stock: { on_hand: 1 } }], mapping.entities.products.field_mappings, columns);
    useImportStore.setState({ selectedMapping: 'shop', mappingConfig: mapping, previewData });
    renderForm();
    const rows = screen.getAllByTestId('preview-row');
    expect(rows).toHaveLength(3);
    const cell = (row: number, column: string) => rows[row]!.querySelector(`[data-column="${column}"]`)!;
    expect(cell(0, 'product_code').getAttribute('data-hint')).toBeNull();
    expect(cell(1, 'product_code').textContent).toBe('TOO-LONG-CODELonger than 8 characters');
    expect(cell(1, 'current_stock').textContent).toBe('manyNot a whole number');
    expect(cell(2, 'product_code').textContent).toBe('missingRequired');
    expect(screen.getByTestId('preview-summary').textContent).toBe('3 values in these records will be refused by the server.');
  });

  it('lists the refused rows and how many more there are', () => {
    useImportStore.setState({ error: 'Failed to upload data.', errorDetail: '130 rows could not be imported; nothing was written.', rowErrors: [{ row: 4, field: 'current_stock', reason: 'Expected a whole number.' }, { row: 9, field: null, reason: 'The record is not an object.' }], rowErrorCount: 130 });
    renderForm();
    const alert = screen.getByTestId('import-error');
    expect(within(alert).getByText('Failed to upload data.')).toBeTruthy();
    expect(within(alert).getAllByTestId('row-error').map((row) => row.textContent)).toEqual(['4current_stockExpected a whole number.', '9The record is not an object.']);
    expect(within(alert).getByTestId('row-errors-more').textContent).toBe('and 128 more');
  });

  it('shows the counts of a finished import', () => {
    useImportStore.setState({ result: { message: 'Imported 12345 rows into products: 12000 inserted, 345 updated.', import_id: 'i', entity_type: 'products', table: 'products', counts: { rows: 12345, inserted: 12000, updated: 345, duplicates: 2 }, duration_ms: 2500 } });
    renderForm();
    expect(screen.getByTestId('result-rows').textContent).toBe('12,345');
    expect(screen.getByTestId('result-updated').textContent).toBe('345');
    expect(screen.getByTestId('result-duplicates').textContent).toBe('2');
    expect(screen.getByText('2.5 s')).toBeTruthy();
  });

  it('shows upload and server progress while uploading', () => {
    useImportStore.setState({ isUploading: true, uploadProgress: { loaded: 50, total: 200 }, serverProgress: { rowsDone: 1500, bytesDone: 40, bytesTotal: 200 } });
    renderForm();
    const progress = screen.getByTestId('upload-progress');
    expect(within(progress).getByText('Uploading: 25%')).toBeTruthy();
    expect(within(progress).getByTestId('server-progress').textContent).toBe('Server: 1,500 records processed');
    expect(screen.getByRole('button', { name: 'Cancel import' })).toBeTruthy();
  });
});
