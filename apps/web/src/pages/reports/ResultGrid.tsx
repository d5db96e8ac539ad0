// The result grid: every row of a run (up to REPORT_MAX_ROWS) with only the rows in view in the
// DOM (TanStack Virtual), a sticky header, columns sized from the first rows.
import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ResultCell, ResultColumn, ResultRow } from '@stockwise/contract';
import { useMoneyFormat } from '../../components/money.ts';
import { periodCellFormatter } from './chart-data.ts';
import classes from './ReportsPage.module.css';

const rowHeight = 32;
const minWidth = 90;
const maxWidth = 320;
const characterWidth = 8;

export const cellText = (value: ResultCell | undefined): string => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** A money column's cell in the shop's currency; a value that is no number stays as written. */
const moneyCell = (money: Intl.NumberFormat) => (value: ResultCell | undefined) => {
  const amount = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(amount) ? money.format(amount) : cellText(value);
};

/** Each column's cell text: money columns (ChartConfig.money_fields) in the shop's currency, periods by their names, the rest as written. */
export const cellFormatters = (columns: ResultColumn[], rows: ResultRow[], moneyFields: string[], money: Intl.NumberFormat) =>
  columns.map((column) => {
    if (column.type === 'number' && moneyFields.includes(column.name)) return moneyCell(money);
    const period = periodCellFormatter(column, rows.map((row) => row[column.name]));
    return period ? (value: ResultCell | undefined) => (value === null || value === undefined ? '' : period(value)) : cellText;
  });

export function ResultGrid({ columns, rows, label, moneyFields }: { columns: ResultColumn[]; rows: ResultRow[]; label: string; moneyFields: string[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const money = useMoneyFormat();
  const texts = useMemo(() => cellFormatters(columns, rows, moneyFields, money), [columns, rows, moneyFields, money]);
  const widths = useMemo(
    () =>
      columns.map((column, index) => {
        const text = texts[index] ?? cellText;
        const longest = Math.max(column.name.length, ...rows.slice(0, 50).map((row) => text(row[column.name]).length));
        return Math.min(maxWidth, Math.max(minWidth, longest * characterWidth + 24));
      }),
    [columns, rows, texts],
  );
  const totalWidth = widths.reduce((sum, width) => sum + width, 0);
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => rowHeight, overscan: 10 });
  const template = widths.map((width) => `${width}px`).join(' ');

  return (
    <div ref={scrollRef} className={classes.grid} role="table" aria-label={label} aria-rowcount={rows.length + 1} tabIndex={0} data-testid="result-grid">
      <div role="rowgroup" className={classes.gridHeader} style={{ width: totalWidth }}>
        <div role="row" aria-rowindex={1} className={classes.gridRow} style={{ gridTemplateColumns: template }}>
          {columns.map((column) => (
            <div role="columnheader" key={column.name} className={classes.gridCell} title={`${column.name} (${column.db_type})`}>
              {column.name}
            </div>
          ))}
        </div>
      </div>
      <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), width: totalWidth, position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index] as ResultRow;
          return (
            <div
              role="row"
              aria-rowindex={item.index + 2}
              key={item.key}
              className={classes.gridRow}
              style={{ gridTemplateColumns: template, position: 'absolute', top: 0, transform: `translateY(${item.start}px)`, height: rowHeight }}
            >
              {columns.map((column, index) => {
                const value = row[column.name];
                const text = (texts[index] ?? cellText)(value);
                const raw = cellText(value);
                return (
                  <div role="cell" key={column.name} className={`${classes.gridCell} ${column.type === 'number' ? classes.numeric : ''}`} title={text === raw ? undefined : raw}>
                    {text}
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
