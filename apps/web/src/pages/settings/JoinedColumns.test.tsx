// A name read from several columns on the Import screen (ADR 0195, amendment: Shopify's Title +
// Option1 Value + Option2 Value + Option3 Value), against a loopback server playing the file's
// preview: every joined column shown in order with the first line's value, a joined column removed
// and one added by keyboard (a focused button's Enter is its click; a focused select's arrows fire
// its change), each sent as the mapping's joined_columns on the next preview, the focus kept on the
// joined columns when the builder is shown again, and none added past the contract's three; a sales
// line's name (new_products.name) joined with its variation beside "match by name" (ADR 0201 F6).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { mappingFromProposal, MAX_JOINED_COLUMNS, type EntityMapping, type PreviewFileResponse } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { sendJson, type Loopback } from '../../test/loopback.ts';
import { encodeFormsAsNode, startLoopbackApi } from '../../test/loopback-api.ts';
import { arrowTo, pressEnterOn, select } from '../../test/keyboard.ts';
import { initialImportState, useImportStore } from '../../stores/import.ts';
import { ImportForm } from './ImportForm.tsx';

const header = ['Handle', 'Title', 'Option1 Value', 'Option2 Value', 'Option3 Value', 'Vendor', 'Variant SKU'];
/** The generated export's first variant, its parts by column. */
const firstLine: Record<string, string> = { Title: 'Linen Shirt', 'Option1 Value': 'XS', 'Option2 Value': 'White', 'Option3 Value': '', 'Variant SKU': 'LS-XS-WHT', Vendor: 'Coastline' };

/** What the preview answers for a mapping: the name joined one space apart, as the server reads it. */
function previewOf(mapping: EntityMapping): PreviewFileResponse {
  const name = [mapping.field_mappings['name']!, ...(mapping.joined_columns?.['name'] ?? [])].map((column) => firstLine[column] ?? '').filter(Boolean).join(' ');
  return {
    format: 'csv',
    separator: ',',
    header,
    raw_rows: [['linen-shirt', 'Linen Shirt', 'XS', 'White', '', 'Coastline', 'LS-XS-WHT']],
    targets: [
      { field: 'product_code', label: 'Product code', type: 'CharField', required: true },
      { field: 'name', label: 'Name', type: 'CharField', required: true },
      { field: 'supplier', label: 'Supplier', type: 'CharField', required: false },
    ],
    proposed_mapping: { product_code: 'Variant SKU', name: 'Title', supplier: 'Vendor' },
    proposed_joined_columns: { name: ['Option1 Value', 'Option2 Value', 'Option3 Value'] },
    date_format: { detected: null, ambiguous: false, candidates: [] },
    decimal_separator: { detected: null, used: '.' },
    rows: [{ row: 2, values: { product_code: 'LS-XS-WHT', name, supplier: 'Coastline' }, problems: {} }],
  };
}

const salesHeader = ['Date', 'Item', 'Qty', 'Price Point Name', 'SKU'];
/** A gift shop's sales line without a SKU, its parts by column (ADR 0201 F6). */
const saleLine: Record<string, string> = { Date: '2026-12-05', Item: 'Greeting Card', Qty: '2', 'Price Point Name': 'Regular', SKU: '' };

/** The sales file's preview: the line's name as the mapping reads it (its new_products column and the columns joined to it, less the values left out of them). */
function salesPreviewOf(mapping: EntityMapping): PreviewFileResponse {
  const column = mapping.new_products?.['name'];
  const leftOut = mapping.joined_leave_out?.['new_products.name'] ?? [];
  const parts = column ? [saleLine[column] ?? '', ...(mapping.joined_columns?.['new_products.name'] ?? []).map((part) => saleLine[part] ?? '').filter((value) => !leftOut.includes(value))] : [];
  const lineName = column ? parts.filter(Boolean).join(' ') : null;
  // The library named the product as Square does (ADR 0201 F8).
  const matched = lineName === 'Greeting Card' && mapping.blank_code_by_name ? 1 : 0;
  return {
    format: 'csv',
    separator: ',',
    header: salesHeader,
    raw_rows: [salesHeader.map((name) => saleLine[name] ?? '')],
    targets: [
      { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
      { field: 'date', label: 'Date', type: 'DateField', required: true },
      { field: 'quantity', label: 'Quantity', type: 'IntegerField', required: true },
    ],
    proposed_mapping: { product_id: 'SKU', date: 'Date', quantity: 'Qty' },
    proposed_joined_columns: { 'new_products.name': ['Price Point Name'] },
    proposed_joined_leave_out: { 'new_products.name': ['Regular'] },
    proposed_new_products: { name: 'Item' },
    proposed_blank_code_by_name: true,
    proposed_skip_rows_without_code: true,
    blank_code_lines: 1,
    ...(matched ? { blank_code_matched: matched } : { blank_code_names: [lineName ?? 'Greeting Card'] }),
    date_format: { detected: 'iso', ambiguous: false, candidates: ['iso'] },
    decimal_separator: { detected: null, used: '.' },
    rows: [{ row: 2, values: { product_id: matched ? 'Greeting Card' : null, date: '2026-12-05', quantity: 2, ...(lineName ? { 'new_products.name': lineName } : {}) }, problems: {} }],
  };
}

let loopback: Loopback;
let plainForms: () => void;
/** The mapping of each preview asked for, in order. */
let sent: EntityMapping[];

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopbackApi((request, body, response) => {
    const mapping = /name="mapping_config"\r\n\r\n([^\r]*)\r\n/.exec(body)?.[1];
    if (request.url !== '/api/records/preview-file/' || !mapping) return sendJson(response, 404, { detail: 'not played here' });
    const parsed = JSON.parse(mapping) as EntityMapping;
    sent.push(parsed);
    sendJson(response, 200, 'product_id' in parsed.field_mappings ? salesPreviewOf(parsed) : previewOf(parsed));
  });
  plainForms = encodeFormsAsNode();
});
afterAll(async () => {
  plainForms();
  await loopback.close();
});

beforeEach(() => {
  sent = [];
  useImportStore.setState(initialImportState);
});
afterEach(cleanup);

/** The Import screen on the products file with the name read from Title and `joined`. */
function showWith(joined: string[]) {
  const draft: EntityMapping = { field_mappings: { product_code: 'Variant SKU', name: 'Title', supplier: 'Vendor' }, joined_columns: { name: joined }, fill_down_by: 'Handle' };
  useImportStore.setState({ entities: [{ name: 'products', repeatedKeys: 'last' }], entityType: 'products', selectedFile: new File(['Handle,Title\n'], 'products_export_1.csv'), draft, previewData: previewOf(draft) });
  render(<MantineProvider><ImportForm /></MantineProvider>);
}

describe('a name joined from several columns', () => {
  it('shows every joined column in order with the first line as the server joined it, and offers no fourth', () => {
    expect(MAX_JOINED_COLUMNS).toBe(3);
    showWith(['Option1 Value', 'Option2 Value', 'Option3 Value']);
    expect(screen.getByTestId('joined-name').textContent).toBe('Name reads Title + Option1 Value + Option2 Value + Option3 Value, one space apart: “Linen Shirt XS White” on the first line.');
    expect([select('Name, followed by'), select('Name, part 3'), select('Name, part 4')].map((element) => element.value)).toEqual(['Option1 Value', 'Option2 Value', 'Option3 Value']);
    // Each offers the file's columns but the name's own and those the other parts read.
    expect([...select('Name, part 3').options].map((option) => option.value)).toEqual(['Handle', 'Option2 Value', 'Vendor', 'Variant SKU']);
    expect(screen.getAllByRole('button', { name: /^Remove .* from Name$/ }).map((button) => button.getAttribute('aria-label'))).toEqual(['Remove Option1 Value from Name', 'Remove Option2 Value from Name', 'Remove Option3 Value from Name']);
    expect(screen.queryByRole('button', { name: 'Add a column to Name' })).toBeNull();
    expect(screen.getByText('At most 3 columns follow the field\'s own.')).toBeTruthy();
    // The preview's column says the same.
    expect(screen.getByTestId('preview').textContent).toContain('← Title + Option1 Value + Option2 Value + Option3 Value');
    // The product code reads one column: nothing joined is shown for it.
    expect(screen.queryByTestId('joined-product_code')).toBeNull();
  });

  it('removes a joined column by keyboard, sends the rest in order, and keeps the focus on the name', async () => {
    showWith(['Option1 Value', 'Option2 Value', 'Option3 Value']);
    pressEnterOn('Remove Option2 Value from Name');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.joined_columns).toEqual({ name: ['Option1 Value', 'Option3 Value'] });
    expect(sent[0]!.field_mappings['name']).toBe('Title');
    await waitFor(() => expect(screen.getByTestId('joined-name').textContent).toBe('Name reads Title + Option1 Value + Option3 Value, one space apart: “Linen Shirt XS” on the first line.'));
    // Back under the name: on Add, now that one more column may follow.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add a column to Name' })));
    expect(screen.queryByRole('combobox', { name: 'Name, part 4' })).toBeNull();
  });

  it('adds a column by keyboard: nothing is read until one is chosen, then it is sent last on the next preview', async () => {
    showWith(['Option1 Value']);
    expect(screen.getByTestId('joined-name').textContent).toBe('Name reads Title + Option1 Value, one space apart: “Linen Shirt XS” on the first line.');
    pressEnterOn('Add a column to Name');
    // The new part's select takes the focus, empty; the columns already read are not offered.
    await waitFor(() => expect(document.activeElement).toBe(select('Name, part 3')));
    expect(select('Name, part 3').value).toBe('');
    expect([...select('Name, part 3').options].map((option) => option.textContent)).toEqual(['(choose a column)', 'Handle', 'Option2 Value', 'Option3 Value', 'Vendor', 'Variant SKU']);
    expect(screen.queryByRole('button', { name: 'Add a column to Name' })).toBeNull();
    expect(sent).toEqual([]);
    arrowTo('Name, part 3', 'Option2 Value');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.joined_columns).toEqual({ name: ['Option1 Value', 'Option2 Value'] });
    await waitFor(() => expect(screen.getByTestId('joined-name').textContent).toBe('Name reads Title + Option1 Value + Option2 Value, one space apart: “Linen Shirt XS White” on the first line.'));
    await waitFor(() => expect(document.activeElement).toBe(select('Name, part 3')));
    expect(select('Name, part 3').value).toBe('Option2 Value');
  });

  it('changes one joined column in place, and the last one removed leaves the column alone, as "(nothing)" does', async () => {
    showWith(['Option1 Value', 'Option2 Value']);
    arrowTo('Name, followed by', 'Option3 Value');
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.joined_columns).toEqual({ name: ['Option3 Value', 'Option2 Value'] });
    await waitFor(() => expect(select('Name, followed by').value).toBe('Option3 Value'));
    arrowTo('Name, followed by', '');
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.joined_columns).toEqual({ name: ['Option2 Value'] });
    await waitFor(() => expect(select('Name, followed by').value).toBe('Option2 Value'));
    pressEnterOn('Remove Option2 Value from Name');
    await waitFor(() => expect(sent).toHaveLength(3));
    // The contract refuses an empty list: the field's entry goes.
    expect(sent[2]!.joined_columns).toBeUndefined();
    await waitFor(() => expect(document.activeElement).toBe(select('Name, followed by')));
    expect(select('Name, followed by').value).toBe('');
    expect(screen.queryByTestId('joined-name')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add a column to Name' })).toBeNull();
  });
});

describe("a sales line's name joined with its variation (ADR 0201 F6)", () => {
  const lineName = "A line's product name";
  /** The Import screen on the gift shop's sales file, the draft as the proposal starts it. */
  function showSales() {
    const proposal = salesPreviewOf({ field_mappings: {}, new_products: { name: 'Item' }, joined_columns: { 'new_products.name': ['Price Point Name'] }, joined_leave_out: { 'new_products.name': ['Regular'] }, blank_code_by_name: true });
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['Date,Item\n'], 'items-sales-detail.csv'), draft: mappingFromProposal(proposal), previewData: proposal });
    render(<MantineProvider><ImportForm /></MantineProvider>);
  }
  const byName = () => screen.getByRole('checkbox', { name: /^Match lines without a product code to products by their name/ }) as HTMLInputElement;

  it('shows the proposed Item followed by Price Point Name beside the match by name, as the server read the first line', () => {
    showSales();
    expect(byName().checked).toBe(true);
    expect(byName().labels?.[0]?.textContent).toBe('Match lines without a product code to products by their name (Item + Price Point Name)');
    expect(screen.getByTestId('joined-new_products.name').textContent).toBe(`${lineName} reads Item + Price Point Name, one space apart, leaving out “Regular”: “Greeting Card” on the first line.`);
    expect(select(`${lineName}, followed by`).value).toBe('Price Point Name');
    // The line's own column is not offered to follow it.
    expect([...select(`${lineName}, followed by`).options].map((option) => option.value)).toEqual(['', 'Date', 'Qty', 'Price Point Name', 'SKU']);
  });

  it('edits the joined column by keyboard, each change sent as joined_columns of new_products.name, the focus kept; matching off takes both away', async () => {
    showSales();
    pressEnterOn(`Remove Price Point Name from ${lineName}`);
    await waitFor(() => expect(sent).toHaveLength(1));
    // The values left out go with the last joined column (the server refuses them alone).
    expect([sent[0]!.new_products, sent[0]!.joined_columns, sent[0]!.joined_leave_out, sent[0]!.blank_code_by_name]).toEqual([{ name: 'Item' }, undefined, undefined, true]);
    await waitFor(() => expect(document.activeElement).toBe(select(`${lineName}, followed by`)));
    expect(screen.queryByTestId('joined-new_products.name')).toBeNull();
    expect(byName().checked).toBe(true);
    expect(byName().labels?.[0]?.textContent).toBe('Match lines without a product code to products by their name (Item)');
    arrowTo(`${lineName}, followed by`, 'Price Point Name');
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.joined_columns).toEqual({ 'new_products.name': ['Price Point Name'] });
    await waitFor(() => expect(screen.getByTestId('joined-new_products.name').textContent).toContain('“Greeting Card Regular” on the first line.'));
    // Offered again, unchecked: joined anew, every part is read.
    expect((screen.getByRole('checkbox', { name: `Leave out “Regular” from ${lineName}` }) as HTMLInputElement).checked).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(select(`${lineName}, followed by`)));
    // Off, the line's name and its joined column go (the server refuses joins to no column); the builder with them.
    byName().focus();
    fireEvent.click(byName());
    await waitFor(() => expect(sent).toHaveLength(3));
    expect([sent[2]!.new_products, sent[2]!.joined_columns, sent[2]!.blank_code_by_name]).toEqual([undefined, undefined, undefined]);
    await waitFor(() => expect(screen.queryByRole('combobox', { name: `${lineName}, followed by` })).toBeNull());
  });
});

describe('"Regular" left out of a joined name (ADR 0201 F8)', () => {
  const lineName = "A line's product name";
  const leaveOut = () => screen.getByRole('checkbox', { name: `Leave out “Regular” from ${lineName}` }) as HTMLInputElement;
  function showSales() {
    const proposal = salesPreviewOf({ field_mappings: {}, new_products: { name: 'Item' }, joined_columns: { 'new_products.name': ['Price Point Name'] }, joined_leave_out: { 'new_products.name': ['Regular'] }, blank_code_by_name: true });
    const draft = mappingFromProposal(proposal);
    useImportStore.setState({ entities: [{ name: 'sales', repeatedKeys: 'sum' }], entityType: 'sales', selectedFile: new File(['Date,Item\n'], 'items-sales-detail.csv'), draft, previewData: proposal });
    render(<MantineProvider><ImportForm /></MantineProvider>);
    return draft;
  }

  it('starts from the proposal: the rule in the sentence and a checked checkbox saying what it leaves out', () => {
    const draft = showSales();
    expect(draft.joined_leave_out).toEqual({ 'new_products.name': ['Regular'] });
    expect(screen.getByTestId('joined-new_products.name').textContent).toBe(`${lineName} reads Item + Price Point Name, one space apart, leaving out “Regular”: “Greeting Card” on the first line.`);
    expect(leaveOut().checked).toBe(true);
    expect(screen.getByText(/^Square names the one variation of an item without options “Regular”/)).toBeTruthy();
  });

  it('is turned off and on again by keyboard, each sent on the next preview, the focus kept on it', async () => {
    showSales();
    // Space on a focused checkbox: the browser clicks it.
    leaveOut().focus();
    expect(document.activeElement).toBe(leaveOut());
    fireEvent.click(leaveOut());
    await waitFor(() => expect(sent).toHaveLength(1));
    expect([sent[0]!.joined_columns, sent[0]!.joined_leave_out]).toEqual([{ 'new_products.name': ['Price Point Name'] }, undefined]);
    await waitFor(() => expect(screen.getByTestId('joined-new_products.name').textContent).toBe(`${lineName} reads Item + Price Point Name, one space apart: “Greeting Card Regular” on the first line.`));
    await waitFor(() => expect(document.activeElement).toBe(leaveOut()));
    expect(leaveOut().checked).toBe(false);
    fireEvent.click(leaveOut());
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]!.joined_leave_out).toEqual({ 'new_products.name': ['Regular'] });
    await waitFor(() => expect(leaveOut().checked).toBe(true));
    await waitFor(() => expect(document.activeElement).toBe(leaveOut()));
    expect(screen.getByTestId('joined-new_products.name').textContent).toContain('leaving out “Regular”: “Greeting Card” on the first line.');
  });

  it('is not offered where nothing is proposed to leave out nor left out: a Shopify name reads every part', () => {
    showWith(['Option1 Value']);
    expect(screen.queryByRole('checkbox', { name: /^Leave out/ })).toBeNull();
  });
});
