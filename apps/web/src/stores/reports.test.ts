// @vitest-environment node
// The reports store against a real loopback HTTP server playing /api/user-reports/*: each
// operation's busy/error state and the spec §8 strings where they happen.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../api/http.ts';
import { fetchReportData } from '../api/reports.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { useSessionStore } from './session.ts';
import { initialReportsState, useReportsStore } from './reports.ts';

let loopback: Loopback;
let answers: Record<string, { status: number; body: unknown }> = {};
const report = { id: 7, title: 'Stock', description: '', sql_code: 'select 1', chart_config: null, owner: 1, owner_username: 'ann', created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z', pseudocode: '' };

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback((request, _body, response) => {
    const key = `${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`;
    const answer = answers[key] ?? { status: 404, body: { detail: 'no route', code: 'not_found' } };
    sendJson(response, answer.status, answer.body);
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterAll(() => loopback.close());
beforeEach(() => {
  answers = { 'GET /api/user-reports/7/': { status: 200, body: report } };
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
    await state().selectReport(8);
    expect(state().error).toBe('Failed to load report details');
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
    useReportsStore.setState({ execution: { success: true, results: [], columns: [], truncated: false, row_count: 0, duration_ms: 1, error: null, unfinished_period: null } });
    await state().selectReport(7);
    expect(state()).toMatchObject({ selectedReport: report, execution: null, loading: false, draft: { sql_code: 'select 1' } });

    state().updateDraft({ sql_code: '  ' });
    await state().runSql();
    expect(state().operations.run.error).toBe('No SQL code to execute.');
    state().updateDraft({ sql_code: 'select nope' });
    answers['POST /api/user-reports/execute/'] = { status: 200, body: { success: false, results: [], columns: [], truncated: false, row_count: 0, duration_ms: 1, error: 'column "nope" does not exist.' } };
    await state().runSql();
    expect(state().operations.run).toEqual({ busy: false, error: 'Execution failed on backend.', detail: 'column "nope" does not exist.' });
    answers['POST /api/user-reports/execute/'] = failing;
    await state().runSql();
    expect(state().operations.run.error).toBe('Failed to execute SQL query');

    for (const [key, action, operation, message] of [
      ['PUT /api/user-reports/7/', () => state().saveReport(), 'save', 'Failed to save report'],
      ['POST /api/user-reports/', () => state().createReport(), 'create', 'Failed to create report'],
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
    answers['POST /api/user-reports/regenerate/'] = { status: 200, body: { success: false, generated_value: null, provider: 'built-in', error: 'cannot' } };
    await state().regenerateSql();
    expect(state().operations.regenerate).toMatchObject({ error: 'SQL regeneration failed', detail: 'cannot' });
  });

  it("keeps the server's notice of what a change request left out until the next request or another report", async () => {
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
  });

  it('fetches a named report for the dashboard; a missing one names it', async () => {
    expect(await fetchReportData('')).toBeNull();
    answers['GET /api/user-reports/Low stock/data/'] = { status: 404, body: { detail: "Report 'Low stock' not found.", code: 'not_found' } };
    await expect(fetchReportData('Low stock')).rejects.toThrow('Failed to fetch report data for "Low stock"');
  });
});
