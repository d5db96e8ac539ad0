// Grid column widths (spec §9): sample the first 50 rows, measure the text, clamp to the column's
// bounds (150–300, the id column 80–120, or the column's own min_width/max_width), cap each column
// at a quarter of the viewport (the spec leaves the fraction open: we chose 0.25), then, when the
// columns together are narrower than 95 % of the viewport, stretch them to fill it.
import type { TableColumn, TableRow } from '@stockwise/contract';

export const columnWidthRules = {
  min: 150,
  max: 300,
  idMin: 80,
  idMax: 120,
  sampleRows: 50,
  viewportCap: 0.25,
  fillFraction: 0.95,
  /** Cell padding plus room for the sort mark in the header. */
  padding: 32,
} as const;

export type WidthColumn = Pick<TableColumn, 'key' | 'label' | 'min_width' | 'max_width'>;
export type MeasureText = (text: string) => number;

/** Fallback when no canvas is available: an average character width of the grid's font. */
export const estimateTextWidth: MeasureText = (text) => text.length * 7.5;

/** Measures with a canvas in the grid's font; falls back to the estimate (e.g. in jsdom). */
export function createTextMeasurer(font: string): MeasureText {
  try {
    const context = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
    if (!context) return estimateTextWidth;
    context.font = font;
    const cache = new Map<string, number>();
    return (text) => {
      let width = cache.get(text);
      if (width === undefined) {
        width = context.measureText(text).width;
        cache.set(text, width);
      }
      return width;
    };
  } catch {
    return estimateTextWidth;
  }
}

export function columnBounds(column: WidthColumn): { min: number; max: number } {
  const isId = column.key === 'id';
  return {
    min: column.min_width ?? (isId ? columnWidthRules.idMin : columnWidthRules.min),
    max: column.max_width ?? (isId ? columnWidthRules.idMax : columnWidthRules.max),
  };
}

export const cellText = (value: TableRow[string] | undefined): string => (value === null || value === undefined ? '' : String(value));

export type ColumnWidthInput = {
  columns: readonly WidthColumn[];
  rows: readonly TableRow[];
  viewportWidth: number;
  measureText?: MeasureText;
  /** Width already taken by fixed parts of the row (the actions column). */
  reservedWidth?: number;
};

export function computeColumnWidths({ columns, rows, viewportWidth, measureText = estimateTextWidth, reservedWidth = 0 }: ColumnWidthInput): Record<string, number> {
  const sample = rows.slice(0, columnWidthRules.sampleRows);
  const cap = viewportWidth * columnWidthRules.viewportCap;
  const widths: Record<string, number> = {};
  for (const column of columns) {
    let natural = measureText(column.label);
    for (const row of sample) natural = Math.max(natural, measureText(cellText(row[column.key])));
    const { min, max } = columnBounds(column);
    const clamped = Math.min(max, Math.max(min, Math.ceil(natural + columnWidthRules.padding)));
    // The cap never pushes a column below its own minimum: a column narrower than that is unreadable.
    widths[column.key] = Math.max(min, Math.min(clamped, Math.floor(cap)));
  }
  const target = Math.floor(viewportWidth * columnWidthRules.fillFraction) - reservedWidth;
  const total = Object.values(widths).reduce((sum, width) => sum + width, 0);
  if (total > 0 && total < target) {
    // Stretch the ordinary columns; the id column keeps its compact width unless it is alone.
    const stretchable = columns.filter((c) => c.key !== 'id');
    const growing = stretchable.length > 0 ? stretchable : [...columns];
    const growingTotal = growing.reduce((sum, c) => sum + (widths[c.key] ?? 0), 0);
    const extra = target - total;
    let given = 0;
    growing.forEach((column, index) => {
      const current = widths[column.key] ?? 0;
      const share = index === growing.length - 1 ? extra - given : Math.floor((extra * current) / growingTotal);
      given += share;
      widths[column.key] = current + share;
    });
  }
  return widths;
}
