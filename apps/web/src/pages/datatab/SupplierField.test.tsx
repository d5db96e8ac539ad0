// The products' Supplier field of the row form (ADR 0186) against a real loopback HTTP server
// playing GET /api/suppliers/: the suppliers there are are offered as the field is typed, taken with
// the arrows and Enter, and the field stays free text — a new supplier is typed as it is, and a
// failed list leaves a plain field. Another table's field of that name is a plain text field.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { TableColumn, TableRow } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { sendJson, type Loopback } from '../../test/loopback.ts';
import { startLoopbackApi } from '../../test/loopback-api.ts';
import { RowFormModal } from './RowFormModal.tsx';

let loopback: Loopback;
let asked = 0;
let failing = false;

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopbackApi((request, _body, response) => {
    if (new URL(request.url ?? '/', 'http://x').pathname !== '/api/suppliers/') return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
    asked += 1;
    if (failing) return sendJson(response, 500, { detail: 'Internal server error (error id abc).', code: 'internal_error' });
    return sendJson(response, 200, { suppliers: [{ supplier: 'ACME', products: 12 }, { supplier: 'Acme Ltd', products: 2 }, { supplier: 'Brightside', products: 4 }] });
  });
});
afterAll(() => loopback.close());
beforeEach(() => {
  asked = 0;
  failing = false;
});
afterEach(cleanup);

const columns: TableColumn[] = [
  { key: 'id', label: 'ID', type: 'AutoField', read_only: true } as TableColumn,
  { key: 'product_code', label: 'Product code', type: 'CharField', required: true } as TableColumn,
  { key: 'supplier', label: 'Supplier', type: 'CharField', max_length: 200 } as TableColumn,
];

function renderForm(encodedName: string, row: TableRow | null = null) {
  render(
    <MantineProvider env="test">
      <RowFormModal tableName={encodedName} encodedName={encodedName} columns={columns} row={row} unknownValues={{}} onClose={() => {}} onOpenVariation={() => {}} />
    </MantineProvider>,
  );
}

const field = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Supplier' });
const shown = () => screen.queryAllByRole('option').map((option) => option.textContent);

describe("the products' Supplier field", () => {
  it('offers the suppliers matching what is typed, case aside, and takes one with the arrows and Enter', async () => {
    renderForm('products', { id: 3, product_code: 'MUG-01', supplier: null });
    await waitFor(() => expect(asked).toBe(1));
    field().focus();
    fireEvent.change(field(), { target: { value: 'acme' } });
    await waitFor(() => expect(shown()).toEqual(['ACME', 'Acme Ltd']));
    fireEvent.keyDown(field(), { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(field(), { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(field().value).toBe('ACME'));
  });

  it('keeps a new supplier as typed, and is a plain field when the list cannot be read', async () => {
    failing = true;
    renderForm('products');
    await waitFor(() => expect(asked).toBe(1));
    field().focus();
    fireEvent.change(field(), { target: { value: 'Zeta Trading' } });
    expect(field().value).toBe('Zeta Trading');
    expect(shown()).toEqual([]);
  });

  it("is a plain text field in another table, which asks for no suppliers", () => {
    renderForm('vendors');
    expect(screen.getByRole('textbox', { name: 'Supplier' })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Supplier' })).toBeNull();
    expect(asked).toBe(0);
  });
});
