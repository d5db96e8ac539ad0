// @vitest-environment node
// "Try the endpoint" against a real loopback HTTP server playing the API: the draft's request
// settings are what is sent (the stored auth header stands behind the mask of the integration
// edited), the server's proposal becomes the mapping, a changed path is tried again with the
// mapping (and with its rules: a refunded order left out, lines without a sku skipped or known by
// their name, as proposed),
// a refusal is said in the server's words, and Save as mapping saves it for the tried
// entity and selects it in the editor.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MASKED_SECRET, type IntegrationTryResponse, type MappingConfig } from '@stockwise/contract';
import { api } from '../api/http.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { newIntegrationDraft } from '../pages/settings/integration-form.ts';
import { blankCodeByNameOptions } from '../pages/settings/preview.ts';
import { useSessionStore } from './session.ts';
import { initialIntegrationsState, useIntegrationsStore } from './integrations.ts';
import { initialEndpointTryState, useEndpointTryStore } from './endpoint-try.ts';

let loopback: Loopback;
let requests: { method: string; path: string; body: Record<string, unknown> }[] = [];
let refuseTry: { status: number; body: unknown } | null = null;
let savedMappings: Record<string, MappingConfig> = {};
/** The page holds a refunded order and gift-wrap lines without a sku: the server proposes the rules for them. */
let proposeRules = false;
/** The page's lines without a sku name stored products (line.title): the server proposes knowing them by it (ADR 0195 F4). */
let proposeByName = false;

const answer = (fieldMappings: Record<string, string> | null): IntegrationTryResponse => ({
  record_count: 6,
  paths: [
    { path: 'line.product.sku', samples: ['A-1', 'A-2'] },
    { path: 'created_at', samples: ['2026-03-01T10:15:00Z'] },
    { path: 'line.quantity', samples: [2, 3] },
    { path: 'line.price', samples: ['9,90'] },
  ],
  targets: [
    { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
    { field: 'date', label: 'Date', type: 'DateField', required: true },
    { field: 'quantity', label: 'Quantity', type: 'IntegerField', required: true },
  ],
  proposed_mapping: { product_id: 'line.product.sku', date: 'created_at', quantity: 'line.quantity' },
  date_format: { detected: 'iso', ambiguous: false, candidates: ['iso'] },
  decimal_separator: { detected: ',', used: ',' },
  rows: [{ row: 1, values: { product_id: 'A-1', date: '2026-03-01', quantity: fieldMappings?.quantity === 'line.price' ? '9,90' : 2 }, problems: fieldMappings?.quantity === 'line.price' ? { quantity: 'Expected a whole number.' } : {} }],
  records_path_proposal: null,
  warnings: [],
});

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback((request, body, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const parsed = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    requests.push({ method: request.method ?? 'GET', path, body: parsed });
    if (path === '/api/integrations/try/') {
      if (refuseTry) return sendJson(response, refuseTry.status, refuseTry.body);
      const tried = answer((parsed.mapping as { field_mappings: Record<string, string> } | undefined)?.field_mappings ?? null);
      const rules = proposeRules && !parsed.mapping ? { proposed_row_filters: [{ column: 'order.status', values: ['refunded'] }], proposed_skip_rows_without_code: true as const } : {};
      const byName = proposeByName ? { proposed_blank_code_by_name: true as const, proposed_new_products: { name: 'line.title', category: null }, blank_code_matched: 2 } : {};
      return sendJson(response, 200, { ...tried, ...rules, ...byName, ...(proposeRules ? { blank_code_lines: 2 } : {}) });
    }
    if (path === '/api/yaml/save-mapping/') {
      savedMappings[parsed.name as string] = parsed.config as MappingConfig;
      return sendJson(response, 200, { success: true, message: 'Saved.', name: parsed.name, mapping: parsed.config });
    }
    if (path === '/api/yaml/config/') return sendJson(response, 200, { success: true, content: { mappings: { shop: { entities: { products: { field_mappings: { product_code: 'sku' } } } }, ...savedMappings } } });
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
});
afterAll(() => loopback.close());

beforeEach(() => {
  requests = [];
  refuseTry = null;
  savedMappings = {};
  proposeRules = false;
  proposeByName = false;
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  const draft = { ...newIntegrationDraft('shop', () => ['products']), endpoint: ' https://shop.example/orders?from={from} ', target_entity: 'sales', records_path: 'data.orders', previous_days: 7, auth_header_name: 'X-Api-Key', auth_header_value: MASKED_SECRET };
  useIntegrationsStore.setState({ ...initialIntegrationsState, editorOpen: true, editing: { id: 12 } as never, draft });
  useEndpointTryStore.setState(initialEndpointTryState);
});

const store = () => useEndpointTryStore.getState();
const tries = () => requests.filter((r) => r.path === '/api/integrations/try/').map((r) => r.body);

describe('trying the endpoint', () => {
  it("sends the draft's request settings, the integration edited behind the masked auth value, and takes the proposal as the mapping", async () => {
    const trying = store().tryEndpoint();
    expect(store().isTrying).toBe(true);
    await trying;
    expect(tries()).toEqual([
      {
        endpoint: 'https://shop.example/orders?from={from}',
        target_entity: 'sales',
        time_zone: expect.any(String),
        data_fetch_type: 'latest',
        previous_days: 7,
        initial_setup: false,
        records_path: 'data.orders',
        pagination: 'none',
        next_field: 'next',
        page_parameter: 'page',
        auth_header_name: 'X-Api-Key',
        auth_header_value: MASKED_SECRET,
        integration_id: 12,
      },
    ]);
    expect(store()).toMatchObject({ isTrying: false, tryError: null, entity: 'sales', tried: { record_count: 6 } });
    // The page writes decimal commas: the mapping reads them so, as the import's proposal does.
    expect(store().mapping).toEqual({ field_mappings: { product_id: 'line.product.sku', date: 'created_at', quantity: 'line.quantity' }, decimal_separator: ',' });
  });

  it('tries again with the mapping when a path changes, and with none for a field left without one', async () => {
    await store().tryEndpoint();
    await store().setPath('quantity', 'line.price');
    expect(tries()[1]?.mapping).toEqual({ field_mappings: { product_id: 'line.product.sku', date: 'created_at', quantity: 'line.price' }, decimal_separator: ',' });
    expect(store().tried?.rows[0]?.problems).toEqual({ quantity: 'Expected a whole number.' });
    await store().setPath('date', null);
    expect(tries()[2]?.mapping).toEqual({ field_mappings: { product_id: 'line.product.sku', quantity: 'line.price' }, decimal_separator: ',' });
  });

  it('takes the records path proposed for lines into the draft and tries again for its proposal, whatever mapping was chosen', async () => {
    await store().tryEndpoint();
    await store().setPath('quantity', 'line.price');
    await store().readLines('data.orders[].line_items');
    expect(useIntegrationsStore.getState().draft?.records_path).toBe('data.orders[].line_items');
    expect(tries()[2]).toMatchObject({ records_path: 'data.orders[].line_items' });
    expect(tries()[2]?.mapping).toBeUndefined();
  });

  it("takes the proposed rules (a refunded order's lines left out, lines without a sku skipped) into the mapping, tries again when one changes, and saves them", async () => {
    proposeRules = true;
    await store().tryEndpoint();
    const fieldMappings = { product_id: 'line.product.sku', date: 'created_at', quantity: 'line.quantity' };
    expect(store().mapping).toEqual({ field_mappings: fieldMappings, decimal_separator: ',', skip_rows_where: [{ column: 'order.status', values: ['refunded'] }], skip_rows_without_code: true });
    await store().setRules({ skip_rows_without_code: undefined });
    expect(tries()[1]?.mapping).toEqual({ field_mappings: fieldMappings, decimal_separator: ',', skip_rows_where: [{ column: 'order.status', values: ['refunded'] }] });
    await store().setRules({ skip_rows_without_code: true, skip_rows_where: undefined });
    expect(tries()[2]?.mapping).toEqual({ field_mappings: fieldMappings, decimal_separator: ',', skip_rows_without_code: true });
    expect(await store().saveAsMapping('wattle orders')).toBe(true);
    expect(savedMappings['wattle orders']).toEqual({ entities: { sales: { field_mappings: fieldMappings, decimal_separator: ',', skip_rows_without_code: true } } });
  });

  it('takes knowing lines without a sku by their name into the mapping with the path naming their product, as proposed, and turns it off with that path (ADR 0195 F4)', async () => {
    proposeRules = true;
    proposeByName = true;
    await store().tryEndpoint();
    const fieldMappings = { product_id: 'line.product.sku', date: 'created_at', quantity: 'line.quantity' };
    const withRules = { field_mappings: fieldMappings, decimal_separator: ',', skip_rows_where: [{ column: 'order.status', values: ['refunded'] }], skip_rows_without_code: true };
    expect(store().mapping).toEqual({ ...withRules, blank_code_by_name: true, new_products: { name: 'line.title' } });
    await store().setRules(blankCodeByNameOptions(store().mapping, false, { proposed_new_products: { name: 'line.title' } }));
    expect(tries()[1]?.mapping).toEqual(withRules);
    await store().setRules({ code_in_brackets: true });
    expect(tries()[2]?.mapping).toEqual({ ...withRules, code_in_brackets: true });
  });

  it("says why the endpoint could not be tried in the server's words", async () => {
    refuseTry = { status: 400, body: { code: 'validation_error', detail: "The answer has no array at 'data.orders'.", errors: { records_path: ["The answer has no array at 'data.orders'."] } } };
    await store().tryEndpoint();
    expect(store()).toMatchObject({ isTrying: false, tried: null, tryError: { message: 'The endpoint could not be tried', detail: "The answer has no array at 'data.orders'." } });
  });

  it('saves the mapping for the tried entity under a name and selects it in the editor', async () => {
    await store().tryEndpoint();
    expect(await store().saveAsMapping('  ')).toBe(false);
    expect(store().saveMappingError).toBe('Name the mapping to save it.');
    expect(await store().saveAsMapping(' shop orders ')).toBe(true);
    expect(requests.find((r) => r.path === '/api/yaml/save-mapping/')?.body).toEqual({
      name: 'shop orders',
      config: { entities: { sales: { field_mappings: { product_id: 'line.product.sku', date: 'created_at', quantity: 'line.quantity' }, decimal_separator: ',' } } },
    });
    expect(store()).toMatchObject({ savedAs: 'shop orders', saveMappingError: null, isSavingMapping: false });
    expect(useIntegrationsStore.getState().draft).toMatchObject({ mapping_selection: 'shop orders', target_entity: 'sales' });
    expect(useIntegrationsStore.getState().mappingConfig).toEqual(savedMappings['shop orders']);
  });

  it('maps onto another entity than the editor\'s target: a shown answer is tried again for it', async () => {
    await store().chooseEntity('stock_snapshots');
    expect(tries()).toEqual([]);
    await store().tryEndpoint();
    await store().chooseEntity('deliveries');
    expect(tries().map((body) => [body.target_entity, body.mapping])).toEqual([['stock_snapshots', undefined], ['deliveries', undefined]]);
    expect(store().entity).toBe('deliveries');
  });

  it('forgets the try when reset (a new editor starts without one)', async () => {
    await store().tryEndpoint();
    store().reset();
    expect(store()).toMatchObject(initialEndpointTryState);
  });
});
