// A report's chart, drawn with Recharts from its rows and chart_config (docs/api.md "Report charts").
// A period that has not ended (today, this week, month, quarter or year) is named "Q4 2026 (to
// date)", and a first period the report's start cuts "Mar 2026 (15–31 Mar only)": each drawn dashed
// or lighter, and said in words under the chart, which the figure points screen readers to (ADR 0154).
import { memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { VisuallyHidden } from '@mantine/core';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDayOfMonth, type ChartConfig, type FirstPeriodCut, type ResultRow, type UnfinishedPeriod } from '@stockwise/contract';
import { useMoneyFormat } from '../../components/money.ts';
import { buildChartData, chartCategoryNames, chartFigures, formatFigure, isPeriodValue, legendName, partialSegments, periodDays, periodOnAxis, valueAxisWidth, xLabelFormatter } from './chart-data.ts';

// Tableau 10, darkened where needed for contrast on white.
const palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#ff7f0e', '#393b79', '#637939'];
const colour = (index: number) => palette[index % palette.length] as string;
const DASHED = '6 4';
/** How much of a bar's colour a partial period's bar keeps. */
const PARTIAL_OPACITY = 0.4;

const NOTE_STYLE = { margin: '4px 0 0', fontSize: 14 };

type Row = ReturnType<typeof buildChartData>['rows'][number];

/** A legend entry: its name as shown, the whole name on hover and to screen readers when it is shortened. */
const legendLabeller = (shortNames: ReadonlyMap<string, string>) => (value: unknown) => {
  const { text, title } = legendName(value, shortNames);
  if (!title) return text;
  return (
    <span title={title}>
      <span aria-hidden>{text}</span>
      <VisuallyHidden>{title}</VisuallyHidden>
    </span>
  );
};

type ReportChartProps = { config: ChartConfig; rows: ResultRow[]; label: string; unfinished?: UnfinishedPeriod | null; firstCut?: FirstPeriodCut | null };

/**
 * Recharts' keyboard layer makes the chart a tab stop a screen reader announces as a nameless
 * "application" whose arrow keys step through tooltips (QA8 F18, as on the Forecasting screen and the
 * dashboard): the figure is named, and the report's table is the way through its values. A pie's
 * slices are a tab stop of their own (rootTabIndex) for the same layer.
 */
const WITHOUT_KEYBOARD_LAYER = { accessibilityLayer: false } as const;

export const ReportChart = memo(function ReportChart({ config, rows, label, unfinished = null, firstCut = null }: ReportChartProps) {
  const { t } = useTranslation();
  const noteId = useId();
  const cutNoteId = useId();
  const data = useMemo(() => buildChartData(config, rows), [config, rows]);
  const money = useMoneyFormat();
  const figures = useMemo(() => chartFigures(data, money), [data, money]);
  const categoryNames = useMemo(() => chartCategoryNames(config, rows), [config, rows]);
  if (config.type === 'table' || !config.x_field || data.series.length === 0) return null;
  const x = config.x_field;
  const stackId = config.stacked ? 'stack' : undefined;
  const cut = periodOnAxis(firstCut, config);
  const onAxis = periodOnAxis(unfinished, config);
  // A report of one period, cut and not finished, is said once, by the cut: its days are the cut's.
  const period = cut && onAxis && isPeriodValue(cut, onAxis.value) ? null : onAxis;
  const isPartial = (value: unknown) => isPeriodValue(cut, value) || isPeriodValue(period, value);
  const plainLabel = xLabelFormatter(x, rows.map((row) => row[x]));
  // A period the report's own filter ends inside holds its days up to then, not "to date".
  const words = period?.ends === 'report' ? 'cut' : 'unfinished';
  const xLabel = (value: unknown) => {
    if (cut && isPeriodValue(cut, value)) return t('reports.chart.cut.label', { label: plainLabel(value), days: periodDays(cut) });
    return period && isPeriodValue(period, value) ? t(`reports.chart.${words}.label`, { label: plainLabel(value), days: periodDays(period) }) : plainLabel(value);
  };
  // A category path is shortened on the axis; the tooltip names the whole path.
  const tickLabel = (value: unknown) => categoryNames.get(String(value)) ?? xLabel(value);
  const legendLabel = legendLabeller(categoryNames);
  // Stacked areas are not split: a dashed area of its own would stack on nothing.
  const segment = config.type === 'line' || (config.type === 'area' && !config.stacked) ? partialSegments(data.rows, x, { first: cut, last: period }) : null;
  const solidValue = (key: string) => (row: Row) => (segment?.partial.has(row) ? null : row[key]);
  const dashedValue = (key: string) => (row: Row) => (segment?.dashed.has(row) ? row[key] : null);
  const noteIds = [cut && cutNoteId, period && noteId].filter(Boolean).join(' ');
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" />,
    <XAxis key="x" dataKey={x} tickFormatter={tickLabel} />,
    <YAxis key="y" tickFormatter={figures.axis} width={valueAxisWidth(data, figures.axis)} />,
    // One entry a series where its solid and dashed lines meet.
    <Tooltip key="tooltip" labelFormatter={xLabel} formatter={figures.tooltip} payloadUniqBy={segment ? (entry) => String(entry.name) : false} />,
    <Legend key="legend" formatter={legendLabel} />,
  ];
  const chart = (() => {
    switch (config.type) {
      case 'line':
        return (
          <LineChart data={data.rows} {...WITHOUT_KEYBOARD_LAYER}>
            {axes}
            {data.series.map((s, i) => (
              <Line key={s.key} type="monotone" dataKey={segment ? solidValue(s.key) : s.key} name={s.label} stroke={colour(i)} dot={data.rows.length <= 60} isAnimationActive={false} connectNulls />
            ))}
            {segment &&
              data.series.map((s, i) => (
                <Line key={`${s.key} to date`} type="monotone" dataKey={dashedValue(s.key)} name={s.label} stroke={colour(i)} strokeDasharray={DASHED} dot={data.rows.length <= 60} legendType="none" isAnimationActive={false} />
              ))}
          </LineChart>
        );
      case 'area':
        return (
          <AreaChart data={data.rows} {...WITHOUT_KEYBOARD_LAYER}>
            {axes}
            {data.series.map((s, i) => (
              <Area key={s.key} type="monotone" dataKey={segment ? solidValue(s.key) : s.key} name={s.label} stroke={colour(i)} fill={colour(i)} fillOpacity={0.25} stackId={stackId} isAnimationActive={false} />
            ))}
            {segment &&
              data.series.map((s, i) => (
                <Area key={`${s.key} to date`} type="monotone" dataKey={dashedValue(s.key)} name={s.label} stroke={colour(i)} strokeDasharray={DASHED} fill={colour(i)} fillOpacity={0.1} legendType="none" isAnimationActive={false} />
              ))}
          </AreaChart>
        );
      case 'bar':
        return (
          <BarChart data={data.rows} {...WITHOUT_KEYBOARD_LAYER}>
            {axes}
            {data.series.map((s, i) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} fill={colour(i)} stackId={stackId} isAnimationActive={false}>
                {(cut || period) &&
                  data.rows.map((row) =>
                    isPartial(row[x]) ? <Cell key={String(row[x])} fillOpacity={PARTIAL_OPACITY} stroke={colour(i)} strokeDasharray={DASHED} /> : <Cell key={String(row[x])} />,
                  )}
              </Bar>
            ))}
          </BarChart>
        );
      case 'pie': {
        const value = (data.series[0] as { key: string }).key;
        return (
          <PieChart {...WITHOUT_KEYBOARD_LAYER}>
            <Tooltip formatter={figures.tooltip} />
            <Legend formatter={legendLabel} />
            <Pie data={data.rows} dataKey={value} nameKey={x} isAnimationActive={false} label rootTabIndex={-1}>
              {data.rows.map((row, i) => (
                <Cell key={String(row[x])} fill={colour(i)} />
              ))}
            </Pie>
          </PieChart>
        );
      }
      case 'scatter':
        return (
          <ScatterChart {...WITHOUT_KEYBOARD_LAYER}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" dataKey={x} name={x} tickFormatter={config.money_fields?.includes(x) ? (value: unknown) => money.format(Number(value)) : formatFigure} />
            <YAxis
              type="number"
              dataKey={(data.series[0] as { key: string }).key}
              name={(data.series[0] as { label: string }).label}
              tickFormatter={figures.axis}
              width={valueAxisWidth(data, figures.axis)}
            />
            <Tooltip formatter={figures.tooltip} />
            <Scatter data={data.rows} fill={colour(0)} isAnimationActive={false} />
          </ScatterChart>
        );
    }
  })();
  return (
    <figure style={{ margin: 0 }} aria-label={config.title || label} aria-describedby={noteIds || undefined} data-testid="report-chart" data-chart-type={config.type}>
      {config.title ? <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>{config.title}</figcaption> : null}
      <ResponsiveContainer width="100%" height={320}>
        {chart}
      </ResponsiveContainer>
      {cut ? (
        <p id={cutNoteId} style={NOTE_STYLE} data-testid="first-period-cut">
          {t(`reports.chart.firstCut.${cut.unit}`, { label: plainLabel(cut.value), days: periodDays(cut), start: formatDayOfMonth(cut.from) })}
        </p>
      ) : null}
      {period ? (
        <p id={noteId} style={NOTE_STYLE} data-testid="unfinished-period">
          {t(`reports.chart.${words}.${period.unit}`, { label: plainLabel(period.value), days: periodDays(period), end: formatDayOfMonth(period.through) })}
        </p>
      ) : null}
    </figure>
  );
});
