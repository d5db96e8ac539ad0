// ADR 0201 F10: the Galway gift shop's Square exports (the generator's, 1 October 2025 to 5 December
// 2026) imported as proposed. Connemara Marble Keyring has sold since Thursday 3 December: too few
// days for any pattern of its own, it was forecast a flat 5.67 a day to March while the shop's own
// sales halve from December to January. It now follows the year of its category (or the shop's).
import { mappingFromProposal } from '@stockwise/contract';
import { describe, expect, it } from 'vitest';
import type { ProductForecastResponse } from '@stockwise/contract';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { importScreen } from '../testing/proposed-mapping.ts';
import { catalogueRunsSettled, forecastClient } from '../testing/forecast-client.ts';
import { libraryCsv, salesCsv } from '../../../../e2e/fixtures/square-giftshop.ts';

/** A month's average open day (closed days are forecast 0). */
function openDayAverage(forecast: ProductForecastResponse, month: string): number {
  const open = forecast.forecast.sales.filter((row) => row.ds.startsWith(month) && row.yhat > 0);
  return open.reduce((sum, row) => sum + row.yhat, 0) / open.length;
}

describe.each(backends)("a gift shop's new keyring through the winter, on %s", (backend) => {
  const editor = useServerWithUser(backend, 'editor');
  const { preview, importAs } = importScreen(editor, 'square');

  it("forecasts the keyring's January below its December, as the shop sells, with bands that follow it", async () => {
    for (const [content, entity] of [[libraryCsv(), 'products'], [salesCsv(), 'sales']] as const) await importAs(content, entity, mappingFromProposal(await preview(content, entity)));
    await catalogueRunsSettled(editor.server().database.db);
    const client = forecastClient(editor.server(), editor.user().access);
    expect((await client.run()).status).toBe('completed');
    const keyring = await client.forecastOf('JEW-KEY');
    expect(keyring.metrics.model.history).toBe('short');
    // Before: 5.67 on every open day, December as January.
    const december = openDayAverage(keyring, '2026-12');
    const january = openDayAverage(keyring, '2027-01');
    expect(january).toBeLessThan(0.8 * december);
    expect(january).toBeGreaterThan(0);
    for (const row of keyring.forecast.sales) {
      expect(Number.isFinite(row.yhat)).toBe(true);
      expect([row.yhat_lower, row.yhat_lower_80, row.yhat, row.yhat_upper_80, row.yhat_upper]).toEqual([...[row.yhat_lower, row.yhat_lower_80, row.yhat, row.yhat_upper_80, row.yhat_upper]].sort((a, b) => a - b));
    }
    // Closed on Sundays: nothing forecast on them.
    expect(keyring.forecast.sales.filter((row) => new Date(`${row.ds}T00:00:00Z`).getUTCDay() === 0).every((row) => row.yhat === 0)).toBe(true);
  }, 120_000);
});
