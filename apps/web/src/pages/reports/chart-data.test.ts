import { describe, expect, it } from 'vitest';
import { moneyFormat, proposeChartConfig, type ChartConfig } from '@stockwise/contract';
import { cellFormatters } from './ResultGrid.tsx';
import { buildChartData, chartCategoryNames, chartFigures, formatFigure, isPeriodValue, legendName, missingChartFields, partialSegments, periodCellFormatter, periodDays, periodOnAxis, valueAxisWidth, xLabelFormatter } from './chart-data.ts';

const base: ChartConfig = { type: 'bar', x_field: 'category', series: [{ field: 'units' }], group_field: null, stacked: false, title: '', sort: null };

describe('report chart data', () => {
  it('widens the value axis for figures of millions, keeping the default for small ones', () => {
    const series = [{ key: 'units_sold', label: 'units_sold', money: false }];
    expect(valueAxisWidth({ rows: [{ category: 'Garden', units_sold: 950 }], series })).toBe(60);
    const millions = valueAxisWidth({ rows: [{ category: 'Garden', units_sold: 1_250_000 }, { category: 'Tools', units_sold: null }], series });
    // "1,250,000" and a digit's room for the rounded top tick, at 8 px a character.
    expect(millions).toBe(92);
  });

  it('names the columns a chart reads that the result no longer has', () => {
    const monthly: ChartConfig = { ...base, type: 'line', x_field: 'month', series: [{ field: 'units_sold' }], sort: { field: 'month', direction: 'asc' } };
    expect(missingChartFields(monthly, ['month', 'product_code', 'units'])).toEqual(['units_sold']);
    expect(missingChartFields({ ...monthly, group_field: 'code' }, ['month', 'units_sold'])).toEqual(['code']);
    expect(missingChartFields(monthly, ['month', 'units_sold'])).toEqual([]);
    expect(missingChartFields({ ...monthly, type: 'table' }, [])).toEqual([]);
  });

  it('keeps numbers as numbers and sorts when asked', () => {
    const data = buildChartData({ ...base, sort: { field: 'units', direction: 'desc' } }, [
      { category: 'Tools', units: 5 },
      { category: 'Garden', units: '12.5' },
      { category: null, units: null },
    ]);
    expect(data.rows).toEqual([{ category: 'Garden', units: 12.5 }, { category: 'Tools', units: 5 }, { category: null, units: null }]);
    expect(data.series).toEqual([{ key: 'units', label: 'units', money: false }]);
  });

  it('pivots long rows into one series per group, dates on x in order', () => {
    const data = buildChartData({ ...base, type: 'line', x_field: 'month', series: [{ field: 'units' }], group_field: 'product' }, [
      { month: '2025-01-01', product: 'A', units: 1 },
      { month: '2025-01-01', product: 'B', units: 2 },
      { month: '2025-02-01', product: 'A', units: 3 },
    ]);
    expect(data.rows).toEqual([{ month: '2025-01-01', A: 1, B: 2 }, { month: '2025-02-01', A: 3, B: 0 }]);
    expect(data.series.map((s) => s.key)).toEqual(['A', 'B']);
  });

  it('draws a month a group has no row in as 0, not a line across the gap, and keeps a null the SQL gave (QA garden centre F13)', () => {
    // Sales per month by category: Christmas trees sell in December only, so the other months have no row of theirs.
    const data = buildChartData({ ...base, type: 'line', x_field: 'month', series: [{ field: 'units' }], group_field: 'category' }, [
      { month: '2025-12-01', category: 'Kerstbomen', units: 300 },
      { month: '2025-12-01', category: 'Vogelvoer', units: 40 },
      { month: '2026-01-01', category: 'Vogelvoer', units: 45 },
      { month: '2026-02-01', category: 'Vogelvoer', units: null },
      { month: '2026-12-01', category: 'Kerstbomen', units: 280 },
    ]);
    expect(data.rows).toEqual([
      { month: '2025-12-01', Kerstbomen: 300, Vogelvoer: 40 },
      { month: '2026-01-01', Kerstbomen: 0, Vogelvoer: 45 },
      { month: '2026-02-01', Kerstbomen: 0, Vogelvoer: null },
      { month: '2026-12-01', Kerstbomen: 280, Vogelvoer: 0 },
    ]);
  });

  it('proposes charts from column types', () => {
    const column = (name: string, type: 'number' | 'text' | 'date') => ({ name, type, db_type: type });
    expect(proposeChartConfig([column('month', 'date'), column('units', 'number')])).toMatchObject({ type: 'line', x_field: 'month', series: [{ field: 'units' }] });
    expect(proposeChartConfig([column('category', 'text'), column('units', 'number')])).toMatchObject({ type: 'bar', x_field: 'category' });
    expect(proposeChartConfig([column('month', 'date'), column('product', 'text'), column('units', 'number')])).toMatchObject({ type: 'line', group_field: 'product' });
    expect(proposeChartConfig([column('price', 'number'), column('units', 'number')])).toMatchObject({ type: 'scatter', x_field: 'price', series: [{ field: 'units' }] });
    expect(proposeChartConfig([column('name', 'text')]).type).toBe('table');
    expect(proposeChartConfig([column('total', 'number')], { rowCount: 1 }).type).toBe('table');
    expect(proposeChartConfig([column('category', 'text'), column('units', 'number')], { preferredType: 'pie' })).toMatchObject({ type: 'pie', series: [{ field: 'units' }] });
  });

  it('draws a month or other period over time as a line, however the SQL wrote it; a category and a number as bars', () => {
    const column = (name: string, type: 'number' | 'text' | 'date' | 'datetime') => ({ name, type, db_type: type });
    // date_trunc gives a date or timestamp; to_char a text; extract a number: each is months on x.
    for (const month of [column('month', 'date'), column('month', 'datetime'), column('month', 'text'), column('month', 'number'), column('order_year', 'number'), column('week_start', 'text')]) {
      expect(proposeChartConfig([month, column('units_sold', 'number')], { rowCount: 12 }), `${month.name} as ${month.type}`).toMatchObject({ type: 'line', x_field: month.name, series: [{ field: 'units_sold' }] });
    }
    expect(proposeChartConfig([column('month', 'number'), column('product_code', 'text'), column('units', 'number')], { rowCount: 24 })).toMatchObject({ type: 'line', x_field: 'month', group_field: 'product_code' });
    // A name that only contains a period word is no time axis: a weekday is a category, days left a measure.
    expect(proposeChartConfig([column('weekday', 'text'), column('units', 'number')], { rowCount: 7 })).toMatchObject({ type: 'bar', x_field: 'weekday' });
    expect(proposeChartConfig([column('category', 'text'), column('units_sold', 'number')], { rowCount: 5 })).toMatchObject({ type: 'bar', x_field: 'category', series: [{ field: 'units_sold' }] });
    expect(proposeChartConfig([column('stock', 'number'), column('days_left', 'number')], { rowCount: 9 })).toMatchObject({ type: 'scatter', x_field: 'stock' });
    // One month is one figure: a table, as for any single row.
    expect(proposeChartConfig([column('month', 'date'), column('units_sold', 'number')], { rowCount: 1 }).type).toBe('table');
  });

  it('labels each period as the screens write it: "Feb 2025", "Q4 2026", "2026", "3 Dec"; anything else as written; figures grouped', () => {
    const months = xLabelFormatter('month', ['2025-02-01', '2025-03-01']);
    expect([months('2025-02-01'), months('2025-03-01')]).toEqual(['Feb 2025', 'Mar 2025']);
    const quarters = xLabelFormatter('quarter', ['2026-07-01', '2026-10-01']);
    expect([quarters('2026-07-01'), quarters('2026-10-01')]).toEqual(['Q3 2026', 'Q4 2026']);
    // Quarters' first months in a column not named for quarters are months.
    expect(xLabelFormatter('month', ['2026-07-01', '2026-10-01'])('2026-10-01')).toBe('Oct 2026');
    // A year from extract() is a number in the result and a label on the chart; date_trunc's is 1 January.
    expect(xLabelFormatter('year', [2025, 2026])('2026')).toBe('2026');
    expect(xLabelFormatter('sales_year', ['2025-01-01', '2026-01-01'])('2026-01-01')).toBe('2026');
    // Days (and weeks, by their Monday) day first; with the year when they span more than one.
    const days = xLabelFormatter('day', ['2026-12-01', '2026-12-02', '2026-12-03']);
    expect([days('2026-12-01'), days('2026-12-03')]).toEqual(['1 Dec', '3 Dec']);
    expect(xLabelFormatter('runs_out_on', ['2025-12-30', '2026-01-04'])('2026-01-04')).toBe('4 Jan 2026');
    expect(xLabelFormatter('week', ['2026-11-23', '2026-11-30'])('2026-11-30')).toBe('30 Nov');
    // September as every screen writes it (Intl's en-GB, which the chart once used, writes "Sept").
    expect(xLabelFormatter('day', ['2026-09-04', '2026-09-05'])('2026-09-04')).toBe('4 Sep');
    expect(xLabelFormatter('month', ['2026-09-01'])('2026-09-01')).toBe('Sep 2026');
    // Periods from a timestamp at midnight or written as text are named as dates are; moments and other words as written.
    expect(xLabelFormatter('month', ['2026-11-01 00:00:00', '2026-12-01 00:00:00'])('2026-12-01 00:00:00')).toBe('Dec 2026');
    expect(xLabelFormatter('quarter', ['2026-07-01 00:00:00+00', '2026-10-01 00:00:00+00'])('2026-10-01 00:00:00+00')).toBe('Q4 2026');
    expect(xLabelFormatter('month', ['2026-11', '2026-12'])('2026-12')).toBe('Dec 2026');
    expect(xLabelFormatter('period', ['November  2026', 'December  2026'])('December  2026')).toBe('Dec 2026');
    expect(xLabelFormatter('quarter', ['2026 Q3', '2026 Q4'])('2026 Q4')).toBe('Q4 2026');
    expect(xLabelFormatter('created_at', ['2026-12-01 09:30:00'])('2026-12-01 09:30:00')).toBe('2026-12-01 09:30:00');
    expect(xLabelFormatter('category', ['Garden'])('Garden')).toBe('Garden');
    expect(xLabelFormatter('code', ['2026-12-01', 'A-1'])('2026-12-01')).toBe('2026-12-01');
    expect([formatFigure(60000), formatFigure(1234.567), formatFigure('n/a')]).toEqual(['60,000', '1,234.57', 'n/a']);
  });

  it('marks the month not finished on the axis it is of, with the days it holds', () => {
    const december = { field: 'month', value: '2026-12-01', unit: 'month' as const, from: '2026-12-01', through: '2026-12-03', ends: 'today' as const };
    const monthly: ChartConfig = { ...base, type: 'line', x_field: 'month', series: [{ field: 'units' }] };
    expect(periodDays(december)).toBe('1–3 Dec');
    expect(periodDays({ ...december, through: '2026-12-01' })).toBe('1 Dec');
    expect(periodDays({ field: 'week', value: '2026-11-30', unit: 'week', from: '2026-11-30', through: '2026-12-03' })).toBe('30 Nov–3 Dec');
    expect(periodDays({ field: 'quarter', value: '2026-10-01', unit: 'quarter', from: '2026-10-01', through: '2026-12-03' })).toBe('1 Oct–3 Dec');
    expect(periodDays({ field: 'day', value: '2026-12-03', unit: 'day', from: '2026-12-03', through: '2026-12-03' })).toBe('3 Dec');
    expect(periodOnAxis(december, monthly)).toBe(december);
    expect(periodOnAxis(december, { ...monthly, x_field: 'category' })).toBeNull();
    expect(periodOnAxis(null, monthly)).toBeNull();
    const data = buildChartData(monthly, [
      { month: '2026-10-01', units: 30 },
      { month: '2026-11-01', units: 31 },
      { month: '2026-12-01', units: 3 },
    ]);
    // The segment into the last row is the one drawn dashed.
    expect(partialSegments(data.rows, 'month', { first: null, last: december })).toEqual({ partial: new Set([data.rows[2]]), dashed: new Set([data.rows[2], data.rows[1]]) });
    // Newest first: the month is named, not dashed.
    expect(partialSegments([...data.rows].reverse(), 'month', { first: null, last: december })).toBeNull();
    expect(partialSegments(data.rows.slice(2), 'month', { first: null, last: december })).toBeNull();
  });

  it('marks the first month the report starts inside, at the start of the axis, and both ends when both are partial', () => {
    // "Since 15 Oct by month", run on 3 Dec: October holds 15–31 Oct, December 1–3 Dec.
    const october = { field: 'month', value: '2026-10-01', unit: 'month' as const, from: '2026-10-15', through: '2026-10-31' };
    const december = { field: 'month', value: '2026-12-01', unit: 'month' as const, from: '2026-12-01', through: '2026-12-03', ends: 'today' as const };
    const monthly: ChartConfig = { ...base, type: 'line', x_field: 'month', series: [{ field: 'units' }] };
    expect(periodDays(october)).toBe('15–31 Oct');
    expect(periodOnAxis(october, monthly)).toBe(october);
    expect(periodOnAxis(october, { ...monthly, type: 'scatter' })).toBeNull();
    const { rows } = buildChartData(monthly, [
      { month: '2026-10-01', units: 17 },
      { month: '2026-11-01', units: 31 },
      { month: '2026-12-01', units: 3 },
    ]);
    // The segment out of the first row is drawn dashed; the solid line starts at November.
    expect(partialSegments(rows, 'month', { first: october, last: null })).toEqual({ partial: new Set([rows[0]]), dashed: new Set([rows[0], rows[1]]) });
    expect(partialSegments(rows, 'month', { first: october, last: december })).toEqual({ partial: new Set([rows[0], rows[2]]), dashed: new Set(rows) });
    // Newest first, October is the last row: named, not dashed (a first cut marks the start only).
    expect(partialSegments([...rows].reverse(), 'month', { first: october, last: null })).toBeNull();
    // One row: nothing to draw a segment to.
    expect(partialSegments(rows.slice(0, 1), 'month', { first: october, last: null })).toBeNull();
  });

  it("marks this year (a number in the rows, a label on the chart) and today's row as the last ones", () => {
    const year = { field: 'year', value: 2026, unit: 'year' as const, from: '2026-01-01', through: '2026-12-03', ends: 'today' as const };
    expect(periodDays(year)).toBe('1 Jan–3 Dec');
    const yearly = buildChartData({ ...base, x_field: 'year', series: [{ field: 'units' }] }, [
      { year: 2025, units: 400 },
      { year: 2026, units: 370 },
    ]);
    expect(yearly.rows.map((row) => isPeriodValue(year, row.year))).toEqual([false, true]);
    expect([...(partialSegments(yearly.rows, 'year', { first: null, last: year })?.partial ?? [])]).toEqual([{ year: '2026', units: 370 }]);
    const today = { field: 'day', value: '2026-12-03', unit: 'day' as const, from: '2026-12-03', through: '2026-12-03', ends: 'today' as const };
    expect(isPeriodValue(today, '2026-12-03')).toBe(true);
    expect(isPeriodValue(today, '2026-12-02')).toBe(false);
    expect(isPeriodValue(null, '2026-12-03')).toBe(false);
  });
});

describe('report result grid periods', () => {
  const texts = (name: string, dbType: string, values: unknown[]) => {
    const format = periodCellFormatter({ name, type: 'date', db_type: dbType }, values);
    return format ? values.map(format) : null;
  };

  it('names the months, quarters and years that date_trunc returns as timestamps, as the chart does', () => {
    expect(texts('quarter', 'timestamp without time zone', ['2026-07-01 00:00:00', '2026-10-01 00:00:00'])).toEqual(['Q3 2026', 'Q4 2026']);
    expect(texts('month', 'timestamp with time zone', ['2026-11-01 00:00:00', '2026-12-01 00:00:00'])).toEqual(['Nov 2026', 'Dec 2026']);
    expect(texts('sales_year', 'date', ['2025-01-01', '2026-01-01'])).toEqual(['2025', '2026']);
  });

  it('writes midnight days and weeks as the day alone, and leaves text, numbers and real times as sent', () => {
    expect(texts('week', 'timestamp without time zone', ['2026-11-30 00:00:00', '2026-12-07 00:00:00'])).toEqual(['2026-11-30', '2026-12-07']);
    expect(texts('month', 'text', ['2026-11', '2026-12'])).toBeNull();
    expect(texts('year', 'integer', [2025, 2026])).toBeNull();
    expect(texts('sold_at', 'timestamp without time zone', ['2026-12-07 09:30:00'])).toBeNull();
  });
});

describe("a chart's categories stored as paths (ADR 0198 F14)", () => {
  const rows = [
    { category: 'All / Office / Chairs', month: '2026-11-01', units: 3 },
    { category: 'All / Garden / Chairs', month: '2026-11-01', units: 2 },
    { category: 'All / Saleable / Paper', month: '2026-11-01', units: 9 },
    { category: null, month: '2026-11-01', units: 1 },
  ];

  it('names those on the axis or in the series by their short names; other columns keep theirs', () => {
    const expected = { 'All / Office / Chairs': 'Office / Chairs', 'All / Garden / Chairs': 'Garden / Chairs', 'All / Saleable / Paper': 'Paper' };
    expect(Object.fromEntries(chartCategoryNames(base, rows))).toEqual(expected);
    expect(Object.fromEntries(chartCategoryNames({ ...base, type: 'line', x_field: 'month', group_field: 'category' }, rows))).toEqual(expected);
    expect(chartCategoryNames({ ...base, x_field: 'month' }, rows).size).toBe(0);
  });

  it('shows a legend entry by its short name, the whole path kept for hovering', () => {
    const names = chartCategoryNames(base, rows);
    expect(legendName('All / Saleable / Paper', names)).toEqual({ text: 'Paper', title: 'All / Saleable / Paper' });
    expect(legendName('Heating', names)).toEqual({ text: 'Heating', title: null });
  });
});

describe('legend names', () => {
  it('cuts a long name to 40 characters with the whole name kept for hovering', () => {
    expect(legendName('Garden')).toEqual({ text: 'Garden', title: null });
    expect(legendName('y'.repeat(40))).toEqual({ text: 'y'.repeat(40), title: null });
    const long = legendName('y'.repeat(100));
    expect(long).toEqual({ text: `${'y'.repeat(39)}…`, title: 'y'.repeat(100) });
    expect(long.text).toHaveLength(40);
  });
});

describe("a report's money (QA8 F20)", () => {
  const pounds = moneyFormat('GBP');
  const stock = [
    { category: 'Syrups', stock_value: '1240.5', units: 310 },
    { category: 'Cups', stock_value: 86, units: 1200 },
  ];
  const valueChart: ChartConfig = { ...base, series: [{ field: 'stock_value', label: 'Stock value' }, { field: 'units' }], money_fields: ['stock_value'] };

  it("shows the money columns in the shop's currency in the result table, the rest as written", () => {
    const columns = [
      { name: 'category', type: 'text' as const, db_type: 'text' },
      { name: 'stock_value', type: 'number' as const, db_type: 'numeric' },
      { name: 'units', type: 'number' as const, db_type: 'int8' },
    ];
    const texts = cellFormatters(columns, stock, ['stock_value'], pounds);
    expect(stock.map((row) => columns.map((column, at) => texts[at]?.(row[column.name as keyof typeof row])))).toEqual([
      ['Syrups', '£1,240.50', '310'],
      ['Cups', '£86.00', '1200'],
    ]);
    expect(cellFormatters(columns, stock, [], pounds)[1]?.('1240.5')).toBe('1240.5');
  });

  it('draws the value axis in the currency only when every series is money; the tooltip by the series', () => {
    const both = chartFigures(buildChartData(valueChart, stock), pounds);
    expect(both.axis(1500)).toBe('1,500');
    expect(both.tooltip(1240.5, 'Stock value')).toBe('£1,240.50');
    expect(both.tooltip(310, 'units')).toBe('310');
    const value = buildChartData({ ...valueChart, series: [{ field: 'stock_value', label: 'Stock value' }] }, stock);
    expect(chartFigures(value, pounds).axis(1500)).toBe('£1,500.00');
    expect(valueAxisWidth(value, chartFigures(value, pounds).axis)).toBeGreaterThan(valueAxisWidth(value));
    // Split by a column: every series is the value column's.
    const split = buildChartData({ ...valueChart, x_field: 'category', group_field: 'units', series: [{ field: 'stock_value' }] }, stock);
    expect(split.series.every((s) => s.money)).toBe(true);
  });

  it('proposes the columns named for money as money', () => {
    const columns = [
      { name: 'category', type: 'text' as const, db_type: 'text' },
      { name: 'stock_value', type: 'number' as const, db_type: 'numeric' },
      { name: 'units_in_stock', type: 'number' as const, db_type: 'int8' },
      { name: 'unit_cost', type: 'number' as const, db_type: 'numeric' },
    ];
    expect(proposeChartConfig(columns).money_fields).toEqual(['stock_value', 'unit_cost']);
    expect(proposeChartConfig(columns.slice(0, 1).concat(columns[2] as (typeof columns)[number])).money_fields).toBeUndefined();
  });
});
