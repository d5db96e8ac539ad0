// @vitest-environment node
// The mapping builder's logic: a saved mapping's entity mapping as a draft, the server's proposal
// as a draft, one target fed from another column or none, options set and dropped, the required
// targets without a column (Import stays disabled), the draft's columns the file lacks, the
// problems counted, the head of a large file sent for the preview, and what a file's values outside
// a column's choices mean (value maps).
import { describe, expect, it } from 'vitest';
import { mappingFromProposal, PREVIEW_MAX_BYTES, type ImportTarget, type PreviewFileResponse } from '@stockwise/contract';
import { previewForm, previewPart } from '../../api/import.ts';
import { blankCodeByNameOptions, columnsMissingFromFile, columnsNotImported, createMissingOptions, draftFrom, entityFieldMappings, joinedLeaveOutOptions, problemCount, localToday, shownColumns, takesOneDate, unmappedRequired, valuesToMap, withColumn, withFieldValue, withJoinedColumns, withOptions, withValueMeanings } from './preview.ts';

const config = { entities: { sales: { field_mappings: { product_id: 'StockCode', date: 'Date' }, date_format: 'dd/mm/yyyy' as const } } };
const targets: ImportTarget[] = [
  { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
  { field: 'date', label: 'Date', type: 'DateField', required: true },
  { field: 'quantity', label: 'Quantity', type: 'IntegerField', required: true },
  { field: 'note', label: 'Note', type: 'TextField', required: false },
];
const preview = (proposed: Record<string, string | null>, problems: Record<string, string>[] = []): PreviewFileResponse => ({
  format: 'csv',
  header: ['Date', 'StockCode', 'Qty'],
  raw_rows: [],
  targets,
  proposed_mapping: proposed,
  date_format: { detected: null, ambiguous: false, candidates: [] },
  decimal_separator: { detected: null, used: '.' },
  rows: problems.map((p, index) => ({ row: index + 1, values: {}, problems: p })),
});

describe('mapping drafts', () => {
  it("takes a saved mapping's entity mapping as a copy, or null for an entity it lacks", () => {
    const draft = draftFrom(config, 'sales');
    expect(draft).toEqual(config.entities.sales);
    draft!.field_mappings['quantity'] = 'Qty';
    expect(config.entities.sales.field_mappings).not.toHaveProperty('quantity');
    expect(draftFrom(config, 'products')).toBeNull();
    expect(draftFrom(null, 'sales')).toBeNull();
    expect(entityFieldMappings(config, 'sales')).toEqual({ product_id: 'StockCode', date: 'Date' });
  });

  it("starts from the server's proposal, leaving unmatched targets out", () => {
    expect(mappingFromProposal(preview({ product_id: 'StockCode', date: 'Date', quantity: 'Qty', note: null }))).toEqual({ field_mappings: { product_id: 'StockCode', date: 'Date', quantity: 'Qty' } });
    const commaFile = { ...preview({ product_id: 'StockCode' }), decimal_separator: { detected: ',' as const, used: ',' as const } };
    expect(mappingFromProposal(commaFile)).toEqual({ field_mappings: { product_id: 'StockCode' }, decimal_separator: ',' });
    // A stock count's day from its title line: the draft dates every line with it, as "Same date for all lines" would.
    const titled = { ...preview({ product_id: 'Artikel', stock_level: 'Bestand', date: null }), proposed_field_values: { date: '2026-11-30' } };
    expect(mappingFromProposal(titled)).toEqual({ field_mappings: { product_id: 'Artikel', stock_level: 'Bestand' }, field_values: { date: '2026-11-30' } });
    expect(unmappedRequired([{ field: 'date', label: 'Date', type: 'DateField', required: true }], mappingFromProposal(titled))).toEqual([]);
    // An Odoo product list's Product Type for not_stocked: the draft keeps the map of its words, so the saved mapping carries it (ADR 0200's amendment).
    const kinds = { ...preview({ product_code: 'Internal Reference', not_stocked: 'Product Type' }), proposed_value_maps: { not_stocked: { Service: 'true', 'Storable Product': 'false' } } };
    expect(mappingFromProposal(kinds)).toEqual({ field_mappings: { product_code: 'Internal Reference', not_stocked: 'Product Type' }, value_maps: { not_stocked: { Service: 'true', 'Storable Product': 'false' } } });
  });

  it("reads a product from two columns (Square's Item + Price Point Name, ADR 0193): proposed, chosen, dropped with its column, shown and counted as read", () => {
    const square = { ...preview({ product_id: 'Item', date: 'Date', quantity: 'Qty' }), header: ['Date', 'Item', 'Qty', 'Price Point Name', 'SKU'], proposed_joined_columns: { product_id: ['Price Point Name'] } };
    const draft = mappingFromProposal(square);
    expect(draft).toEqual({ field_mappings: { product_id: 'Item', date: 'Date', quantity: 'Qty' }, joined_columns: { product_id: ['Price Point Name'] } });
    expect(shownColumns(draft)).toEqual({ product_id: 'Item + Price Point Name', date: 'Date', quantity: 'Qty' });
    expect(columnsNotImported(square, draft)).toEqual(['SKU']);
    expect(columnsMissingFromFile({ ...square, header: ['Date', 'Item', 'Qty'] }, draft)).toEqual({ columns: ['Price Point Name'], required: true });
    // The column alone again; another column joined; the field's column cleared takes its joined column along (the server refuses them alone).
    expect(withJoinedColumns(draft, 'product_id', [])).toEqual({ field_mappings: draft.field_mappings });
    expect(withJoinedColumns(draft, 'product_id', ['SKU']).joined_columns).toEqual({ product_id: ['SKU'] });
    expect(withJoinedColumns(draft, 'note', ['SKU'])).toEqual(draft);
    expect(withColumn(draft, 'product_id', null)).toEqual({ field_mappings: { date: 'Date', quantity: 'Qty' } });
    expect(withColumn(draft, 'product_id', 'SKU').joined_columns).toEqual({ product_id: ['Price Point Name'] });
  });

  it("names a line without a SKU by Item followed by Price Point Name where it is matched by name (ADR 0201 F6): proposed, turned off and on, edited", () => {
    const giftShop = {
      ...preview({ product_id: 'SKU', date: 'Date', quantity: 'Qty' }),
      header: ['Date', 'Item', 'Qty', 'Price Point Name', 'SKU', 'Category'],
      proposed_joined_columns: { 'new_products.name': ['Price Point Name'] },
      proposed_new_products: { name: 'Item', category: 'Category' },
    };
    const lineName = { 'new_products.name': ['Price Point Name'] };
    // Before the library is imported nothing is matched: the draft reads no line name, nor its joined column (the server would refuse it).
    expect(mappingFromProposal(giftShop)).toEqual({ field_mappings: { product_id: 'SKU', date: 'Date', quantity: 'Qty' } });
    const draft = mappingFromProposal({ ...giftShop, proposed_blank_code_by_name: true, proposed_skip_rows_without_code: true });
    expect(draft).toEqual({ field_mappings: { product_id: 'SKU', date: 'Date', quantity: 'Qty' }, skip_rows_without_code: true, blank_code_by_name: true, new_products: { name: 'Item' }, joined_columns: lineName });
    expect(columnsNotImported(giftShop, draft)).toEqual(['Category']);
    // Off, the name and its joined column go; on again, both come back from the proposal.
    const off = withOptions(draft, blankCodeByNameOptions(draft, false, giftShop));
    expect(off).toEqual({ field_mappings: draft.field_mappings, skip_rows_without_code: true });
    expect(withOptions(off, blankCodeByNameOptions(off, true, giftShop))).toEqual(draft);
    // Creating products names them so too; a draft naming its own column keeps its own joins.
    expect(withOptions(off, createMissingOptions(off, true, giftShop)).joined_columns).toEqual(lineName);
    const edited = withJoinedColumns(draft, 'new_products.name', ['Category']);
    expect(edited.joined_columns).toEqual({ 'new_products.name': ['Category'] });
    expect(withOptions(edited, blankCodeByNameOptions(edited, true, giftShop)).joined_columns).toEqual({ 'new_products.name': ['Category'] });
    const { joined_columns: _joined, ...unjoined } = draft;
    expect(withJoinedColumns(draft, 'new_products.name', [])).toEqual(unjoined);
    // No line name read: nothing joined to it.
    expect(withJoinedColumns(off, 'new_products.name', ['Price Point Name'])).toEqual(off);
  });

  it('leaves Square\'s "Regular" out where proposed (ADR 0201 F8): taken with its joins, turned off and on, dropped with them', () => {
    const giftShop = {
      ...preview({ product_id: 'SKU', date: 'Date', quantity: 'Qty' }),
      header: ['Date', 'Item', 'Qty', 'Price Point Name', 'SKU'],
      proposed_joined_columns: { 'new_products.name': ['Price Point Name'] },
      proposed_joined_leave_out: { 'new_products.name': ['Regular'] },
      proposed_new_products: { name: 'Item' },
      proposed_blank_code_by_name: true as const,
    };
    const leftOut = { 'new_products.name': ['Regular'] };
    const draft = mappingFromProposal(giftShop);
    expect([draft.joined_columns, draft.joined_leave_out]).toEqual([{ 'new_products.name': ['Price Point Name'] }, leftOut]);
    // Nothing matched before the library is imported: no line name, so nothing joined nor left out.
    expect(mappingFromProposal({ ...giftShop, proposed_blank_code_by_name: undefined }).joined_leave_out).toBeUndefined();
    // The checkbox: off reads every part, on again leaves the values out.
    const kept = withOptions(draft, joinedLeaveOutOptions(draft, 'new_products.name', null));
    expect(kept.joined_leave_out).toBeUndefined();
    expect(withOptions(kept, joinedLeaveOutOptions(kept, 'new_products.name', ['Regular'])).joined_leave_out).toEqual(leftOut);
    // Stays with the columns still joined; goes with the last of them, with the name's column, and with matching off.
    expect(withJoinedColumns(draft, 'new_products.name', ['SKU']).joined_leave_out).toEqual(leftOut);
    expect(withJoinedColumns(draft, 'new_products.name', []).joined_leave_out).toBeUndefined();
    const off = withOptions(draft, blankCodeByNameOptions(draft, false, giftShop));
    expect(off.joined_leave_out).toBeUndefined();
    // On again, both come back from the proposal.
    expect(withOptions(off, blankCodeByNameOptions(off, true, giftShop))).toEqual(draft);
    const library = { field_mappings: { product_code: 'SKU', name: 'Item Name' }, joined_columns: { name: ['Variation Name'] }, joined_leave_out: { name: ['Regular'] } };
    expect(withColumn(library, 'name', null)).toEqual({ field_mappings: { product_code: 'SKU' } });
  });

  it('feeds a target from a column or from none, and sets or drops options', () => {
    const draft = config.entities.sales;
    expect(withColumn(draft, 'quantity', 'Qty').field_mappings).toEqual({ product_id: 'StockCode', date: 'Date', quantity: 'Qty' });
    expect(withColumn(draft, 'date', null).field_mappings).toEqual({ product_id: 'StockCode' });
    expect(withOptions(draft, { decimal_separator: ',', create_missing_products: true })).toEqual({ ...draft, decimal_separator: ',', create_missing_products: true });
    expect(withOptions(draft, { date_format: undefined })).toEqual({ field_mappings: draft.field_mappings });
  });

  it('lists the required targets without a column, and counts the problem cells', () => {
    expect(unmappedRequired(targets, config.entities.sales).map((t) => t.field)).toEqual(['quantity']);
    expect(unmappedRequired(targets, null).map((t) => t.field)).toEqual(['product_id', 'date', 'quantity']);
    expect(problemCount(preview({}, [{ product_id: 'product code X does not exist.' }, {}, { date: 'a', quantity: 'b' }]).rows)).toBe(3);
  });

  it('gives a date one value for all lines instead of its column (and its value map), counts it as filled, and drops it for a column again', () => {
    const mapped = { field_mappings: { product_id: 'StockCode', date: 'Date', quantity: 'Qty' }, value_maps: { date: { heute: '2026-11-30' } } };
    const valued = withFieldValue(mapped, 'date', '2026-11-30');
    expect(valued).toEqual({ field_mappings: { product_id: 'StockCode', quantity: 'Qty' }, field_values: { date: '2026-11-30' } });
    expect(unmappedRequired(targets, valued)).toEqual([]);
    expect(withColumn(valued, 'date', 'Date')).toEqual({ field_mappings: { product_id: 'StockCode', quantity: 'Qty', date: 'Date' } });
    expect(withColumn(valued, 'date', null)).toEqual({ field_mappings: { product_id: 'StockCode', quantity: 'Qty' } });
    expect(unmappedRequired(targets, withColumn(valued, 'date', null)).map((target) => target.field)).toEqual(['date']);
    expect(targets.filter(takesOneDate).map((target) => target.field)).toEqual(['date']);
    expect(localToday(new Date(2026, 0, 5, 23, 30))).toBe('2026-01-05');
  });

  it("lists the draft's columns the file lacks, and whether a required field reads one", () => {
    const file = preview({});
    expect(columnsMissingFromFile(file, { field_mappings: { product_id: 'StockCode', date: 'Date', quantity: 'Qty' } })).toEqual({ columns: [], required: false });
    expect(columnsMissingFromFile(file, { field_mappings: { product_id: 'StockCode', date: 'Date', note: 'Remark' } })).toEqual({ columns: ['Remark'], required: false });
    expect(columnsMissingFromFile(file, { field_mappings: { product_id: 'product_code', date: 'date', note: 'Remark' } })).toEqual({ columns: ['product_code', 'date', 'Remark'], required: true });
    expect(columnsMissingFromFile(file, null)).toEqual({ columns: [], required: false });
  });

  it("names the file's columns that nothing of the draft reads: not imported", () => {
    const file = preview({});
    expect(columnsNotImported(file, { field_mappings: { product_id: 'StockCode', date: 'Date' } })).toEqual(['Qty']);
    expect(columnsNotImported(file, { field_mappings: { product_id: 'StockCode', date: 'Date', quantity: 'Qty' } })).toEqual([]);
    expect(columnsNotImported(file, { field_mappings: { product_id: 'StockCode' }, skip_rows_where: [{ column: 'Qty', values: ['0'] }], new_products: { name: 'Date' } })).toEqual([]);
    expect(columnsNotImported({ ...file, format: 'json' }, { field_mappings: {} })).toEqual([]);
    expect(columnsNotImported(file, null)).toEqual([]);
  });

  it("adds what a file's values mean to the draft's value maps, and drops a field's map when it loses its column", () => {
    const draft = { field_mappings: { product_id: 'Artikel', status: 'Status' } };
    const mapped = withValueMeanings(draft, { status: { geplant: 'scheduled', verloren: '' } });
    expect(mapped).toEqual({ ...draft, value_maps: { status: { geplant: 'scheduled' } } });
    expect(withValueMeanings(mapped, { status: { erhalten: 'received', geplant: 'cancelled' } }).value_maps).toEqual({ status: { geplant: 'cancelled', erhalten: 'received' } });
    expect(withValueMeanings(draft, { status: { verloren: '' } })).toBe(draft);
    expect(withColumn(mapped, 'status', null)).toEqual({ field_mappings: { product_id: 'Artikel' } });
    expect(withColumn(mapped, 'status', 'Zustand')).toEqual({ ...mapped, field_mappings: { product_id: 'Artikel', status: 'Zustand' } });
    expect(withColumn({ ...mapped, value_maps: { ...mapped.value_maps, kind: { a: 'b' } } }, 'status', null).value_maps).toEqual({ kind: { a: 'b' } });
  });

  it("lists the refused values of the preview and the import once per field (ignoring case), leaving out those the draft's value maps give a meaning", () => {
    const statusTargets: ImportTarget[] = [{ field: 'status', label: 'Status', type: 'CharField', required: false }];
    const choices = ['scheduled', 'received', 'cancelled'];
    const draft = { field_mappings: { status: 'Status' }, value_maps: { status: { Geplant: 'scheduled' } } };
    const fromPreview = [{ field: 'status', values: ['geplant', 'storniert'], choices }];
    const fromImport = [{ field: 'status', values: ['Storniert', 'verloren'], choices }, { field: 'kind', values: ['x'], choices: ['a'] }];
    expect(valuesToMap(statusTargets, draft, fromPreview, fromImport)).toEqual([
      { field: 'status', label: 'Status', values: ['storniert', 'verloren'], choices, yesNo: false },
      { field: 'kind', label: 'kind', values: ['x'], choices: ['a'], yesNo: false },
    ]);
    expect(valuesToMap(statusTargets, draft, [{ field: 'status', values: [' GEPLANT'], choices }], undefined)).toEqual([]);
    // A yes-or-no column's words neither yes nor no: said as true or false, past those its map already says.
    const notStocked: ImportTarget[] = [{ field: 'not_stocked', label: 'Not stocked (a service or fee)', type: 'BooleanField', required: false }];
    const kindDraft = { field_mappings: { not_stocked: 'Product Type' }, value_maps: { not_stocked: { Service: 'true' } } };
    expect(valuesToMap(notStocked, kindDraft, [{ field: 'not_stocked', values: ['service', 'Rental'], choices: ['true', 'false'] }])).toEqual([
      { field: 'not_stocked', label: 'Not stocked (a service or fee)', values: ['Rental'], choices: ['true', 'false'], yesNo: true },
    ]);
  });

  it('sends the head of a large CSV or JSON file for the preview, and a workbook whole', async () => {
    const big = new File(['x'.repeat(PREVIEW_MAX_BYTES + 10)], 'big.csv', { type: 'text/csv' });
    const part = previewPart(big);
    expect(part.size).toBe(PREVIEW_MAX_BYTES);
    expect(part.name).toBe('big.csv');
    const small = new File(['a,b\n1,2\n'], 'small.csv');
    expect(previewPart(small)).toBe(small);
    const workbook = new File(['y'.repeat(PREVIEW_MAX_BYTES + 10)], 'book.xlsx');
    expect(previewPart(workbook)).toBe(workbook);
  });

  it("tells the server when the preview's file is a head, whose last line the cut may have split", () => {
    const big = new File(['x'.repeat(PREVIEW_MAX_BYTES + 10)], 'till.csv', { type: 'text/csv' });
    expect(previewForm(big, 'sales', null).get('file_part')).toBe('head');
    expect((previewForm(big, 'sales', null).get('file') as File).size).toBe(PREVIEW_MAX_BYTES);
    expect(previewForm(new File(['a,b\n1,2\n'], 'small.csv'), 'sales', null).get('file_part')).toBeNull();
    expect(previewForm(new File(['y'.repeat(PREVIEW_MAX_BYTES + 10)], 'book.xlsx'), 'sales', null).get('file_part')).toBeNull();
  });

  it("sends the browser's language and time zone: an undecided 12/03/2026 is shown as the shop writes dates", () => {
    const form = previewForm(new File(['a,b\n1,2\n'], 'small.csv'), 'sales', null);
    expect(form.get('locale')).toBe(navigator.language);
    expect(form.get('time_zone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });
});
