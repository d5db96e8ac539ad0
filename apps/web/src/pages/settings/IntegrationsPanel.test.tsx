// The integrations panel per role (admins create, edit and delete; editors run; viewers read), the
// schedule in words, a failed run's message, a last run's rejected records and what its mapping left
// out and created, rendered from store state; the delete confirmation opens on Cancel and its closing
// gives the focus back; a save refused as saved meanwhile keeps what was typed, says so, and Reload
// puts their integration in the form; a refused switch or delete offers Reload.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { Integration, IntegrationLogEntry, Role } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { initialIntegrationsState, useIntegrationsStore } from '../../stores/integrations.ts';
import { draftOf } from './integration-form.ts';
import { useSessionStore } from '../../stores/session.ts';
import { IntegrationsPanel } from './IntegrationsPanel.tsx';
import { accessTokenWithRole } from '../../test/role-token.ts';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

const endpoint = 'https://shop.example/api/sales';
const integration: Integration = {
  id: 7, enabled: true, endpoint, schedule_frequency: 'custom', cron_expression: '30 6 * * 1-5', schedule_cron: '30 6 * * 1-5', time_zone: 'Europe/Berlin', mapping_selection: 'shop', target_entity: 'sales',
  data_action: 'upsert', data_fetch_type: 'latest', previous_days: null, initial_setup: false, rate_limit: 60, batch_size: 100, records_path: null, pagination: 'none',
  next_field: 'next', page_parameter: 'page', auth_header_name: null, auth_header_value: null, status: 'failed', last_run_time: '2026-03-02T06:30:00.000Z',
  next_run_time: '2026-03-03T06:30:00.000Z', last_success_time: null, last_error_message: 'shop.example answered HTTP 503 for page 1. (after 4 tries).', consecutive_failures: 1,
  last_run_rejected: 0, last_run_warning: null, last_run_kept_message: null, last_run_summary: null, run_progress: null,
  created_at: '2026-03-01T00:00:00.000Z', updated_at: '2026-03-01T00:00:00.000Z', version: '1',
};

beforeEach(() => useIntegrationsStore.setState({ ...initialIntegrationsState, integrations: [integration] }));

const renderAs = (role: Role) => {
  // Logged out as far as loading goes: the panel renders the state without fetching.
  useSessionStore.setState({ isLoading: true, isLoggedIn: false, accessToken: accessTokenWithRole(role) });
  return render(<MantineProvider><IntegrationsPanel /></MantineProvider>);
};

describe('integrations panel', () => {
  it('gives admins every action', () => {
    renderAs('admin');
    expect(screen.getByRole('button', { name: 'New integration' })).toBeTruthy();
    for (const name of [`Run now: ${endpoint}`, `Logs of ${endpoint}`, `Edit ${endpoint}`, `Delete ${endpoint}`]) expect(screen.getByRole('button', { name })).toBeTruthy();
    expect((screen.getByRole('switch', { name: `Enabled: ${endpoint}` }) as HTMLInputElement).disabled).toBe(false);
  });

  it('lets editors run and read, not change', () => {
    renderAs('editor');
    expect(screen.queryByRole('button', { name: 'New integration' })).toBeNull();
    expect(screen.getByRole('button', { name: `Run now: ${endpoint}` })).toBeTruthy();
    expect(screen.queryByRole('button', { name: `Edit ${endpoint}` })).toBeNull();
    expect(screen.queryByRole('button', { name: `Delete ${endpoint}` })).toBeNull();
    expect((screen.getByRole('switch', { name: `Enabled: ${endpoint}` }) as HTMLInputElement).disabled).toBe(true);
  });

  it('keeps the keyboard on Run now while its run goes on: shown busy, not disabled', () => {
    useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'idle' }] });
    renderAs('editor');
    const run = screen.getByRole('button', { name: `Run now: ${endpoint}` }) as HTMLButtonElement;
    run.focus();
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'running' }] }));
    const running = screen.getByRole('button', { name: `Run now: ${endpoint}` }) as HTMLButtonElement;
    expect(running.disabled).toBe(false);
    expect(running.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(running);
  });

  it('lets viewers read: the schedule in words, the status and the failure', () => {
    renderAs('viewer');
    expect(screen.queryByRole('button', { name: `Run now: ${endpoint}` })).toBeNull();
    // A disclosure: it says whether the runs below are shown.
    expect(screen.getByRole('button', { name: `Logs of ${endpoint}` }).getAttribute('aria-expanded')).toBe('false');
    act(() => useIntegrationsStore.setState({ logsFor: integration.id }));
    expect(screen.getByRole('button', { name: `Logs of ${endpoint}` }).getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText('At 06:30, Monday through Friday (Europe/Berlin)')).toBeTruthy();
    expect(screen.getByTestId('integration-status').textContent).toBe('failed');
    expect(screen.getByTestId('integration-error').textContent).toBe(integration.last_error_message);
    // The last run day first, as the app writes days, on the viewer's own clock (2 March 06:30 UTC).
    expect(screen.getByTestId('integration-last-run').textContent).toMatch(/^[12] Mar 2026, \d{1,2}:\d{2}:\d{2}\s[AP]M$/);
  });

  it('shows one status per run: finished with the rejected records and the first problem, finished, not run yet', () => {
    useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'idle', last_error_message: null, last_run_rejected: 1234, last_run_warning: 'page 1, record 5, quantity: Not a number.' }] });
    renderAs('viewer');
    expect(screen.getAllByTestId('integration-status').map((badge) => badge.textContent)).toEqual(['finished with 1,234 rejected']);
    expect(screen.getByTestId('integration-warning-detail').textContent).toBe('First: page 1, record 5, quantity: Not a number. (the log has the rest)');
    // A run going on hides the previous run's rejected records.
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'running', last_run_rejected: 1234, last_run_warning: 'page 1, record 5, quantity: Not a number.' }] }));
    expect(screen.getByTestId('integration-status').textContent).toBe('running');
    expect(screen.queryByTestId('integration-warning-detail')).toBeNull();
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'idle', last_error_message: null }] }));
    expect(screen.getByTestId('integration-status').textContent).toBe('finished');
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'queued', last_run_time: null }] }));
    expect(screen.getByTestId('integration-status').textContent).toBe('waiting to run');
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'idle', last_run_time: null, last_error_message: null }] }));
    expect(screen.getByTestId('integration-status').textContent).toBe('not run yet');
  });

  it('shows a failed run as failed alone, with its message, however many records it rejected', () => {
    const message = 'Nothing was written: all 6 records were rejected. The first problem: page 1, record 4, quantity: Expected a whole number.';
    useIntegrationsStore.setState({ integrations: [{ ...integration, last_error_message: message, last_run_rejected: 6, last_run_warning: 'page 1, record 4, quantity: Expected a whole number.' }] });
    renderAs('viewer');
    expect(screen.getAllByTestId('integration-status').map((badge) => badge.textContent)).toEqual(['failed']);
    expect(screen.getByTestId('integration-error').textContent).toBe(message);
    expect(screen.queryByTestId('integration-warning-detail')).toBeNull();
  });

  it('shows what the last replace run kept beside its idle status, and not while a run goes on', () => {
    const kept = "Kept 1 row of 'products' that the source no longer lists: rows of 'sales' refer to it (A-100). Replace deletes it once nothing refers to it.";
    useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'idle', last_error_message: null, last_run_kept_message: kept }] });
    renderAs('viewer');
    expect(screen.getByTestId('integration-kept').textContent).toBe(kept);
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'running', last_run_kept_message: kept }] }));
    expect(screen.queryByTestId('integration-kept')).toBeNull();
  });

  it("shows the lines the last run's mapping left out and the products it created, beside its status and in its log entry", () => {
    const summary = '1 new product created for unknown codes: SHOP-1 Garden hose. 1 line without a product code was skipped. 2 lines of orders whose order.financial_status is refunded were left out.';
    const entry: IntegrationLogEntry = {
      id: 3, integration_id: 7, trigger: 'manual', status: 'success', started_at: '2026-03-02T06:30:00.000Z', finished_at: '2026-03-02T06:30:02.000Z', pages: 1, requests: 1,
      rows_inserted: 2, rows_updated: 0, rows_rejected: 0, rows_deleted: 0, rows_kept: 0, kept_message: null, window_from: null, window_to: null, error_message: null, rejections: [],
      rows_filtered: 2, filtered_by: [{ column: 'order.financial_status', values: ['refunded'], lines: 2 }], rows_skipped: 1, products_created: 1, new_products: [{ code: 'SHOP-1', values: { name: 'Garden hose' } }], summary, progress: null,
    };
    useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'idle', last_error_message: null, last_run_summary: summary }], logsFor: 7, logs: [entry], logsCount: 1 });
    renderAs('viewer');
    expect(screen.getByTestId('integration-summary').textContent).toBe(summary);
    expect(screen.getByTestId('integration-log-summary').textContent).toBe(summary);
    // Beside the rows written: the lines left out, so the counts add up to the records fetched.
    expect(screen.getByTestId('integration-log-left-out').textContent).toBe('Left out: 1 line without a product code, 2 lines by the row filters');
    act(() => useIntegrationsStore.setState({ logs: [{ ...entry, rows_skipped: 0, rows_filtered: 0 }] }));
    expect(screen.queryByTestId('integration-log-left-out')).toBeNull();
    act(() => useIntegrationsStore.setState({ logs: [entry] }));
    // A run going on hides the previous run's summary beside the status; its log entry keeps it.
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'running', last_run_summary: summary }] }));
    expect(screen.queryByTestId('integration-summary')).toBeNull();
    expect(screen.getByTestId('integration-log-summary').textContent).toBe(summary);
  });

  it("names a refused record's line in the log when the records are an order's lines", () => {
    const entry: IntegrationLogEntry = {
      id: 4, integration_id: 7, trigger: 'manual', status: 'success', started_at: '2026-03-02T06:30:00.000Z', finished_at: '2026-03-02T06:30:02.000Z', pages: 3, requests: 3,
      rows_inserted: 3, rows_updated: 0, rows_rejected: 2, rows_deleted: 0, rows_kept: 0, kept_message: null, window_from: null, window_to: null, error_message: null,
      rejections: [
        { page: 3, record: 2, line: 2, field: 'quantity', reason: 'Expected a whole number.' },
        { page: 3, record: 4, field: 'date', reason: 'Not a date.' },
      ],
      rows_filtered: 0, filtered_by: [], rows_skipped: 0, products_created: 0, new_products: [], summary: null, progress: null,
    };
    useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'idle', last_error_message: null }], logsFor: 7, logs: [entry], logsCount: 1 });
    renderAs('viewer');
    expect(screen.getByText('Page 3, record 2, line 2, quantity: Expected a whole number.')).toBeTruthy();
    expect(screen.getByText('Page 3, record 4, date: Not a date.')).toBeTruthy();
  });

  it("shows a running run's retry beside its status and in its log entry: which try, in how many seconds and why", () => {
    const reason = 'shop.example did not send its whole answer within 30 seconds.';
    const waiting = { try: 2, tries: 4, retry_at: new Date(Date.now() + 8000).toISOString(), reason, message: `Try 2 of 4 in 8 s: ${reason}` };
    const entry: IntegrationLogEntry = {
      id: 5, integration_id: 7, trigger: 'manual', status: 'running', started_at: '2026-03-02T06:30:00.000Z', finished_at: null, pages: 0, requests: 1,
      rows_inserted: 0, rows_updated: 0, rows_rejected: 0, rows_deleted: 0, rows_kept: 0, kept_message: null, window_from: null, window_to: null, error_message: null, rejections: [],
      rows_filtered: 0, filtered_by: [], rows_skipped: 0, products_created: 0, new_products: [], summary: null, progress: waiting,
    };
    useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'running', last_error_message: null, run_progress: waiting }], logsFor: 7, logs: [entry], logsCount: 1 });
    renderAs('viewer');
    expect(screen.getByTestId('integration-retry').textContent).toMatch(/^Try 2 of 4 in [78] s: shop\.example did not send its whole answer within 30 seconds\.$/);
    expect(screen.getByTestId('integration-log-retry').textContent).toBe(screen.getByTestId('integration-retry').textContent);
    const underWay = { ...waiting, retry_at: null };
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'running', run_progress: underWay }], logs: [{ ...entry, progress: underWay }] }));
    expect(screen.getByTestId('integration-retry').textContent).toBe(`Try 2 of 4 under way; try 1 failed: ${reason}`);
    // The run ended: no retry is shown, whatever a stale copy still holds.
    act(() => useIntegrationsStore.setState({ integrations: [{ ...integration, status: 'failed', run_progress: underWay }], logs: [{ ...entry, status: 'failed', progress: underWay }] }));
    expect(screen.queryByTestId('integration-retry')).toBeNull();
    expect(screen.queryByTestId('integration-log-retry')).toBeNull();
  });

  it('keeps what was typed when a save is refused as saved meanwhile, says who saved, and Reload puts their integration in the form', () => {
    const sentence = 'This integration was changed by sam at 14:02 after you opened it. Reload to see their change, then edit again.';
    const theirs = { ...integration, schedule_frequency: 'daily' as const, cron_expression: null, endpoint: 'https://shop.example/api/orders', version: '2' };
    const typed = { ...draftOf(integration), endpoint: 'https://shop.example/api/mine' };
    useIntegrationsStore.setState({ editorOpen: true, editing: integration, draft: typed, savedMeanwhile: theirs, editorError: { message: 'Failed to save integration', detail: sentence } });
    renderAs('admin');
    const alert = screen.getByTestId('integration-editor-error');
    expect(alert.textContent).toContain(sentence);
    expect((screen.getByLabelText(/^Endpoint/) as HTMLInputElement).value).toBe('https://shop.example/api/mine');
    const reload = screen.getByRole('button', { name: 'Reload' });
    expect(document.getElementById(reload.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Reload shows the integration as it is now; what you typed here is replaced.');
    fireEvent.click(reload);
    expect((screen.getByLabelText(/^Endpoint/) as HTMLInputElement).value).toBe('https://shop.example/api/orders');
    expect(screen.queryByTestId('integration-editor-error')).toBeNull();
    expect(useIntegrationsStore.getState().editing?.version).toBe('2');
  });

  it("offers Reload beside a switch or delete refused as changed meanwhile, and only then; Reload closes the refusal", () => {
    const sentence = 'This integration was changed by sam at 14:02 after you opened it. Reload to see their change, then edit again.';
    useIntegrationsStore.setState({ actionError: { message: 'Failed to toggle integration', detail: 'Only an admin may do this.' } });
    renderAs('admin');
    expect(screen.getByTestId('integrations-action-error').textContent).toContain('Only an admin may do this.');
    expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();
    act(() => useIntegrationsStore.setState({ actionError: { message: 'Failed to toggle integration', detail: sentence, savedMeanwhile: true } }));
    expect(screen.getByTestId('integrations-action-error').textContent).toContain(sentence);
    const reload = screen.getByRole('button', { name: 'Reload' });
    expect(document.getElementById(reload.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Reload reads every integration again as it is now and closes this message.');
    fireEvent.click(reload);
    expect(screen.queryByTestId('integrations-action-error')).toBeNull();
  });

  it('opens the delete confirmation on Cancel, and Cancel gives the focus back to the Delete button', async () => {
    renderAs('admin');
    const opener = screen.getByRole('button', { name: `Delete ${endpoint}` });
    opener.focus();
    fireEvent.click(opener);
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    await waitFor(() => expect(document.activeElement).toBe(cancel));
    fireEvent.click(cancel);
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});
