// "Try the endpoint" rendered from store state: the count, a path select per target with the page's
// values, the first rows with the refused value marked, the empty and failed states saying what to
// do, the mapping's rules (lines left out, lines without a sku skipped or known by their name, the
// code in brackets) changed one at a time, and the mapping's name saved with Enter without
// submitting the integration's form around it.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { IntegrationTryResponse } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { renderInForm as renderWithForm } from '../../test/in-form.tsx';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { initialEndpointTryState, useEndpointTryStore } from '../../stores/endpoint-try.ts';
import { initialIntegrationsState, useIntegrationsStore } from '../../stores/integrations.ts';
import { newIntegrationDraft } from './integration-form.ts';
import { EndpointTry } from './EndpointTry.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

const tried: IntegrationTryResponse = {
  record_count: 6,
  paths: [
    { path: 'line.product.sku', samples: ['A-1', 'A-2'] },
    { path: 'created_at', samples: ['2026-03-01T10:15:00Z'] },
    { path: 'line.quantity', samples: [2, 'zwei'] },
  ],
  targets: [
    { field: 'product_id', label: 'Product', type: 'ForeignKey', required: true, reference: { table: 'products', key: 'product_code' } },
    { field: 'date', label: 'Date', type: 'DateField', required: true },
    { field: 'quantity', label: 'Quantity', type: 'IntegerField', required: true },
  ],
  proposed_mapping: { product_id: 'line.product.sku', date: 'created_at', quantity: null },
  date_format: { detected: 'iso', ambiguous: false, candidates: ['iso'] },
  decimal_separator: { detected: null, used: '.' },
  rows: [
    { row: 1, values: { product_id: 'A-1', date: '2026-03-01', quantity: 2 }, problems: {} },
    { row: 2, values: { product_id: 'A-2', date: '2026-03-02', quantity: 'zwei' }, problems: { quantity: 'Expected a whole number.' } },
  ],
  records_path_proposal: null,
  warnings: [],
};
const mapping = { field_mappings: { product_id: 'line.product.sku', date: 'created_at', quantity: 'line.quantity' } };

let submitted = 0;
let saved: string[] = [];
let paths: [string, string | null][] = [];
let readLines: string[] = [];
let rules: Record<string, unknown>[] = [];

beforeEach(() => {
  submitted = 0;
  saved = [];
  paths = [];
  readLines = [];
  rules = [];
  useIntegrationsStore.setState({ ...initialIntegrationsState, editorOpen: true, draft: { ...newIntegrationDraft('shop', () => ['sales']), target_entity: 'sales' } });
  // The actions record what they were asked: the store itself is tested against a loopback server.
  useEndpointTryStore.setState({
    ...initialEndpointTryState,
    saveAsMapping: async (name) => {
      saved.push(name);
      return true;
    },
    setPath: async (field, path) => {
      paths.push([field, path]);
    },
    readLines: async (recordsPath) => {
      readLines.push(recordsPath);
    },
    setRules: async (changed) => {
      rules.push(changed);
    },
  });
});

const renderInForm = () =>
  renderWithForm(<EndpointTry />, () => {
    submitted += 1;
  });

describe('try the endpoint', () => {
  it('offers a keyboard-usable button and any entity to map onto before anything was tried', () => {
    useIntegrationsStore.setState({ entityNames: ['products', 'sales', 'deliveries'] });
    renderInForm();
    const button = screen.getByRole('button', { name: 'Try the endpoint' });
    expect(button.getAttribute('type')).toBe('button');
    const entity = screen.getByLabelText('Map onto') as HTMLSelectElement;
    expect(entity.value).toBe('sales');
    expect([...entity.options].map((option) => option.value)).toEqual(['products', 'sales', 'deliveries']);
    expect(screen.queryByTestId('endpoint-try-result')).toBeNull();
  });

  it('shows the count, a path per target with the values seen there, and the rows as typed with the refused value marked', () => {
    useEndpointTryStore.setState({ tried, entity: 'sales', mapping });
    renderInForm();
    expect(screen.getByTestId('endpoint-try-count').textContent).toBe('The first page held 6 records, with 3 fields.');
    const quantity = screen.getByLabelText('Quantity (quantity) · required') as HTMLSelectElement;
    expect(quantity.value).toBe('line.quantity');
    expect([...quantity.options].map((option) => option.textContent)).toEqual(['(no field)', 'line.product.sku (A-1, A-2)', 'created_at (2026-03-01T10:15:00Z)', 'line.quantity (2, zwei)']);
    fireEvent.change(quantity, { target: { value: '' } });
    expect(paths).toEqual([['quantity', null]]);
    const rows = within(screen.getByTestId('endpoint-try-rows')).getAllByTestId('preview-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[1] as HTMLElement).getByTestId('cell-problem').textContent).toBe('Expected a whole number.');
    expect(screen.getByTestId('preview-summary').textContent).toBe('1 value in these records will be refused by the server.');
  });

  it('says which paths read the first line only, and offers one record per line with the mapping proposed for them', () => {
    const warning = "product_id reads 'line_items.0.sku': element 1 of each record's 'line_items' only; the record's other elements of 'line_items' are not imported.";
    const proposal = { records_path: 'orders[].line_items', record_count: 9, proposed_mapping: { product_id: 'sku', date: 'order.created_at', quantity: 'quantity' } };
    useEndpointTryStore.setState({ tried: { ...tried, warnings: [warning], records_path_proposal: proposal }, entity: 'sales', mapping });
    renderInForm();
    expect(screen.getByTestId('endpoint-try-warnings').textContent).toBe(`Not every value would be imported${warning}`);
    const lines = screen.getByTestId('endpoint-try-lines');
    expect(lines.textContent).toContain("With the records path orders[].line_items, each line is one record (9 on this page), its order's fields read as order.…: product_id ← sku, date ← order.created_at, quantity ← quantity.");
    const use = within(lines).getByRole('button', { name: 'Read one record per line' });
    expect(use.getAttribute('type')).toBe('button');
    fireEvent.click(use);
    expect(readLines).toEqual(['orders[].line_items']);
    expect(submitted).toBe(0);
  });

  it('shows neither when the page reads every value', () => {
    useEndpointTryStore.setState({ tried, entity: 'sales', mapping });
    renderInForm();
    expect(screen.queryByTestId('endpoint-try-warnings')).toBeNull();
    expect(screen.queryByTestId('endpoint-try-lines')).toBeNull();
  });

  it("shows the mapping's rules: a refunded order's lines left out with Remove, and lines without a sku skipped, saying how many", () => {
    const withRules = { ...mapping, skip_rows_where: [{ column: 'order.status', values: ['refunded', 'cancelled'] }], skip_rows_without_code: true };
    useEndpointTryStore.setState({ tried: { ...tried, blank_code_lines: 2, proposed_skip_rows_without_code: true }, entity: 'sales', mapping: withRules });
    renderInForm();
    const ruleList = screen.getByTestId('endpoint-try-rules');
    expect(within(ruleList).getByTestId('row-filter').textContent).toBe('Lines whose order.status is refunded or cancelled are left outRemove');
    const skip = within(ruleList).getByLabelText('Skip lines without a product code') as HTMLInputElement;
    expect(skip.checked).toBe(true);
    expect(ruleList.textContent).toContain('2 of the 6 lines on this page have no product code (gift wrap, shipping) beside lines that have one: they are skipped and counted, not refused on every run.');
    fireEvent.click(within(ruleList).getByRole('button', { name: 'Remove the filter on order.status' }));
    fireEvent.click(skip);
    expect(rules).toEqual([{ skip_rows_where: undefined }, { skip_rows_without_code: undefined }]);
    expect(submitted).toBe(0);
  });

  it('offers knowing lines without a sku by their name, checked as proposed, saying those matched are imported, and the code in brackets (ADR 0195 F4, ADR 0198)', () => {
    const byName = { ...mapping, skip_rows_without_code: true, blank_code_by_name: true, new_products: { name: 'line.title' } };
    const answer: IntegrationTryResponse = { ...tried, blank_code_lines: 3, blank_code_matched: 2, proposed_blank_code_by_name: true, proposed_new_products: { name: 'line.title' }, proposed_code_in_brackets: true };
    useEndpointTryStore.setState({ tried: answer, entity: 'sales', mapping: byName });
    renderInForm();
    const ruleList = screen.getByTestId('endpoint-try-rules');
    expect(ruleList.textContent).toContain('2 of the lines read have no product code and are matched to products by their name: they are imported. 1 other line without one is skipped and counted, not refused.');
    const named = within(ruleList).getByLabelText('Match lines without a product code to products by their name (line.title)') as HTMLInputElement;
    expect(named.checked).toBe(true);
    const brackets = within(ruleList).getByLabelText('Read the product code in the brackets: “[CODE] Name” is CODE') as HTMLInputElement;
    expect(brackets.checked).toBe(false);
    fireEvent.click(named);
    fireEvent.click(brackets);
    expect(rules).toEqual([{ blank_code_by_name: undefined, new_products: undefined }, { code_in_brackets: true }]);
    expect(submitted).toBe(0);
  });

  it('offers skipping lines without a product code, off, when the page has none, and no rules when the product is not mapped', () => {
    useEndpointTryStore.setState({ tried, entity: 'sales', mapping });
    const { unmount } = renderInForm();
    const skip = screen.getByLabelText('Skip lines without a product code') as HTMLInputElement;
    expect(skip.checked).toBe(false);
    fireEvent.click(skip);
    expect(rules).toEqual([{ skip_rows_without_code: true }]);
    expect(screen.queryByTestId('row-filter')).toBeNull();
    unmount();
    useEndpointTryStore.setState({ mapping: { field_mappings: { date: 'created_at' } } });
    renderInForm();
    expect(screen.queryByLabelText('Skip lines without a product code')).toBeNull();
  });

  it('saves the mapping under its name with Enter, without saving the integration', () => {
    useEndpointTryStore.setState({ tried, entity: 'sales', mapping });
    renderInForm();
    const name = screen.getByLabelText('Name of the new mapping');
    fireEvent.change(name, { target: { value: 'shop orders' } });
    fireEvent.keyDown(name, { key: 'Enter' });
    fireEvent.click(screen.getByRole('button', { name: 'Save as mapping' }));
    expect(saved).toEqual(['shop orders', 'shop orders']);
    expect(submitted).toBe(0);
  });

  it('says what to do when the page held no records, and when it could not be tried', () => {
    useEndpointTryStore.setState({ tried: { ...tried, record_count: 0, paths: [], rows: [] }, entity: 'sales', mapping: { field_mappings: {} } });
    const { unmount } = renderInForm();
    expect(screen.getByTestId('endpoint-try-empty').textContent).toMatch(/give more previous days.*set the records path/);
    unmount();
    useEndpointTryStore.setState({ tryError: { message: 'The endpoint could not be tried', detail: 'Page 1 is not JSON: the endpoint answered text/html ("<html>").' } });
    renderInForm();
    expect(screen.getByRole('alert').textContent).toBe('The endpoint could not be tried' + 'Page 1 is not JSON: the endpoint answered text/html ("<html>").');
  });
});
