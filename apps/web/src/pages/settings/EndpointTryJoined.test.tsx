// "Try the endpoint" on a till's sales lines (Square's Item and its variation, SKU-less lines
// among them), the panel and its store against a loopback server playing the Try route (ADR 0201,
// amendment 2026-12-07): the proposal's joined paths shown in the Import screen's builder beside
// "match by name", edited by keyboard with the focus kept, each change tried again with the mapping's
// joined_columns; a field's own joined paths; every path proposed for new products shown once
// products are created; the mapping saved with its joined paths.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { EntityMapping, IntegrationTryResponse, MappingConfig } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { renderInForm } from '../../test/in-form.tsx';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { sendJson, type Loopback } from '../../test/loopback.ts';
import { startLoopbackApi } from '../../test/loopback-api.ts';
import { arrowTo, pressEnterOn, select } from '../../test/keyboard.ts';
import { useSessionStore } from '../../stores/session.ts';
import { initialEndpointTryState, useEndpointTryStore } from '../../stores/endpoint-try.ts';
import { initialIntegrationsState, useIntegrationsStore } from '../../stores/integrations.ts';
import { newIntegrationDraft } from './integration-form.ts';
import { EndpointTry } from './EndpointTry.tsx';

/** The page's SKU-less line, its values by path. */
const line: Record<string, string | number> = { sku: '', item: 'Greeting Card', variation: 'Regular', category: 'Cards & Wrap', quantity: 3, created_at: '2026-12-05' };
const paths = Object.keys(line);

/** What the Try route answers: the proposal without a mapping sent, the line read as the mapping sent reads it. */
function answerFor(mapping: EntityMapping | undefined): IntegrationTryResponse {
  const read = mapping ?? { field_mappings: { product_id: 'sku' }, new_products: { name: 'item' }, joined_columns: { 'new_products.name': ['variation'] } };
  const joined = (field: string, own: string | undefined) => (own ? [own, ...(read.joined_columns?.[field] ?? [])].map((path) => line[path]).filter(Boolean).join(' ') : null);
  const lineName = joined('new_products.name', read.new_products?.['name']);
  const matched = lineName === 'Greeting Card Regular';
  return {
    record_count: 1,
    paths: paths.map((path) => ({ path, samples: [line[path] as string | number] })),
    targets: [
      { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
      { field: 'date', label: 'Date', type: 'DateField', required: true },
      { field: 'quantity', label: 'Quantity', type: 'IntegerField', required: true },
    ],
    proposed_mapping: { product_id: 'sku', date: 'created_at', quantity: 'quantity' },
    proposed_joined_columns: { 'new_products.name': ['variation'] },
    proposed_new_products: { name: 'item', category: 'category' },
    proposed_blank_code_by_name: true,
    proposed_skip_rows_without_code: true,
    blank_code_lines: 1,
    ...(matched ? { blank_code_matched: 1 } : {}),
    ...(mapping?.create_missing_products ? { new_products: [{ code: 'GC-1', values: { name: lineName ?? 'GC-1' } }], new_product_count: 1 } : {}),
    date_format: { detected: 'iso', ambiguous: false, candidates: ['iso'] },
    decimal_separator: { detected: null, used: '.' },
    rows: [{ row: 1, values: { product_id: joined('product_id', read.field_mappings['product_id']) || (matched ? 'Greeting Card Regular' : null), date: '2026-12-05', quantity: 3, ...(lineName ? { 'new_products.name': lineName } : {}) }, problems: {} }],
    records_path_proposal: null,
    warnings: [],
  };
}

let loopback: Loopback;
/** The mapping each try sent (undefined: none, the proposal asked for). */
let sent: (EntityMapping | undefined)[];
let savedMappings: Record<string, MappingConfig>;

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopbackApi((request, body, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const parsed = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    if (path === '/api/integrations/try/') {
      sent.push(parsed.mapping as EntityMapping | undefined);
      return sendJson(response, 200, answerFor(parsed.mapping as EntityMapping | undefined));
    }
    if (path === '/api/yaml/save-mapping/') {
      savedMappings[parsed.name as string] = parsed.config as MappingConfig;
      return sendJson(response, 200, { success: true, message: 'Saved.', name: parsed.name, mapping: parsed.config });
    }
    if (path === '/api/yaml/config/') return sendJson(response, 200, { success: true, content: { mappings: savedMappings } });
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
});
afterAll(() => loopback.close());

beforeEach(() => {
  sent = [];
  savedMappings = {};
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useIntegrationsStore.setState({ ...initialIntegrationsState, editorOpen: true, entityNames: ['sales'], draft: { ...newIntegrationDraft('', () => []), endpoint: 'https://till.example/sales', target_entity: 'sales' } });
  useEndpointTryStore.setState(initialEndpointTryState);
});
afterEach(cleanup);

const lineName = "A line's product name";
const idle = () => waitFor(() => expect(useEndpointTryStore.getState().isTrying).toBe(false));

/** The panel inside the editor's form, tried once: the proposal. */
async function tried() {
  renderInForm(<EndpointTry />, () => {
    throw new Error('the integration was submitted');
  });
  fireEvent.click(screen.getByRole('button', { name: 'Try the endpoint' }));
  await screen.findByTestId('endpoint-try-result');
  await idle();
}

describe("Try the endpoint on a till's lines named by their item and variation", () => {
  it('shows the proposed item followed by variation beside the match by name, as the page read the line', async () => {
    await tried();
    expect(sent).toEqual([undefined]);
    const rules = screen.getByTestId('endpoint-try-rules');
    const byName = within(rules).getByRole('checkbox', { name: 'Match lines without a product code to products by their name (item + variation)' }) as HTMLInputElement;
    expect(byName.checked).toBe(true);
    expect(within(rules).getByTestId('joined-new_products.name').textContent).toBe(`${lineName} reads item + variation, one space apart: “Greeting Card Regular” on the first line.`);
    expect(select(`${lineName}, followed by`).value).toBe('variation');
    // The line's own path is not offered to follow it; the ids are the dialog's own, not the Import screen's.
    expect([...select(`${lineName}, followed by`).options].map((option) => option.value)).toEqual(['', 'sku', 'variation', 'category', 'quantity', 'created_at']);
    expect(select(`${lineName}, followed by`).id).toBe('try-joined-new_products.name-0');
  });

  it('edits the joined path by keyboard, each change tried with the mapping, the focus kept on the builder', async () => {
    await tried();
    pressEnterOn(`Remove variation from ${lineName}`);
    await waitFor(() => expect(sent).toHaveLength(2));
    expect([sent[1]?.new_products, sent[1]?.joined_columns, sent[1]?.blank_code_by_name]).toEqual([{ name: 'item' }, undefined, true]);
    await idle();
    await waitFor(() => expect(document.activeElement).toBe(select(`${lineName}, followed by`)));
    expect(screen.queryByTestId('joined-new_products.name')).toBeNull();
    arrowTo(`${lineName}, followed by`, 'variation');
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2]?.joined_columns).toEqual({ 'new_products.name': ['variation'] });
    await idle();
    await waitFor(() => expect(screen.getByTestId('joined-new_products.name').textContent).toContain('“Greeting Card Regular” on the first line.'));
    expect(document.activeElement).toBe(select(`${lineName}, followed by`));
  });

  it("joins a path to a field's own, as the Import screen joins a column", async () => {
    await tried();
    expect(select('Product, followed by').value).toBe('');
    arrowTo('Product, followed by', 'variation');
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]?.joined_columns).toEqual({ product_id: ['variation'], 'new_products.name': ['variation'] });
    await idle();
    await waitFor(() => expect(document.activeElement).toBe(select('Product, followed by')));
    expect(screen.getByTestId('joined-product_id').textContent).toBe('Product reads sku + variation, one space apart: “Regular” on the first line.');
  });

  it('names new products from every path proposed for them once products are created, and lists those the page would create', async () => {
    await tried();
    expect(screen.queryByTestId('new-product-columns')).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Create products for unknown codes' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect([sent[1]?.create_missing_products, sent[1]?.new_products]).toEqual([true, { name: 'item' }]);
    await idle();
    const columns = await screen.findByTestId('new-product-columns');
    expect([...columns.querySelectorAll('select')].map((element) => [element.getAttribute('data-new-product-field'), element.value])).toEqual([
      ['name', 'item'],
      ['category', ''],
    ]);
    expect(within(columns).getByTestId('new-products-preview').textContent).toBe('1 new product would be created: GC-1 Greeting Card Regular');
    arrowTo('Category of new products from', 'category');
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent[2]?.new_products).toEqual({ name: 'item', category: 'category' });
  });

  it('saves the mapping with its joined paths, and the editor selects it', async () => {
    await tried();
    fireEvent.change(screen.getByLabelText('Name of the new mapping'), { target: { value: 'till sales' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as mapping' }));
    await screen.findByTestId('endpoint-try-saved');
    expect(savedMappings['till sales']?.entities['sales']).toMatchObject({ field_mappings: { product_id: 'sku' }, blank_code_by_name: true, new_products: { name: 'item' }, joined_columns: { 'new_products.name': ['variation'] } });
    await waitFor(() => expect(useIntegrationsStore.getState().draft?.mapping_selection).toBe('till sales'));
  });
});
