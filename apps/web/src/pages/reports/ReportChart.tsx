// A report's chart, drawn with Recharts from its rows and chart_config (docs/api.md "Report charts").
import { memo, useMemo } from 'react';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Legend, Line, LineChart, Pie, PieChart, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import type { ChartConfig, ResultRow } from '@stockwise/contract';
import { buildChartData, formatFigure, valueAxisWidth, xLabelFormatter } from './chart-data.ts';

// Tableau 10, darkened where needed for contrast on white.
const palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf', '#ff7f0e', '#393b79', '#637939'];
const colour = (index: number) => palette[index % palette.length] as string;

export const ReportChart = memo(function ReportChart({ config, rows, label }: { config: ChartConfig; rows: ResultRow[]; label: string }) {
  const data = useMemo(() => buildChartData(config, rows), [config, rows]);
  if (config.type === 'table' || !config.x_field || data.series.length === 0) return null;
  const x = config.x_field;
  const stackId = config.stacked ? 'stack' : undefined;
  const xLabel = xLabelFormatter(data.rows, x);
  const axes = [
    <CartesianGrid key="grid" strokeDasharray="3 3" />,
    <XAxis key="x" dataKey={x} tickFormatter={xLabel} />,
    <YAxis key="y" tickFormatter={formatFigure} width={valueAxisWidth(data)} />,
    <Tooltip key="tooltip" labelFormatter={xLabel} formatter={formatFigure} />,
    <Legend key="legend" />,
  ];
  const chart = (() => {
    switch (config.type) {
      case 'line':
        return (
          <LineChart data={data.rows}>
            {axes}
            {data.series.map((s, i) => (
              <Line key={s.key} type="monotone" dataKey={s.key} name={s.label} stroke={colour(i)} dot={data.rows.length <= 60} isAnimationActive={false} connectNulls />
            ))}
          </LineChart>
        );
      case 'area':
        return (
          <AreaChart data={data.rows}>
            {axes}
            {data.series.map((s, i) => (
              <Area key={s.key} type="monotone" dataKey={s.key} name={s.label} stroke={colour(i)} fill={colour(i)} fillOpacity={0.25} stackId={stackId} isAnimationActive={false} />
            ))}
          </AreaChart>
        );
      case 'bar':
        return (
          <BarChart data={data.rows}>
            {axes}
            {data.series.map((s, i) => (
              <Bar key={s.key} dataKey={s.key} name={s.label} fill={colour(i)} stackId={stackId} isAnimationActive={false} />
            ))}
          </BarChart>
        );
      case 'pie': {
        const value = (data.series[0] as { key: string }).key;
        return (
          <PieChart>
            <Tooltip formatter={formatFigure} />
            <Legend />
            <Pie data={data.rows} dataKey={value} nameKey={x} isAnimationActive={false} label>
              {data.rows.map((row, i) => (
                <Cell key={String(row[x])} fill={colour(i)} />
              ))}
            </Pie>
          </PieChart>
        );
      }
      case 'scatter':
        return (
          <ScatterChart>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis type="number" dataKey={x} name={x} tickFormatter={formatFigure} />
            <YAxis
              type="number"
              dataKey={(data.series[0] as { key: string }).key}
              name={(data.series[0] as { label: string }).label}
              tickFormatter={formatFigure}
              width={valueAxisWidth(data)}
            />
            <Tooltip formatter={formatFigure} />
            <Scatter data={data.rows} fill={colour(0)} isAnimationActive={false} />
          </ScatterChart>
        );
    }
  })();
  return (
    <figure style={{ margin: 0 }} aria-label={config.title || label} data-testid="report-chart" data-chart-type={config.type}>
      {config.title ? <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>{config.title}</figcaption> : null}
      <ResponsiveContainer width="100%" height={320}>
        {chart}
      </ResponsiveContainer>
    </figure>
  );
});
