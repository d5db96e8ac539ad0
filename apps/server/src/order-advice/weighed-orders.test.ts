// A fromagerie's weighed goods are ordered to the hundred grams, not the gram (ADR 0203 F3): after a
// real catalogue run, a Comté sold by the kilo is advised a tenth of a kilo on the forecast read, the
// order list, its download, the assistant's reorder table and the deliveries the recommended orders
// create — one figure everywhere; a wheel with a case size is ordered in whole wheels as before, and
// the same sales counted in pieces keep whole units.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AssistantBlock, ChatMessage, InventoryReport } from '@stockwise/contract';
import { forecastClient, type ForecastClient } from '../testing/forecast-client.ts';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);
const PRODUCTS_FILE = ['Code,Name,Unit,Lead time,Case size', 'COMTE,Comté 18 mois,kg,7,', 'COMTE-MEULE,Comté (quart de meule),kg,7,10', 'TOMME,Tomme (pièce),,7,'].join('\n');
const CODES = ['COMTE', 'COMTE-MEULE', 'TOMME'];
/** Whether `value` is a whole number of tenths. */
const inTenths = (value: number) => Math.round(value * 10) / 10 === value;

describe.each(backends)('weighed goods ordered to the hundred grams on %s', (backend) => {
  let server: TestServer;
  let token: string;
  let client: ForecastClient;
  const api = (path: string, body?: unknown) => server.request(path, { token, ...(body === undefined ? {} : { body }) });
  const upload = async (entityType: string, content: string, fieldMappings: Record<string, string>, options: object = {}) => {
    const result = await importFile(server, token, { fileName: `${entityType}.csv`, content, mapping: { entities: { [entityType]: { field_mappings: fieldMappings, ...options } } }, entityType });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server, { role: 'admin' })).access;
    client = forecastClient(server, token);
    await upload('products', PRODUCTS_FILE, { product_code: 'Code', name: 'Name', unit: 'Unit', lead_time_days: 'Lead time', order_multiple: 'Case size' });
    // The scale's grams: 3.2–5.7 kg a day for 120 days, the same figures for the pieces (whole ones).
    const weighed = (t: number) => (3200 + ((t * 379) % 2500)) / 1000;
    const lines = CODES.flatMap((code) => Array.from({ length: 120 }, (_, t) => `${code},${daysAgo(120 - t)},${code === 'TOMME' ? Math.round(weighed(t)) : weighed(t)}`));
    await upload('sales', `code,day,qty\n${lines.join('\n')}\n`, { product_id: 'code', date: 'day', quantity: 'qty' }, { decimal_separator: '.' });
    await upload('stock_snapshots', `code,day,qty\n${CODES.map((code) => `${code},${daysAgo(1)},7.458`).join('\n')}\n`, { product_id: 'code', date: 'day', stock_level: 'qty' }, { decimal_separator: '.' });
    expect((await client.run()).status).toBe('completed');
  });
  afterAll(() => server.stop());

  it('advises the kilos to a tenth, the wheel in whole cases, the pieces in whole units — the same figure on the read, the list, its download, the assistant and the deliveries', async () => {
    const [comte, wheel, tomme] = await Promise.all(CODES.map((code) => client.forecastOf(code)));
    expect(comte!.reorder.orderQuantity).toBeGreaterThan(0);
    for (const figure of [comte!.reorder.orderQuantity, comte!.reorder.reorderPoint, comte!.reorder.safetyStock]) expect(inTenths(figure), String(figure)).toBe(true);
    expect(comte!.reorder.orderQuantityNeeded).toBeUndefined();
    // The wheel: whole quarters of 10 kg, the need beside it on the tenth.
    expect(wheel!.reorder.orderQuantity % 10).toBe(0);
    expect(inTenths(wheel!.reorder.orderQuantityNeeded ?? wheel!.reorder.orderQuantity)).toBe(true);
    for (const figure of [tomme!.reorder.orderQuantity, tomme!.reorder.reorderPoint]) expect(Number.isInteger(figure), String(figure)).toBe(true);
    const advised = { COMTE: comte!.reorder.orderQuantity, 'COMTE-MEULE': wheel!.reorder.orderQuantity, TOMME: tomme!.reorder.orderQuantity };

    const { report } = (await api('/api/forecasting/latest-report/?page_size=500&include_inactive=true')).json as { report: InventoryReport };
    expect(Object.fromEntries(report.products.map((product) => [product.styleCode, product.orderQuantity]))).toEqual(advised);
    expect(report.products.find((product) => product.styleCode === 'COMTE')?.reorderPoint).toBe(comte!.reorder.reorderPoint);

    const csv = await fetch(`${server.url}/api/forecasting/latest-report/export/?format=csv&include_inactive=true`, { headers: { authorization: `Bearer ${token}` } });
    const [header, ...csvLines] = (await csv.text()).replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    const quantityAt = header!.split(',').indexOf('order quantity');
    expect(Object.fromEntries(csvLines.map((line) => [line.split(',')[0], Number(line.split(',')[quantityAt])]))).toEqual(advised);

    const answer = await api('/api/assistant/messages/', { content: 'Reorder report' });
    expect(answer.status, answer.text).toBe(200);
    const table = (answer.json.messages as ChatMessage[]).at(-1)!.blocks.find((b): b is Extract<AssistantBlock, { type: 'table' }> => b.type === 'table')!;
    expect(Object.fromEntries(table.rows.filter((row) => CODES.includes(row.styleCode as string)).map((row) => [row.styleCode, row.quantity]))).toEqual(advised);

    const created = await api('/api/assistant/actions/', { action: 'create_recommended_orders' });
    expect(created.status, created.text).toBe(200);
    const scheduled = await sql<{ product_code: string; quantity: number }>`select p.product_code, d.quantity from data.deliveries d join data.products p on p.id = d.product_id where d.status = 'scheduled'`.execute(server.database.db);
    expect(Object.fromEntries(scheduled.rows.map((row) => [row.product_code, Number(row.quantity)]))).toEqual(advised);
  });
});
