// The forecast chart: two stacked charts sharing one time axis (synchronised cursor and tooltip).
// Sales (a few units a day) and stock (hundreds of units, projected below zero after a stockout)
// differ by orders of magnitude and in sign; on one chart with two y-axes the bands overlap and a
// buyer cannot tell which line reads against which axis. Stacked, each has its own zero.
import { memo, useCallback, useId, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore, type KeyboardEvent, type MouseEvent } from 'react';
import { Area, CartesianGrid, ComposedChart, DefaultZIndexes, Line, XAxis, YAxis, ZIndexLayer, usePlotArea, useXAxisInverseScale, useXAxisScale, useYAxisScale } from 'recharts';
import { useTranslation } from 'react-i18next';
import { DEFAULT_FORECAST_DAYS, formatDay, formatDayOfMonth, formatMonth, quantityFormat } from '@stockwise/contract';
import { forecastMarks } from '../../api/forecasting.ts';
import { emptyRow, valueAxis, type ChartRow } from './chart-data.ts';
import { layoutMarkerLabels, MAX_LISTED_DATES } from './marker-labels.ts';
import { stockLevelWords, stockRangeWords } from './stock-words.ts';
import { unitName, withUnit } from '../../components/quantity-words.ts';
import type { ZeroCrossing, ZeroCrossingType } from './zero-crossings.ts';

type PlotRow = ChartRow & { t: number };

const dayMs = 86_400_000;
const timeOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
/** A point of the time axis (UTC midnight) as its day, YYYY-MM-DD. */
const dayAt = (time: number) => new Date(time).toISOString().slice(0, 10);
const numberFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const dateList = new Intl.ListFormat('en', { type: 'conjunction' });

/** First day of every third month in the range (Jan, Apr, Jul, Oct), or every month for short ranges. */
function quarterTicks(from: number, to: number): number[] {
  const ticks: number[] = [];
  const start = new Date(from);
  const step = to - from > 400 * dayMs ? 3 : 1;
  let year = start.getUTCFullYear();
  let month = start.getUTCMonth() + 1;
  while (true) {
    if (month > 11) {
      year += Math.floor(month / 12);
      month %= 12;
    }
    const tick = Date.UTC(year, month, 1);
    if (tick > to) break;
    if (month % step === 0) ticks.push(tick);
    month += 1;
  }
  return ticks;
}

const formatValue = (value: unknown): string => {
  if (Array.isArray(value)) return value.map(formatValue).join(' – ');
  return typeof value === 'number' ? numberFormat.format(value) : String(value ?? '');
};

/** A day's recorded sales with the places they were stored with (0.25 kg), where estimates keep one. */
const formatRecorded = (value: unknown): string => (typeof value === 'number' ? quantityFormat.format(value) : formatValue(value));

const actualSalesOf = (row: PlotRow) => row.actualSales;
const actualStockOf = (row: PlotRow) => row.actualStock;
const salesBand = (row: PlotRow) => (row.salesLowerBound === null || row.salesUpperBound === null ? null : [row.salesLowerBound, row.salesUpperBound]);
const stockBand = (row: PlotRow) => (row.stockLowerBound === null || row.stockUpperBound === null ? null : [row.stockLowerBound, row.stockUpperBound]);

const chartHeight = 260;
const historyDays = 730;

/**
 * The empty frame's two rows, without values: the ends of a typical forecast's time axis (two years
 * back, the default horizon ahead). Recharts builds no axes without rows.
 */
function emptyFrameRows(): PlotRow[] {
  const today = Math.floor(Date.now() / dayMs) * dayMs;
  return [today - historyDays * dayMs, today + DEFAULT_FORECAST_DAYS * dayMs].map((t) => ({ ...emptyRow(dayAt(t)), t }));
}

// Every tick is shown (quarters on the time axis, a handful of round numbers on the value axes): with
// interval 0 Recharts skips measuring each label in the DOM to thin out overlapping ones. Tick
// labels are plain SVG text: Recharts' own Text measures every word in the DOM to wrap labels that
// never need wrapping here.
type TickProps = { x?: number | string; y?: number | string; payload?: { value?: unknown }; textAnchor?: 'start' | 'middle' | 'end' | 'inherit' };
const tickLabel = (format: (value: number) => string, dy: string) =>
  function TickLabel({ x, y, payload, textAnchor }: TickProps) {
    return (
      <text x={x} y={y} dy={dy} textAnchor={textAnchor} fontSize={12} fill="#666">
        {typeof payload?.value === 'number' ? format(payload.value) : ''}
      </text>
    );
  };
// Months on the time axis ("Dec 2026"): a day's number would crowd a phone's width.
const monthTick = tickLabel((value) => formatMonth(dayAt(value)), '0.71em');
const valueTick = tickLabel((value) => numberFormat.format(value), '0.355em');
const noTicks: number[] = [];
const chartMargin = { top: 16, right: 24, bottom: 0, left: 8 };
const colors = { actual: '#495057', forecast: '#1c7ed6', band: '#a5d8ff', stock: '#2b8a3e', stockForecast: '#e8590c', stockBand: '#ffd8a8', out: '#e03131', maybeOut: '#f08c00', outText: '#c92a2a', maybeOutText: '#a85d00' };

/** The line paths of each of the two charts, one string per chart. */
const drawnPaths = (container: HTMLDivElement | null) =>
  [...(container?.querySelectorAll('.recharts-wrapper') ?? [])].map((chart) => [...chart.querySelectorAll('.recharts-line-curve, .history-line')].map((path) => path.getAttribute('d') ?? '').join(' '));

/**
 * Marks the moment the new forecast is on screen (bench/forecast-chart): every chart's paths differ
 * from what was drawn before this data arrived, and the frame that shows them has been painted.
 */
function useRenderedMark(container: React.RefObject<HTMLDivElement | null>, rows: PlotRow[], styleCode: string | null) {
  useLayoutEffect(() => {
    if (styleCode === null) return;
    performance.mark(forecastMarks.committed, { detail: styleCode });
    const before = drawnPaths(container.current);
    let frame = 0;
    let tries = 0;
    const check = () => {
      const now = drawnPaths(container.current);
      const redrawn = now.length > 0 && now.every((paths, index) => paths !== '' && paths !== before[index]);
      if (redrawn || tries > 120) {
        // A message posted from an animation frame is handled after that frame is painted.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => performance.mark(forecastMarks.rendered, { detail: styleCode });
        channel.port2.postMessage(null);
        return;
      }
      tries += 1;
      frame = requestAnimationFrame(check);
    };
    frame = requestAnimationFrame(check);
    return () => cancelAnimationFrame(frame);
  }, [container, rows, styleCode]);
}

// The forecast start, the zero line and the stockout markers are drawn from the axes' scales, not
// with Recharts' ReferenceLine/ReferenceDot: those register themselves in the chart's store in an
// effect without dependencies, so every render removes and re-adds them, and each of those updates
// recomputes the whole chart (measured: most of a product switch's render time).

/** A series of the chart, or a kind of marker with its dates (`id`: what the stock chart's readout is described by). */
type LegendItem = { label: string; color: string; kind: 'line' | 'band' | 'marker'; id?: string };

/**
 * The series of one chart, above it (HTML: Recharts' legend lists only its own series), or its
 * stock-out markers with their dates, under it. The words are dark grey, the swatch in the series'
 * colour: orange or blue text on white is below WCAG AA's contrast for text.
 */
const ChartLegend = memo(function ChartLegend({ items }: { items: LegendItem[] }) {
  return (
    <ul className="chart-legend" style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', columnGap: 20, rowGap: 2, listStyle: 'none', margin: '4px 0', padding: 0, fontSize: 14 }}>
      {items.map((item) => (
        <li key={item.label} id={item.id} className={`legend-${item.kind}`} style={{ display: 'flex', alignItems: 'center', gap: 6, color: '#495057' }}>
          <svg width={18} height={10} aria-hidden="true">
            {item.kind === 'line' ? (
              <line x1={0} x2={18} y1={5} y2={5} stroke={item.color} strokeWidth={2} />
            ) : item.kind === 'marker' ? (
              <circle cx={9} cy={5} r={4.5} fill={item.color} />
            ) : (
              <rect width={18} height={10} fill={item.color} />
            )}
          </svg>
          {item.label}
        </li>
      ))}
    </ul>
  );
});

type ReadoutValue = number | number[];
/** A line of the day's readout: its series' name, value, colour, and the value's words. */
type ReadoutItem = [name: string, field: Exclude<keyof ChartRow, 'date'> | 'salesBand' | 'stockBand', color: string, words: (value: ReadoutValue) => string];
/** A stock-out marker's words and colour in the day's readout. */
type ReadoutEvent = { text: string; color: string };

const markerColor = (type: ZeroCrossingType) => (type === 'stockForecast' ? colors.out : colors.maybeOut);
/** A marker label's words: darker than its dot, for WCAG AA's 4.5:1 against the white ground. */
const markerTextColor = (type: ZeroCrossingType) => (type === 'stockForecast' ? colors.outText : colors.maybeOutText);

/**
 * The chart's words, translated once per language and product unit rather than on every render
 * (i18next's t is not free); titles and readouts in the product's unit when it has one (ADR 0177).
 */
function useChartLabels(unit: string | null) {
  const { t } = useTranslation();
  return useMemo(() => {
    const stockWords = (value: ReadoutValue) => (typeof value === 'number' ? stockLevelWords(value, t, unit) : stockRangeWords([value[0]!, value[1]!], t, unit));
    const salesWords = (format: (value: unknown) => string) => (value: ReadoutValue) => withUnit(format(value), unit);
    const name = {
      actualSales: t('forecasting.chart.actualSales'),
      forecastSales: t('forecasting.chart.forecastSales'),
      salesBand: t('forecasting.chart.salesBand'),
      actualStock: t('forecasting.chart.actualStock'),
      forecastStock: t('forecasting.chart.forecastStock'),
      stockBand: t('forecasting.chart.stockBand'),
    };
    return {
      name,
      chartFor: (code: string) => t('forecasting.chart.ariaLabel', { code }),
      emptyChart: t('forecasting.chart.ariaLabelEmpty'),
      salesTitle: t('forecasting.chart.salesTitle', { unit: unitName(unit, t) }),
      stockTitle: t('forecasting.chart.stockTitle', { unit: unitName(unit, t) }),
      forecastStart: t('forecasting.chart.forecastStart'),
      salesReadout: t('forecasting.chart.salesReadout'),
      stockReadout: t('forecasting.chart.stockReadout'),
      /** A marker label: its dates listed ("Runs out 5 Dec and 9 Dec"), or past MAX_LISTED_DATES counted, unless `all` are wanted (the legend). */
      markers: (type: ZeroCrossingType, dates: string[], all = false) => {
        const key = type === 'stockForecast' ? 'forecasting.chart.stockForecastMarker' : 'forecasting.chart.stockLowerBoundMarker';
        if (all || dates.length <= MAX_LISTED_DATES) return t(key, { dates: dateList.format(dates.map(formatDayOfMonth)) });
        return t(`${key}Many`, { count: dates.length, from: formatDayOfMonth(dates[0] as string), to: formatDayOfMonth(dates.at(-1) as string) });
      },
      event: { stockForecast: t('forecasting.chart.stockForecastEvent'), stockLowerBound: t('forecasting.chart.stockLowerBoundEvent') } satisfies Record<ZeroCrossingType, string>,
      salesItems: [
        [name.actualSales, 'actualSales', colors.actual, salesWords(formatRecorded)],
        [name.forecastSales, 'forecastSales', colors.forecast, salesWords(formatValue)],
        [name.salesBand, 'salesBand', colors.forecast, salesWords(formatValue)],
      ] satisfies ReadoutItem[],
      // Stock in words is never below 0 (stock-words.ts); the line itself crosses zero.
      stockItems: [
        [name.actualStock, 'actualStock', colors.stock, stockWords],
        [name.forecastStock, 'forecastStock', colors.stockForecast, stockWords],
        [name.stockBand, 'stockBand', colors.stockForecast, stockWords],
      ] satisfies ReadoutItem[],
      salesLegend: [
        { label: name.actualSales, color: colors.actual, kind: 'line' },
        { label: name.forecastSales, color: colors.forecast, kind: 'line' },
        { label: name.salesBand, color: colors.band, kind: 'band' },
      ] satisfies LegendItem[],
      stockLegend: [
        { label: name.actualStock, color: colors.stock, kind: 'line' },
        { label: name.forecastStock, color: colors.stockForecast, kind: 'line' },
        { label: name.stockBand, color: colors.stockBand, kind: 'band' },
      ] satisfies LegendItem[],
    };
  }, [t, unit]);
}

/** The day under the pointer or keyboard cursor, shared by both charts so they move together. */
type HoverStore = { get(): number | null; set(day: number | null): void; subscribe(listener: () => void): () => void };
function createHoverStore(): HoverStore {
  let day: number | null = null;
  const listeners = new Set<() => void>();
  return {
    get: () => day,
    set(next) {
      if (next === day) return;
      day = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

const readoutWidth = 230;
const noEvents = new Map<number, ReadoutEvent[]>();

/**
 * The chart's tooltip: a cursor line and the values of the day under the pointer, or of the day
 * chosen with the arrow keys once the chart has focus (Home/End: first and last day, Escape: hide).
 * Our own rather than Recharts' Tooltip, whose days come from its series' data, and the history is
 * not a Recharts series (see DailyPath). Only this layer re-renders as the pointer moves.
 * Recharts' own keyboard layer (accessibilityLayer) is off on both charts: it steps through
 * Recharts' tooltip, which is not used here, and left each SVG an extra tab stop that did nothing.
 */
function DayReadout({
  hover,
  byTime,
  domain,
  items,
  label,
  events = noEvents,
  describedBy,
}: {
  hover: HoverStore;
  byTime: Map<number, PlotRow>;
  domain: [number, number];
  items: ReadoutItem[];
  label: string;
  events?: Map<number, ReadoutEvent[]>;
  describedBy?: string | undefined;
}) {
  const day = useSyncExternalStore(hover.subscribe, hover.get);
  const xScale = useXAxisScale();
  const timeAt = useXAxisInverseScale();
  const plot = usePlotArea();
  if (!xScale || !timeAt || !plot) return <ZIndexLayer zIndex={DefaultZIndexes.label}>{null}</ZIndexLayer>;
  const clampDay = (t: number) => Math.min(domain[1], Math.max(domain[0], domain[0] + Math.round((t - domain[0]) / dayMs) * dayMs));
  const onMouseMove = (event: MouseEvent<SVGRectElement>) => {
    const svg = event.currentTarget.ownerSVGElement;
    if (!svg) return;
    // A time scale inverts to a Date.
    const time = timeAt(event.clientX - svg.getBoundingClientRect().left);
    const ms = time instanceof Date ? time.getTime() : time;
    if (typeof ms === 'number') hover.set(clampDay(ms));
  };
  const onKeyDown = (event: KeyboardEvent<SVGRectElement>) => {
    const current = day ?? domain[1];
    const next = { ArrowLeft: current - dayMs, ArrowRight: current + dayMs, Home: domain[0], End: domain[1], Escape: null }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    hover.set(next === null ? null : clampDay(next));
  };
  const row = day === null ? undefined : byTime.get(day);
  const x = row ? xScale(row.t) : undefined;
  const lines = row
    ? items.flatMap(([name, field, color, words]) => {
        const value = field === 'salesBand' ? salesBand(row) : field === 'stockBand' ? stockBand(row) : row[field];
        return value === null ? [] : [{ name, color, text: words(value) }];
      })
    : [];
  const boxX = x === undefined ? 0 : x + 12 + readoutWidth > plot.x + plot.width ? x - 12 - readoutWidth : x + 12;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.label}>
      <g className="day-readout">
        {x !== undefined ? <line x1={x} x2={x} y1={plot.y} y2={plot.y + plot.height} stroke="#adb5bd" /> : null}
        {row && x !== undefined ? (
          <foreignObject x={boxX} y={plot.y + 8} width={readoutWidth} height={plot.height - 8} pointerEvents="none">
            <div role="status" style={{ display: 'inline-block', background: '#fff', border: '1px solid #ced4da', borderRadius: 4, padding: '6px 10px', fontSize: 13 }}>
              <div style={{ fontWeight: 600, marginBottom: 2 }}>{formatDay(row.date)}</div>
              {lines.map((line) => (
                <div key={line.name}>
                  <span style={{ color: line.color }}>●</span> {line.name}: {line.text}
                </div>
              ))}
              {(events.get(row.t) ?? []).map((event) => (
                <div key={event.text} className="readout-event" style={{ color: event.color, fontWeight: 600 }}>
                  <span aria-hidden="true">●</span> {event.text}
                </div>
              ))}
            </div>
          </foreignObject>
        ) : null}
        <rect
          x={plot.x}
          y={plot.y}
          width={plot.width}
          height={plot.height}
          fill="transparent"
          tabIndex={byTime.size > 0 ? 0 : -1}
          role="application"
          aria-label={label}
          aria-describedby={describedBy}
          onMouseMove={onMouseMove}
          onMouseLeave={() => hover.set(null)}
          onKeyDown={onKeyDown}
          onBlur={() => hover.set(null)}
        />
      </g>
    </ZIndexLayer>
  );
}

/**
 * A daily history (two years: ~730 points) as one SVG path from the axes' scales. As a Recharts
 * Line it cost most of the chart's render time: Recharts keeps a label entry, a tooltip entry and
 * band-size bookkeeping per point whether or not they are shown. Hovering still works: the chart's
 * own readout (DayReadout) covers every day.
 */
function DailyPath({ rows, valueOf, className, stroke, strokeWidth }: { rows: PlotRow[]; valueOf: (row: PlotRow) => number | null; className: string; stroke: string; strokeWidth: number }) {
  const xScale = useXAxisScale();
  const yScale = useYAxisScale();
  const d = useMemo(() => {
    if (!xScale || !yScale) return '';
    const parts: string[] = [];
    let drawing = false;
    for (const row of rows) {
      const value = valueOf(row);
      const x = value === null ? undefined : xScale(row.t);
      const y = value === null ? undefined : yScale(value);
      if (x === undefined || y === undefined) {
        drawing = false;
        continue;
      }
      parts.push(`${drawing ? 'L' : 'M'}${x.toFixed(1)},${y.toFixed(1)}`);
      drawing = true;
    }
    return parts.join('');
  }, [rows, valueOf, xScale, yScale]);
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line}>
      <path className={`history-line ${className}`} d={d} fill="none" stroke={stroke} strokeWidth={strokeWidth} />
    </ZIndexLayer>
  );
}

/** The dashed vertical line where the forecast starts, with its label (none in the empty frame). */
function ForecastStartLine({ at, label }: { at: number | null; label: string }) {
  const xScale = useXAxisScale();
  const plot = usePlotArea();
  const x = at === null ? undefined : xScale?.(at);
  // The layer is rendered even while there is nothing to draw: registering it later is another
  // round of Recharts store updates when the forecast arrives.
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line}>
      {x === undefined || !plot ? null : (
        <g className="forecast-start">
          <line x1={x} x2={x} y1={plot.y} y2={plot.y + plot.height} stroke="#868e96" strokeDasharray="4 4" />
          <text x={x + 5} y={plot.y + 14} fontSize={12} fill="#495057">
            {label}
          </text>
        </g>
      )}
    </ZIndexLayer>
  );
}

/**
 * The zero line of the stock chart, a marker where the stock forecast or its lower bound reaches it,
 * and the markers' labels: forecast ones above the line, lower-bound ones below, one label for each
 * run of markers too close to label apart (marker-labels.ts), on a white ground (an SVG filter the
 * size of the text, which is not measured) so that the lines they cross do not run through the
 * words. Drawn for the eye: the legend under the chart lists the same dates as text, so the layer is
 * hidden from screen readers.
 */
function ZeroLineAndCrossings({ crossings, words }: { crossings: ZeroCrossing[]; words: (type: ZeroCrossingType, dates: string[]) => string }) {
  const xScale = useXAxisScale();
  const zero = useYAxisScale()?.(0);
  const plot = usePlotArea();
  const ready = xScale && zero !== undefined && plot;
  const markers = ready
    ? crossings.flatMap((crossing) => {
        const x = xScale(timeOf(crossing.date));
        return x === undefined ? [] : [{ ...crossing, x }];
      })
    : [];
  const labels = ready ? layoutMarkerLabels(markers, words, { left: plot.x, right: plot.x + plot.width }) : [];
  const ground = useId();
  return (
    <>
      <ZIndexLayer zIndex={DefaultZIndexes.line}>
        {ready ? <line className="zero-line" x1={plot.x} x2={plot.x + plot.width} y1={zero} y2={zero} stroke="#adb5bd" /> : null}
      </ZIndexLayer>
      <ZIndexLayer zIndex={DefaultZIndexes.label}>
        {ready ? (
          <g aria-hidden="true">
            <defs>
              <filter id={ground} x="-0.03" y="-0.1" width="1.06" height="1.2">
                <feFlood floodColor="#fff" floodOpacity={0.85} />
                <feComposite in="SourceGraphic" operator="over" />
              </filter>
            </defs>
            {markers.map((marker) => (
              <circle key={`${marker.type}-${marker.date}`} className={`zero-crossing zero-crossing-${marker.type}`} data-date={marker.date} cx={marker.x} cy={zero} r={5} fill={markerColor(marker.type)} stroke="#fff" />
            ))}
            {labels.map((label) => {
              const above = label.type === 'stockForecast';
              return (
                <text
                  key={`${label.type}-${label.dates[0]}`}
                  className={`zero-crossing-label zero-crossing-label-${label.type}`}
                  x={label.left}
                  y={above ? zero - 9 : zero + 9}
                  dominantBaseline={above ? 'auto' : 'hanging'}
                  fontSize={11}
                  fill={markerTextColor(label.type)}
                  filter={`url(#${ground})`}
                >
                  {label.text}
                </text>
              );
            })}
          </g>
        ) : null}
      </ZIndexLayer>
    </>
  );
}

/**
 * The container's width, read before the first paint and followed on resize. Recharts' own
 * `responsive` mode measures after mounting and draws the series a few frames later; with the width
 * known up front the chart is drawn in its first commit.
 */
function useMeasuredContainer() {
  const element = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  const measure = useCallback((node: HTMLDivElement | null) => {
    element.current = node;
    if (!node) return;
    const read = () => setWidth(node.clientWidth);
    read();
    const observer = new ResizeObserver(read);
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  return { element, width, measure };
}

/**
 * With no rows the chart is an empty frame (the time axis of a typical forecast: two years back, the
 * horizon ahead): shown while no product is chosen or the first forecast loads, so that the forecast
 * arriving updates charts Recharts has already built instead of building them from nothing.
 */
export const ForecastChart = memo(function ForecastChart({ rows, forecastStart, crossings, styleCode, unit, stockKept = true }: { rows: ChartRow[]; forecastStart: string | null; crossings: ZeroCrossing[]; styleCode: string | null; unit: string | null; stockKept?: boolean }) {
  const { t } = useTranslation();
  const labels = useChartLabels(unit);
  const empty = rows.length === 0;
  const plotRows = useMemo<PlotRow[]>(() => (empty ? emptyFrameRows() : rows.map((row) => ({ ...row, t: timeOf(row.date) }))), [rows, empty]);
  const domain = useMemo<[number, number]>(() => [plotRows[0]!.t, plotRows.at(-1)!.t], [plotRows]);
  const ticks = useMemo(() => quarterTicks(domain[0], domain[1]), [domain]);
  const start = forecastStart === null ? null : timeOf(forecastStart);
  // Each series gets only the days it has a value on (history ~730, forecast 90): Recharts works
  // per series and per row, so this halves the render time against one 820-row table. The tooltip
  // and the two charts' synchronisation therefore go by date (syncMethod value), not by row index.
  // The empty frame's bands get its two rows, so that Recharts builds the axes.
  const series = useMemo(() => {
    const has = (key: keyof ChartRow) => (empty ? plotRows : plotRows.filter((row) => row[key] !== null));
    return { actualSales: has('actualSales'), forecastSales: has('forecastSales'), actualStock: has('actualStock'), forecastStock: has('forecastStock') };
  }, [plotRows, empty]);
  const salesScale = useMemo(() => valueAxis(plotRows, ['actualSales', 'forecastSales', 'salesUpperBound', 'salesLowerBound'], false), [plotRows]);
  const stockScale = useMemo(() => valueAxis(plotRows, ['actualStock', 'forecastStock', 'stockUpperBound', 'stockLowerBound'], true), [plotRows]);
  const { element: container, width, measure } = useMeasuredContainer();
  useRenderedMark(container, plotRows, styleCode);

  const xAxis = (
    <XAxis
      dataKey="t"
      type="number"
      scale="time"
      domain={domain}
      ticks={ticks}
      tick={monthTick}
      interval={0}
    />
  );
  const byTime = useMemo(() => new Map(empty ? [] : plotRows.map((row) => [row.t, row])), [plotRows, empty]);
  // The markers' dates in full, as text: a legend under the stock chart (under it, so that the chart
  // does not move when a product has none), and each marker's words in its day's readout (the
  // chart's own labels may merge or count them).
  const markerIds = useId();
  const { markerLegend, stockEvents, markersDescribedBy } = useMemo(() => {
    const datesOf = (type: ZeroCrossingType) => crossings.filter((crossing) => crossing.type === type).map((crossing) => crossing.date);
    const markerItems = (['stockForecast', 'stockLowerBound'] as const).flatMap((type): LegendItem[] => {
      const dates = datesOf(type);
      return dates.length ? [{ label: labels.markers(type, dates, true), color: markerColor(type), kind: 'marker', id: `${markerIds}-${type}` }] : [];
    });
    const events = new Map<number, ReadoutEvent[]>();
    for (const crossing of crossings) {
      const t = timeOf(crossing.date);
      events.set(t, [...(events.get(t) ?? []), { text: labels.event[crossing.type], color: markerTextColor(crossing.type) }]);
    }
    return { markerLegend: markerItems, stockEvents: events, markersDescribedBy: markerItems.map((item) => item.id).join(' ') || undefined };
  }, [crossings, labels, markerIds]);
  const [hover] = useState(createHoverStore);
  return (
    <div ref={measure} role="group" aria-label={styleCode === null ? labels.emptyChart : labels.chartFor(styleCode)} data-testid="forecast-chart">
      <div style={{ fontSize: 14, fontWeight: 600, marginLeft: 8 }}>{labels.salesTitle}</div>
      <ChartLegend items={labels.salesLegend} />
      {width > 0 ? (
        <>
      <ComposedChart margin={chartMargin} width={width} height={chartHeight} className="sales-chart" accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
        {xAxis}
        <YAxis tick={valueTick} interval={0} width={56} domain={salesScale.domain} ticks={empty ? noTicks : salesScale.ticks} />
        <Area className="sales-band" data={series.forecastSales} dataKey={salesBand} name={labels.name.salesBand} stroke="none" fill={colors.band} fillOpacity={0.6} isAnimationActive={false} activeDot={false} connectNulls={false} />
        <DailyPath rows={series.actualSales} valueOf={actualSalesOf} className="actual-sales" stroke={colors.actual} strokeWidth={1} />
        <Line className="sales-forecast" data={series.forecastSales} dataKey="forecastSales" name={labels.name.forecastSales} stroke={colors.forecast} strokeWidth={2} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <ForecastStartLine at={start} label={labels.forecastStart} />
        <DayReadout hover={hover} byTime={byTime} domain={domain} items={labels.salesItems} label={labels.salesReadout} />
      </ComposedChart>
      <div style={{ fontSize: 14, fontWeight: 600, marginLeft: 8, marginTop: 8 }}>{labels.stockTitle}</div>
      {/* A service or fee (ADR 0200): a stock line of 0 sinking below zero would only alarm. */}
      {stockKept ? null : (
        <p style={{ fontSize: 14, marginLeft: 8 }} data-testid="no-stock-kept">
          {t('forecasting.chart.noStockKept')}
        </p>
      )}
      {stockKept ? (
        <>
      <ChartLegend items={labels.stockLegend} />
      <ComposedChart margin={chartMargin} width={width} height={chartHeight} className="stock-chart" accessibilityLayer={false}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
        {xAxis}
        <YAxis tick={valueTick} interval={0} width={56} domain={stockScale.domain} ticks={empty ? noTicks : stockScale.ticks} allowDataOverflow />
        <Area className="stock-band" data={series.forecastStock} dataKey={stockBand} name={labels.name.stockBand} stroke="none" fill={colors.stockBand} fillOpacity={0.7} isAnimationActive={false} activeDot={false} connectNulls={false} />
        <DailyPath rows={series.actualStock} valueOf={actualStockOf} className="actual-stock" stroke={colors.stock} strokeWidth={1.5} />
        <Line className="stock-forecast" data={series.forecastStock} dataKey="forecastStock" name={labels.name.forecastStock} stroke={colors.stockForecast} strokeWidth={2} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <ZeroLineAndCrossings crossings={crossings} words={labels.markers} />
        <ForecastStartLine at={start} label={labels.forecastStart} />
        <DayReadout hover={hover} byTime={byTime} domain={domain} items={labels.stockItems} label={labels.stockReadout} events={stockEvents} describedBy={markersDescribedBy} />
      </ComposedChart>
      {markerLegend.length ? <ChartLegend items={markerLegend} /> : null}
        </>
      ) : null}
        </>
      ) : (
        <div style={{ height: 2 * chartHeight }} />
      )}
    </div>
  );
});
