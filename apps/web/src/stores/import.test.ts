// @vitest-environment node
// The import store against a real loopback HTTP server playing the config, the file preview, the
// mapping save, the upload and the import log: loading and error flags (spec §4), the §5/§8
// messages, the mapping builder (proposal, edits, entity, save), a saved mapping left for a new one
// when it has nothing for the entity or the file lacks its columns, the submit guard, server
// progress while uploading, and success/failure.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/http.ts';
import { browserTimeZone } from '../api/shop-day.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { useSessionStore } from './session.ts';
import { initialImportState, submitGuard, useImportStore } from './import.ts';

let loopback: Loopback;
let paths: string[] = [];
let fail: Record<string, number> = {};
let configAnswer: unknown;
let uploadAnswer: { status: number; body: unknown } = { status: 200, body: {} };
let uploadDelayMs = 0;
/** The multipart fields (not the file) of the last preview and upload, and the last saved mapping. */
let previewFields: Record<string, string> = {};
let uploadFields: Record<string, string> = {};
let savedBody: unknown = null;
/** The file's header as the preview reads it, and the columns the server proposes from it. */
const catalogueHeader = ['product_code', 'name', 'current_stock'];
let previewHeader = catalogueHeader;
let previewDates: { detected: string | null; ambiguous: boolean; candidates: string[] } = { detected: null, ambiguous: false, candidates: [] };
let proposal: Record<string, string | null> = { product_code: 'product_code', name: 'name', current_stock: 'current_stock' };
/** The file's lines without a product code beside coded ones, as the server counts them (none: 0), and proposes skipping them. */
let blankCodeLines = 0;

/** The text fields of a multipart body (the loopback reads bodies as text). */
function multipartFields(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of body.matchAll(/name="([^"]+)"\r\n\r\n([^\r]*)\r\n/g)) fields[match[1]!] = match[2]!;
  return fields;
}

const targets = [
  { field: 'product_code', label: 'Product code', type: 'CharField', required: true },
  { field: 'name', label: 'Name', type: 'CharField', required: true },
  { field: 'current_stock', label: 'Current stock', type: 'IntegerField', required: false },
];
/** What the server's preview answers: the header's matches proposed, the sent mapping echoed, a problem in row 2. */
function previewAnswer(fields: Record<string, string>) {
  const sent = fields['mapping_config'] ? (JSON.parse(fields['mapping_config']) as { field_mappings: Record<string, string> }).field_mappings : null;
  const mapping = sent ?? proposal;
  const rows = [1, 2, 3, 4, 5].map((row) => ({ row, values: Object.fromEntries(Object.keys(mapping).map((field) => [field, `${field}-${row}`])), problems: row === 2 && mapping['current_stock'] ? { current_stock: 'a whole number is required.' } : {} }));
  return {
    format: 'csv', separator: ',', header: previewHeader, raw_rows: [['P-1', 'One', '1']], targets,
    proposed_mapping: proposal,
    date_format: previewDates, decimal_separator: { detected: null, used: '.' }, rows,
    ...(blankCodeLines ? { blank_code_lines: blankCodeLines, ...(sent ? {} : { proposed_skip_rows_without_code: true }) } : {}),
  };
}

const catalogue = { description: 'A flat CSV.', entities: { products: { field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock' } } } };
const salesOnly = { entities: { sales: { field_mappings: { quantity: 'qty' } } } };
const goodConfig = {
  success: true,
  content: { tables: {}, mappings: { product_catalogue_csv: catalogue, sales_only: salesOnly }, queries: {}, inventory: { entities: [{ name: 'products', table: 'products', key: ['product_code'] }, { name: 'sales', table: 'sales', key: ['product_id', 'date'], repeated_keys: 'sum' }] } },
};
const okResult = { message: 'Imported 6 rows into products: 6 inserted, 0 updated.', import_id: 'x', entity_type: 'products', table: 'products', counts: { rows: 6, inserted: 6, updated: 0, duplicates: 0 }, duration_ms: 40 };

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback(async (request, body, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    paths.push(path);
    const failure = Object.entries(fail).find(([prefix]) => path.startsWith(prefix));
    if (failure) return sendJson(response, failure[1], { detail: 'server says no', code: 'nope' });
    if (path === '/api/yaml/config/') return sendJson(response, 200, configAnswer);
    if (path === '/api/records/preview-file/') {
      previewFields = multipartFields(body);
      if (!body.includes('filename=')) return sendJson(response, 400, { detail: 'Choose a file to preview.', code: 'validation_error' });
      return sendJson(response, 200, previewAnswer(previewFields));
    }
    if (path === '/api/yaml/save-mapping/') {
      savedBody = JSON.parse(body);
      const { name, config } = savedBody as { name: string; config: unknown };
      return sendJson(response, 200, { success: true, message: 'saved', name, mapping: config });
    }
    if (path === '/api/records/process-file/') {
      uploadFields = multipartFields(body);
      if (uploadDelayMs) await new Promise((resolve) => setTimeout(resolve, uploadDelayMs));
      return sendJson(response, uploadAnswer.status, uploadAnswer.body);
    }
    if (path === '/api/records/imports/') return sendJson(response, 200, { results: [
      { id: 'old', status: 'success', createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'new', status: 'error', createdAt: '2026-02-01T00:00:00.000Z' },
    ] });
    if (path.startsWith('/api/records/imports/')) return sendJson(response, 200, { id: path.split('/')[4], status: 'running', progress: { rows_done: 42, bytes_done: 100, bytes_total: 200 } });
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});

afterAll(() => loopback.close());

beforeEach(() => {
  paths = [];
  fail = {};
  configAnswer = goodConfig;
  uploadAnswer = { status: 200, body: okResult };
  uploadDelayMs = 0;
  previewFields = {};
  uploadFields = {};
  savedBody = null;
  previewHeader = catalogueHeader;
  proposal = { product_code: 'product_code', name: 'name', current_stock: 'current_stock' };
  blankCodeLines = 0;
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useImportStore.setState(initialImportState);
});

const store = () => useImportStore.getState();
const csvFile = (text = 'product_code,name,current_stock\nP-1,One,1\nP-2,Two,x\nP-3,,3\nP-4,Four,4\nP-5,Five,5\nP-6,Six,6\n', name = 'catalogue.csv') => new File([text], name, { type: 'text/csv' });
const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

describe('loading the mappings', () => {
  it('is skipped with "Authentication not ready." until the session has loaded and the user is logged in', async () => {
    useSessionStore.setState({ isLoading: true, isLoggedIn: true });
    await store().loadMappings();
    expect(store().error).toBe('Authentication not ready.');
    useSessionStore.setState({ isLoading: false, isLoggedIn: false });
    await store().loadMappings();
    expect(store().error).toBe('Authentication not ready.');
    expect(paths).toEqual([]);
  });

  it('sets loading at start, clears the error at start, selects the first mapping and its config', async () => {
    useImportStore.setState({ error: 'old' });
    const loading = store().loadMappings();
    expect(store().isLoading).toBe(true);
    expect(store().error).toBeNull();
    await loading;
    expect(store().isLoading).toBe(false);
    expect(store().availableMappings).toEqual([
      { name: 'product_catalogue_csv', description: 'A flat CSV.' },
      { name: 'sales_only', description: null },
    ]);
    expect(store().selectedMapping).toBe('product_catalogue_csv');
    expect(store().mappingConfig).toEqual(catalogue);
    expect(store().availableEntities).toEqual(['products']);
    expect(store().entities).toEqual([{ name: 'products', repeatedKeys: 'last' }, { name: 'sales', repeatedKeys: 'sum' }]);
    expect(store().draft).toEqual(catalogue.entities.products);
  });

  it('fails with "Failed to load available mappings." on an error answer or success: false', async () => {
    fail = { '/api/yaml/config/': 500 };
    await store().loadMappings();
    expect(store()).toMatchObject({ isLoading: false, error: 'Failed to load available mappings.', errorDetail: 'server says no' });
    fail = {};
    configAnswer = { success: false, message: 'Configuration file not found' };
    await store().loadMappings();
    expect(store()).toMatchObject({ isLoading: false, error: 'Failed to load available mappings.', errorDetail: 'Configuration file not found' });
  });

  it('loading one mapping config: not found, failed, not ready', async () => {
    await store().loadMappings();
    await store().selectMapping('nope');
    expect(store()).toMatchObject({ isLoading: false, error: "Mapping config 'nope' not found.", mappingConfig: null });
    fail = { '/api/yaml/config/': 500 };
    await store().selectMapping('sales_only');
    expect(store()).toMatchObject({ isLoading: false, error: 'Failed to load mapping config.' });
    fail = {};
    await store().selectMapping('sales_only');
    expect(store()).toMatchObject({ error: null, mappingConfig: salesOnly, availableEntities: ['sales'] });
    useSessionStore.setState({ isLoggedIn: false });
    await store().loadMappingConfig('product_catalogue_csv');
    expect(store().error).toBe('Authentication not ready.');
  });
});

describe('preview and the mapping builder', () => {
  it("asks the server to read the file through the chosen mapping's entity mapping", async () => {
    await store().loadMappings();
    const previewing = store().selectFile(csvFile());
    expect(store().isLoading).toBe(true);
    await previewing;
    expect(store().isLoading).toBe(false);
    // Named as the import would be: the preview says what sales of the mapping's earlier imports the file would replace.
    expect(previewFields).toEqual({ entity_type: 'products', time_zone: browserTimeZone(), locale: navigator.language, mapping_config: JSON.stringify(catalogue.entities.products), mapping_name: 'product_catalogue_csv' });
    expect(store().previewData?.rows).toHaveLength(5);
    expect(store().previewData?.rows[1]?.problems).toEqual({ current_stock: 'a whole number is required.' });
  });

  it('without a saved mapping, starts from the columns the server proposes; edits and options read the preview again', async () => {
    await store().loadMappings();
    await store().selectMapping(null);
    await store().selectFile(csvFile());
    expect(previewFields['mapping_config']).toBeUndefined();
    expect(store().draft).toEqual({ field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock' } });
    await store().setColumn('current_stock', null);
    expect(JSON.parse(previewFields['mapping_config']!)).toEqual({ field_mappings: { product_code: 'product_code', name: 'name' } });
    expect(store().previewData?.rows[1]?.problems).toEqual({});
    await store().setOptions({ date_format: 'dd/mm/yyyy', decimal_separator: ',' });
    await store().setOptions({ decimal_separator: undefined, repeated_keys: 'sum' });
    expect(store().draft).toEqual({ field_mappings: { product_code: 'product_code', name: 'name' }, date_format: 'dd/mm/yyyy', repeated_keys: 'sum' });
  });

  it("takes the proposal to skip a shop file's lines without a product code into the draft: switched off and on, it is previewed, saved and imported as it stands", async () => {
    blankCodeLines = 3;
    await store().loadMappings();
    await store().selectMapping(null);
    await store().selectFile(csvFile());
    const fieldMappings = { product_code: 'product_code', name: 'name', current_stock: 'current_stock' };
    expect(store().draft).toEqual({ field_mappings: fieldMappings, skip_rows_without_code: true });
    await store().setOptions({ skip_rows_without_code: undefined });
    expect(JSON.parse(previewFields['mapping_config']!)).toEqual({ field_mappings: fieldMappings });
    await store().setOptions({ skip_rows_without_code: true });
    expect(JSON.parse(previewFields['mapping_config']!)).toEqual({ field_mappings: fieldMappings, skip_rows_without_code: true });
    await store().saveDraft('shop orders');
    expect(savedBody).toEqual({ name: 'shop orders', config: { entities: { products: { field_mappings: fieldMappings, skip_rows_without_code: true } } } });
    await store().submit();
    expect(JSON.parse(uploadFields['mapping_config']!)).toMatchObject({ entities: { products: { skip_rows_without_code: true } } });
  });

  it("a saved mapping brings its own entity when it has nothing for the chosen one", async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    await store().selectMapping('sales_only');
    expect(store()).toMatchObject({ entityType: 'sales', selectedMapping: 'sales_only', draft: salesOnly.entities.sales, mappingNotice: null });
    expect(previewFields).toEqual({ entity_type: 'sales', time_zone: browserTimeZone(), locale: navigator.language, mapping_config: JSON.stringify(salesOnly.entities.sales), mapping_name: 'sales_only' });
  });

  it('choosing an entity the saved mapping has nothing for builds a new mapping, says so, and imports it as unsaved', async () => {
    await store().loadMappings();
    // The mapping the form selected by default is left without words: the user chose none (ADR 0193's amendment, F4).
    await store().selectEntity('sales');
    expect(store()).toMatchObject({ entityType: 'sales', selectedMapping: null, mappingNotice: null });
    await store().selectEntity('products');
    await store().selectMapping('product_catalogue_csv');
    await store().selectEntity('sales');
    expect(store()).toMatchObject({ entityType: 'sales', selectedMapping: null, mappingConfig: null, draft: null, mappingNotice: "Mapping Product catalogue CSV has nothing for sales: the columns are proposed from the file's header." });
    await store().selectFile(csvFile());
    expect(previewFields).toEqual({ entity_type: 'sales', time_zone: browserTimeZone(), locale: navigator.language, mapping_name: 'your column choices' });
    expect(store().draft).toEqual({ field_mappings: proposal });
    await store().submit();
    expect(uploadFields).toMatchObject({ entity_type: 'sales', time_zone: browserTimeZone(), mapping_name: 'your column choices', mapping_config: JSON.stringify({ entities: { sales: { field_mappings: proposal } } }) });
    // Back to an entity the mapping fills: choosing the mapping again takes its part.
    await store().selectEntity('products');
    await store().selectMapping('product_catalogue_csv');
    expect(store()).toMatchObject({ entityType: 'products', selectedMapping: 'product_catalogue_csv', draft: catalogue.entities.products, mappingNotice: null });
  });

  it("a file without the saved mapping's required columns: the columns are proposed from its header, and what is shown is what is sent", async () => {
    previewHeader = ['Item Code', 'Description', 'Stock'];
    proposal = { product_code: 'Item Code', name: 'Description', current_stock: 'Stock' };
    await store().loadMappings();
    await store().selectFile(csvFile('Item Code,Description,Stock\nP-1,One,1\n'));
    expect(previewFields).toEqual({ entity_type: 'products', time_zone: browserTimeZone(), locale: navigator.language, mapping_name: 'your column choices' });
    // Selected by default, never by the user: the Mapping field reads "Build a new mapping" and nothing names the default (ADR 0193's amendment, F4).
    expect(store()).toMatchObject({ selectedMapping: null, draft: { field_mappings: proposal }, mappingNotice: null, isLoading: false });
    // Chosen by the user, it is named when the form leaves it.
    await store().selectMapping('product_catalogue_csv');
    expect(store()).toMatchObject({
      selectedMapping: null,
      mappingConfig: null,
      draft: { field_mappings: proposal },
      mappingNotice: "Mapping Product catalogue CSV reads columns this file lacks (product_code, name, current_stock): the columns are proposed from the file's header.",
      isLoading: false,
      error: null,
    });
    expect(store().previewData?.rows[0]?.values).toEqual({ product_code: 'product_code-1', name: 'name-1', current_stock: 'current_stock-1' });
    await store().submit();
    expect(uploadFields).toMatchObject({ mapping_name: 'your column choices', mapping_config: JSON.stringify({ entities: { products: { field_mappings: proposal } } }) });
    // Imported, the file is gone: the sentence about it goes too (QA garden centre F5), and a file cleared by hand takes it along.
    expect(store()).toMatchObject({ selectedFile: null, mappingNotice: null });
    useImportStore.setState({ mappingNotice: 'Mapping Product catalogue CSV reads columns this file lacks (product_code).' });
    await store().selectFile(null);
    expect(store().mappingNotice).toBeNull();
  });

  it("the row of column names: a draft built on a title's names is proposed afresh from the row chosen, which goes with the preview, the draft and the import", async () => {
    previewHeader = ['Inventur 30.11.2026', '', ''];
    proposal = { product_code: null, name: null, current_stock: null };
    await store().loadMappings();
    await store().selectMapping(null);
    await store().selectFile(csvFile('Inventur 30.11.2026;;\nArtikelnummer;Bezeichnung;Bestand\nP-1;One;1\n'));
    expect(store().draft).toEqual({ field_mappings: {} });
    previewHeader = ['Artikelnummer', 'Bezeichnung', 'Bestand'];
    proposal = { product_code: 'Artikelnummer', name: 'Bezeichnung', current_stock: 'Bestand' };
    // The preview stays shown while both reads run (the row chooser in it keeps the focus).
    const shown: boolean[] = [];
    const unsubscribe = useImportStore.subscribe((state) => shown.push(state.previewData !== null));
    await store().setHeaderRow(2);
    unsubscribe();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).not.toContain(false);
    expect(previewFields).toEqual({ entity_type: 'products', time_zone: browserTimeZone(), locale: navigator.language, header_row: '2', mapping_name: 'your column choices' });
    expect(store()).toMatchObject({ draft: { header_row: 2, field_mappings: proposal }, mappingNotice: null, isLoading: false, error: null });
    await store().submit();
    expect(JSON.parse(uploadFields['mapping_config']!)).toEqual({ entities: { products: { header_row: 2, field_mappings: proposal } } });
  });

  it('the row of column names: a saved mapping whose columns are on the row chosen is kept, with the row', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    await store().setHeaderRow(3);
    expect(store()).toMatchObject({ selectedMapping: 'product_catalogue_csv', draft: { ...catalogue.entities.products, header_row: 3 }, mappingNotice: null });
    expect(JSON.parse(previewFields['mapping_config']!)).toEqual({ ...catalogue.entities.products, header_row: 3 });
  });

  it('keeps a saved mapping whose required columns the file has, even when an optional one is missing', async () => {
    previewHeader = ['product_code', 'name'];
    await store().loadMappings();
    await store().selectFile(csvFile('product_code,name\nP-1,One\n'));
    expect(store()).toMatchObject({ selectedMapping: 'product_catalogue_csv', draft: catalogue.entities.products, mappingNotice: null });
  });

  it('saves the draft under a name, selects it and lists it; a blank name is refused without a request', async () => {
    await store().loadMappings();
    await store().selectMapping(null);
    await store().selectFile(csvFile());
    await store().saveDraft('  ');
    expect(store().saveError).toBe('Name the mapping to save it.');
    expect(savedBody).toBeNull();
    await store().saveDraft(' shop export ');
    const config = { entities: { products: { field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock' } } } };
    expect(savedBody).toEqual({ name: 'shop export', config });
    expect(store()).toMatchObject({ savedAs: 'shop export', selectedMapping: 'shop export', mappingConfig: config, saveError: null, isSaving: false });
    expect(store().availableMappings.map((mapping) => mapping.name)).toEqual(['product_catalogue_csv', 'sales_only', 'shop export']);
  });

  it("saves the date order Detect read the file's dates in, so next month's file whose days are all 12 or less is read the same way", async () => {
    await store().loadMappings();
    await store().selectMapping(null);
    previewDates = { detected: 'dd/mm/yyyy', ambiguous: false, candidates: ['dd/mm/yyyy'] };
    try {
      await store().selectFile(csvFile());
      expect(store().draft?.date_format).toBeUndefined();
      await store().saveDraft('UK till');
      const draft = { field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock' }, date_format: 'dd/mm/yyyy' };
      expect(savedBody).toEqual({ name: 'UK till', config: { entities: { products: draft } } });
      expect(store().draft).toEqual(draft);
      // Dates that tell no order, or ISO dates (read under any format), leave Detect as it is.
      for (const dates of [{ detected: 'dd/mm/yyyy', ambiguous: true, candidates: ['dd/mm/yyyy', 'mm/dd/yyyy'] }, { detected: 'iso', ambiguous: false, candidates: ['iso'] }]) {
        previewDates = dates;
        await store().selectMapping(null);
        await store().selectFile(csvFile());
        await store().saveDraft('other till');
        expect((savedBody as unknown as { config: { entities: { products: { date_format?: string } } } }).config.entities.products.date_format).toBeUndefined();
      }
    } finally {
      previewDates = { detected: null, ambiguous: false, candidates: [] };
    }
  });

  it("sends the decimal point chosen for a file that shows none, saves it, and reads the next file through the saved mapping with it", async () => {
    await store().loadMappings();
    await store().selectMapping(null);
    await store().selectFile(csvFile());
    expect(store().draft?.decimal_separator).toBeUndefined();
    await store().setOptions({ decimal_separator: '.' });
    expect(JSON.parse(previewFields['mapping_config']!)).toMatchObject({ decimal_separator: '.' });
    await store().saveDraft('deli kilos');
    const draft = { field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock' }, decimal_separator: '.' };
    expect(savedBody).toEqual({ name: 'deli kilos', config: { entities: { products: draft } } });
    // Next week: the configuration lists the saved mapping, and the file is read and imported through it as saved.
    configAnswer = { ...goodConfig, content: { ...goodConfig.content, mappings: { ...goodConfig.content.mappings, 'deli kilos': { entities: { products: draft } } } } };
    useImportStore.setState(initialImportState);
    await store().loadMappings();
    await store().selectMapping('deli kilos');
    await store().selectFile(csvFile());
    expect(previewFields).toMatchObject({ mapping_name: 'deli kilos', mapping_config: JSON.stringify(draft) });
    expect(store().draft).toEqual(draft);
    await store().submit();
    expect(uploadFields).toMatchObject({ mapping_name: 'deli kilos', mapping_config: JSON.stringify({ entities: { products: draft } }) });
  });

  it('a mapping whose config is missing: "Mapping configuration for \'{name}\' not found."', async () => {
    useImportStore.setState({ selectedMapping: 'ghost', mappingConfig: null });
    await store().selectFile(csvFile());
    expect(store().error).toBe("Mapping configuration for 'ghost' not found.");
  });

  it('a refused preview: "Failed to generate preview." with the server\'s reason', async () => {
    await store().loadMappings();
    fail = { '/api/records/preview-file/': 400 };
    await store().selectFile(csvFile());
    expect(store()).toMatchObject({ error: 'Failed to generate preview.', errorDetail: 'server says no', previewData: null, isLoading: false });
  });

  it('reads the preview again after an edit with the last one still shown, so the builder (and the option just used, with its focus) stays; a refused read clears it (ADR 0196, F2)', async () => {
    await store().loadMappings();
    await store().selectMapping(null);
    await store().selectFile(csvFile());
    const shown = store().previewData;
    expect(shown).not.toBeNull();
    const reading = store().setOptions({ repeated_keys: 'sum' });
    expect(store()).toMatchObject({ isLoading: true, previewData: shown });
    await reading;
    expect(store().isLoading).toBe(false);
    expect(store().previewData).not.toBe(shown);
    expect(store().previewData).not.toBeNull();
    // Another file is another preview: the last one goes at once.
    const another = store().selectFile(csvFile());
    expect(store().previewData).toBeNull();
    await another;
    fail = { '/api/records/preview-file/': 400 };
    await store().setOptions({ repeated_keys: 'refuse' });
    expect(store()).toMatchObject({ error: 'Failed to generate preview.', previewData: null, isLoading: false });
  });
});

describe('submit', () => {
  it('guards: a file and a mapping with a column first, then the session', () => {
    const file = csvFile();
    const draft = catalogue.entities.products;
    expect(submitGuard({ file: null, draft, sessionReady: true })).toBe('File, mapping, and config are required.');
    expect(submitGuard({ file, draft: null, sessionReady: true })).toBe('File, mapping, and config are required.');
    expect(submitGuard({ file, draft: { field_mappings: {} }, sessionReady: true })).toBe('File, mapping, and config are required.');
    expect(submitGuard({ file, draft, sessionReady: false })).toBe('Authentication not ready. Please try again.');
    expect(submitGuard({ file, draft, sessionReady: true })).toBeNull();
  });

  it('refuses while a required target has no column', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    await store().setColumn('name', null);
    paths = [];
    await expect(store().submit()).rejects.toThrow('Choose a column for every required field first.');
    expect(paths).not.toContain('/api/records/process-file/');
  });

  it('refuses without a file, and when the session is not ready, without a request', async () => {
    await store().loadMappings();
    paths = [];
    await expect(store().submit()).rejects.toThrow('File, mapping, and config are required.');
    expect(store().error).toBe('File, mapping, and config are required.');
    await store().selectFile(csvFile());
    useSessionStore.setState({ isLoading: true });
    await expect(store().submit()).rejects.toThrow('Authentication not ready. Please try again.');
    expect(store().error).toBe('Authentication not ready. Please try again.');
    expect(paths.filter((path) => path === '/api/records/process-file/')).toEqual([]);
  });

  it('uploads with server progress; success clears the preview and the error and reloads the log', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    uploadDelayMs = 1300;
    const submitting = store().submit();
    expect(store()).toMatchObject({ isUploading: true, error: null });
    await until(() => store().serverProgress?.rowsDone === 42);
    const polled = paths.find((path) => /^\/api\/records\/imports\/[0-9a-f-]{36}\/$/.test(path));
    expect(polled).toBeDefined();
    const result = await submitting;
    expect(result).toEqual(okResult);
    expect(uploadFields).toMatchObject({ entity_type: 'products', mapping_name: 'product_catalogue_csv', mapping_config: JSON.stringify({ entities: { products: catalogue.entities.products } }) });
    expect(store()).toMatchObject({ isUploading: false, result: okResult, previewData: null, error: null, selectedFile: null });
    await until(() => store().logs.length === 2);
    expect(store().logs.map((entry) => entry.id)).toEqual(['new', 'old']);
  });

  it("names the mapping the import went through: the saved one as chosen, 'your column choices' once changed by hand, the name it was saved under", async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    // The first saved mapping is chosen for the user; columns mapped by hand are theirs, not it.
    await store().setColumn('current_stock', null);
    await store().submit();
    expect(uploadFields).toMatchObject({ mapping_name: 'your column choices', mapping_config: JSON.stringify({ entities: { products: { field_mappings: { product_code: 'product_code', name: 'name' } } } }) });
    // Put back as the mapping has it: the mapping's own again, whatever order the keys were set in.
    await store().selectFile(csvFile());
    await store().setColumn('current_stock', 'current_stock');
    await store().submit();
    expect(uploadFields).toMatchObject({ mapping_name: 'product_catalogue_csv' });
    await store().selectFile(csvFile());
    await store().setOptions({ repeated_keys: 'refuse' });
    await store().saveDraft('strict catalogue');
    await store().submit();
    expect(uploadFields).toMatchObject({ mapping_name: 'strict catalogue' });
  });

  it('a 400 with row errors: the file arrived but nothing was imported, the rows listed, the error rethrown, the log reloaded', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    const rowErrors = [{ row: 2, field: 'current_stock', reason: 'Expected a whole number.' }];
    uploadAnswer = { status: 400, body: { detail: '150 rows could not be imported; nothing was written.', code: 'validation_error', error: '150 rows could not be imported; nothing was written.', row_errors: rowErrors, row_error_count: 150 } };
    paths = [];
    await expect(store().submit()).rejects.toMatchObject({ code: 'validation_error' });
    expect(store()).toMatchObject({ isUploading: false, error: 'The file arrived and was read, but nothing was imported: the rows below were refused.', errorDetail: '150 rows could not be imported; nothing was written.', rowErrors, rowErrorCount: 150 });
    expect(store().previewData).not.toBeNull();
    await until(() => paths.includes('/api/records/imports/'));
  });

  it("an import refusing values outside a column's choices lists them; what they mean goes into the draft's value maps, the preview, the save and the next import", async () => {
    await store().loadMappings();
    await store().selectMapping(null);
    await store().selectFile(csvFile());
    await store().setColumn('status', 'Status');
    const refusedChoices = [{ field: 'status', values: ['geplant', 'verloren'], choices: ['scheduled', 'received', 'cancelled'] }];
    uploadAnswer = { status: 400, body: { detail: '2 rows could not be imported; nothing was written.', code: 'validation_error', error: 'x', row_errors: [{ row: 2, field: 'status', reason: 'geplant is not one of the allowed values' }], row_error_count: 2, refused_choices: refusedChoices } };
    await expect(store().submit()).rejects.toMatchObject({ code: 'validation_error' });
    expect(store().refusedChoices).toEqual(refusedChoices);
    await store().mapValues({ status: { geplant: 'scheduled', verloren: '' } });
    const draft = { field_mappings: { product_code: 'product_code', name: 'name', current_stock: 'current_stock', status: 'Status' }, value_maps: { status: { geplant: 'scheduled' } } };
    expect(store().draft).toEqual(draft);
    expect(JSON.parse(previewFields['mapping_config']!)).toEqual(draft);
    await store().saveDraft('kasse');
    expect(savedBody).toEqual({ name: 'kasse', config: { entities: { products: draft } } });
    uploadAnswer = { status: 200, body: okResult };
    await store().submit();
    expect(JSON.parse(uploadFields['mapping_config']!)).toEqual({ entities: { products: draft } });
    expect(store().refusedChoices).toEqual([]);
  });

  it('a 413 shows the server message', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    uploadAnswer = { status: 413, body: { detail: 'The file is larger than the upload limit.', code: 'payload_too_large', error: 'The file is larger than the upload limit.' } };
    await expect(store().submit()).rejects.toBeTruthy();
    expect(store()).toMatchObject({ error: 'The file is larger than the upload limit.', errorDetail: null, rowErrors: [] });
  });

  it('a refusal without row errors keeps the spec\'s "Failed to upload data." with the server\'s reason', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    uploadAnswer = { status: 400, body: { detail: 'The file has no records to import.', code: 'validation_error', error: 'The file has no records to import.' } };
    await expect(store().submit()).rejects.toBeTruthy();
    expect(store()).toMatchObject({ error: 'Failed to upload data.', errorDetail: 'The file has no records to import.', rowErrors: [] });
  });
});

describe('mapping changes and cancelling', () => {
  it('a new mapping re-runs the preview of the chosen file; a missing one keeps its own message', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    expect(store().previewData?.rows).toHaveLength(5);
    await store().selectMapping('sales_only');
    expect(previewFields['mapping_config']).toBe(JSON.stringify(salesOnly.entities.sales));
    await store().selectEntity('products');
    await store().selectMapping('product_catalogue_csv');
    expect(previewFields['mapping_config']).toBe(JSON.stringify(catalogue.entities.products));
    expect(store()).toMatchObject({ error: null, selectedMapping: 'product_catalogue_csv' });
    expect(store().previewData?.rows).toHaveLength(5);
    await store().selectMapping('gone');
    expect(store()).toMatchObject({ error: "Mapping config 'gone' not found.", previewData: null });
  });

  it('cancelling an upload says so and clears the busy flag', async () => {
    await store().loadMappings();
    await store().selectFile(csvFile());
    uploadDelayMs = 3000;
    const submitting = store().submit();
    await until(() => paths.includes('/api/records/process-file/'));
    store().cancelUpload();
    await expect(submitting).rejects.toBeTruthy();
    expect(store()).toMatchObject({ isUploading: false, error: 'The import was cancelled.', errorDetail: null });
  });
});

describe('import log', () => {
  it('loads newest first with its flags, and one entry on selection', async () => {
    const loading = store().loadLogs();
    expect(store().isLoadingLogs).toBe(true);
    await loading;
    expect(store()).toMatchObject({ isLoadingLogs: false, logsError: null });
    await store().selectLog('new');
    expect(store().logDetail?.id).toBe('new');
    await store().selectLog(null);
    expect(store().logDetail).toBeNull();
    fail = { '/api/records/imports/': 500 };
    await store().loadLogs();
    expect(store()).toMatchObject({ isLoadingLogs: false, logsError: 'Failed to load the import log.' });
  });
});
