// @vitest-environment node
// The integrations store against a real loopback HTTP server: the spec §8 messages where they
// happen, the §5 defaults and save fills, the enabled switch reverting when the update fails (and sent at the version listed), run
// now showing running and polling the status to its end, the editor clearing on close and loading
// a mapping's config when the mapping changes, the paged log, and saves and deletes at the version
// read: a refusal as saved meanwhile keeps the draft and Reload brings the integration as it is now.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { integrationInput, type Integration } from '@stockwise/contract';
import { api } from '../api/http.ts';
import { sendJson, startLoopback, type Loopback } from '../test/loopback.ts';
import { initTestI18n } from '../test/i18n.ts';
import { i18n } from '../i18n.ts';
import { countProblems, draftOf, saveErrorMessage, scheduleInWords, toSavePayload, newIntegrationDraft } from '../pages/settings/integration-form.ts';
import { useSessionStore } from './session.ts';
import { initialIntegrationsState, useIntegrationsStore } from './integrations.ts';
import { initialShopState, useShopStore } from './shop.ts';

let loopback: Loopback;
let requests: { method: string; path: string; body: string; ifMatch: string | undefined }[] = [];
let fail: Record<string, { status: number; body: unknown }> = {};
let statuses: string[] = [];

const integration = (id: number, changes: Partial<Integration> = {}): Integration => ({
  id,
  enabled: false,
  endpoint: `https://shop.example/api/${id}`,
  schedule_frequency: 'hourly',
  cron_expression: null,
  time_zone: 'UTC',
  schedule_cron: '0 * * * *',
  mapping_selection: 'shop',
  target_entity: 'products',
  data_action: 'upsert',
  data_fetch_type: 'latest',
  previous_days: null,
  initial_setup: false,
  rate_limit: 60,
  batch_size: 100,
  records_path: null,
  pagination: 'none',
  next_field: 'next',
  page_parameter: 'page',
  auth_header_name: null,
  auth_header_value: null,
  status: 'idle',
  last_run_time: null,
  next_run_time: null,
  last_success_time: null,
  last_error_message: null,
  consecutive_failures: 0,
  last_run_rejected: 0,
  last_run_warning: null,
  last_run_kept_message: null,
  last_run_summary: null,
  run_progress: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  version: '1',
  ...changes,
});
const retrying = { try: 2, tries: 4, retry_at: '2026-01-02T00:00:08.000Z', reason: 'shop.example answered HTTP 503 for page 1.', message: 'Try 2 of 4 in 8 s: shop.example answered HTTP 503 for page 1.' };
const config = { success: true, content: { mappings: { shop: { entities: { products: { field_mappings: { product_code: 'sku' } } } }, sales_feed: { entities: { sales: { field_mappings: { quantity: 'qty' } }, stock_snapshots: { field_mappings: { stock_level: 'n' } } } } } } };

beforeAll(async () => {
  await initTestI18n();
  loopback = await startLoopback((request, body, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const method = request.method ?? 'GET';
    requests.push({ method, path, body, ifMatch: request.headers['if-match'] });
    const failure = Object.entries(fail).find(([key]) => `${method} ${path}`.startsWith(key));
    if (failure) return sendJson(response, failure[1].status, failure[1].body);
    if (path === '/api/yaml/config/') return sendJson(response, 200, config);
    if (path === '/api/integrations/scheduled/' && method === 'GET') return sendJson(response, 200, [integration(1), integration(2, { enabled: true })]);
    if (path === '/api/integrations/scheduled/' && method === 'POST') return sendJson(response, 201, integration(3, JSON.parse(body) as Partial<Integration>));
    if (/^\/api\/integrations\/scheduled\/\d+\/$/.test(path) && method === 'PUT') return sendJson(response, 200, integration(Number(path.split('/')[4]), JSON.parse(body) as Partial<Integration>));
    if (path.endsWith('/run/')) return sendJson(response, 200, { id: 1, status: 'queued', message: 'The run is queued.' });
    if (path.endsWith('/status/')) {
      const status = statuses.shift() ?? 'idle';
      const run_progress = status === 'running' ? retrying : null;
      return sendJson(response, 200, { id: 1, status, enabled: false, last_run_time: '2026-01-02T00:00:00.000Z', next_run_time: null, last_error_message: status === 'failed' ? 'HTTP 500' : null, consecutive_failures: 0, run_progress });
    }
    if (path.endsWith('/logs/')) return sendJson(response, 200, { results: [{ id: 9 }], count: 41, next: 2 });
    return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
  });
  api.defaults.baseURL = `${loopback.baseUrl}/api`;
});
afterAll(() => loopback.close());

beforeEach(() => {
  requests = [];
  fail = {};
  statuses = [];
  useSessionStore.setState({ isLoading: false, isLoggedIn: true, accessToken: 'access', refreshToken: 'refresh' });
  useIntegrationsStore.setState(initialIntegrationsState);
});

const store = () => useIntegrationsStore.getState();

describe('integration form helpers', () => {
  it('starts a new integration with the spec defaults and the first mapping', () => {
    // The schedule's hours are the shop's once it chose a zone (ADR 0173), else the browser's: the zone it reports.
    expect(newIntegrationDraft('shop', () => ['products']).time_zone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(newIntegrationDraft('shop', () => ['products'], 'America/Chicago').time_zone).toBe('America/Chicago');
    expect(newIntegrationDraft('shop', () => ['products'])).toMatchObject({ enabled: false, schedule_frequency: 'hourly', data_action: 'upsert', data_fetch_type: 'latest', initial_setup: false, rate_limit: 60, batch_size: 100, previous_days: null, mapping_selection: 'shop', target_entity: 'products' });
  });
  it('fills rate_limit 60, batch_size 100 and previous_days null when unset, and drops a cron of a fixed frequency', () => {
    const draft = { ...newIntegrationDraft('shop', () => ['products']), rate_limit: null, batch_size: null, cron_expression: '1 2 3 4 5' };
    expect(toSavePayload(draft)).toMatchObject({ rate_limit: 60, batch_size: 100, previous_days: null, cron_expression: null });
  });
  it("edits only what the server takes: a running integration's answer, retry included, saves as a valid input", () => {
    const saved = toSavePayload(draftOf(integration(1, { status: 'running', run_progress: retrying, last_run_summary: 'x' })));
    const parsed = integrationInput.safeParse(saved);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
  it('refuses counts outside 1 to their maximum instead of moving them into range', () => {
    const draft = { ...newIntegrationDraft('shop', () => ['products']), batch_size: 0, rate_limit: 6001, previous_days: null };
    expect(countProblems(draft, (max) => `1 to ${max}`)).toEqual({ batch_size: ['1 to 10000'], rate_limit: ['1 to 6000'] });
    expect(countProblems({ ...draft, batch_size: 1.5, rate_limit: null }, (max) => `1 to ${max}`)).toEqual({ batch_size: ['1 to 10000'] });
  });
  it('says a schedule in words and appends field errors to the save message', () => {
    expect(scheduleInWords('30 6 * * 1-5')).toBe('At 06:30, Monday through Friday');
    expect(scheduleInWords('61 * * * *')).toBeNull();
    const t = i18n.t.bind(i18n);
    expect(saveErrorMessage('Failed to save integration', { endpoint: ['The endpoint is required.'] }, t)).toBe('Failed to save integration: Endpoint: The endpoint is required.');
    // Each field by its label, without the label's explanation; a field the editor does not have by its name.
    expect(saveErrorMessage('Failed to save integration', { batch_size: ['Enter a whole number from 1 to 10,000.'], cron_expression: ['A cron expression has five fields.'], initial_setup: ['x'], other: ['y'] }, t)).toBe(
      'Failed to save integration: Batch size: Enter a whole number from 1 to 10,000.; Cron expression: A cron expression has five fields.; Initial setup: x; other: y',
    );
  });
});

describe('integrations store', () => {
  it('lists, and says "Failed to fetch integrations" when it cannot', async () => {
    await store().load();
    expect(store().integrations.map((i) => i.id)).toEqual([1, 2]);
    fail = { 'GET /api/integrations/scheduled/': { status: 500, body: { detail: 'down', code: 'internal_error' } } };
    const loading = store().load();
    expect(store().isLoading).toBe(true);
    await loading;
    expect(store().error).toEqual({ message: 'Failed to fetch integrations', detail: 'down' });
  });

  it('switches enabled at once and switches it back when the update fails', async () => {
    await store().load();
    fail = { 'PUT /api/integrations/scheduled/1/': { status: 403, body: { detail: 'Only an admin may do this.', code: 'forbidden' } } };
    const toggling = store().toggle(1);
    expect(store().integrations[0]?.enabled).toBe(true);
    await toggling;
    expect(store().integrations[0]?.enabled).toBe(false);
    expect(store().actionError).toEqual({ message: 'Failed to toggle integration', detail: 'Only an admin may do this.' });
    fail = {};
    await store().toggle(1);
    expect(store().integrations[0]?.enabled).toBe(true);
    expect(JSON.parse(requests.at(-1)?.body ?? '{}')).toEqual({ enabled: true });
  });

  it('runs now: running at once, then the status polled until the run ends', async () => {
    await store().load();
    statuses = ['queued', 'running', 'failed'];
    const running = store().runNow(1);
    expect(store().integrations[0]?.status).toBe('running');
    await running;
    expect(store().integrations[0]).toMatchObject({ status: 'failed', last_error_message: 'HTTP 500' });
    expect(requests.filter((r) => r.path.endsWith('/status/'))).toHaveLength(3);
    fail = { 'POST /api/integrations/scheduled/2/run/': { status: 500, body: { detail: 'down', code: 'internal_error' } } };
    await store().runNow(2);
    expect(store().integrations[1]).toMatchObject({ status: 'failed', last_error_message: 'down' });
    expect(store().actionError?.message).toBe('Failed to trigger integration run');
    // Refused for the role: a notice about the user's permission; the integration did not fail.
    await store().load();
    fail = { 'POST /api/integrations/scheduled/2/run/': { status: 403, body: { detail: 'Your role (viewer) may not do this.', code: 'forbidden' } } };
    await store().runNow(2);
    expect(store().integrations[1]).toMatchObject({ status: 'idle', last_error_message: null });
    expect(store().actionError).toEqual({ message: 'Failed to trigger integration run', detail: 'Your role may not run integrations: ask an editor or an admin. The integration itself is unchanged. Your role (viewer) may not do this.' });
  }, 15_000);

  it("follows a run's retry: the status carries it, and the open run log is read again with each poll, without a spinner", async () => {
    await store().load();
    await store().openLogs(1);
    const logReads = () => requests.filter((r) => r.path.endsWith('/logs/')).length;
    const before = logReads();
    statuses = ['running', 'running', 'failed'];
    const spinners: boolean[] = [];
    const unsubscribe = useIntegrationsStore.subscribe((state) => spinners.push(state.isLoadingLogs));
    const seen: unknown[] = [];
    const watch = useIntegrationsStore.subscribe((state) => seen.push(state.integrations[0]?.run_progress));
    await store().runNow(1);
    unsubscribe();
    watch();
    expect(seen).toContainEqual(retrying);
    expect(store().integrations[0]).toMatchObject({ status: 'failed', run_progress: null });
    // Two polls while running, and the final read when the run ended.
    expect(logReads() - before).toBe(3);
    expect(spinners.filter(Boolean)).toHaveLength(1);
  }, 15_000);

  it("opens a new integration on the shop's time zone once it chose one (ADR 0173)", async () => {
    useShopStore.setState({ timeZone: 'America/Chicago' });
    try {
      await store().openEditor(null);
      expect(store().draft?.time_zone).toBe('America/Chicago');
    } finally {
      store().closeEditor();
      useShopStore.setState(initialShopState);
    }
  });

  it('opens a new integration on what the data is — sales — with the first mapping reading it; choosing another entity moves the mapping to one that reads it, or none', async () => {
    const content = config.content as typeof config.content & { inventory?: unknown };
    content.inventory = { entities: ['products', 'sales', 'stock_snapshots', 'deliveries'].map((name) => ({ name, table: name, key: ['id'], field_mappings: {} })) };
    try {
      await store().openEditor(null);
      expect(store().draft).toMatchObject({ mapping_selection: 'sales_feed', target_entity: 'sales' });
      expect(store().mappingConfig).toEqual(config.content.mappings.sales_feed);
      await store().selectTarget('stock_snapshots');
      expect(store().draft).toMatchObject({ mapping_selection: 'sales_feed', target_entity: 'stock_snapshots' });
      await store().selectTarget('products');
      expect(store().draft).toMatchObject({ mapping_selection: 'shop', target_entity: 'products' });
      expect(store().mappingConfig).toEqual(config.content.mappings.shop);
      // No mapping reads deliveries: none is chosen (saving says to choose one; "Try the endpoint" proposes one).
      await store().selectTarget('deliveries');
      expect(store().draft).toMatchObject({ mapping_selection: '', target_entity: 'deliveries' });
      expect(store().mappingConfig).toBeNull();
    } finally {
      store().closeEditor();
      delete content.inventory;
    }
  });

  it('opens a new integration on the first available mapping when none reads sales (spec §5)', async () => {
    const { sales_feed: salesFeed, ...productsOnly } = config.content.mappings;
    config.content.mappings = productsOnly as typeof config.content.mappings;
    try {
      await store().openEditor(null);
      expect(store().draft).toMatchObject({ mapping_selection: 'shop', target_entity: 'products' });
      expect(store().mappingConfig).toEqual(config.content.mappings.shop);
    } finally {
      store().closeEditor();
      config.content.mappings = { ...productsOnly, sales_feed: salesFeed };
    }
  });

  it('opens a new integration on the first mapping reading sales, loads a mapping config when the mapping changes, and clears all on close', async () => {
    await store().openEditor(null);
    expect(store().draft).toMatchObject({ mapping_selection: 'sales_feed', target_entity: 'sales', rate_limit: 60 });
    await store().selectMapping('shop');
    expect(store().draft).toMatchObject({ mapping_selection: 'shop', target_entity: 'products' });
    await store().selectMapping('sales_feed');
    expect(store().mappingConfig).toEqual(config.content.mappings.sales_feed);
    expect(store().draft).toMatchObject({ mapping_selection: 'sales_feed', target_entity: 'sales' });
    fail = { 'POST /api/integrations/scheduled/': { status: 400, body: { detail: 'Invalid integration: endpoint: The endpoint is required.', code: 'validation_error', errors: { endpoint: ['The endpoint is required.'] } } } };
    expect(await store().save()).toBe(false);
    expect(store().editorError?.message).toBe('Failed to save integration: Endpoint: The endpoint is required.');
    expect(store().fieldErrors).toEqual({ endpoint: ['The endpoint is required.'] });
    store().closeEditor();
    expect(store()).toMatchObject({ editorOpen: false, editing: null, draft: null, editorError: null, fieldErrors: {}, mappingConfig: null });
    fail = {};
    await store().openEditor(null);
    // A batch size of 0 is named with its range and nothing is sent.
    const sent = requests.length;
    store().updateDraft({ endpoint: ' https://shop.example/feed ', batch_size: 0 });
    expect(await store().save()).toBe(false);
    expect(store().fieldErrors).toEqual({ batch_size: ['Enter a whole number from 1 to 10,000.'] });
    expect(store().editorError?.message).toBe('Failed to save integration: Batch size: Enter a whole number from 1 to 10,000.');
    expect(requests.slice(sent).filter((r) => r.method === 'POST')).toEqual([]);
    store().updateDraft({ batch_size: null });
    expect(await store().save()).toBe(true);
    expect(JSON.parse(requests.filter((r) => r.method === 'POST').at(-1)?.body ?? '{}')).toMatchObject({ endpoint: 'https://shop.example/feed', batch_size: 100, rate_limit: 60, previous_days: null });
    expect(store().editorOpen).toBe(false);
  });

  it('saves at the version it opened; refused as saved meanwhile, keeps what was typed, and Reload puts their integration in the form', async () => {
    const sentence = 'This integration was changed by sam at 14:02 after you opened it. Reload to see their change, then edit again.';
    const theirs = integration(1, { schedule_frequency: 'daily', mapping_selection: 'sales_feed', target_entity: 'sales', version: '8' });
    await store().load();
    await store().openEditor(integration(1, { version: '7' }));
    store().updateDraft({ endpoint: 'https://shop.example/api/mine' });
    fail = { 'PUT /api/integrations/scheduled/1/': { status: 409, body: { detail: sentence, code: 'edit_conflict', current: theirs, changed_by: 'sam', changed_at: '2026-01-02T14:02:00.000Z' } } };
    expect(await store().save()).toBe(false);
    expect(requests.filter((r) => r.method === 'PUT').at(-1)?.ifMatch).toBe('"7"');
    expect(store()).toMatchObject({ editorOpen: true, editorError: { message: 'Failed to save integration', detail: sentence }, savedMeanwhile: theirs });
    expect(store().draft).toMatchObject({ endpoint: 'https://shop.example/api/mine', schedule_frequency: 'hourly' });
    expect(store().integrations.find((item) => item.id === 1)).toEqual(theirs);
    await store().reloadEditing();
    expect(store()).toMatchObject({ editing: theirs, savedMeanwhile: null, editorError: null, mappingConfig: config.content.mappings.sales_feed });
    expect(store().draft).toMatchObject({ endpoint: theirs.endpoint, schedule_frequency: 'daily', mapping_selection: 'sales_feed', target_entity: 'sales' });
    fail = {};
    expect(await store().save()).toBe(true);
    expect(requests.filter((r) => r.method === 'PUT').at(-1)?.ifMatch).toBe('"8"');
  });

  it('deletes at the version the list shows; refused as saved meanwhile, the list shows it as it is now', async () => {
    await store().load();
    const theirs = integration(2, { enabled: true, endpoint: 'https://shop.example/api/moved', version: '5' });
    fail = { 'DELETE /api/integrations/scheduled/2/': { status: 409, body: { detail: 'This integration was changed after you opened it. Reload to see the change, then delete it if you still mean to.', code: 'edit_conflict', current: theirs } } };
    expect(await store().remove(2)).toBe(false);
    expect(requests.filter((r) => r.method === 'DELETE').at(-1)?.ifMatch).toBe('"1"');
    expect(store().actionError).toEqual({ message: 'Failed to delete integration', detail: 'This integration was changed after you opened it. Reload to see the change, then delete it if you still mean to.', savedMeanwhile: true });
    expect(store().integrations.find((item) => item.id === 2)).toEqual(theirs);
  });

  it('switches at the version the list shows; refused as changed meanwhile (the runs paused it), shows it as it is now, and Reload reads the list again', async () => {
    await store().load();
    const sentence = 'This integration was changed after you opened it. Reload to see the change, then edit again.';
    const paused = integration(1, { enabled: false, status: 'failed', consecutive_failures: 3, version: '4' });
    fail = { 'PUT /api/integrations/scheduled/1/': { status: 409, body: { detail: sentence, code: 'edit_conflict', current: paused, changed_by: null, changed_at: null } } };
    await store().toggle(1);
    expect(requests.filter((r) => r.method === 'PUT').at(-1)).toMatchObject({ body: JSON.stringify({ enabled: true }), ifMatch: '"1"' });
    expect(store().integrations.find((item) => item.id === 1)).toEqual(paused);
    expect(store().actionError).toEqual({ message: 'Failed to toggle integration', detail: sentence, savedMeanwhile: true });
    fail = {};
    const reads = requests.filter((r) => r.method === 'GET' && r.path === '/api/integrations/scheduled/').length;
    await store().reloadList();
    expect(store().actionError).toBeNull();
    expect(requests.filter((r) => r.method === 'GET' && r.path === '/api/integrations/scheduled/')).toHaveLength(reads + 1);
  });

  it('deletes, and names the integration when its log cannot be read', async () => {
    await store().load();
    fail = { 'DELETE /api/integrations/scheduled/2/': { status: 500, body: { detail: 'db down', code: 'internal_error' } } };
    expect(await store().remove(2)).toBe(false);
    expect(store().actionError?.message).toBe('Failed to delete integration');
    await store().openLogs(1);
    expect(store()).toMatchObject({ logsFor: 1, logsCount: 41, logsNext: 2 });
    fail = { 'GET /api/integrations/scheduled/1/logs/': { status: 500, body: { detail: 'db down', code: 'internal_error' } } };
    await store().loadLogs(2);
    expect(store().logsError).toEqual({ message: 'Failed to fetch logs for integration 1', detail: 'db down' });
  });
});
