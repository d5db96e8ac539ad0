// The import form rendered from store state: the entity and mapping choosers, the raw header,
// one dropdown of the file's columns per target field, the preview's problem cells, Import
// disabled while a required target has no column, the row errors with row and column and "and N
// more", the success counts, the upload and server progress, and the file input reachable by its
// label (keyboard users tab to it); why the form left a saved mapping, a draft's column the file
// lacks shown as such, Import disabled for a file the preview could not read, and "What does each
// value mean?" for values outside a column's choices; Name needed only to add new products (a stock take imports without it);
// the Decimal separator chosen as detected, a point or a comma, with what the file showed; the
// quantities the import will read in the unit their cells wrote; a product read from two columns
// ("Product, followed by": Square's Item + Price Point Name); blank cells repeating the line above
// with the same Handle (a Shopify Products export, ADR 0195 F3).
import { mappingFromProposal } from '@stockwise/contract';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { PreviewFileResponse } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import type { ImportLogSummary } from '../../api/import.ts';
import { initialImportState, useImportStore } from '../../stores/import.ts';
import { ImportForm } from './ImportForm.tsx';
import { columnsNotImported } from './preview.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});

beforeEach(() => useImportStore.setState(initialImportState));
afterEach(cleanup);

const mapping = { description: 'A till export.', entities: { sales: { field_mappings: { product_id: 'StockCode', date: 'Date' } } } };
const previewData: PreviewFileResponse = {
  format: 'csv',
  separator: ';',
  header: ['Date', 'StockCode', 'Qty'],
  raw_rows: [['01/12/2025', 'A-1', '3'], ['02/12/2025', 'ZZZ', '2']],
  targets: [
    { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
    { field: 'date', label: 'Date', type: 'DateField', required: true },
    { field: 'quantity', label: 'Quantity', type: 'IntegerField', required: true },
  ],
  proposed_mapping: { product_id: 'StockCode', date: 'Date', quantity: 'Qty' },
  date_format: { detected: 'dd/mm/yyyy', ambiguous: false, candidates: ['dd/mm/yyyy'] },
  decimal_separator: { detected: null, used: '.' },
  rows: [
    { row: 1, values: { product_id: 'A-1', date: '2025-12-01' }, problems: {} },
    { row: 2, values: { product_id: 'ZZZ', date: '2025-12-02' }, problems: { product_id: 'product code ZZZ does not exist.' } },
  ],
};
const renderForm = () => render(<MantineProvider><ImportForm /></MantineProvider>);

describe('import form', () => {
  it('shows the entity, the chosen mapping and its description, and the file input by its label', () => {
    useImportStore.setState({ entities: [{ name: 'products', repeatedKeys: 'last' }, { name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', availableMappings: [{ name: 'till', description: 'A till export.' }], selectedMapping: 'till', mappingConfig: mapping });
    renderForm();
    expect((screen.getByLabelText('Import into') as HTMLSelectElement).value).toBe('sales');
    expect((screen.getByLabelText('Mapping') as HTMLSelectElement).value).toBe('till');
    expect(screen.getByTestId('mapping-description').textContent).toBe('A till export.');
    expect(screen.getByLabelText('File (CSV, JSON or .xlsx)').getAttribute('type')).toBe('file');
  });

  it("names entities and mappings in a shop's words, keeping their values", () => {
    const entities = ['products', 'sales', 'stock_snapshots', 'deliveries', 'supplier_returns'].map((name) => ({ name, repeatedKeys: 'last' as const }));
    useImportStore.setState({ entities, entityType: 'stock_snapshots', availableMappings: [{ name: 'product_catalogue_csv', description: null }, { name: 'shop_export_json', description: null }], selectedMapping: 'product_catalogue_csv', mappingConfig: null });
    renderForm();
    const entity = screen.getByLabelText('Import into') as HTMLSelectElement;
    expect([...entity.options].map((option) => [option.value, option.textContent])).toEqual([
      ['products', 'Products'],
      ['sales', 'Sales'],
      ['stock_snapshots', 'Stock counts'],
      ['deliveries', 'Deliveries'],
      ['supplier_returns', 'Supplier returns'],
    ]);
    const mappingChoice = screen.getByLabelText('Mapping') as HTMLSelectElement;
    expect([...mappingChoice.options].map((option) => [option.value, option.textContent])).toEqual([
      ['', 'Build a new mapping'],
      ['product_catalogue_csv', 'Product catalogue CSV'],
      ['shop_export_json', 'Shop export JSON'],
    ]);
  });

  it("builds the mapping on the file's header: raw rows, a column per target, problem cells, Import disabled while a required field has no column", () => {
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'till.csv'), draft: mapping.entities.sales, previewData });
    renderForm();
    const raw = screen.getByTestId('raw-preview');
    expect(within(raw).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Date', 'StockCode', 'Qty']);
    expect(within(raw).getByText('The file as it is (CSV): header and first records · separator ;')).toBeTruthy();
    const product = screen.getByLabelText('Product (product_id) · by product_code · required') as HTMLSelectElement;
    expect(product.value).toBe('StockCode');
    expect([...product.options].map((option) => option.textContent)).toEqual(['(no column)', 'Date', 'StockCode', 'Qty']);
    expect((screen.getByLabelText('Quantity (quantity) · required') as HTMLSelectElement).value).toBe('');
    expect(screen.getByLabelText('Date format', { exact: false })).toBeTruthy();
    expect(screen.getByText('Read as dd/mm/yyyy')).toBeTruthy();
    expect((screen.getByLabelText('Rows with the same key') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe("Entity's setting (Add them up)");
    expect(screen.getByLabelText('Create products for unknown codes')).toBeTruthy();
    const rows = screen.getAllByTestId('preview-row');
    expect(rows[1]!.querySelector('[data-column="product_id"]')!.textContent).toBe('ZZZproduct code ZZZ does not exist.');
    expect(screen.getByTestId('preview-summary').textContent).toBe('1 value in these records will be refused by the server.');
    expect(screen.getByTestId('unmapped-required').textContent).toBe('Choose a column for the required fields: quantity.');
    expect((screen.getByRole('button', { name: 'Import file' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("offers 'Product, followed by' once a column is chosen, shows a Square export's Item + Price Point Name, and counts the joined column as imported (ADR 0193)", () => {
    const square: PreviewFileResponse = {
      ...previewData,
      header: ['Date', 'Item', 'Qty', 'Price Point Name', 'SKU'],
      raw_rows: [['28/11/2026', 'Flat White', '1', 'Large', '']],
      proposed_mapping: { product_id: 'Item', date: 'Date', quantity: 'Qty' },
      proposed_joined_columns: { product_id: ['Price Point Name'] },
      rows: [{ row: 2, values: { product_id: 'Flat White Large', date: '2026-11-28', quantity: 1 }, problems: {} }],
    };
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'items.csv'), draft: { field_mappings: { product_id: 'Item', date: 'Date', quantity: 'Qty' }, joined_columns: { product_id: ['Price Point Name'] } }, previewData: square });
    renderForm();
    const followedBy = screen.getByLabelText('Product, followed by') as HTMLSelectElement;
    expect(followedBy.value).toBe('Price Point Name');
    // The field's own column is not offered again; "nothing" is.
    expect([...followedBy.options].map((option) => option.textContent)).toEqual(['(nothing: the column alone)', 'Date', 'Qty', 'Price Point Name', 'SKU']);
    // Only the code and name fields take a second column: not the date or the quantity.
    expect(screen.queryByLabelText('Date, followed by')).toBeNull();
    expect(within(screen.getByTestId('preview')).getAllByRole('columnheader')[1]!.textContent).toBe('product_id← Item + Price Point Name');
    expect(screen.getByText(/Not imported: the column SKU —/)).toBeTruthy();
  });

  it("writes a decimal column's numbers with the column's places, as the Data grid does", () => {
    const products: PreviewFileResponse = {
      ...previewData,
      header: ['Artikelnr', 'EK-Preis', 'Gewicht'],
      raw_rows: [['GT-1001', '1,5', '0,125']],
      targets: [
        { field: 'product_code', label: 'Product code', type: 'CharField', required: true },
        { field: 'unit_cost', label: 'Unit cost', type: 'DecimalField', required: false, decimal_places: 2 },
        { field: 'weight', label: 'Weight', type: 'DecimalField', required: false, decimal_places: 3 },
        { field: 'lead_time_days', label: 'Lead time', type: 'IntegerField', required: false },
      ],
      proposed_mapping: { product_code: 'Artikelnr', unit_cost: 'EK-Preis', weight: 'Gewicht', lead_time_days: null },
      rows: [{ row: 2, values: { product_code: 'GT-1001', unit_cost: 1.5, weight: 0.125, lead_time_days: 14 }, problems: {} }],
    };
    useImportStore.setState({ entities: [{ name: 'products', repeatedKeys: 'last' }], entityType: 'products', selectedFile: new File(['x'], 'artikel.csv'), draft: { field_mappings: { product_code: 'Artikelnr', unit_cost: 'EK-Preis', weight: 'Gewicht', lead_time_days: 'Lieferzeit' } }, previewData: products });
    renderForm();
    const [row] = screen.getAllByTestId('preview-row');
    const cell = (field: string) => row!.querySelector(`[data-column="${field}"]`)!.textContent;
    expect([cell('unit_cost'), cell('weight'), cell('lead_time_days')]).toEqual(['1.50', '0.125', '14']);
  });

  it("asks how the file writes decimals: detected, point or comma, with what the file showed; the choice goes into the draft", () => {
    // A deli's kilos, all like 1.250: no figure shows the separator, and 2.450 could be a German till's 2450.
    const kilos: PreviewFileResponse = { ...previewData, raw_rows: [['01/12/2025', 'A-1', '1.250'], ['02/12/2025', 'A-1', '2.450']] };
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', draft: mapping.entities.sales, previewData: kilos });
    const { rerender } = renderForm();
    const separator = () => screen.getByLabelText('Decimal separator') as HTMLSelectElement;
    const description = () => document.getElementById(separator().getAttribute('aria-describedby') ?? '')?.textContent;
    expect([...separator().options].map((option) => [option.value, option.textContent])).toEqual([
      ['', 'Detect from the file'],
      ['.', 'Point (1.25)'],
      [',', 'Comma (1,25)'],
    ]);
    expect(separator().selectedOptions[0]?.textContent).toBe('Detect from the file');
    expect(description()).toBe('Detected: not shown by the file');
    expect(screen.queryByRole('checkbox', { name: /decimal/i })).toBeNull();

    fireEvent.change(separator(), { target: { value: '.' } });
    expect(useImportStore.getState().draft).toEqual({ ...mapping.entities.sales, decimal_separator: '.' });
    expect(separator().selectedOptions[0]?.textContent).toBe('Point (1.25)');
    fireEvent.change(separator(), { target: { value: ',' } });
    expect(useImportStore.getState().draft).toEqual({ ...mapping.entities.sales, decimal_separator: ',' });
    fireEvent.change(separator(), { target: { value: '' } });
    expect(useImportStore.getState().draft).toEqual(mapping.entities.sales);

    // What the file showed is said whatever is chosen; a draft made from it starts with it (mappingFromProposal).
    useImportStore.setState({ draft: { ...mapping.entities.sales, decimal_separator: ',' }, previewData: { ...kilos, decimal_separator: { detected: ',', used: ',' } } });
    rerender(<MantineProvider><ImportForm /></MantineProvider>);
    expect([separator().value, description()]).toEqual([',', 'Detected: comma (1,25)']);
    useImportStore.setState({ draft: { ...mapping.entities.sales, decimal_separator: '.' }, previewData: { ...kilos, decimal_separator: { detected: '.', used: '.' } } });
    rerender(<MantineProvider><ImportForm /></MantineProvider>);
    expect([separator().value, description()]).toEqual(['.', 'Detected: point (1.25)']);
  });

  it("shows the day proposed from a stock count's title line as the date of every line, and where it came from", () => {
    const titled: PreviewFileResponse = {
      ...previewData,
      header: ['Artikel', 'Bestand'],
      header_row: 3,
      skipped_rows: [{ row: 1, text: 'Inventur 30.11.2025' }],
      targets: [previewData.targets[0]!, { field: 'date', label: 'Date', type: 'DateField', required: true }, { field: 'stock_level', label: 'Stock level', type: 'IntegerField', required: true }],
      proposed_mapping: { product_id: 'Artikel', date: null, stock_level: 'Bestand' },
      proposed_field_values: { date: '2025-11-30' },
      rows: [{ row: 4, values: { product_id: 'A-1', date: '2025-11-30', stock_level: 3 }, problems: {} }],
    };
    useImportStore.setState({ entities: [{ name: 'stock_snapshots', repeatedKeys: 'refuse' }], entityType: 'stock_snapshots', selectedFile: new File(['x'], 'inventur.csv'), draft: { field_mappings: { product_id: 'Artikel', stock_level: 'Bestand' }, field_values: { date: '2025-11-30' } }, previewData: titled });
    renderForm();
    expect((screen.getByLabelText('Date (date) · required') as HTMLSelectElement).selectedOptions[0]?.textContent).toBe('Same date for all lines');
    const day = screen.getByLabelText('Date of every line', { exact: false }) as HTMLInputElement;
    expect(day.value).toBe('2025-11-30');
    expect(screen.getByText('Read from the file\'s title “Inventur 30.11.2025”: change it if that is not the day.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Import file' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('offers a stock take without names: Name is needed only to add new products, and Import is enabled without it', () => {
    const stockTake: PreviewFileResponse = {
      ...previewData,
      header: ['Artikelnr', 'Bezeichnung', 'Bestand gezählt'],
      raw_rows: [['GAR-1012', 'Kompost', '17']],
      targets: [
        { field: 'product_code', label: 'Product code', type: 'CharField', required: true },
        { field: 'name', label: 'Name', type: 'CharField', required: false, needed_for_new_rows: true },
        { field: 'current_stock', label: 'Current stock', type: 'IntegerField', required: false },
      ],
      proposed_mapping: { product_code: 'Artikelnr', name: 'Bezeichnung', current_stock: 'Bestand gezählt' },
      rows: [{ row: 2, values: { product_code: 'GAR-1012', current_stock: 17 }, problems: {} }],
    };
    const draft = { field_mappings: { product_code: 'Artikelnr', current_stock: 'Bestand gezählt' } };
    useImportStore.setState({ entities: [{ name: 'products', repeatedKeys: 'last' }], entityType: 'products', selectedFile: new File(['x'], 'inventur.csv'), draft, previewData: stockTake });
    renderForm();
    const name = screen.getByLabelText('Name (name)', { exact: false }) as HTMLSelectElement;
    expect(name.value).toBe('');
    expect(screen.getByText("Needed only to add new products. Without it, the file's codes update the stored products (only the fields mapped), and a code none has is refused.")).toBeTruthy();
    expect(screen.queryByText('Choose the column that holds this field.')).toBeNull();
    expect(screen.queryByTestId('unmapped-required')).toBeNull();
    expect((screen.getByRole('button', { name: 'Import file' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('lists the refused rows and how many more there are', () => {
    useImportStore.setState({ error: 'The file arrived and was read, but nothing was imported: the rows below were refused.', errorDetail: '130 rows could not be imported; nothing was written.', rowErrors: [{ row: 4, field: 'current_stock', column: 'Stock', reason: 'Expected a whole number.' }, { row: 9, field: null, reason: 'The record is not an object.' }], rowErrorCount: 130 });
    renderForm();
    const alert = screen.getByTestId('import-error');
    expect(within(alert).getByText('The file arrived and was read, but nothing was imported: the rows below were refused.')).toBeTruthy();
    expect(within(alert).getAllByTestId('row-error').map((row) => row.textContent)).toEqual(['4current_stockStockExpected a whole number.', '9The record is not an object.']);
    expect(within(alert).getByTestId('row-errors-more').textContent).toBe('and 128 more');
  });

  it("counts the lines an entry names for its key and a row's several fields once, so it announces no more than there are", () => {
    const rowErrors = [
      { row: 2, field: 'product_id', column: 'Artikelnummer', reason: 'product code GS-1009 does not exist. The same goes for 4 more lines below with the same product and date.', lines: 5 },
      { row: 9, field: 'quantity', column: 'Menge', reason: 'A value is required.' },
      { row: 9, field: 'date', column: 'Datum', reason: '31.02.2026 is not a real date.' },
    ];
    useImportStore.setState({ error: 'The rows below were refused.', rowErrors, rowErrorCount: 6 });
    const { unmount } = renderForm();
    expect(within(screen.getByTestId('import-error')).getAllByTestId('row-error')).toHaveLength(3);
    expect(screen.queryByTestId('row-errors-more')).toBeNull();
    unmount();
    useImportStore.setState({ rowErrorCount: 9 });
    renderForm();
    expect(screen.getByTestId('row-errors-more').textContent).toBe('and 3 more');
  });

  it('shows the counts of a finished import: repeated keys named for what became of them, products created only when the mapping creates them', () => {
    const products = { message: 'Imported 12345 rows into products: 12000 inserted, 345 updated.', import_id: 'i', entity_type: 'products', table: 'products', counts: { rows: 12345, written: 12343, inserted: 12000, updated: 343, duplicates: 2 }, repeated_keys: 'last' as const, duration_ms: 2500 };
    useImportStore.setState({ result: products });
    const { unmount } = renderForm();
    const counts = () => screen.getAllByTestId(/^result-/).map((value) => [value.previousElementSibling?.textContent, value.textContent]);
    expect(counts()).toEqual([['Rows read', '12,345'], ['Rows written', '12,343'], ['New', '12,000'], ['Updated', '343'], ['Replaced by a later row', '2']]);
    expect(screen.getByText('2.5 s')).toBeTruthy();
    unmount();
    useImportStore.setState({ result: { ...products, counts: { rows: 12, written: 12, inserted: 12, updated: 0, duplicates: 0 } } });
    const again = renderForm();
    expect(counts().map(([label]) => label)).toEqual(['Rows read', 'Rows written', 'New', 'Updated']);
    again.unmount();
    const till = { ...products, entity_type: 'sales', table: 'sales', counts: { rows: 190091, written: 111729, inserted: 111729, updated: 0, duplicates: 78362, created_references: 3, matched_by_name: 259, skipped: 41, empty_skipped: 11, totals_skipped: 1 }, repeated_keys: 'sum' as const };
    useImportStore.setState({ result: till });
    renderForm();
    expect(counts().slice(4)).toEqual([["Added into another row's total", '78,362'], ['Products created', '3'], ['Lines without a product code, known by their name', '259'], ['Lines skipped (no product code)', '41'], ['Lines skipped (nothing to import)', '11'], ['Totals lines skipped', '1']]);
  });

  it("offers to skip lines without a product code, and marks the previewed lines the import will skip", () => {
    const skipping = { ...mapping.entities.sales, skip_rows_without_code: true };
    const withGiftCard: PreviewFileResponse = { ...previewData, rows: [previewData.rows[0] as PreviewFileResponse['rows'][number], { row: 2, values: { product_id: '', date: '2025-12-02' }, problems: {}, skipped: true }] };
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'orders.csv'), draft: skipping, previewData: withGiftCard });
    renderForm();
    expect((screen.getByLabelText('Skip lines without a product code') as HTMLInputElement).checked).toBe(true);
    const rows = screen.getAllByTestId('preview-row');
    expect(rows.map((row) => row.hasAttribute('data-skipped'))).toEqual([false, true]);
    expect(within(rows[1] as HTMLElement).getByTestId('row-skipped').textContent).toBe('Skipped: no product code');
    expect(screen.getByTestId('preview-summary').textContent).toBe('Every previewed value fits its column.');
  });

  it("says a date order undecided in the file's head with the date format, not as values the server will refuse (ADR 0193's amendment, F3)", () => {
    const note = 'dates like 2/12/2025 could be day-first (dd/mm/yyyy) or month-first (mm/dd/yyyy): every day in the 1,081 lines read is 12 or less. The import reads the whole file and takes the order from its first day past the 12th; shown here day-first, as your browser writes dates. To be sure, choose the date format in the mapping.';
    const undecided: PreviewFileResponse = { ...previewData, date_format: { detected: null, ambiguous: true, candidates: ['dd/mm/yyyy', 'mm/dd/yyyy'], undecided_in_lines_read: note }, rows: [{ row: 1, values: { product_id: '85123A', date: '2025-12-02' }, problems: {} }] };
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'items.csv'), draft: mapping.entities.sales, previewData: undecided });
    renderForm();
    expect(screen.getByTestId('date-order-undecided').textContent).toBe(note);
    expect(screen.getByTestId('preview-summary').textContent).toBe('Every previewed value fits its column.');
  });

  it("says how many of the file's lines have no product code where it proposes skipping them; the hint where it counted none", () => {
    const proposed: PreviewFileResponse = { ...previewData, blank_code_lines: 3, proposed_skip_rows_without_code: true };
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'orders.csv'), draft: { ...mapping.entities.sales, skip_rows_without_code: true }, previewData: proposed });
    const { unmount } = renderForm();
    const skip = () => screen.getByLabelText('Skip lines without a product code') as HTMLInputElement;
    expect(skip().checked).toBe(true);
    const description = () => document.getElementById(skip().getAttribute('aria-describedby') ?? '')?.textContent;
    expect(description()).toBe('3 of the lines read have no product code (gift cards, discounts, shipping) beside lines that have one: they are skipped and counted, not refused.');
    unmount();
    useImportStore.setState({ draft: mapping.entities.sales, previewData });
    renderForm();
    expect(description()).toBe("A web shop's gift cards, shipping and custom items have none; they are counted, not imported");
  });

  it('names the first lines without a product code that the server read, a product sold without a SKU among them (ADR 0195)', () => {
    const named: PreviewFileResponse = { ...previewData, blank_code_lines: 5, blank_code_names: ['Chunky Cable Cardigan - M', 'Gift Card - £25', 'Canvas Tote Bag'], proposed_skip_rows_without_code: true };
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'orders_export_1.csv'), draft: { ...mapping.entities.sales, skip_rows_without_code: true }, previewData: named });
    const { unmount } = renderForm();
    const skip = () => screen.getByLabelText('Skip lines without a product code') as HTMLInputElement;
    const description = () => document.getElementById(skip().getAttribute('aria-describedby') ?? '')?.textContent;
    expect(description()).toBe('5 of the lines read have no product code (“Chunky Cable Cardigan - M”, “Gift Card - £25”, “Canvas Tote Bag”, …) beside lines that have one: they are skipped and counted, not refused.');
    unmount();
    // Every line named: no "…"; one line: the singular.
    useImportStore.setState({ previewData: { ...named, blank_code_lines: 1, blank_code_names: ['Gift Card - £25'] } });
    renderForm();
    expect(description()).toBe('1 of the lines read has no product code (“Gift Card - £25”) beside lines that have one: it is skipped and counted, not refused.');
  });

  it("counts a Shopify export's image-only lines (nothing mapped in them) apart from its variants without a SKU, both in the singular and the plural (ADR 0195 F5)", () => {
    const both: PreviewFileResponse = { ...previewData, blank_code_lines: 6, blank_code_names: ['Chunky Cable Cardigan', 'Canvas Tote Bag', 'Gift Card'], empty_lines: 11, proposed_skip_rows_without_code: true };
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'products_export_1.csv'), draft: { ...mapping.entities.sales, skip_rows_without_code: true }, previewData: both });
    const { unmount } = renderForm();
    const skip = () => screen.getByLabelText('Skip lines without a product code') as HTMLInputElement;
    const description = () => document.getElementById(skip().getAttribute('aria-describedby') ?? '')?.textContent;
    expect(description()).toBe(
      "6 of the lines read have no product code (“Chunky Cable Cardigan”, “Canvas Tote Bag”, “Gift Card”, …) beside lines that have one: they are skipped and counted, not refused. 11 lines have nothing to import (every column mapped is blank, as a shop's image-only lines): they are skipped and counted apart.",
    );
    unmount();
    // Only empty lines, and one of them: their sentence alone, in the singular.
    const { blank_code_lines: _lines, blank_code_names: _names, ...onlyEmpty } = both;
    useImportStore.setState({ previewData: { ...onlyEmpty, empty_lines: 1 } });
    renderForm();
    expect(description()).toBe("1 line has nothing to import (every column mapped is blank, as a shop's image-only line): it is skipped and counted apart.");
  });

  it('says under the preview how many quantities the import will read in the unit their cells wrote; nothing for a file of plain numbers', () => {
    const message = "2 quantities of products without a unit will be read in the unit their cells wrote (kg): set the products' Unit on the Data screen so that files in other units are converted.";
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'till.csv'), draft: mapping.entities.sales, previewData: { ...previewData, units_as_written: { cells: 2, units: ['kg'], message } } });
    renderForm();
    expect(screen.getByTestId('preview-units-as-written').textContent).toBe(message);
    cleanup();
    useImportStore.setState({ previewData });
    renderForm();
    expect(screen.queryByTestId('preview-units-as-written')).toBeNull();
  });

  it("marks a till's Subtotal line as the totals line the import skips", () => {
    const subtotal: PreviewFileResponse = { ...previewData, rows: [previewData.rows[0] as PreviewFileResponse['rows'][number], { row: 2, values: { product_id: 'Subtotal', date: '' }, problems: {}, totals_line: 'Subtotal' }] };
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'pos.csv'), draft: mapping.entities.sales, previewData: subtotal });
    renderForm();
    const rows = screen.getAllByTestId('preview-row');
    expect(rows.map((row) => row.hasAttribute('data-skipped'))).toEqual([false, true]);
    expect(within(rows[1] as HTMLElement).getByTestId('row-totals-line').textContent).toBe('Skipped: a totals line (Subtotal)');
  });

  it('says which defaults the import filled in, as a warning under the counts; none when there were none', () => {
    const result = { message: 'Imported 12 rows into products: 12 inserted, 0 updated.', import_id: 'i', entity_type: 'products', table: 'products', counts: { rows: 12, inserted: 12, updated: 0, duplicates: 0 }, duration_ms: 40 };
    useImportStore.setState({ result: { ...result, warnings: [{ field: 'lead_time_days', rows: 12, value: '14', message: '12 rows had no lead time: 14 days used (the default)' }, { field: 'unit_cost', rows: 3, value: '0', message: '3 rows had no unit cost: stored as 0, and left out of stock values as having no cost until one is imported or typed' }] } });
    const { unmount } = renderForm();
    const warnings = within(screen.getByTestId('import-result')).getByTestId('import-warnings');
    expect(within(warnings).getByText('Filled in by defaults (imported, but check these)')).toBeTruthy();
    expect(within(warnings).getAllByTestId('import-warning').map((item) => item.textContent)).toEqual(['12 rows had no lead time: 14 days used (the default)', '3 rows had no unit cost: stored as 0, and left out of stock values as having no cost until one is imported or typed']);
    unmount();
    useImportStore.setState({ result });
    renderForm();
    expect(screen.queryByTestId('import-warnings')).toBeNull();
  });

  it("offers the import's undo, labelled with its file, when it replaced its mapping's earlier sales; not otherwise", async () => {
    const result = { message: 'Imported 5 rows into sales: 1 inserted, 4 updated.', import_id: 'i', entity_type: 'sales', table: 'sales', counts: { rows: 5, inserted: 1, updated: 4, duplicates: 0 }, duration_ms: 40, sales_written: { product_days: 5, first_day: '2026-11-01', last_day: '2026-11-14' } };
    useImportStore.setState({ resultFileName: 'till2.csv', result: { ...result, replaced_sales: { mapping_name: 'Till sales', product_days: 3, first_day: '2026-11-01', last_day: '2026-11-02' } } });
    const { unmount } = renderForm();
    fireEvent.click(within(screen.getByTestId('import-result')).getByRole('button', { name: 'Undo the import of till2.csv' }));
    expect((await screen.findByTestId('undo-confirm')).textContent).toBe('Put back the sales of 5 product-days (1–14 Nov 2026) as they were before this file.');
    unmount();
    // Undone from the Import log meanwhile: the answer no longer offers it.
    const logged: ImportLogSummary = {
      id: 'i',
      operationType: 'import',
      status: 'success',
      fileName: 'till2.csv',
      mappingName: 'Till sales',
      entityType: 'sales',
      details: {},
      errorMessage: null,
      progress: { rows_done: 5, bytes_done: 80, bytes_total: 80 },
      createdAt: '2026-12-05T10:00:00.000Z',
      finishedAt: '2026-12-05T10:00:01.000Z',
      undoable: false,
      undone: { at: '2026-12-05T10:05:00.000Z', by: 'sam', message: 'Put back the sales of 5 product-days.' },
    };
    useImportStore.setState({ logs: [logged] });
    const undoneInLog = renderForm();
    expect(within(screen.getByTestId('import-result')).queryByRole('button', { name: /^Undo/ })).toBeNull();
    undoneInLog.unmount();
    useImportStore.setState({ logs: [] });
    useImportStore.setState({ result });
    renderForm();
    expect(screen.queryByRole('button', { name: /^Undo/ })).toBeNull();
  });

  it('says which stock counts change nothing on hand, under the counts; nothing when all did', () => {
    const notice = "8 of 9 counts are older than the stock recorded on 4 Dec 2026 (from the product list or the Data screen); on hand stays as recorded then. Count again or import the counts with today's date.";
    const result = { message: 'Imported 9 rows into stock counts: 9 inserted, 0 updated.', import_id: 'i', entity_type: 'stock_snapshots', table: 'stock_snapshots', counts: { rows: 9, inserted: 9, updated: 0, duplicates: 0 }, duration_ms: 40 };
    useImportStore.setState({ result: { ...result, notices: [notice] } });
    const { unmount } = renderForm();
    const notices = within(screen.getByTestId('import-result')).getByTestId('import-notices');
    expect(within(notices).getByText('Imported, but on hand did not change')).toBeTruthy();
    expect(within(notices).getAllByTestId('import-notice').map((item) => item.textContent)).toEqual([notice]);
    unmount();
    useImportStore.setState({ result });
    renderForm();
    expect(screen.queryByTestId('import-notices')).toBeNull();
  });

  it('shows upload and server progress while uploading', () => {
    useImportStore.setState({ isUploading: true, uploadProgress: { loaded: 50, total: 200 }, serverProgress: { rowsDone: 1500, bytesDone: 40, bytesTotal: 200 } });
    renderForm();
    const progress = screen.getByTestId('upload-progress');
    expect(within(progress).getByText('Uploading: 25%')).toBeTruthy();
    expect(within(progress).getByTestId('server-progress').textContent).toBe('Server: 1,500 records processed');
    expect(screen.getByRole('button', { name: 'Cancel import' })).toBeTruthy();
  });

  it('says why it left the saved mapping, and shows a column the file lacks as such rather than as no column', () => {
    const notice = "Mapping till has nothing for sales: the columns are proposed from the file's header.";
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'till.csv'), mappingNotice: notice, draft: { field_mappings: { ...mapping.entities.sales.field_mappings, quantity: 'Units' } }, previewData });
    renderForm();
    expect(screen.getByTestId('mapping-notice').textContent).toBe(notice);
    const quantity = screen.getByLabelText('Quantity (quantity) · required') as HTMLSelectElement;
    expect(quantity.value).toBe('Units');
    expect(quantity.selectedOptions[0]?.textContent).toBe("Units (not in the file's first records)");
  });

  it("asks what the values outside a column's choices mean, one labelled select each, and Apply puts the answers in the mapping", async () => {
    const choices = ['scheduled', 'received', 'cancelled'];
    const deliveries: PreviewFileResponse = {
      ...previewData,
      header: ['Artikel', 'Status'],
      targets: [{ field: 'status', label: 'Status', type: 'CharField', required: false }],
      proposed_mapping: { status: 'Status' },
      rows: [{ row: 2, values: { status: 'geplant' }, problems: { status: 'geplant is not one of the allowed values: scheduled, received, cancelled.' } }],
      refused_choices: [{ field: 'status', values: ['geplant', 'storniert'], choices }],
    };
    // The import's refusal adds a value met after the rows the preview read; one the draft already maps is not asked again.
    const draft = { field_mappings: { status: 'Status' }, value_maps: { status: { erhalten: 'received' } } };
    useImportStore.setState({ entityType: 'deliveries', draft, previewData: deliveries, refusedChoices: [{ field: 'status', values: ['Storniert', 'Erhalten', 'verloren'], choices }] });
    renderForm();
    const editor = screen.getByRole('region', { name: 'What does each value mean?' });
    const selectLabels = () => within(screen.getByTestId('value-meanings')).getAllByRole('combobox').map((select) => document.querySelector(`label[for="${select.id}"]`)?.textContent);
    expect(selectLabels()).toEqual([
      '“geplant” in Status means',
      '“storniert” in Status means',
      '“verloren” in Status means',
    ]);
    const geplant = within(editor).getByLabelText('“geplant” in Status means') as HTMLSelectElement;
    expect([...geplant.options].map((option) => option.textContent)).toEqual(['(not said: the row is refused)', ...choices]);
    const apply = within(editor).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.change(geplant, { target: { value: 'scheduled' } });
    fireEvent.change(within(editor).getByLabelText('“storniert” in Status means'), { target: { value: 'cancelled' } });
    expect(apply.disabled).toBe(false);
    fireEvent.click(apply);
    expect(useImportStore.getState().draft).toEqual({ field_mappings: { status: 'Status' }, value_maps: { status: { erhalten: 'received', geplant: 'scheduled', storniert: 'cancelled' } } });
    expect(selectLabels()).toEqual(['“verloren” in Status means']);
  });

  it("asks what a yes-or-no column's words mean as Yes or No, and Apply puts true or false in the mapping", () => {
    const products: PreviewFileResponse = {
      ...previewData,
      header: ['SKU', 'Product Type'],
      targets: [{ field: 'not_stocked', label: 'Not stocked (a service or fee)', type: 'BooleanField', required: false }],
      proposed_mapping: { not_stocked: 'Product Type' },
      rows: [{ row: 2, values: { not_stocked: 'Rental' }, problems: { not_stocked: 'Expected true or false (yes or no, 1 or 0), found "Rental".' } }],
      refused_choices: [{ field: 'not_stocked', values: ['Rental'], choices: ['true', 'false'] }],
    };
    const draft = { field_mappings: { not_stocked: 'Product Type' }, value_maps: { not_stocked: { Service: 'true' } } };
    useImportStore.setState({ entityType: 'products', draft, previewData: products, refusedChoices: [] });
    renderForm();
    const editor = screen.getByRole('region', { name: 'What does each value mean?' });
    const rental = within(editor).getByLabelText('“Rental” in Not stocked (a service or fee) means') as HTMLSelectElement;
    expect([...rental.options].map((option) => [option.value, option.textContent])).toEqual([
      ['', '(not said: the row is refused)'],
      ['true', 'Yes (true)'],
      ['false', 'No (false)'],
    ]);
    fireEvent.change(rental, { target: { value: 'true' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Apply' }));
    expect(useImportStore.getState().draft).toEqual({ field_mappings: { not_stocked: 'Product Type' }, value_maps: { not_stocked: { Service: 'true', Rental: 'true' } } });
  });

  it('says a Shopify Products export\'s blank cells repeat the line above with the same Handle, proposed so and turned off and on by a checkbox (ADR 0195 F3)', () => {
    const products: PreviewFileResponse = { ...previewData, header: ['Handle', 'Title', 'Option1 Value', 'Vendor', 'Variant SKU'], proposed_mapping: { product_code: 'Variant SKU', name: 'Title', supplier: 'Vendor' }, proposed_joined_columns: { name: ['Option1 Value'] }, proposed_fill_down_by: 'Handle' };
    const draft = mappingFromProposal(products);
    expect(draft).toMatchObject({ fill_down_by: 'Handle', joined_columns: { name: ['Option1 Value'] } });
    useImportStore.setState({ entityType: 'products', draft, previewData: products });
    renderForm();
    const fillDown = () => screen.getByLabelText('Blank cells repeat the line above with the same Handle') as HTMLInputElement;
    // A native checkbox: reached with Tab, toggled with Space.
    expect(fillDown().type).toBe('checkbox');
    expect(fillDown().tabIndex).not.toBe(-1);
    expect(fillDown().checked).toBe(true);
    // The Handle is read, not listed among the columns not imported.
    expect(columnsNotImported(products, draft)).toEqual([]);
    fireEvent.click(fillDown());
    expect(useImportStore.getState().draft && 'fill_down_by' in useImportStore.getState().draft!).toBe(false);
    expect(fillDown().checked).toBe(false);
    fireEvent.click(fillDown());
    expect(useImportStore.getState().draft?.fill_down_by).toBe('Handle');
    cleanup();
    // A file without one: no such line.
    useImportStore.setState({ draft: mapping.entities.sales, previewData });
    renderForm();
    expect(screen.queryByTestId('fill-down')).toBeNull();
  });

  it("offers to match a Shopify order's lines without a SKU to products by their name, checked as proposed, a native checkbox; the sentence says how many were matched and names those still skipped (ADR 0195 F4)", () => {
    const orders: PreviewFileResponse = {
      ...previewData,
      header: ['Date', 'StockCode', 'Qty', 'Lineitem name'],
      proposed_new_products: { name: 'Lineitem name' },
      proposed_blank_code_by_name: true,
      proposed_skip_rows_without_code: true,
      blank_code_lines: 341,
      blank_code_matched: 259,
      blank_code_names: ['Gift Card - £50', 'Gift Card - £25'],
    };
    const draft = mappingFromProposal(orders);
    expect(draft).toMatchObject({ blank_code_by_name: true, new_products: { name: 'Lineitem name' }, skip_rows_without_code: true });
    expect(draft.create_missing_products).toBeUndefined();
    // An answer naming no such column (Try the endpoint's): the option alone would be refused, so the draft has none.
    const { proposed_new_products: _column, ...withoutColumn } = orders;
    expect(mappingFromProposal(withoutColumn).blank_code_by_name).toBeUndefined();
    // The name column is read: not among the columns not imported.
    expect(columnsNotImported(orders, draft)).toEqual([]);
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', draft, previewData: orders });
    renderForm();
    const byName = () => screen.getByLabelText('Match lines without a product code to products by their name (Lineitem name)') as HTMLInputElement;
    // A native checkbox: reached with Tab, toggled with Space.
    expect(byName().type).toBe('checkbox');
    expect(byName().tabIndex).not.toBe(-1);
    expect(byName().checked).toBe(true);
    const describedBy = (input: HTMLInputElement) => document.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent;
    expect(describedBy(byName())).toContain('“Chunky Cable Cardigan - M” is the product Chunky Cable Cardigan M');
    const skip = screen.getByLabelText('Skip lines without a product code') as HTMLInputElement;
    expect(describedBy(skip)).toBe('259 of the lines read have no product code and are matched to products by their name: they are imported. 82 other lines without one (“Gift Card - £50”, “Gift Card - £25”, …) are skipped and counted, not refused.');
    fireEvent.click(byName());
    const off = useImportStore.getState().draft;
    expect(off && ('blank_code_by_name' in off || 'new_products' in off)).toBe(false);
    expect(byName().checked).toBe(false);
    fireEvent.click(byName());
    expect(useImportStore.getState().draft).toMatchObject({ blank_code_by_name: true, new_products: { name: 'Lineitem name' } });
    // Creating products turned on and off again keeps the name column the lines are matched by.
    fireEvent.click(screen.getByLabelText('Create products for unknown codes'));
    fireEvent.click(screen.getByLabelText('Create products for unknown codes'));
    expect(useImportStore.getState().draft?.new_products).toEqual({ name: 'Lineitem name' });
    cleanup();
    // A file that offers nothing (no line known by its name): no checkbox.
    useImportStore.setState({ draft: mapping.entities.sales, previewData });
    renderForm();
    expect(screen.queryByTestId('blank-code-by-name')).toBeNull();
  });

  it("says a products file's variants without a SKU take their name as their code, in the singular too (ADR 0195 F4)", () => {
    const products: PreviewFileResponse = {
      ...previewData,
      header: ['Handle', 'Title', 'Variant SKU'],
      targets: [
        { field: 'product_code', label: 'Product code', type: 'CharField', required: true },
        { field: 'name', label: 'Name', type: 'CharField', required: true },
      ],
      proposed_mapping: { product_code: 'Variant SKU', name: 'Title' },
      proposed_blank_code_by_name: true,
      proposed_skip_rows_without_code: true,
      blank_code_lines: 4,
      blank_code_matched: 4,
      empty_lines: 11,
    };
    const draft = mappingFromProposal(products);
    expect(draft.blank_code_by_name).toBe(true);
    expect(draft.new_products).toBeUndefined();
    useImportStore.setState({ entityType: 'products', draft, previewData: products });
    const { unmount } = renderForm();
    const asCode = screen.getByLabelText('Lines without a product code take their name as their code') as HTMLInputElement;
    expect(asCode.checked).toBe(true);
    const skip = () => screen.getByLabelText('Skip lines without a product code') as HTMLInputElement;
    const description = () => document.getElementById(skip().getAttribute('aria-describedby') ?? '')?.textContent;
    expect(description()).toBe("4 of the lines read have no product code and take their name as their code: they are imported. 11 lines have nothing to import (every column mapped is blank, as a shop's image-only lines): they are skipped and counted apart.");
    unmount();
    useImportStore.setState({ previewData: { ...products, blank_code_lines: 2, blank_code_matched: 1, blank_code_names: ['Gift Card'], empty_lines: 0 } });
    renderForm();
    expect(description()).toBe('1 of the lines read has no product code and takes its name as its code: it is imported. 1 other line without one (“Gift Card”) is skipped and counted, not refused.');
  });

  it('with Create products for unknown codes, asks which columns name new products, pre-filled from the proposal and clearable, and lists the products the file would create', async () => {
    const orders: PreviewFileResponse = {
      ...previewData,
      header: ['Date', 'StockCode', 'Qty', 'Lineitem name', 'Product type'],
      proposed_new_products: { name: 'Lineitem name', category: 'Product type' },
    };
    useImportStore.setState({ entityType: 'sales', draft: { field_mappings: { product_id: 'StockCode', date: 'Date', quantity: 'Qty' } }, previewData: orders });
    const { rerender } = renderForm();
    expect(screen.queryByLabelText('Name new products from')).toBeNull();
    fireEvent.click(screen.getByLabelText('Create products for unknown codes'));
    expect(useImportStore.getState().draft).toMatchObject({ create_missing_products: true, new_products: { name: 'Lineitem name', category: 'Product type' } });
    const name = (await screen.findByLabelText('Name new products from')) as HTMLSelectElement;
    expect(name.value).toBe('Lineitem name');
    expect([...name.options].map((option) => option.textContent)).toEqual(['No column (the code)', 'Date', 'StockCode', 'Qty', 'Lineitem name', 'Product type']);
    const category = screen.getByLabelText('Category of new products from') as HTMLSelectElement;
    expect(category.value).toBe('Product type');
    fireEvent.change(category, { target: { value: '' } });
    expect(useImportStore.getState().draft?.new_products).toEqual({ name: 'Lineitem name' });

    useImportStore.setState({ previewData: { ...orders, new_products: [{ code: 'SKU-1', values: { name: 'Rose Candle', category: null } }, { code: 'SKU-2', values: { name: 'SKU-2', category: null } }], new_product_count: 3 } });
    rerender(<MantineProvider><ImportForm /></MantineProvider>);
    expect(screen.getByTestId('new-products-preview').textContent).toBe('3 new products would be created: SKU-1 Rose Candle, SKU-2 and 1 more');

    fireEvent.click(screen.getByLabelText('Create products for unknown codes'));
    const draft = useImportStore.getState().draft;
    expect(draft && 'create_missing_products' in draft).toBe(false);
    expect(draft && 'new_products' in draft).toBe(false);
    expect(screen.queryByLabelText('Name new products from')).toBeNull();
  });

  it('offers "Same date for all lines" for a file without a date column: a labelled date input, today unless changed, and Import enabled with it', async () => {
    const count: PreviewFileResponse = {
      ...previewData,
      header: ['Artikelnummer', 'Bezeichnung', 'Bestand'],
      targets: [
        { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
        { field: 'date', label: 'Date', type: 'DateField', required: true },
        { field: 'stock_level', label: 'Stock level', type: 'IntegerField', required: true },
      ],
      proposed_mapping: { product_id: 'Artikelnummer', date: null, stock_level: 'Bestand' },
      rows: [{ row: 2, values: { product_id: 'GAR-1012', stock_level: 12 }, problems: { date: 'No column is mapped to this key field.' } }],
    };
    // No file chosen while the draft is edited: the preview is not asked again, the draft's change is what is checked.
    useImportStore.setState({ entityType: 'stock_snapshots', draft: { field_mappings: { product_id: 'Artikelnummer', stock_level: 'Bestand' } }, previewData: count });
    const { rerender } = renderForm();
    const date = screen.getByLabelText('Date (date) · required') as HTMLSelectElement;
    expect([...date.options].map((option) => option.textContent)).toEqual(['(no column)', 'Artikelnummer', 'Bezeichnung', 'Bestand', 'Same date for all lines']);
    expect(screen.getByText('No date column in the file (a stock count, a day\'s till export)? Choose “Same date for all lines”.')).toBeTruthy();
    // Only dates take one value for all lines.
    expect([...(screen.getByLabelText('Stock level (stock_level) · required') as HTMLSelectElement).options].map((option) => option.textContent)).not.toContain('Same date for all lines');

    fireEvent.change(date, { target: { value: date.options[4]!.value } });
    const today = new Date();
    const todayIso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    expect(useImportStore.getState().draft).toEqual({ field_mappings: { product_id: 'Artikelnummer', stock_level: 'Bestand' }, field_values: { date: todayIso } });
    const day = (await screen.findByLabelText('Date of every line', { exact: false })) as HTMLInputElement;
    expect([day.type, day.value, day.max, day.required]).toEqual(['date', todayIso, todayIso, true]);
    fireEvent.change(day, { target: { value: '2026-11-30' } });
    expect(useImportStore.getState().draft?.field_values).toEqual({ date: '2026-11-30' });
    // A half-typed day ('' from the input) keeps the last whole one.
    fireEvent.change(day, { target: { value: '' } });
    expect(useImportStore.getState().draft?.field_values).toEqual({ date: '2026-11-30' });

    useImportStore.setState({ selectedFile: new File(['x'], 'inventur.csv'), previewData: { ...count, rows: [{ row: 2, values: { product_id: 'GAR-1012', stock_level: 12, date: '2026-11-30' }, problems: {} }] } });
    rerender(<MantineProvider><ImportForm /></MantineProvider>);
    expect(screen.queryByTestId('unmapped-required')).toBeNull();
    expect((screen.getByRole('button', { name: 'Import file' }) as HTMLButtonElement).disabled).toBe(false);
    const header = within(screen.getByTestId('preview')).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(header).toContain('datesame for all lines');
    expect(screen.getAllByTestId('preview-row')[0]!.querySelector('[data-column="date"]')!.textContent).toBe('2026-11-30');

    // A saved daily feed's `today` shows as today's day.
    useImportStore.setState({ draft: { field_mappings: { product_id: 'Artikelnummer', stock_level: 'Bestand' }, field_values: { date: 'today' } } });
    rerender(<MantineProvider><ImportForm /></MantineProvider>);
    expect((screen.getByLabelText('Date of every line', { exact: false }) as HTMLInputElement).value).toBe(todayIso);

    // Choosing a column again drops the one value: the server refuses a field both mapped and valued.
    fireEvent.change(screen.getByLabelText('Date (date) · required'), { target: { value: 'Bezeichnung' } });
    expect(useImportStore.getState().draft).toEqual({ field_mappings: { product_id: 'Artikelnummer', stock_level: 'Bestand', date: 'Bezeichnung' } });
  });

  it('asks nothing when no value was refused as outside a column\'s choices', () => {
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['x'], 'till.csv'), draft: mapping.entities.sales, previewData });
    renderForm();
    expect(screen.queryByTestId('value-meanings')).toBeNull();
  });

  it('keeps Import disabled for a file the preview could not read, with the reason shown', () => {
    useImportStore.setState({ selectedFile: new File(['%PDF'], 'report.pdf'), draft: mapping.entities.sales, previewData: null, error: 'Failed to generate preview.', errorDetail: 'Upload a .csv, .json or .xlsx file.' });
    renderForm();
    expect(screen.getByTestId('import-error-detail').textContent).toBe('Upload a .csv, .json or .xlsx file.');
    expect((screen.getByRole('button', { name: 'Import file' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("warns that importing replaces the sales the mapping imported before on the file's days, and offers a new mapping name, labelled, the next one free", () => {
    const replaces_sales = { mapping_name: 'Till sales', product_days: 12, first_day: '2026-11-01', last_day: '2026-11-14', message: "The mapping 'Till sales' already imported sales for 1–14 Nov 2026 (12 product-days), days this file holds too: …" };
    const tillSales = { entities: { sales: mapping.entities.sales } };
    const state = { entities: [{ name: 'sales', repeatedKeys: 'sum' as const }], entityType: 'sales', selectedFile: new File(['x'], 'till-2.csv'), selectedMapping: 'Till sales', mappingConfig: tillSales, draft: mapping.entities.sales };
    useImportStore.setState({ ...state, availableMappings: [{ name: 'Till sales', description: null }, { name: 'Till sales (2)', description: null }], previewData: { ...previewData, replaces_sales } });
    const { rerender } = renderForm();
    const warning = screen.getByTestId('replaces-sales');
    expect(within(warning).getByText('Importing replaces sales this mapping imported before')).toBeTruthy();
    expect(screen.getByTestId('replaces-sales-message').textContent).toBe(replaces_sales.message);
    expect((within(warning).getByLabelText('New mapping name (for another till)', { exact: false }) as HTMLInputElement).value).toBe('Till sales (3)');
    expect(within(warning).getByRole('button', { name: 'Save as a new mapping' })).toBeTruthy();
    // Columns changed by hand import under "your column choices": the warning was of another name's sales.
    useImportStore.setState({ draft: { field_mappings: { product_id: 'StockCode' } } });
    rerender(<MantineProvider><ImportForm /></MantineProvider>);
    expect(screen.queryByTestId('replaces-sales')).toBeNull();
    // No sales of the mapping on the file's days: no warning.
    useImportStore.setState({ ...state, previewData });
    rerender(<MantineProvider><ImportForm /></MantineProvider>);
    expect(screen.queryByTestId('replaces-sales')).toBeNull();
  });
});
