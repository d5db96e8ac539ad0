// ADR 0195 F9 and F10: a UK boutique's Shopify exports (the generator's, 1 October 2025 to 5 December
// 2026) imported with the proposed mappings. Each size sells a few units a month, too few to show
// its season; its category (Shopify's Type, F6) does, and the forecast follows it: on 6 December the
// tea dresses are forecast low until spring and high in summer, the merino jumper high in winter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewFileResponse, ProductForecastResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';
import { catalogueRunsSettled, forecastClient } from '../testing/forecast-client.ts';
import { ordersCsv, productsCsv } from '../../../../e2e/fixtures/shopify-boutique.ts';

const DRESSES = ['TD-8', 'TD-10', 'TD-12', 'TD-14', 'TD-16'];
// The category's yearly pattern at the size's level, spread over the week as the shop sells (busier
// at weekends, ADR 0198 F11) or evenly.
const FOLLOWS_THE_CATEGORY = /^PooledYearly(\+PooledWeekdays)?$/;

interface ListRow {
  styleCode: string;
  orderQuantity: number;
  orderBy: string | null;
}

describe.each(backends)("a boutique's summer and winter lines in December, on %s", (backend) => {
  let server: TestServer;
  let token: string;
  const api = (path: string) => server.request(path, { token });
  const forecasts = new Map<string, ProductForecastResponse>();
  let list: ListRow[] = [];

  const importProposed = async (content: string, entityType: string, fileName: string) => {
    const previewed = await postMultipart(server, '/api/records/preview-file/', token, [{ name: 'entity_type', value: entityType }, { name: 'file', fileName, content }]);
    expect(previewed.status, JSON.stringify(previewed.json)).toBe(200);
    const proposal = previewed.json as PreviewFileResponse;
    const mapping = {
      field_mappings: Object.fromEntries(Object.entries(proposal.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null)),
      ...(proposal.proposed_joined_columns ? { joined_columns: proposal.proposed_joined_columns } : {}),
      ...(proposal.proposed_fill_down_by ? { fill_down_by: proposal.proposed_fill_down_by } : {}),
      ...(proposal.proposed_skip_rows_without_code ? { skip_rows_without_code: true } : {}),
      ...(proposal.proposed_row_filters ? { skip_rows_where: proposal.proposed_row_filters } : {}),
    };
    const imported = await importFile(server, token, { fileName, content, entityType, mapping: { entities: { [entityType]: mapping } } });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    token = (await signUpUser(server)).access;
    await importProposed(productsCsv(), 'products', 'products_export_1.csv');
    await importProposed(ordersCsv(), 'sales', 'orders_export_1.csv');
    await catalogueRunsSettled(server.database.db);
    expect((await forecastClient(server, token).run()).status).toBe('completed');
    const report = await api('/api/forecasting/latest-report/?page_size=100');
    expect(report.status, report.text).toBe(200);
    list = (report.json as unknown as { report: { products: ListRow[] } }).report.products;
    for (const code of [...DRESSES, 'MJ-M-OAT']) {
      const answer = await api(`/api/forecasting/forecasts/${code}?forecast_days=365`);
      expect(answer.status, answer.text).toBe(200);
      forecasts.set(code, answer.json as unknown as ProductForecastResponse);
    }
  }, 120_000);
  afterAll(() => server.stop());

  const units = (code: string, from: string, to: string) =>
    forecasts
      .get(code)!
      .forecast.sales.filter((row) => row.ds >= from && row.ds <= to)
      .reduce((sum, row) => sum + row.yhat, 0);
  const dresses = (from: string, to: string) => DRESSES.reduce((sum, code) => sum + units(code, from, to), 0);

  it("forecasts the tea dresses low from December to February and several times higher in June to August, by their category's pattern", () => {
    expect(forecasts.get('TD-8')!.forecast.sales[0]?.ds).toBe('2026-12-06');
    // Before (no pattern for a category under two units a day): flat, Tea Dress 8 ≈ 2.5 a month all year.
    expect(dresses('2027-06-01', '2027-08-31')).toBeGreaterThan(3 * dresses('2026-12-06', '2027-02-28'));
    const followingTheCategory = DRESSES.filter((code) => FOLLOWS_THE_CATEGORY.test(forecasts.get(code)!.metrics.model.name));
    expect(followingTheCategory.length).toBeGreaterThanOrEqual(2);
    for (const code of followingTheCategory) expect(units(code, '2027-06-01', '2027-08-31'), code).toBeGreaterThan(5 * units(code, '2026-12-06', '2027-02-28'));
  });

  it('forecasts the merino jumper M Oatmeal high in winter, not in June (F10)', () => {
    const jumper = forecasts.get('MJ-M-OAT')!;
    expect(jumper.metrics.model.name).toMatch(FOLLOWS_THE_CATEGORY);
    expect(units('MJ-M-OAT', '2026-12-06', '2027-02-28')).toBeGreaterThan(3 * units('MJ-M-OAT', '2027-06-01', '2027-08-31'));
    expect(units('MJ-M-OAT', '2027-06-01', '2027-06-30')).toBeLessThan(units('MJ-M-OAT', '2027-11-01', '2027-11-30') / 4);
  });

  it("orders the dresses in December for the winter's few sales only, not the summer's", () => {
    const dressRows = list.filter((row) => DRESSES.includes(row.styleCode) && row.orderQuantity > 0);
    const dueNow = dressRows.filter((row) => row.orderBy === '2026-12-06');
    // Before: 31 units due now (Tea Dress 8: 9, 10: 7, 12: 9, 16: 6), a flat 2–3 a month each.
    expect(dueNow.reduce((sum, row) => sum + row.orderQuantity, 0)).toBeLessThanOrEqual(20);
    // Each covers the lead time and a month after it at the winter's rate, with its safety stock: no summer stock.
    for (const row of dueNow) {
      const forecast = forecasts.get(row.styleCode)!;
      expect(row.orderQuantity, row.styleCode).toBeLessThanOrEqual(Math.ceil(units(row.styleCode, '2026-12-06', '2027-01-18') + forecast.reorder.safetyStock));
    }
  });
});
