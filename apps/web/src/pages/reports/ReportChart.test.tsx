// A report's chart says in words, for everyone and for screen readers, which of its periods hold part of their days only.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import type { ChartConfig, FirstPeriodCut, UnfinishedPeriod } from '@stockwise/contract';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { ReportChart } from './ReportChart.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

const config: ChartConfig = { type: 'bar', title: 'Units sold by month', x_field: 'month', series: [{ field: 'units' }], group_field: null, stacked: false, sort: null };
const rows = [
  { month: '2026-10-01', units: 17 },
  { month: '2026-11-01', units: 31 },
  { month: '2026-12-01', units: 3 },
];
// "Since 15 Oct by month", run on 3 Dec.
const october: FirstPeriodCut = { field: 'month', value: '2026-10-01', unit: 'month', from: '2026-10-15', through: '2026-10-31' };
const december: UnfinishedPeriod = { field: 'month', value: '2026-12-01', unit: 'month', from: '2026-12-01', through: '2026-12-03', ends: 'today' };

function notes(props: { firstCut?: FirstPeriodCut; unfinished?: UnfinishedPeriod }) {
  render(
    <MantineProvider>
      <ReportChart config={config} rows={rows} label="Chart" firstCut={props.firstCut ?? null} unfinished={props.unfinished ?? null} />
    </MantineProvider>,
  );
  const figure = screen.getByTestId('report-chart');
  const described = (figure.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return described.map((id) => document.getElementById(id)?.textContent);
}

describe('the partial periods of a report chart', () => {
  it('says the first month holds the days from the report’s start only, and points the figure to it', () => {
    expect(notes({ firstCut: october })).toEqual(['Oct 2026 holds 15–31 Oct only: the report starts on 15 Oct.']);
  });

  it('says both ends when the first month is cut and the last not finished', () => {
    expect(notes({ firstCut: october, unfinished: december })).toEqual(['Oct 2026 holds 15–31 Oct only: the report starts on 15 Oct.', 'Dec 2026 is not finished: it holds 1–3 Dec only.']);
  });

  it('says a report of one month, cut and not finished, once by its cut', () => {
    const sinceSecond = { ...december, from: '2026-12-02' };
    expect(notes({ firstCut: { field: 'month', value: '2026-12-01', unit: 'month', from: '2026-12-02', through: '2026-12-03' }, unfinished: sinceSecond })).toEqual(['Dec 2026 holds 2–3 Dec only: the report starts on 2 Dec.']);
  });

  it('says nothing when the chart is not over the period’s column', () => {
    expect(notes({ firstCut: { ...october, field: 'week', unit: 'week' } })).toEqual([]);
  });
});

describe('a report chart and the keyboard', () => {
  // jsdom lays nothing out: the chart's container measures 600 × 320, as in a browser.
  beforeAll(() => {
    HTMLElement.prototype.getBoundingClientRect = () => ({ x: 0, y: 0, top: 0, left: 0, right: 600, bottom: 320, width: 600, height: 320, toJSON: () => ({}) });
  });

  it.each(['line', 'area', 'bar', 'pie', 'scatter'] as const)('a %s chart is no nameless tab stop: the named figure stands for it', (type) => {
    const numeric = rows.map((row, at) => ({ ...row, month: type === 'scatter' ? at + 1 : row.month }));
    render(
      <MantineProvider>
        <ReportChart config={{ ...config, type }} rows={numeric} label="Chart" />
      </MantineProvider>,
    );
    const figure = screen.getByRole('figure', { name: 'Units sold by month' });
    expect(figure.querySelector('svg')).not.toBeNull();
    // The tooltip's wrapper takes focus from script only (tabindex -1).
    expect(figure.querySelector('[tabindex]:not([tabindex^="-"]), [role="application"]')).toBeNull();
  });
});

describe("a report chart's categories stored as paths (ADR 0198 F14)", () => {
  beforeAll(() => {
    HTMLElement.prototype.getBoundingClientRect = () => ({ x: 0, y: 0, top: 0, left: 0, right: 600, bottom: 320, width: 600, height: 320, toJSON: () => ({}) });
  });

  it('names a series by its short name in the legend, the whole path on hover and to screen readers', () => {
    const categories = { 'All / Saleable / Office Furniture': 40, 'All / Office / Chairs': 12, 'All / Garden / Chairs': 9, Heating: 4 };
    const monthly = Object.entries(categories).flatMap(([category, units]) => ['2026-10-01', '2026-11-01'].map((month) => ({ month, category, units })));
    render(
      <MantineProvider>
        <ReportChart config={{ ...config, type: 'line', group_field: 'category' }} rows={monthly} label="Chart" />
      </MantineProvider>,
    );
    const legend = [...document.querySelectorAll('.recharts-legend-item-text')].map((entry) => ({
      shown: entry.querySelector('[aria-hidden]')?.textContent ?? entry.textContent,
      hover: entry.querySelector('[title]')?.getAttribute('title') ?? null,
    }));
    // Recharts orders the entries by the series' names.
    expect(legend).toHaveLength(4);
    expect(legend).toEqual(expect.arrayContaining([
      { shown: 'Office Furniture', hover: 'All / Saleable / Office Furniture' },
      { shown: 'Office / Chairs', hover: 'All / Office / Chairs' },
      { shown: 'Garden / Chairs', hover: 'All / Garden / Chairs' },
      { shown: 'Heating', hover: null },
    ]));
    // The whole path is the entry's text to a screen reader (visually hidden beside the short name).
    expect(screen.getByText('All / Saleable / Office Furniture').closest('.recharts-legend-item-text')).not.toBeNull();
  });
});
