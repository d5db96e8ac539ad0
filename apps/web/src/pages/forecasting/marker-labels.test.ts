import { describe, expect, it } from 'vitest';
import { layoutMarkerLabels, type MarkerLabel, type PlacedMarker } from './marker-labels.ts';
import type { ZeroCrossingType } from './zero-crossings.ts';

const words = (type: ZeroCrossingType, dates: string[]) => `${type === 'stockForecast' ? 'Runs out' : 'May run out'} ${dates.length > 3 ? `${dates.length} times` : dates.join(', ')}`;
const bounds = { left: 0, right: 1000 };
const marker = (date: string, x: number, type: ZeroCrossingType = 'stockForecast'): PlacedMarker => ({ date, x, type });
const overlapping = (labels: MarkerLabel[]) => labels.some((a, i) => labels.some((b, j) => i < j && a.type === b.type && a.left < b.left + b.width && b.left < a.left + a.width));

describe('stock-out marker labels', () => {
  it('labels markers far apart one by one, centred over each', () => {
    const labels = layoutMarkerLabels([marker('2026-12-05', 200), marker('2026-12-26', 600)], words, bounds);
    expect(labels.map((label) => [label.text, label.left + label.width / 2])).toEqual([
      ['Runs out 2026-12-05', 200],
      ['Runs out 2026-12-26', 600],
    ]);
  });

  it('gives markers whose labels would overlap one label, and a grown label that reaches the one before joins it', () => {
    // Four days apart on the two-year view: a few pixels.
    const close = ['2026-12-05', '2026-12-09', '2026-12-14', '2026-12-18', '2026-12-23'].map((date, i) => marker(date, 700 + 6 * i));
    // The sixth is far enough for its own marker, not for its own label once the five share one.
    const labels = layoutMarkerLabels([...close, marker('2027-02-01', 820)], words, bounds);
    expect(labels.map((label) => label.dates.length)).toEqual([6]);
    expect(labels[0]?.text).toBe('Runs out 6 times');
    expect(labels[0]?.left).toBeCloseTo(760 - (labels[0]?.width ?? 0) / 2);
    // A label at the plot's edge is kept inside it.
    const edge = layoutMarkerLabels([marker('2027-03-02', 995)], words, bounds)[0];
    expect((edge?.left ?? 0) + (edge?.width ?? 0)).toBe(1000);
    const two = layoutMarkerLabels([marker('2026-12-05', 100), marker('2026-12-09', 150), marker('2027-01-20', 700)], words, bounds);
    expect(two.map((label) => label.dates)).toEqual([['2026-12-05', '2026-12-09'], ['2027-01-20']]);
    expect(overlapping(two)).toBe(false);
  });

  it('lays out forecast and lower-bound labels apart (either side of the zero line), never overlapping on one side', () => {
    const markers = [marker('2026-12-06', 500), marker('2026-12-06', 500, 'stockLowerBound'), marker('2026-12-24', 530, 'stockLowerBound'), marker('2026-12-26', 535)];
    const labels = layoutMarkerLabels(markers, words, bounds);
    expect(labels.map((label) => [label.type, label.dates])).toEqual([
      ['stockForecast', ['2026-12-06', '2026-12-26']],
      ['stockLowerBound', ['2026-12-06', '2026-12-24']],
    ]);
    // Many markers at random places: whatever they are, no two labels of a side overlap and each stays inside.
    const scattered = Array.from({ length: 40 }, (_, i) => marker(`2027-01-${String((i % 28) + 1).padStart(2, '0')}`, (i * 379) % 1000, i % 3 ? 'stockForecast' : 'stockLowerBound'));
    const placed = layoutMarkerLabels(scattered, words, bounds);
    expect(overlapping(placed)).toBe(false);
    for (const label of placed) expect([label.left >= 0, label.left + label.width <= 1000]).toEqual([true, true]);
    expect(placed.reduce((sum, label) => sum + label.dates.length, 0)).toBe(40);
  });
});
