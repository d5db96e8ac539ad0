// A quantity sold by weight on the Data screen (ADR 0176): the row form of sales, whose Quantity is a
// decimal of 3 places, takes 0.25 and a German `1,125` and sends them as numbers' text to a real
// loopback server; the grid writes them back as typed (0.25, not 0.250; 12, not 12.000).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { isQuantityColumn, quantityCellFormat, type TableColumn } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { sendJson, type Loopback } from '../../test/loopback.ts';
import { startLoopbackApi } from '../../test/loopback-api.ts';
import { useSessionStore } from '../../stores/session.ts';
import { useTablesStore } from '../../stores/tables.ts';
import { RowFormModal } from './RowFormModal.tsx';

const quantity = { key: 'quantity', label: 'Quantity', type: 'DecimalField', decimal_places: 3, required: true } as TableColumn;
const columns: TableColumn[] = [{ key: 'id', label: 'ID', type: 'AutoField', read_only: true } as TableColumn, quantity, { key: 'date', label: 'Date', type: 'DateField', required: true } as TableColumn];

let loopback: Loopback;
let added: unknown[] = [];

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopbackApi((request, body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (request.method === 'POST' && url.pathname === '/api/records/tables/sales/rows/add/') {
      added.push(JSON.parse(body));
      return sendJson(response, 201, { id: added.length, ...(JSON.parse(body) as object) });
    }
    return sendJson(response, 200, { results: [], count: 0 });
  });
});
afterAll(() => loopback.close());
beforeEach(() => {
  added = [];
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useTablesStore.setState({ selected: { name: 'sales', encodedName: 'sales', folder: 'Sales' } as never });
});
afterEach(cleanup);

describe('a quantity by weight in the row form', () => {
  it.each([
    ['0.25', '0.25'],
    ['1,125', '1.125'],
  ])('takes %s kg and sends %s (the number as text, which the server reads exactly)', async (typed, sent) => {
    let closed = 0;
    render(
      <MantineProvider env="test">
        <RowFormModal tableName="sales" encodedName="sales" columns={columns} row={null} unknownValues={{}} onClose={() => closed++} onOpenVariation={() => {}} />
      </MantineProvider>,
    );
    fireEvent.change(screen.getByRole('textbox', { name: /^Quantity/ }), { target: { value: typed } });
    fireEvent.change(screen.getByRole('textbox', { name: /^Date/ }), { target: { value: '2026-12-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(closed).toBe(1));
    expect(added).toEqual([{ quantity: sent, date: '2026-12-01' }]);
  });

  it('is a quantity column, written with the places the figure needs', () => {
    expect(isQuantityColumn(quantity)).toBe(true);
    expect(isQuantityColumn({ ...quantity, money: true })).toBe(false);
    expect([0.25, 12, 1.125, -0.2, 1250.5].map((value) => quantityCellFormat.format(value))).toEqual(['0.25', '12', '1.125', '-0.2', '1250.5']);
  });
});
