// The row form as the Data screen opens it: its title names the row as the row's own buttons do.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { TableColumn, TableRow } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { RowFormModal } from './RowFormModal.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

const id = { key: 'id', label: 'ID', type: 'AutoField', read_only: true } as TableColumn;
const products: TableColumn[] = [id, { key: 'product_code', label: 'Product code', type: 'CharField', required: true } as TableColumn, { key: 'name', label: 'Name', type: 'CharField', required: true } as TableColumn];
const sales: TableColumn[] = [id, { key: 'quantity', label: 'Quantity', type: 'IntegerField', required: true } as TableColumn, { key: 'date', label: 'Date', type: 'DateField', required: true } as TableColumn];

function renderForm(columns: TableColumn[], row: TableRow | null) {
  render(
    <MantineProvider>
      <RowFormModal tableName="products" encodedName="products" columns={columns} row={row} unknownValues={{}} onClose={() => {}} onOpenVariation={() => {}} />
    </MantineProvider>,
  );
}

describe('the row form title', () => {
  it('names the row by its code and name, as its Edit button does', () => {
    renderForm(products, { id: 12, product_code: 'GAR-1099', name: 'Pflanzschaufel Edelstahl' });
    expect(screen.getByRole('dialog', { name: 'Edit GAR-1099 — Pflanzschaufel Edelstahl' })).toBeTruthy();
  });

  it('names a row of a table without a code by its number', () => {
    renderForm(sales, { id: 12, quantity: 3, date: '2026-12-01' });
    expect(screen.getByRole('dialog', { name: 'Edit row 12' })).toBeTruthy();
  });

  it('names the table for a new row', () => {
    renderForm(products, null);
    expect(screen.getByRole('dialog', { name: 'Add row to products' })).toBeTruthy();
  });
});
