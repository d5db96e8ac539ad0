// @vitest-environment node
// The reports store against a real loopback HTTP server playing /api/user-reports/*: each
// operation's busy/error state and the spec §8 strings where they happen, and unsaved edits kept in
// the browser's storage (a Map behind the Storage interface: this file runs in node, for the loopback).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/http.ts';
import { fetchReportData } from '../api/reports.ts';
import { browserTimeZone } from '../api/shop-day.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { useSessionStore } from './session.ts';
import { hasUnsavedChanges, initialReportsState, useReportsStore } from './reports.ts';
import { draftStorage, keepDraft, readKeptDraft, reportDraftKey } from './report-drafts.ts';

let loopback: Loopback;
/** `hold`: the answer waits for it (something happens in the app meanwhile). */
let answers: Record<string, { status: number; body: unknown; hold?: Promise<void>; file?: { type: string; bytes: Buffer } }> = {};
/** Each call's path, query and body, in order. */
let calls: { key: string; query: string; body: unknown; ifMatch: string | undefined }[] = [];
const report = { id: 7, title: 'Stock', description: '', sql_code: 'select 1', chart_config: null, owner: 1, owner_username: 'ann', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', pseudocode: '', version: '100' };

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback((request, body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    const key = `${request.method} ${url.pathname}`;
    const ifMatch = request.headers['if-match'];
    calls.push({ key, query: url.search, body: body ? JSON.parse(body) : null, ifMatch: Array.isArray(ifMatch) ? ifMatch.join(',') : ifMatch });
    const answer = answers[key] ?? { status: 404, body: { detail: 'no route', code: 'not_found' } };
    void (answer.hold ?? Promise.resolve()).then(() => {
      if (!answer.file) return sendJson(response, answer.status, answer.body);
      response.writeHead(answer.status, { 'Content-Type': answer.file.type });
      response.end(answer.file.bytes);
    });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterAll(() => loopback.close());
beforeEach(() => {
  answers = { 'GET /api/user-reports/7/': { status: 200, body: report } };
  calls = [];
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useReportsStore.setState(initialReportsState);
});

const state = () => useReportsStore.getState();
const failing = { status: 500, body: { detail: 'boom', code: 'internal_error' } };

describe('reports store', () => {
  it('needs a loaded session, and says so when the list or details fail', async () => {
    useSessionStore.setState({ isLoading: true });
    await state().loadReports();
    expect(state().error).toBe('Authentication not ready. Please try again.');
    useSessionStore.setState({ isLoading: false });
    answers['GET /api/user-reports/'] = failing;
    await state().loadReports();
    expect(state()).toMatchObject({ loading: false, error: 'Failed to load reports list' });
    answers['GET /api/user-reports/8/'] = failing;
    await state().selectReport(8);
    expect(state().error).toBe('Failed to load report details');
    // A report not there (a link to one deleted since) is said as such.
    await state().selectReport(9);
    expect(state()).toMatchObject({ loading: false, selectedReport: null, error: 'There is no report 9: it may have been deleted, or the link is wrong. Choose a report from the list.' });
  });

  it('refuses without a selection: save, apply, regenerate', async () => {
    await state().saveReport();
    await state().applyChangeRequest('by month');
    await state().regenerateSql();
    expect(state().operations.save.error).toBe('Cannot save: No report details or ID selected.');
    expect(state().operations.generate.error).toBe('No report selected to apply changes.');
    expect(state().operations.regenerate.error).toBe('No report selected to regenerate SQL.');
  });

  it('selecting loads the report and clears the last run; each operation has its own error', async () => {
    useReportsStore.setState({ execution: { success: true, results: [], columns: [], truncated: false, row_count: 0, duration_ms: 1, error: null, error_details: null, unfinished_period: null, first_period_cut: null } });
    await state().selectReport(7);
    expect(state()).toMatchObject({ selectedReport: report, execution: null, loading: false, draft: { sql_code: 'select 1' } });

    state().updateDraft({ sql_code: '  ' });
    await state().runSql();
    expect(state().operations.run.error).toBe('No SQL code to execute.');
    state().updateDraft({ sql_code: 'select nope' });
    const sqlError = { message: 'column "nope" does not exist.', hint: 'Perhaps you meant to reference the column "products.note".', detail: null, line: 1, column: 8 };
    answers['POST /api/user-reports/execute/'] = { status: 200, body: { success: false, results: [], columns: [], truncated: false, row_count: 0, duration_ms: 1, error: 'column "nope" does not exist.', error_details: sqlError } };
    await state().runSql();
    expect(state().operations.run).toEqual({ busy: false, error: 'Execution failed on backend.', detail: 'column "nope" does not exist.', sqlError });
    expect(state().executedSql).toBe('select nope');
    answers['POST /api/user-reports/execute/'] = failing;
    await state().runSql();
    expect(state().operations.run.error).toBe('Failed to execute SQL query');

    for (const [key, action, operation, message] of [
      ['PUT /api/user-reports/7/', () => state().saveReport(), 'save', 'Failed to save report'],
      ['POST /api/user-reports/generate-from-request/', () => state().applyChangeRequest('by month'), 'generate', 'Failed to apply changes'],
      ['POST /api/user-reports/regenerate/', () => state().regenerateSql(), 'regenerate', 'Failed to regenerate SQL'],
      ['DELETE /api/user-reports/7/', () => state().deleteReport(), 'delete', 'Failed to delete report'],
    ] as const) {
      answers[key] = failing;
      await action();
      expect(state().operations[operation]).toMatchObject({ busy: false, error: message });
    }
    answers['POST /api/user-reports/generate-from-request/'] = { status: 200, body: { success: false, title: null, description: null, sql_code: null, chart_config: null, pseudocode: null, provider: 'built-in', error: null } };
    await state().applyChangeRequest('make it sparkle');
    expect(state().operations.generate.error).toBe('Generation failed');
    const refused = { message: 'column "nmae" does not exist.', hint: 'Perhaps you meant to reference the column "p.name".', detail: null, line: null, column: null };
    answers['POST /api/user-reports/regenerate/'] = { status: 200, body: { success: false, generated_value: null, provider: 'built-in', error: 'cannot', error_details: refused } };
    await state().regenerateSql();
    expect(state().operations.regenerate).toMatchObject({ error: 'SQL regeneration failed', detail: 'cannot', sqlError: refused });

    // A new report's first Save is its creation: a refusal is said as the spec's create failure, and the draft stays.
    state().newReport();
    state().updateDraft({ title: 'Weekly sales' });
    answers['POST /api/user-reports/'] = failing;
    await state().saveReport();
    expect(state().operations.create).toMatchObject({ busy: false, error: 'Failed to create report', detail: 'boom' });
    expect(state()).toMatchObject({ isNewDraft: true, selectedReport: null, draft: { title: 'Weekly sales' } });
  });

  it('"New report" opens a draft that is stored only on Save, then goes on as the saved report', async () => {
    state().newReport();
    expect(state()).toMatchObject({ isNewDraft: true, selectedReport: null, draft: { title: 'Untitled Report', sql_code: 'SELECT 1;' }, execution: null });
    expect(hasUnsavedChanges(state())).toBe(false);
    // Running, asking the writer and regenerating need nothing stored.
    answers['POST /api/user-reports/generate-from-request/'] = {
      status: 200,
      body: { success: true, title: 'Sales by week', description: 'Units sold each week', sql_code: 'select 5', chart_config: null, pseudocode: 'count', provider: 'built-in', error: null, notice: null },
    };
    await state().applyChangeRequest('sales by week');
    expect(calls.map((call) => call.key)).toEqual(['POST /api/user-reports/generate-from-request/']);
    expect(calls[0]?.body).toMatchObject({ report_id: null, change_request: 'sales by week', current_title: 'Untitled Report' });
    expect(state().draft).toMatchObject({ title: 'Sales by week', sql_code: 'select 5' });
    expect(hasUnsavedChanges(state())).toBe(true);

    const created = { ...report, id: 12, title: 'Sales by week', description: 'Units sold each week', sql_code: 'select 5', pseudocode: 'count' };
    answers['POST /api/user-reports/'] = { status: 201, body: created };
    await state().saveReport();
    expect(calls.at(-1)).toMatchObject({ key: 'POST /api/user-reports/', body: { title: 'Sales by week', description: 'Units sold each week', sql_code: 'select 5', chart_config: null, pseudocode: 'count' } });
    expect(state()).toMatchObject({ isNewDraft: false, selectedReport: { id: 12 }, reportData: [{ id: 12 }] });
    expect(hasUnsavedChanges(state())).toBe(false);

    // The next Save changes the stored report; nothing more is created.
    state().updateDraft({ title: 'Sales by week, garden' });
    answers['PUT /api/user-reports/12/'] = { status: 200, body: { ...created, title: 'Sales by week, garden' } };
    await state().saveReport();
    expect(calls.filter((call) => call.key === 'POST /api/user-reports/')).toHaveLength(1);
    expect(calls.at(-1)?.key).toBe('PUT /api/user-reports/12/');
  });

  it('"Apply change" keeps the title and description the user typed, also while the answer was awaited; untouched ones take the proposal\'s', async () => {
    const proposal = (title: string, description: string) => ({ status: 200, body: { success: true, title, description, sql_code: 'select 5', chart_config: null, pseudocode: 'count', provider: 'built-in', error: null, notice: null } });
    await state().selectReport(7);
    // The title typed before asking stays; the description, untouched, takes the proposal's.
    state().updateDraft({ title: 'Garden weekly' });
    answers['POST /api/user-reports/generate-from-request/'] = proposal('Sales by week', 'Units sold each week');
    await state().applyChangeRequest('sales by week');
    expect(calls.at(-1)?.body).toMatchObject({ current_title: 'Garden weekly' });
    expect(state().draft).toMatchObject({ title: 'Garden weekly', description: 'Units sold each week', sql_code: 'select 5' });
    // The proposal's description, not typed over since, gives way to the next proposal's; a description typed while it was awaited stays.
    let release = () => {};
    answers['POST /api/user-reports/generate-from-request/'] = { ...proposal('Sales by month', 'Units sold each month'), hold: new Promise<void>((resolve) => (release = resolve)) };
    const applying = state().applyChangeRequest('by month');
    await vi.waitFor(() => expect(calls.at(-1)?.key).toBe('POST /api/user-reports/generate-from-request/'));
    state().updateDraft({ description: 'For the garden team' });
    release();
    await applying;
    expect(state().draft).toMatchObject({ title: 'Garden weekly', description: 'For the garden team', sql_code: 'select 5' });
    // Another report: its saved title is untouched, so a proposal names it.
    await state().selectReport(7);
    answers['POST /api/user-reports/generate-from-request/'] = proposal('Sales by day', 'Units sold each day');
    await state().applyChangeRequest('by day');
    expect(state().draft).toMatchObject({ title: 'Sales by day', description: 'Units sold each day' });
    answers['POST /api/user-reports/generate-from-request/'] = proposal('Sales by weekday', 'Units sold each weekday');
    await state().applyChangeRequest('by weekday');
    expect(state().draft).toMatchObject({ title: 'Sales by weekday', description: 'Units sold each weekday' });
  });

  it('saves the chart the editor shows for the run of its SQL: the proposed one, or one for the new columns when the chosen one lost them', async () => {
    const run = (columns: { name: string; type: string }[], results: Record<string, unknown>[]) => {
      answers['POST /api/user-reports/execute/'] = { status: 200, body: { success: true, results, columns: columns.map((c) => ({ ...c, db_type: 'x' })), truncated: false, row_count: results.length, duration_ms: 1, error: null, unfinished_period: null } };
      return state().runSql();
    };
    answers['GET /api/user-reports/7/'] = { status: 200, body: { ...report, pseudocode: '1. Select one.' } };
    await state().selectReport(7);
    state().updateDraft({ title: 'Stock by category' });
    expect(state().draft?.pseudocode).toBe('1. Select one.');
    // Its SQL changed by hand, the explanation of the SQL before goes.
    state().updateDraft({ sql_code: 'select category, count(*) as products from products group by 1' });
    expect(state().draft?.pseudocode).toBe('');
    await run([{ name: 'category', type: 'text' }, { name: 'products', type: 'number' }], [{ category: 'Garden', products: 3 }, { category: 'Heating', products: 5 }, { category: 'Tools', products: 2 }]);
    answers['PUT /api/user-reports/7/'] = { status: 200, body: report };
    await state().saveReport();
    expect(calls.at(-1)?.body).toMatchObject({ chart_config: { type: 'bar', x_field: 'category', series: [{ field: 'products' }] } });

    // The chosen chart reads month and units; the SQL now gives category and stock.
    state().updateDraft({ sql_code: 'select category, sum(current_stock) as stock from products group by 1', chart_config: { type: 'line', x_field: 'month', series: [{ field: 'units' }], group_field: 'category', stacked: false, title: '', sort: null } });
    await run([{ name: 'category', type: 'text' }, { name: 'stock', type: 'number' }], [{ category: 'Garden', stock: 40 }, { category: 'Heating', stock: 12 }, { category: 'Tools', stock: 7 }]);
    await state().saveReport();
    expect(calls.at(-1)?.body).toMatchObject({ chart_config: { x_field: 'category', series: [{ field: 'stock' }], group_field: null } });

    // SQL edited after its run: the chart is saved as chosen (no result tells what it should be).
    const chosen = { type: 'pie' as const, x_field: 'category', series: [{ field: 'stock' }], group_field: null, stacked: false, title: '', sort: null };
    state().updateDraft({ sql_code: 'select 3', chart_config: chosen });
    await state().saveReport();
    expect(calls.at(-1)?.body).toMatchObject({ chart_config: chosen });
  });

  it('a blank new draft left for another report stores nothing', async () => {
    state().newReport();
    state().newReport();
    await state().selectReport(7);
    expect(calls.map((call) => call.key)).toEqual(['GET /api/user-reports/7/']);
    expect(state()).toMatchObject({ isNewDraft: false, selectedReport: { id: 7 } });
  });

  it('downloads the last run as .xlsx: its SQL run again by the server, named by the title; a refusal says why', async () => {
    await state().selectReport(7);
    expect(await state().exportXlsx()).toBeNull();
    expect(state().operations.export.error).toBe('Run the report first: the Excel file holds the rows a run shows.');
    answers['POST /api/user-reports/execute/'] = { status: 200, body: { success: true, results: [{ one: 1 }], columns: [{ name: 'one', type: 'number', db_type: 'int4' }], truncated: false, row_count: 1, duration_ms: 1, error: null, unfinished_period: null } };
    await state().runSql();
    // An edit after the run does not change what the file holds: the rows shown are the run's.
    state().updateDraft({ title: 'Stock by day', sql_code: 'select 2' });
    const workbook = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x01]);
    answers['POST /api/user-reports/export/'] = { status: 200, body: null, file: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes: workbook } };
    const file = await state().exportXlsx();
    expect(file && [...new Uint8Array(await file.arrayBuffer())]).toEqual([...workbook]);
    // Run and file both in the viewer's day: the report's current_date is the browser's zone's (ADR 0030).
    const inZone = `time_zone=${encodeURIComponent(browserTimeZone())}`;
    expect(calls.findLast((call) => call.key === 'POST /api/user-reports/execute/')?.query).toBe(`?${inZone}`);
    expect(calls.at(-1)).toEqual({ key: 'POST /api/user-reports/export/', query: `?format=xlsx&${inZone}`, body: { sql_code: 'select 1', title: 'Stock by day', money_fields: [] } });
    expect(state().operations.export).toEqual({ busy: false, error: null, detail: null, sqlError: null });
    answers['POST /api/user-reports/export/'] = { status: 400, body: { detail: 'The report ran longer than 10 s and was stopped.', code: 'validation_error', errors: { sql_code: ['The report ran longer than 10 s and was stopped.'] } } };
    expect(await state().exportXlsx()).toBeNull();
    expect(state().operations.export).toEqual({ busy: false, error: 'Failed to download the Excel file', detail: 'The report ran longer than 10 s and was stopped.', sqlError: null });
  });


  it("asks for the money columns the result's table shows in the shop's currency: proposed by name, or the chart's choice", async () => {
    await state().selectReport(7);
    const columns = [{ name: 'product_code', type: 'text', db_type: 'text' }, { name: 'stock_value', type: 'number', db_type: 'numeric' }, { name: 'units', type: 'number', db_type: 'int4' }];
    answers['POST /api/user-reports/execute/'] = { status: 200, body: { success: true, results: [{ product_code: 'A', stock_value: 12.5, units: 3 }], columns, truncated: false, row_count: 1, duration_ms: 1, error: null, unfinished_period: null } };
    answers['POST /api/user-reports/export/'] = { status: 200, body: null, file: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', bytes: Buffer.from([0x50, 0x4b]) } };
    await state().runSql();
    await state().exportXlsx();
    expect(calls.at(-1)?.body).toMatchObject({ money_fields: ['stock_value'] });
    state().updateDraft({ chart_config: { type: 'table', x_field: null, series: [], group_field: null, stacked: false, title: '', sort: null, money_fields: ['stock_value', 'units'] } });
    await state().exportXlsx();
    expect(calls.at(-1)?.body).toMatchObject({ money_fields: ['stock_value', 'units'] });
  });

  it("keeps the server's notice of what a change request or a regenerated SQL left out until the next request or another report", async () => {
    await state().selectReport(7);
    const draft = { success: true, title: 'Units sold by store', description: '', sql_code: 'select 2', chart_config: null, pseudocode: '1. Read sales.', provider: 'built-in', error: null };
    answers['POST /api/user-reports/generate-from-request/'] = { status: 200, body: { ...draft, notice: 'The built-in generator did not use "store".' } };
    await state().applyChangeRequest('units sold by store');
    expect(state()).toMatchObject({ generateNotice: 'The built-in generator did not use "store".', draft: { sql_code: 'select 2' } });
    answers['POST /api/user-reports/generate-from-request/'] = { status: 200, body: { ...draft, notice: null } };
    await state().applyChangeRequest('units sold by category');
    expect(state().generateNotice).toBeNull();
    answers['POST /api/user-reports/generate-from-request/'] = { status: 200, body: { ...draft, notice: 'left out' } };
    await state().applyChangeRequest('units sold by store');
    await state().selectReport(7);
    expect(state().generateNotice).toBeNull();
    // Regenerating the SQL from the title and description says what it left out the same way, and clears it when nothing was.
    answers['POST /api/user-reports/regenerate/'] = { status: 200, body: { success: true, generated_value: 'select 3', provider: 'built-in', error: null, notice: 'The built-in generator did not use "Christmas".' } };
    await state().regenerateSql();
    expect(state()).toMatchObject({ generateNotice: 'The built-in generator did not use "Christmas".', draft: { sql_code: 'select 3' } });
    answers['POST /api/user-reports/regenerate/'] = { status: 200, body: { success: true, generated_value: 'select 4', provider: 'built-in', error: null, notice: null } };
    await state().regenerateSql();
    expect(state().generateNotice).toBeNull();
    // Both send the browser's zone: its seasons and financial year are the request's (QA7 F10, F11).
    const inZone = `?time_zone=${encodeURIComponent(browserTimeZone())}`;
    for (const key of ['POST /api/user-reports/generate-from-request/', 'POST /api/user-reports/regenerate/']) expect(calls.findLast((call) => call.key === key)?.query, key).toBe(inZone);
  });

  it('fetches a named report for the dashboard; a missing one names it', async () => {
    expect(await fetchReportData('')).toBeNull();
    answers['GET /api/user-reports/Low stock/data/'] = { status: 404, body: { detail: "Report 'Low stock' not found.", code: 'not_found' } };
    await expect(fetchReportData('Low stock')).rejects.toThrow('Failed to fetch report data for "Low stock"');
  });
});

describe('unsaved edits kept in the page', () => {
  const storage = draftStorage();
  const keys = () => Array.from({ length: storage.length }, (_, index) => storage.key(index));
  /** An access token of user 1 (only its claims are read here). */
  const tokenOf = (userId: number) => `h.${Buffer.from(JSON.stringify({ sub: String(userId), role: 'editor' })).toString('base64url')}.s`;
  const kept = () => readKeptDraft(storage, 1, 7);
  /** The screen left and opened again: its state starts afresh, the page's memory stays. */
  const reload = () => useReportsStore.setState(initialReportsState);

  beforeEach(() => {
    storage.clear();
    useSessionStore.setState({ accessToken: tokenOf(1) });
  });

  it('keeps edits, restores them with their time when the report is opened again, and discards them back to the saved report', async () => {
    await state().selectReport(7);
    expect(hasUnsavedChanges(state())).toBe(false);
    state().updateDraft({ sql_code: 'select 2', title: 'Stock, edited' });
    expect(hasUnsavedChanges(state())).toBe(true);
    expect(kept()?.draft).toMatchObject({ sql_code: 'select 2', title: 'Stock, edited' });
    const editedAt = kept()?.editedAt;

    reload();
    await state().selectReport(7);
    expect(state().draft).toMatchObject({ sql_code: 'select 2', title: 'Stock, edited' });
    expect(state().restoredDraft).toEqual({ editedAt, savedSince: false });
    expect(hasUnsavedChanges(state())).toBe(true);

    state().discardDraft();
    expect(state().draft).toMatchObject({ sql_code: 'select 1', title: 'Stock' });
    expect(state().restoredDraft).toBeNull();
    expect(kept()).toBeNull();
    reload();
    await state().selectReport(7);
    expect(state()).toMatchObject({ draft: { sql_code: 'select 1' }, restoredDraft: null });
  });

  it("keeps nothing once the edits are undone by hand, and nothing under another user's key", async () => {
    await state().selectReport(7);
    state().updateDraft({ sql_code: 'select 2' });
    state().updateDraft({ sql_code: 'select 1' });
    expect(storage.length).toBe(0);
    expect(hasUnsavedChanges(state())).toBe(false);
    state().updateDraft({ sql_code: 'select 3' });
    expect(keys()).toEqual([reportDraftKey(1, 7)]);
    useSessionStore.setState({ accessToken: tokenOf(2) });
    reload();
    await state().selectReport(7);
    expect(state()).toMatchObject({ draft: { sql_code: 'select 1' }, restoredDraft: null });
  });

  it('says when the report was saved again after the kept edits were made', async () => {
    keepDraft(storage, 1, 7, { draft: { title: 'Stock', description: '', sql_code: 'select 9', chart_config: null, pseudocode: '' }, editedAt: Date.now(), baseUpdatedAt: '2025-12-01T00:00:00Z' });
    await state().selectReport(7);
    expect(state()).toMatchObject({ draft: { sql_code: 'select 9' }, restoredDraft: { savedSince: true } });
  });

  it("saving forgets the kept draft and takes the server's version; edits made while it saves stay kept", async () => {
    await state().selectReport(7);
    state().updateDraft({ title: '  Stock by day ' });
    answers['PUT /api/user-reports/7/'] = { status: 200, body: { ...report, title: 'Stock by day', updated_at: '2026-02-01T00:00:00Z' } };
    await state().saveReport();
    expect(state().draft?.title).toBe('Stock by day');
    expect(hasUnsavedChanges(state())).toBe(false);
    expect(storage.length).toBe(0);

    state().updateDraft({ sql_code: 'select 2' });
    let answerSave = () => {};
    answers['PUT /api/user-reports/7/'] = { status: 200, body: { ...report, title: 'Stock by day', sql_code: 'select 2', updated_at: '2026-02-02T00:00:00Z' }, hold: new Promise((resolve) => (answerSave = resolve)) };
    const saving = state().saveReport();
    state().updateDraft({ sql_code: 'select 3' });
    answerSave();
    await saving;
    expect(state().draft?.sql_code).toBe('select 3');
    expect(kept()).toMatchObject({ draft: { sql_code: 'select 3' }, baseUpdatedAt: '2026-02-02T00:00:00Z' });
  });

  it("keeps a new report's edits while another report is open, restores them on New report, and forgets them once it is saved", async () => {
    state().newReport();
    state().updateDraft({ sql_code: 'select 4' });
    expect(keys()).toEqual([reportDraftKey(1, 0)]);
    await state().selectReport(7);
    answers['GET /api/user-reports/'] = { status: 200, body: [report] };
    await state().loadReports();
    expect(keys()).toEqual([reportDraftKey(1, 0)]);

    state().newReport();
    expect(state()).toMatchObject({ isNewDraft: true, draft: { sql_code: 'select 4', title: 'Untitled Report' }, restoredDraft: { savedSince: false } });
    expect(hasUnsavedChanges(state())).toBe(true);
    state().discardDraft();
    expect(state().draft).toMatchObject({ sql_code: 'SELECT 1;' });
    expect(storage.length).toBe(0);

    state().updateDraft({ sql_code: 'select 5' });
    answers['POST /api/user-reports/'] = { status: 201, body: { ...report, id: 13, sql_code: 'select 5' } };
    await state().saveReport();
    expect(storage.length).toBe(0);
    state().newReport();
    expect(state()).toMatchObject({ draft: { sql_code: 'SELECT 1;' }, restoredDraft: null });
  });

  it("forgets a deleted report's draft, and drafts of reports the list no longer has", async () => {
    await state().selectReport(7);
    state().updateDraft({ sql_code: 'select 2' });
    keepDraft(storage, 1, 99, { draft: { title: 'Gone', description: '', sql_code: 'select 1', chart_config: null, pseudocode: '' }, editedAt: Date.now(), baseUpdatedAt: '2026-01-01T00:00:00Z' });
    answers['GET /api/user-reports/'] = { status: 200, body: [report] };
    await state().loadReports();
    expect(keys()).toEqual([reportDraftKey(1, 7)]);
    answers['DELETE /api/user-reports/7/'] = { status: 204, body: null };
    await state().deleteReport();
    expect(storage.length).toBe(0);
  });

  it("an AI rewrite or a save answered after another report was opened changes nothing of that report's", async () => {
    const other = { ...report, id: 8, title: 'Other', sql_code: 'select 8' };
    answers['GET /api/user-reports/8/'] = { status: 200, body: other };
    await state().selectReport(7);
    let answerAi = () => {};
    answers['POST /api/user-reports/generate-from-request/'] = {
      status: 200,
      body: { success: true, title: 'Rewritten', description: '', sql_code: 'select 42', chart_config: null, pseudocode: '', provider: 'built-in', error: null, notice: null },
      hold: new Promise((resolve) => (answerAi = resolve)),
    };
    const rewriting = state().applyChangeRequest('by month');
    await state().selectReport(8);
    answerAi();
    await rewriting;
    expect(state().draft).toMatchObject({ title: 'Other', sql_code: 'select 8' });
    expect(state().operations.generate.busy).toBe(false);

    await state().selectReport(7);
    state().updateDraft({ title: 'Stock 2' });
    let answerSave = () => {};
    answers['PUT /api/user-reports/7/'] = { status: 200, body: { ...report, title: 'Stock 2' }, hold: new Promise((resolve) => (answerSave = resolve)) };
    const saving = state().saveReport();
    await state().selectReport(8);
    answerSave();
    await saving;
    expect(state().selectedReport).toMatchObject({ id: 8, title: 'Other' });
    expect(storage.length).toBe(0);

    // A run of report 7 answered once 8 is open: its rows are not shown under 8.
    await state().selectReport(7);
    let answerRun = () => {};
    answers['POST /api/user-reports/execute/'] = {
      status: 200,
      body: { success: true, results: [{ n: 7 }], columns: ['n'], truncated: false, row_count: 1, duration_ms: 1, error: null },
      hold: new Promise((resolve) => (answerRun = resolve)),
    };
    const running = state().runSql();
    await state().selectReport(8);
    answerRun();
    await running;
    expect(state()).toMatchObject({ selectedReport: { id: 8 }, execution: null, operations: { run: { busy: false } } });
  });

  it('saves and deletes at the version it read; refused as saved meanwhile, keeps the draft and reloads their version on Reload (ADR 0168)', async () => {
    await state().selectReport(7);
    state().updateDraft({ sql_code: 'select 3' });
    const theirs = { ...report, sql_code: 'select 2', updated_at: '2026-01-02T14:02:00Z', version: '101' };
    const detail = 'This report was changed by sam at 14:02 after you opened it. Reload to see their change, then edit again.';
    answers['PUT /api/user-reports/7/'] = { status: 409, body: { detail, code: 'edit_conflict', current: theirs, changed_by: 'sam', changed_at: theirs.updated_at } };
    await state().saveReport();
    expect(calls.at(-1)).toMatchObject({ key: 'PUT /api/user-reports/7/', ifMatch: '"100"' });
    expect(calls.at(-1)?.query).toContain('time_zone=');
    expect(state()).toMatchObject({ draft: { sql_code: 'select 3' }, savedMeanwhile: theirs, operations: { save: { busy: false, error: 'Failed to save report', detail } } });
    answers['DELETE /api/user-reports/7/'] = { status: 409, body: { detail, code: 'edit_conflict', current: theirs } };
    await state().deleteReport();
    expect(calls.at(-1)).toMatchObject({ key: 'DELETE /api/user-reports/7/', ifMatch: '"100"' });
    expect(state().selectedReport?.id).toBe(7);
    state().reloadReport();
    expect(state()).toMatchObject({ selectedReport: theirs, draft: { sql_code: 'select 2' }, savedMeanwhile: null, operations: { save: { error: null }, delete: { error: null } } });
    expect(hasUnsavedChanges(state())).toBe(false);
    // From their version on, a save is made at it.
    answers['PUT /api/user-reports/7/'] = { status: 200, body: { ...theirs, sql_code: 'select 4', version: '102' } };
    state().updateDraft({ sql_code: 'select 4' });
    await state().saveReport();
    expect(calls.at(-1)).toMatchObject({ key: 'PUT /api/user-reports/7/', ifMatch: '"101"' });
    expect(state()).toMatchObject({ selectedReport: { version: '102' }, operations: { save: { error: null } } });
  });
});
