// The forecast chart: two stacked charts sharing one time axis (synchronised cursor and tooltip).
// Sales (a few units a day) and stock (hundreds of units, projected below zero after a stockout)
// differ by orders of magnitude and in sign; on one chart with two y-axes the bands overlap and a
// buyer cannot tell which line reads against which axis. Stacked, each has its own zero.
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Area, CartesianGrid, ComposedChart, DefaultZIndexes, Legend, Line, Tooltip, XAxis, YAxis, ZIndexLayer, usePlotArea, useXAxisScale, useYAxisScale } from 'recharts';
import { useTranslation } from 'react-i18next';
import { forecastMarks } from '../../api/forecasting.ts';
import type { ChartRow } from './chart-data.ts';
import type { ZeroCrossing } from './zero-crossings.ts';

type PlotRow = ChartRow & { t: number };

const dayMs = 86_400_000;
const timeOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
const monthFormat = new Intl.DateTimeFormat('en', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const dayFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const shortDayFormat = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const numberFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export const formatDay = (date: string) => dayFormat.format(timeOf(date));

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

const salesBand = (row: PlotRow) => (row.salesLowerBound === null || row.salesUpperBound === null ? null : [row.salesLowerBound, row.salesUpperBound]);
const stockBand = (row: PlotRow) => (row.stockLowerBound === null || row.stockUpperBound === null ? null : [row.stockLowerBound, row.stockUpperBound]);

/**
 * After a stockout the projection keeps falling (unmet demand); drawn in full it squashes the
 * history. The axis shows at most half the highest stock below zero and clips the rest.
 */
function stockAxis(rows: PlotRow[]): { domain: [number, number]; ticks: number[] } {
  let high = 0;
  let low = 0;
  for (const row of rows) {
    for (const value of [row.actualStock, row.forecastStock, row.stockUpperBound, row.stockLowerBound]) {
      if (value === null) continue;
      if (value > high) high = value;
      if (value < low) low = value;
    }
  }
  const floor = Math.max(low, -0.5 * Math.max(high, 1));
  const rough = Math.max(high - floor, 1) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= rough) ?? 10) * magnitude;
  const from = Math.floor(floor / step) * step;
  const to = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let tick = from; tick <= to + step / 2; tick += step) ticks.push(Math.round(tick * 100) / 100);
  return { domain: [from, to], ticks };
}

const chartHeight = 260;
// Every tick is shown (quarters on the time axis, a handful of round numbers on the value axes): with
// interval 0 Recharts skips measuring each label in the DOM to thin out overlapping ones.
const axisTick = { fontSize: 12 };
const chartMargin = { top: 16, right: 24, bottom: 0, left: 8 };
const colors = { actual: '#495057', forecast: '#1c7ed6', band: '#a5d8ff', stock: '#2b8a3e', stockForecast: '#e8590c', stockBand: '#ffd8a8', out: '#e03131', maybeOut: '#f08c00' };

/** The line paths of each of the two charts, one string per chart. */
const drawnPaths = (container: HTMLDivElement | null) =>
  [...(container?.querySelectorAll('.recharts-wrapper') ?? [])].map((chart) => [...chart.querySelectorAll('.recharts-line-curve')].map((path) => path.getAttribute('d') ?? '').join(' '));

/**
 * Marks the moment the new forecast is on screen (bench/forecast-chart): every chart's paths differ
 * from what was drawn before this data arrived, and the frame that shows them has been painted.
 */
function useRenderedMark(container: React.RefObject<HTMLDivElement | null>, rows: PlotRow[], styleCode: string) {
  useLayoutEffect(() => {
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

/** The dashed vertical line where the forecast starts, with its label. */
function ForecastStartLine({ at, label }: { at: number; label: string }) {
  const x = useXAxisScale()?.(at);
  const plot = usePlotArea();
  if (x === undefined || !plot) return null;
  return (
    <ZIndexLayer zIndex={DefaultZIndexes.line}>
      <g className="forecast-start">
        <line x1={x} x2={x} y1={plot.y} y2={plot.y + plot.height} stroke="#868e96" strokeDasharray="4 4" />
        <text x={x + 5} y={plot.y + 14} fontSize={12} fill="#495057">
          {label}
        </text>
      </g>
    </ZIndexLayer>
  );
}

/** The zero line of the stock chart and a marker where the stock forecast or its lower bound reaches it. */
function ZeroLineAndCrossings({ crossings }: { crossings: ZeroCrossing[] }) {
  const { t } = useTranslation();
  const xScale = useXAxisScale();
  const zero = useYAxisScale()?.(0);
  const plot = usePlotArea();
  if (!xScale || zero === undefined || !plot) return null;
  return (
    <>
      <ZIndexLayer zIndex={DefaultZIndexes.line}>
        <line className="zero-line" x1={plot.x} x2={plot.x + plot.width} y1={zero} y2={zero} stroke="#adb5bd" />
      </ZIndexLayer>
      <ZIndexLayer zIndex={DefaultZIndexes.label}>
        {crossings.map((crossing) => {
          const x = xScale(timeOf(crossing.date));
          if (x === undefined) return null;
          // Forecast crossings are labelled above the zero line, lower-bound ones below; several
          // close together are stacked so their dates stay readable.
          const order = crossings.filter((other) => other.type === crossing.type).indexOf(crossing);
          const isForecast = crossing.type === 'stockForecast';
          const color = isForecast ? colors.out : colors.maybeOut;
          const offset = 8 + order * 14;
          return (
            <g key={`${crossing.type}-${crossing.date}`} className={`zero-crossing zero-crossing-${crossing.type}`}>
              <circle cx={x} cy={zero} r={5} fill={color} stroke="#fff" />
              <text x={x} y={isForecast ? zero - offset : zero + offset} dominantBaseline={isForecast ? 'auto' : 'hanging'} textAnchor="middle" fontSize={11} fill={color}>
                {t(isForecast ? 'forecasting.chart.stockForecastMarker' : 'forecasting.chart.stockLowerBoundMarker', { date: shortDayFormat.format(timeOf(crossing.date)) })}
              </text>
            </g>
          );
        })}
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

export const ForecastChart = memo(function ForecastChart({ rows, forecastStart, crossings, styleCode }: { rows: ChartRow[]; forecastStart: string; crossings: ZeroCrossing[]; styleCode: string }) {
  const { t } = useTranslation();
  const plotRows = useMemo<PlotRow[]>(() => rows.map((row) => ({ ...row, t: timeOf(row.date) })), [rows]);
  const domain = useMemo<[number, number]>(() => [plotRows[0]?.t ?? 0, plotRows.at(-1)?.t ?? 0], [plotRows]);
  const ticks = useMemo(() => quarterTicks(domain[0], domain[1]), [domain]);
  const start = timeOf(forecastStart);
  // Each series gets only the days it has a value on (history ~730, forecast 90): Recharts works
  // per series and per row, so this halves the render time against one 820-row table. The tooltip
  // and the two charts' synchronisation therefore go by date (syncMethod value), not by row index.
  const series = useMemo(() => {
    const has = (key: keyof ChartRow) => plotRows.filter((row) => row[key] !== null);
    return { actualSales: has('actualSales'), forecastSales: has('forecastSales'), actualStock: has('actualStock'), forecastStock: has('forecastStock') };
  }, [plotRows]);
  const stockScale = useMemo(() => stockAxis(plotRows), [plotRows]);
  const { element: container, width, measure } = useMeasuredContainer();
  useRenderedMark(container, plotRows, styleCode);

  const xAxis = (
    <XAxis
      dataKey="t"
      type="number"
      scale="time"
      domain={domain}
      ticks={ticks}
      tickFormatter={(value: number) => monthFormat.format(value)}
      tick={axisTick}
      interval={0}
    />
  );
  const byTime = useMemo(() => new Map(plotRows.map((row) => [row.t, row])), [plotRows]);
  const tooltipFor = (items: [string, keyof ChartRow | 'salesBand' | 'stockBand', string][]) => (
    <Tooltip
      isAnimationActive={false}
      content={({ active, label }) => {
        const row = typeof label === 'number' ? byTime.get(label) : undefined;
        if (!active || !row) return null;
        const lines = items
          .map(([name, key, color]) => {
            const value = key === 'salesBand' ? salesBand(row) : key === 'stockBand' ? stockBand(row) : row[key];
            return value === null ? null : { name, color, text: formatValue(value) };
          })
          .filter((line) => line !== null);
        return (
          <div style={{ background: '#fff', border: '1px solid #ced4da', borderRadius: 4, padding: '6px 10px', fontSize: 13 }}>
            <div style={{ fontWeight: 600, marginBottom: 2 }}>{dayFormat.format(row.t)}</div>
            {lines.map((line) => (
              <div key={line.name}>
                <span style={{ color: line.color }}>●</span> {line.name}: {line.text}
              </div>
            ))}
          </div>
        );
      }}
    />
  );

  return (
    <div ref={measure} role="group" aria-label={t('forecasting.chart.ariaLabel', { code: styleCode })} data-testid="forecast-chart">
      <div style={{ fontSize: 14, fontWeight: 600, marginLeft: 8 }}>{t('forecasting.chart.salesTitle')}</div>
      {width > 0 ? (
        <>
      <ComposedChart syncId="forecast" syncMethod="value" margin={chartMargin} width={width} height={chartHeight} className="sales-chart">
        <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
        {xAxis}
        <YAxis tick={axisTick} interval={0} width={56} allowDecimals={false} />
        {tooltipFor([[t('forecasting.chart.actualSales'), 'actualSales', colors.actual], [t('forecasting.chart.forecastSales'), 'forecastSales', colors.forecast], [t('forecasting.chart.salesBand'), 'salesBand', colors.forecast]])}
        <Legend verticalAlign="top" height={28} />
        <Area className="sales-band" data={series.forecastSales} dataKey={salesBand} name={t('forecasting.chart.salesBand')} stroke="none" fill={colors.band} fillOpacity={0.6} isAnimationActive={false} activeDot={false} connectNulls={false} />
        <Line data={series.actualSales} dataKey="actualSales" name={t('forecasting.chart.actualSales')} stroke={colors.actual} strokeWidth={1} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <Line className="sales-forecast" data={series.forecastSales} dataKey="forecastSales" name={t('forecasting.chart.forecastSales')} stroke={colors.forecast} strokeWidth={2} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <ForecastStartLine at={start} label={t('forecasting.chart.forecastStart')} />
      </ComposedChart>
      <div style={{ fontSize: 14, fontWeight: 600, marginLeft: 8, marginTop: 8 }}>{t('forecasting.chart.stockTitle')}</div>
      <ComposedChart syncId="forecast" syncMethod="value" margin={chartMargin} width={width} height={chartHeight} className="stock-chart">
        <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
        {xAxis}
        <YAxis tick={axisTick} interval={0} width={56} allowDecimals={false} domain={stockScale.domain} ticks={stockScale.ticks} allowDataOverflow />
        {tooltipFor([[t('forecasting.chart.actualStock'), 'actualStock', colors.stock], [t('forecasting.chart.forecastStock'), 'forecastStock', colors.stockForecast], [t('forecasting.chart.stockBand'), 'stockBand', colors.stockForecast]])}
        <Legend verticalAlign="top" height={28} />
        <Area className="stock-band" data={series.forecastStock} dataKey={stockBand} name={t('forecasting.chart.stockBand')} stroke="none" fill={colors.stockBand} fillOpacity={0.7} isAnimationActive={false} activeDot={false} connectNulls={false} />
        <Line data={series.actualStock} dataKey="actualStock" name={t('forecasting.chart.actualStock')} stroke={colors.stock} strokeWidth={1.5} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <Line className="stock-forecast" data={series.forecastStock} dataKey="forecastStock" name={t('forecasting.chart.forecastStock')} stroke={colors.stockForecast} strokeWidth={2} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <ZeroLineAndCrossings crossings={crossings} />
        <ForecastStartLine at={start} label={t('forecasting.chart.forecastStart')} />
      </ComposedChart>
        </>
      ) : (
        <div style={{ height: 2 * chartHeight + 30 }} />
      )}
    </div>
  );
});
