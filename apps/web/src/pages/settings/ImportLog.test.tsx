// The Import log's Undo (ADR 0174, ADR 0175) against a loopback HTTP server playing the undo route: an
// editor sees "Undo" on an undoable sales or stock count import, labelled with its file, and none on other entries
// (a viewer none at all); the dialog says what will happen in numbers with the safe choice focused,
// and then shows the server's answer — what was put back, or its refusal sentence.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { Role } from '@stockwise/contract';
import { api } from '../../api/http.ts';
import type { ImportLogSummary } from '../../api/import.ts';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { sendJson, startLoopback, type Loopback } from '../../test/loopback.ts';
import { initialImportState, useImportStore } from '../../stores/import.ts';
import { useSessionStore } from '../../stores/session.ts';
import { ImportLog } from './ImportLog.tsx';
import { accessTokenWithRole } from '../../test/role-token.ts';

let loopback: Loopback;
let undoRequests: string[] = [];
const refusal = "12 product-days this file wrote were changed since by a later import, 'till3.csv' under 'Till sales' (3 Dec 2026, 14:02 UTC): undo that import first. Nothing was changed.";

const stockUndone = "Undid 'count-week47.csv' (1–30 Nov 2026): put back 412 counts as they were before it and removed the 30 counts it added. The 8 counts it wrote unchanged stay as they are.";

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopback((request, _body, response) => {
    const path = request.url ?? '';
    if (request.method === 'POST' && path.endsWith('/undo/')) {
      undoRequests.push(path);
      if (path.includes('refused')) return sendJson(response, 409, { code: 'conflict', detail: refusal });
      if (path.includes('stock')) return sendJson(response, 200, { message: stockUndone, restored: 412, removed: 30, product_days: 450 });
      return sendJson(response, 200, { message: "Put back the sales of 340 product-days (1–14 Nov 2026) as they were before 'till2.csv'. The 3 products it created are kept.", restored: 340, removed: 0, product_days: 340 });
    }
    return sendJson(response, 404, { code: 'not_found', detail: 'no route' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
  // Node's HTTP client: jsdom's XMLHttpRequest would hold the loopback server to CORS.
  api.defaults.adapter = 'http';
});
afterAll(() => loopback.close());
beforeEach(() => {
  undoRequests = [];
  useImportStore.setState(initialImportState);
});
afterEach(cleanup);

const entry = (id: string, fileName: string, changes: Partial<ImportLogSummary> = {}): ImportLogSummary => ({
  id,
  operationType: 'import',
  status: 'success',
  fileName,
  mappingName: 'Till sales',
  entityType: 'sales',
  details: { counts: { rows: 400, written: 340, inserted: 40, updated: 300, duplicates: 60, created_references: 3 }, sales_written: { product_days: 340, first_day: '2026-11-01', last_day: '2026-11-14' } },
  errorMessage: null,
  progress: { rows_done: 400, bytes_done: 1000, bytes_total: 1000 },
  createdAt: '2026-12-05T10:00:00.000Z',
  finishedAt: '2026-12-05T10:00:02.000Z',
  undoable: true,
  undone: null,
  ...changes,
});
const renderAs = (role: Role, logs: ImportLogSummary[]) => {
  // Logged out as far as loading goes: the log renders the state without fetching.
  useSessionStore.setState({ isLoading: true, isLoggedIn: false, accessToken: accessTokenWithRole(role) });
  useImportStore.setState({ logs });
  return render(<MantineProvider><ImportLog /></MantineProvider>);
};

describe('import log undo', () => {
  it('offers Undo on an undoable sales import only, labelled with its file, and says what it will do before it does it', async () => {
    renderAs('editor', [
      entry('a0000000-0000-4000-8000-000000000001', 'till2.csv'),
      entry('a0000000-0000-4000-8000-000000000002', 'products.csv', { entityType: 'products', undoable: false, details: {} }),
      entry('a0000000-0000-4000-8000-000000000003', 'till1.csv', { undoable: false, undone: { at: '2026-12-05T11:00:00.000Z', by: 'sam', message: 'Put back the sales of 3 product-days.' } }),
    ]);
    expect(screen.getAllByRole('button', { name: /^Undo the import of / }).map((button) => button.getAttribute('aria-label'))).toEqual(['Undo the import of till2.csv']);
    expect(screen.getAllByTestId('log-undone')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Undo the import of till2.csv' }));
    const dialog = await screen.findByRole('dialog', { name: 'Undo the import of till2.csv?' });
    expect(screen.getByTestId('undo-confirm').textContent).toBe('Put back the sales of 340 product-days (1–14 Nov 2026) as they were before this file. The 3 products it created are kept.');
    // The safe choice has the focus.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
    expect(undoRequests).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Undo the import' }));
    expect((await screen.findByRole('status')).textContent).toBe("Put back the sales of 340 product-days (1–14 Nov 2026) as they were before 'till2.csv'. The 3 products it created are kept.");
    expect(undoRequests).toEqual(['/api/records/imports/a0000000-0000-4000-8000-000000000001/undo/']);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Close'));
    expect(screen.getByRole('dialog')).toBe(dialog);
  });

  it("shows the server's refusal sentence, and Cancel sends nothing", async () => {
    renderAs('editor', [entry('refused', 'till1.csv')]);
    fireEvent.click(screen.getByRole('button', { name: 'Undo the import of till1.csv' }));
    await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(undoRequests).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Undo the import of till1.csv' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo the import' }));
    expect((await screen.findByRole('alert')).textContent).toBe(refusal);
    expect(undoRequests).toEqual(['/api/records/imports/refused/undo/']);
  });

  it('offers Undo on a stock count import, saying in numbers which counts go back and which go, and shows what was done', async () => {
    const stock = entry('a0000000-0000-4000-8000-00000000stock', 'count-week47.csv', {
      entityType: 'stock_snapshots',
      mappingName: 'Weekly count',
      details: { counts: { rows: 450, written: 450, inserted: 30, updated: 420, duplicates: 0 }, stock_written: { counts: 450, replaced: 412, added: 30, first_day: '2026-11-01', last_day: '2026-11-30' } },
    });
    renderAs('editor', [stock, entry('a0000000-0000-4000-8000-000000000002', 'products.csv', { entityType: 'products', undoable: false, details: {} })]);
    expect(screen.getAllByRole('button', { name: /^Undo the import of / }).map((button) => button.getAttribute('aria-label'))).toEqual(['Undo the import of count-week47.csv']);
    fireEvent.click(screen.getByRole('button', { name: 'Undo the import of count-week47.csv' }));
    await screen.findByRole('dialog', { name: 'Undo the import of count-week47.csv?' });
    expect(screen.getByTestId('undo-confirm').textContent).toBe(
      'Put back 412 stock counts (1–30 Nov 2026) as they were before this file. Remove the 30 counts it added. The 8 counts it wrote unchanged stay as they are. On hand follows the counts as they will be, and the forecasts are made again.',
    );
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Cancel'));
    fireEvent.click(screen.getByRole('button', { name: 'Undo the import' }));
    expect((await screen.findByRole('status')).textContent).toBe(stockUndone);
    expect(undoRequests).toEqual(['/api/records/imports/a0000000-0000-4000-8000-00000000stock/undo/']);
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Close'));
  });

  it('says a count file that only added counts removes them, and one that changed nothing changes nothing', async () => {
    const added = { counts: 2, replaced: 0, added: 2, first_day: '2026-12-05', last_day: '2026-12-05' };
    renderAs('editor', [
      entry('a0000000-0000-4000-8000-000000000011', 'branch-b.csv', { entityType: 'stock_snapshots', details: { stock_written: added } }),
      entry('a0000000-0000-4000-8000-000000000012', 'again.csv', { entityType: 'stock_snapshots', details: { stock_written: { ...added, added: 0 } } }),
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Undo the import of branch-b.csv' }));
    await screen.findByRole('dialog');
    expect(screen.getByTestId('undo-confirm').textContent).toBe('Remove the 2 stock counts this file added (5 Dec 2026). On hand follows the counts as they will be, and the forecasts are made again.');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Undo the import of again.csv' }));
    await screen.findByRole('dialog');
    expect(screen.getByTestId('undo-confirm').textContent).toBe('Every count this file wrote was the same before it: nothing will change.');
  });

  it("says how a file's dates were read on its own line, not under 'on hand did not change' (QA garden centre F15)", () => {
    const till = entry('a0000000-0000-4000-8000-000000000009', 'kassa-verkopen.csv');
    const dates = 'Dates were read day-first (dd/mm/yyyy).';
    useImportStore.setState({ selectedLogId: till.id, logDetail: { ...till, details: { ...till.details, dates_read: dates }, fileContent: null } });
    renderAs('editor', [till]);
    expect(screen.getByTestId('log-date-order').textContent).toBe(dates);
    expect(screen.queryByText('Imported, but on hand did not change')).toBeNull();
  });

  it('offers a viewer no Undo', () => {
    renderAs('viewer', [entry('a0000000-0000-4000-8000-000000000001', 'till2.csv')]);
    expect(screen.queryByRole('button', { name: /^Undo/ })).toBeNull();
  });
});
