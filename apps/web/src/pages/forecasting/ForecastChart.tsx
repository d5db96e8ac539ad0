// The forecast chart: two stacked charts sharing one time axis (synchronised cursor and tooltip).
// Sales (a few units a day) and stock (hundreds of units, projected below zero after a stockout)
// differ by orders of magnitude and in sign; on one chart with two y-axes the bands overlap and a
// buyer cannot tell which line reads against which axis. Stacked, each has its own zero.
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Area, CartesianGrid, ComposedChart, Legend, Line, ReferenceDot, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
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
const chartMargin = { top: 16, right: 24, bottom: 0, left: 8 };
const colors = { actual: '#495057', forecast: '#1c7ed6', band: '#a5d8ff', stock: '#2b8a3e', stockForecast: '#e8590c', stockBand: '#ffd8a8', out: '#e03131', maybeOut: '#f08c00' };

/** Marks the moment the chart's paths exist after the forecast arrived (bench/forecast-chart). */
function useRenderedMark(container: React.RefObject<HTMLDivElement | null>, rows: PlotRow[], styleCode: string) {
  useLayoutEffect(() => {
    performance.mark(forecastMarks.committed, { detail: styleCode });
  }, [rows, styleCode]);
  useEffect(() => {
    let frame = 0;
    let tries = 0;
    const check = () => {
      const paths = container.current?.querySelectorAll('svg .recharts-line-curve').length ?? 0;
      if (paths > 0 || tries > 120) {
        performance.mark(forecastMarks.rendered, { detail: styleCode });
        return;
      }
      tries += 1;
      frame = requestAnimationFrame(check);
    };
    frame = requestAnimationFrame(check);
    return () => cancelAnimationFrame(frame);
  }, [container, rows, styleCode]);
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
      tick={{ fontSize: 12 }}
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
  const startLine = <ReferenceLine x={start} stroke="#868e96" strokeDasharray="4 4" label={{ value: t('forecasting.chart.forecastStart'), position: 'insideTopLeft', fontSize: 12, fill: '#495057' }} />;

  return (
    <div ref={measure} role="group" aria-label={t('forecasting.chart.ariaLabel', { code: styleCode })} data-testid="forecast-chart">
      <div style={{ fontSize: 14, fontWeight: 600, marginLeft: 8 }}>{t('forecasting.chart.salesTitle')}</div>
      {width > 0 ? (
        <>
      <ComposedChart syncId="forecast" syncMethod="value" margin={chartMargin} width={width} height={chartHeight} className="sales-chart">
        <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
        {xAxis}
        <YAxis tick={{ fontSize: 12 }} width={56} allowDecimals={false} />
        {tooltipFor([[t('forecasting.chart.actualSales'), 'actualSales', colors.actual], [t('forecasting.chart.forecastSales'), 'forecastSales', colors.forecast], [t('forecasting.chart.salesBand'), 'salesBand', colors.forecast]])}
        <Legend verticalAlign="top" height={28} />
        <Area className="sales-band" data={series.forecastSales} dataKey={salesBand} name={t('forecasting.chart.salesBand')} stroke="none" fill={colors.band} fillOpacity={0.6} isAnimationActive={false} activeDot={false} connectNulls={false} />
        <Line data={series.actualSales} dataKey="actualSales" name={t('forecasting.chart.actualSales')} stroke={colors.actual} strokeWidth={1} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <Line className="sales-forecast" data={series.forecastSales} dataKey="forecastSales" name={t('forecasting.chart.forecastSales')} stroke={colors.forecast} strokeWidth={2} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        {startLine}
      </ComposedChart>
      <div style={{ fontSize: 14, fontWeight: 600, marginLeft: 8, marginTop: 8 }}>{t('forecasting.chart.stockTitle')}</div>
      <ComposedChart syncId="forecast" syncMethod="value" margin={chartMargin} width={width} height={chartHeight} className="stock-chart">
        <CartesianGrid strokeDasharray="3 3" stroke="#e9ecef" />
        {xAxis}
        <YAxis tick={{ fontSize: 12 }} width={56} allowDecimals={false} domain={stockScale.domain} ticks={stockScale.ticks} allowDataOverflow />
        {tooltipFor([[t('forecasting.chart.actualStock'), 'actualStock', colors.stock], [t('forecasting.chart.forecastStock'), 'forecastStock', colors.stockForecast], [t('forecasting.chart.stockBand'), 'stockBand', colors.stockForecast]])}
        <Legend verticalAlign="top" height={28} />
        <Area className="stock-band" data={series.forecastStock} dataKey={stockBand} name={t('forecasting.chart.stockBand')} stroke="none" fill={colors.stockBand} fillOpacity={0.7} isAnimationActive={false} activeDot={false} connectNulls={false} />
        <Line data={series.actualStock} dataKey="actualStock" name={t('forecasting.chart.actualStock')} stroke={colors.stock} strokeWidth={1.5} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <Line className="stock-forecast" data={series.forecastStock} dataKey="forecastStock" name={t('forecasting.chart.forecastStock')} stroke={colors.stockForecast} strokeWidth={2} dot={false} activeDot={false} isAnimationActive={false} connectNulls={false} />
        <ReferenceLine y={0} stroke="#adb5bd" />
        {startLine}
        {crossings.map((crossing) => {
          // Forecast crossings are labelled above the zero line, lower-bound ones below; several
          // close together are stacked so their dates stay readable.
          const order = crossings.filter((other) => other.type === crossing.type).indexOf(crossing);
          const isForecast = crossing.type === 'stockForecast';
          return (
            <ReferenceDot
              key={`${crossing.type}-${crossing.date}`}
              className={`zero-crossing zero-crossing-${crossing.type}`}
              x={timeOf(crossing.date)}
              y={0}
              r={5}
              fill={isForecast ? colors.out : colors.maybeOut}
              stroke="#fff"
              label={{
                value: t(isForecast ? 'forecasting.chart.stockForecastMarker' : 'forecasting.chart.stockLowerBoundMarker', { date: shortDayFormat.format(timeOf(crossing.date)) }),
                position: isForecast ? 'top' : 'bottom',
                offset: 8 + order * 14,
                fontSize: 11,
                fill: isForecast ? colors.out : colors.maybeOut,
              }}
            />
          );
        })}
      </ComposedChart>
        </>
      ) : (
        <div style={{ height: 2 * chartHeight + 30 }} />
      )}
    </div>
  );
});
