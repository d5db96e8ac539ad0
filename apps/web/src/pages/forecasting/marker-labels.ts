// Labels of the stock chart's stock-out markers (ADR 0157). One label a marker crowds its neighbours
// when the stock runs out, is refilled and runs out again within days, and on the two-year view a
// day is a pixel or two: markers whose labels would overlap share one ("Runs out 5 Dec and 9 Dec",
// "Runs out 14 times, 5 Dec–1 Feb"), as Metabase groups timeline events that fall close together.
// The full list of dates is in the chart's legend and each day's readout.
import type { ZeroCrossing, ZeroCrossingType } from './zero-crossings.ts';

export type PlacedMarker = ZeroCrossing & { x: number };
/** One label over one run of markers of a type: its dates in order, its text and where it is drawn (left edge, width). */
export type MarkerLabel = { type: ZeroCrossingType; dates: string[]; text: string; left: number; width: number };

/** Up to this many dates a label lists; more are said as a count and the first and last. */
export const MAX_LISTED_DATES = 3;

/**
 * Pixels a label's characters take at the chart's 11 px font, a little over the average so that an
 * estimate errs towards merging: measuring each label in the DOM is what the chart avoids (see
 * ForecastChart's tick labels).
 */
const CHARACTER_WIDTH = 6.5;
/** Space kept between two labels of one side of the zero line. */
const LABEL_GAP = 8;

export const estimateTextWidth = (text: string) => text.length * CHARACTER_WIDTH;

/**
 * The labels of each type's markers, left to right: a marker whose label would overlap the label
 * before it (or come within LABEL_GAP of it) joins that label's run, and a grown label that now
 * reaches the one before joins it too. A label is centred over its run and kept inside
 * [left, right]. Forecast and lower-bound labels are laid out apart: they sit on either side of the
 * zero line.
 */
export function layoutMarkerLabels(
  markers: readonly PlacedMarker[],
  words: (type: ZeroCrossingType, dates: string[]) => string,
  bounds: { left: number; right: number },
  textWidth: (text: string) => number = estimateTextWidth,
): MarkerLabel[] {
  const labels: MarkerLabel[] = [];
  for (const type of ['stockForecast', 'stockLowerBound'] as const) {
    const place = (run: PlacedMarker[]): MarkerLabel & { run: PlacedMarker[] } => {
      const dates = run.map((marker) => marker.date);
      const text = words(type, dates);
      const width = textWidth(text);
      const centre = ((run[0] as PlacedMarker).x + (run.at(-1) as PlacedMarker).x) / 2;
      const left = Math.max(bounds.left, Math.min(centre - width / 2, bounds.right - width));
      return { type, dates, text, left, width, run };
    };
    const placed: ReturnType<typeof place>[] = [];
    for (const marker of markers.filter((m) => m.type === type).sort((a, b) => a.x - b.x)) {
      let label = place([marker]);
      for (let before = placed.at(-1); before && before.left + before.width + LABEL_GAP > label.left; before = placed.at(-1)) {
        placed.pop();
        label = place([...before.run, ...label.run]);
      }
      placed.push(label);
    }
    labels.push(...placed.map(({ run: _run, ...label }) => label));
  }
  return labels;
}
