import { describe, expect, it } from 'vitest';
import { forecastProduct, isForecastError, type ProductForecast } from './index.ts';

const start = Date.parse('2023-01-01T00:00:00Z');
const day = (t: number) => new Date(start + t * 86_400_000).toISOString().slice(0, 10);

/** A Christmas item: about ten a day from mid-November to Christmas Eve, nothing the rest of the year. */
function christmasItem(until: string): ProductForecast {
  const length = Math.round((Date.parse(`${until}T00:00:00Z`) - start) / 86_400_000);
  const sales = Array.from({ length }, (_, t) => {
    const date = new Date(start + t * 86_400_000);
    const inSeason = (date.getUTCMonth() === 10 && date.getUTCDate() >= 15) || (date.getUTCMonth() === 11 && date.getUTCDate() <= 24);
    return { ds: day(t), y: inSeason ? 8 + ((t * 7) % 5) : 0 };
  });
  const result = forecastProduct({ sales, horizon: 60 });
  if (isForecastError(result)) throw new Error(result.error);
  return result;
}
const total = (result: ProductForecast, from: number, to: number) => result.forecast.slice(from, to).reduce((sum, row) => sum + row.yhat, 0);

describe('yearly season of a seasonal-only item', () => {
  // Last year's days are averaged with the same weekday a week either side: the season's edges blur by a week.
  it('falls after its season: nothing forecast for January and February', () => {
    const result = christmasItem('2024-12-27');
    expect(total(result, 7, 60)).toBeLessThan(2);
    expect(total(result, 0, 7)).toBeLessThan(20);
    expect(result.model.patterns).toEqual(['season_only']);
  });

  it('keeps selling to the end of the season, then falls', () => {
    const result = christmasItem('2024-12-10');
    expect(total(result, 0, 14) / 14).toBeGreaterThan(7);
    expect(total(result, 20, 60)).toBeLessThan(5);
  });

  it('ramps up before the season', () => {
    const result = christmasItem('2024-11-05');
    expect(total(result, 0, 7)).toBeLessThan(25);
    expect(total(result, 20, 40) / 20).toBeGreaterThan(7);
  });
});
