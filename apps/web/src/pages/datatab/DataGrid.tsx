// The right pane's grid: TanStack Table for the column model, TanStack Virtual for the rows (only
// the rows in view are in the DOM), a sticky header with sort buttons and debounced filter inputs,
// pages loaded from the server's `next` links as the user nears the end of the loaded rows. The
// scrollbar spans the whole table: End, or the scrollbar dragged to the bottom, reads the last page
// directly (`from_end`) and shows placeholders for the rows in between until they are loaded.
// Ctrl+C copies the focused row, with a header line, as tab-separated text.
import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type HeaderGroup } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DECIMAL_PLACES, exportedCells, isQuantityColumn, moneyFormat, quantityCellFormat, labelOfRow, rowLabelColumns, toTsv, typedFilterKind, type TableColumn, type TableRow, type TypedFilterKind, type TypedFilterProblem, type UnknownValueReason } from '@stockwise/contract';
import { cellText, computeColumnWidths, createTextMeasurer, type MeasureText } from './column-widths.ts';
import { dateFilterReading, referenceText, type FilterInputs, type FilterProblems, type ReferenceLabels, type SortState, type UnknownValues } from './table-query.ts';
import { dateExamples, useViewerDates } from '../../components/viewer-dates.ts';
import { useShopCurrency } from '../../components/money.ts';
import classes from './DataPage.module.css';

export const gridRowHeight = 34;
/** Start loading the next page this many rows before the end. */
const loadAheadRows = 30;
const filterDebounceMs = 300;
/** How long "Row 3 copied" stays. */
const copiedNoticeMs = 2500;
const actionsWidth = 120;
const gridFont = '14px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export type RowAction = 'edit' | 'delete' | 'variation';

type DataGridProps = {
  tableName: string;
  columns: readonly TableColumn[];
  /** The rows loaded from the top. */
  rows: readonly TableRow[];
  /** The last rows of the order (read from the end), at `tailOffset`; empty until asked for. */
  tail: readonly TableRow[];
  tailOffset: number;
  /** The table's row count (may be an estimate): the scrollbar's length while pages are missing. */
  totalRows: number;
  sort: SortState;
  filters: FilterInputs;
  /** Filter texts that cannot be read: said under their box. */
  filterProblems?: FilterProblems;
  hasNext: boolean;
  isLoadingMore: boolean;
  canMakeVariation: boolean;
  /** The role may add, edit and delete rows (editor); otherwise the grid only reads. */
  canEditRows: boolean;
  onSort: (key: string) => void;
  onFilter: (key: string, value: string) => void;
  onLoadMore: () => void;
  onLoadEnd: () => void;
  /** ForeignKey values as `code — name` (shown instead of the id). */
  references?: ReferenceLabels;
  /** Cells whose stored value stands in for one never recorded: shown as what is not known, not as the value. */
  unknownValues?: UnknownValues;
  onRowAction: (action: RowAction, row: TableRow) => void;
  /** Shown under the header when there are no rows. */
  emptyContent?: ReactNode;
};

const noReferences: ReferenceLabels = {};
const noUnknownValues: UnknownValues = {};
const noFilterProblems: FilterProblems = {};
/** A cell as the row draws it; `hint` (a tooltip) only on a cell whose value is not known. */
type GridCell = { id: string; width: number; text: string; hint?: string };
let measurer: MeasureText | null = null;
const measureText: MeasureText = (text) => (measurer ??= createTextMeasurer(gridFont))(text);

function formatCell(column: TableColumn, value: TableRow[string] | undefined, yes: string, no: string, references: ReferenceLabels, currency: string | null): string {
  if (typeof value === 'boolean') return value ? yes : no;
  if (column.type === 'ForeignKey') return referenceText(references, column.key, value) ?? cellText(value);
  if (column.type === 'DateTimeField' && typeof value === 'string') return gridMoment(value);
  // A decimal reads with its column's places (7.50, as the Forecasting screen and a spreadsheet's currency format show
  // money, not 7.5), without thousands separators, as its edit form takes it. Only a column its definition marks as
  // money carries the shop's currency ($7.50): two places are as often a weight or a rate (0.25 kg, 0.20 VAT) (ADR 0166).
  if (isQuantityColumn(column) && typeof value === 'number') return quantityCellFormat.format(value);
  if (column.type === 'DecimalField' && typeof value === 'number') {
    return moneyFormat(column.money ? currency : null, { fractionDigits: column.decimal_places ?? DEFAULT_DECIMAL_PLACES, grouping: false }).format(value);
  }
  return cellText(value);
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/**
 * A timestamp as the grid writes it beside its days (YYYY-MM-DD, as typed in its filters and forms),
 * on the viewer's clock: "2026-12-07 15:04:05" — not in the browser's locale, which wrote a
 * German browser's "7.12.2026, 15:04:05" beside the same grid's "2026-12-07".
 */
function gridMoment(value: string): string {
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return `${at.getFullYear()}-${twoDigits(at.getMonth() + 1)}-${twoDigits(at.getDate())} ${twoDigits(at.getHours())}:${twoDigits(at.getMinutes())}:${twoDigits(at.getSeconds())}`;
}

/** What a cell of unknown value says, and its tooltip, per reason (translated once). */
function unknownValueLabels(t: (key: string) => string): Record<UnknownValueReason, { text: string; hint: string }> {
  return { not_counted: { text: t('datatab.grid.notCounted'), hint: t('datatab.grid.notCountedHint') } };
}

export function DataGrid(props: DataGridProps) {
  const { tableName, columns, rows, tail, tailOffset, totalRows, sort, filters, hasNext, isLoadingMore, onSort, onFilter, onLoadMore, onLoadEnd, onRowAction, canMakeVariation, canEditRows, emptyContent } = props;
  const { references = noReferences, unknownValues = noUnknownValues, filterProblems = noFilterProblems } = props;
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);
  const [viewportWidth, setViewportWidth] = useState(0);
  const [headerHeight, setHeaderHeight] = useState(0);
  const [focusedIndex, setFocusedIndex] = useState(0);
  const [copyNotice, setCopyNotice] = useState<string | null>(null);
  const copyNoticeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (copyNoticeTimer.current) clearTimeout(copyNoticeTimer.current);
  }, []);

  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => {
      setViewportWidth(element.clientWidth);
      setHeaderHeight(headerRef.current?.offsetHeight ?? 0);
    });
    observer.observe(element);
    if (headerRef.current) observer.observe(headerRef.current);
    return () => observer.disconnect();
  }, []);

  const dataColumns = useMemo(() => columns.filter((column) => column.type !== 'nestedTable'), [columns]);
  const widths = useMemo(
    () => computeColumnWidths({ columns: dataColumns, rows, viewportWidth: viewportWidth || 1200, measureText, reservedWidth: actionsWidth }),
    // Only the first rows are sampled: later pages do not move the columns.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [dataColumns, viewportWidth, rows.length >= 50 ? rows[49] : rows.length, rows[0]],
  );

  // The tail follows the loaded rows if the count was an estimate that placed it too early.
  const tailStart = Math.max(tailOffset, rows.length);
  const rowCount = !hasNext ? rows.length : tail.length > 0 ? tailStart + tail.length : Math.max(rows.length, totalRows);
  const rowAt = (index: number): TableRow | undefined => (index < rows.length ? rows[index] : index >= tailStart ? tail[index - tailStart] : undefined);

  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => gridRowHeight,
    overscan: 6,
    // The rows start below the sticky header, and a row scrolled to must not hide under it.
    scrollMargin: headerHeight,
    scrollPaddingStart: headerHeight,
  });
  const virtualItems = virtualizer.getVirtualItems();
  const firstVisible = virtualItems[0]?.index ?? 0;
  const lastVisible = virtualItems.at(-1)?.index ?? -1;

  useEffect(() => {
    if (!hasNext || isLoadingMore) return;
    // At the end of a table whose middle is not loaded: the last page, not every page before it.
    if (tail.length === 0 && firstVisible > rows.length && lastVisible >= rowCount - loadAheadRows) onLoadEnd();
    // Rows in view (or just below it) that the pages from the top have not reached yet.
    else if (lastVisible >= rows.length - loadAheadRows && (tail.length === 0 || firstVisible < tailStart)) onLoadMore();
  }, [hasNext, isLoadingMore, firstVisible, lastVisible, rows.length, rowCount, tail.length, tailStart, onLoadMore, onLoadEnd]);

  // The table model covers the rows in view only: building it for 100,000 rows on every page load
  // would block the main thread; the virtualizer already knows which rows are shown.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- rowAt reads rows, tail and tailStart
  const windowRows = useMemo(() => virtualItems.map((item) => rowAt(item.index) ?? {}), [virtualItems, rows, tail, tailStart]);
  const columnDefs = useMemo<ColumnDef<TableRow>[]>(
    () =>
      dataColumns.map((column) => ({
        id: column.key,
        header: column.label,
        size: widths[column.key] ?? 150,
        accessorFn: (row) => row[column.key],
      })),
    [dataColumns, widths],
  );
  const [yes, no] = useMemo(() => [t('datatab.grid.yes'), t('datatab.grid.no')], [t]);
  const columnByKey = useMemo(() => new Map(dataColumns.map((column) => [column.key, column])), [dataColumns]);
  const unknownLabels = useMemo(() => unknownValueLabels(t), [t]);
  const currency = useShopCurrency();
  const cellOf = (key: string, width: number, value: unknown, row: TableRow): GridCell => {
    const reason = unknownValues[key]?.[String(row['id'])];
    if (reason) return { id: key, width, ...unknownLabels[reason] };
    const column = columnByKey.get(key);
    return { id: key, width, text: column ? formatCell(column, value as TableRow[string], yes, no, references, currency) : cellText(value as TableRow[string]) };
  };
  const table = useReactTable({ data: windowRows, columns: columnDefs, getCoreRowModel: getCoreRowModel(), manualSorting: true, manualFiltering: true });
  const modelRows = table.getRowModel().rows;
  const totalWidth = dataColumns.reduce((sum, column) => sum + (widths[column.key] ?? 150), 0) + actionsWidth;

  const labels = useMemo<RowLabels>(() => {
    // Translated once with a marker in place of the id: rows fill it in on every scroll frame.
    const filledIn = (key: string, name: string) => {
      const [before = '', after = ''] = t(key, { [name]: '\u0000' }).split('\u0000');
      return (value: string) => before + value + after;
    };
    const withId = (key: string) => filledIn(key, 'id');
    const withRow = (key: string) => filledIn(key, 'row');
    return {
      edit: t('datatab.actions.edit'),
      delete: t('datatab.actions.delete'),
      makeVariation: t('datatab.actions.makeVariation'),
      rowNumber: withId('datatab.undo.rowNumber'),
      editRow: withRow('datatab.actions.editRow'),
      deleteRow: withRow('datatab.actions.deleteRow'),
      makeVariationOf: withRow('datatab.actions.makeVariationOf'),
    };
  }, [t]);
  // The row buttons name the row as people know it (`GAR-1099 — Pflanzschaufel`), as its delete confirmation does; by number where the table has no code.
  const labelColumns = useMemo(() => rowLabelColumns(columns), [columns]);
  const captionOf = (row: TableRow) => labelOfRow(labelColumns, row) || labels.rowNumber(String(row['id'] ?? ''));

  const moveFocus = (index: number) => {
    if (rowCount === 0) return;
    const next = Math.max(0, Math.min(rowCount - 1, index));
    setFocusedIndex(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const announceCopy = (notice: string) => {
    setCopyNotice(notice);
    if (copyNoticeTimer.current) clearTimeout(copyNoticeTimer.current);
    copyNoticeTimer.current = setTimeout(() => setCopyNotice(null), copiedNoticeMs);
  };

  /** The focused row and a header line as tab-separated text: pasted into a spreadsheet, each field lands in its column. */
  const copyFocusedRow = (row: TableRow) => {
    const text = toTsv([dataColumns.map((column) => column.label), exportedCells(dataColumns, row, { references, unknownValues })]);
    const id = String(row['id'] ?? '');
    navigator.clipboard.writeText(text).then(
      () => announceCopy(t('datatab.grid.rowCopied', { id })),
      () => announceCopy(t('datatab.grid.copyFailed')),
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'c') {
      const row = rowAt(focusedIndex);
      // Text selected with the mouse is the browser's to copy.
      if (!row || window.getSelection()?.toString()) return;
      event.preventDefault();
      copyFocusedRow(row);
      return;
    }
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / gridRowHeight) - 2);
    switch (event.key) {
      case 'ArrowDown':
        moveFocus(focusedIndex + 1);
        break;
      case 'ArrowUp':
        moveFocus(focusedIndex - 1);
        break;
      case 'PageDown':
        moveFocus(focusedIndex + page);
        break;
      case 'PageUp':
        moveFocus(focusedIndex - page);
        break;
      // Ctrl+Home / Ctrl+End too: the grid moves by rows only.
      case 'Home':
        moveFocus(0);
        break;
      case 'End':
        moveFocus(rowCount - 1);
        break;
      case 'Enter': {
        const row = rowAt(focusedIndex);
        if (row && canEditRows) onRowAction('edit', row);
        break;
      }
      case 'Delete': {
        const row = rowAt(focusedIndex);
        if (row && canEditRows) onRowAction('delete', row);
        break;
      }
      default:
        return;
    }
    event.preventDefault();
  };

  const focusedRow = rowAt(focusedIndex);

  return (
    <>
      <div
        ref={scrollRef}
        className={classes.gridScroll}
        role="grid"
        aria-label={t('datatab.grid.label', { name: tableName })}
        aria-rowcount={rowCount + 2}
        aria-colcount={dataColumns.length + 1}
        aria-activedescendant={focusedRow ? rowDomId(focusedIndex) : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        data-testid="data-grid"
        data-rows-loaded={rows.length}
        data-tail-rows={tail.length}
        data-row-count={rowCount}
        data-has-next={hasNext}
        data-loading-more={isLoadingMore}
      >
        <GridHeader
          ref={headerRef}
          headerGroups={table.getHeaderGroups()}
          columns={dataColumns}
          widths={widths}
          totalWidth={totalWidth}
          sort={sort}
          filters={filters}
          filterProblems={filterProblems}
          onSort={onSort}
          onFilter={onFilter}
        />
        <div role="rowgroup" className={classes.gridBody} style={{ height: virtualizer.getTotalSize(), width: totalWidth }}>
          {virtualItems.map((item, position) => {
            const modelRow = modelRows[position];
            const row = rowAt(item.index);
            if (!row) return <PlaceholderRow key={position} index={item.index} start={item.start - headerHeight} width={totalWidth} label={t('datatab.grid.loadingRow')} />;
            if (!modelRow) return null;
            return (
              <GridRow
                // Keyed by position in the window, not by row: a row scrolled out hands its DOM nodes
                // to the row scrolled in, so a fast scroll updates text instead of rebuilding rows.
                key={position}
                index={item.index}
                start={item.start - headerHeight}
                row={row}
                caption={captionOf(row)}
                cells={modelRow.getVisibleCells().map((cell) => cellOf(cell.column.id, cell.column.getSize(), cell.getValue(), row))}
                focused={item.index === focusedIndex}
                canMakeVariation={canMakeVariation}
                canEditRows={canEditRows}
                labels={labels}
                onFocus={setFocusedIndex}
                onRowAction={onRowAction}
              />
            );
          })}
        </div>
        {rows.length === 0 && emptyContent && <div className={classes.gridMessage}>{emptyContent}</div>}
        {isLoadingMore && (
          <div className={classes.loadingMore} role="status">
            {t('datatab.grid.loadingMore')}
          </div>
        )}
      </div>
      {/* Outside the grid, whose children are rows: a short notice over the page, read out as it comes. */}
      <div className={copyNotice ? classes.copyNotice : classes.visuallyHidden} role="status" data-testid="copy-notice">
        {copyNotice}
      </div>
    </>
  );
}

const rowDomId = (index: number) => `datatab-row-${index}`;

/** A row between the loaded pages and the last rows: shown as loading until its page arrives. */
function PlaceholderRow({ index, start, width, label }: { index: number; start: number; width: number; label: string }) {
  return (
    <div id={rowDomId(index)} role="row" aria-rowindex={index + 3} aria-busy="true" className={classes.gridRow} data-placeholder style={{ transform: `translateY(${start}px)` }}>
      <div role="gridcell" className={classes.cell} style={{ width }}>
        {label}
      </div>
    </div>
  );
}

type GridHeaderProps = {
  ref: Ref<HTMLDivElement>;
  headerGroups: HeaderGroup<TableRow>[];
  columns: readonly TableColumn[];
  widths: Record<string, number>;
  totalWidth: number;
  sort: SortState;
  filters: FilterInputs;
  filterProblems: FilterProblems;
  onSort: (key: string) => void;
  onFilter: (key: string, value: string) => void;
};

/** The sticky header: sort buttons and filter inputs. Memoised: scrolling does not touch it. */
const GridHeader = memo(function GridHeader({ ref, headerGroups, columns, widths, totalWidth, sort, filters, filterProblems, onSort, onFilter }: GridHeaderProps) {
  const { t } = useTranslation();
  return (
      <div ref={ref} className={classes.gridHeader} style={{ width: totalWidth }} role="rowgroup">
        {headerGroups.map((group) => (
          <div key={group.id} role="row" aria-rowindex={1} className={classes.gridHeaderRow}>
            {group.headers.map((header) => {
              const key = header.column.id;
              const direction = sort.sortBy === key ? sort.sortDir : null;
              // Calculated columns are not stored: the server can neither sort nor filter by them.
              const stored = columns.find((column) => column.key === key)?.type !== 'query';
              return (
                <div
                  key={header.id}
                  role="columnheader"
                  aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
                  className={classes.headerCell}
                  style={{ width: header.getSize() }}
                  data-column={key}
                >
                  <button type="button" className={classes.sortButton} onClick={() => onSort(key)} disabled={!stored} data-sort={direction ?? undefined}>
                    <span className={classes.headerLabel}>{flexRender(header.column.columnDef.header, header.getContext())}</span>
                    {stored && (
                      <span aria-hidden className={classes.sortMark}>
                        {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
                      </span>
                    )}
                    {direction && <span className={classes.visuallyHidden}>{t(direction === 'asc' ? 'datatab.grid.sortedAsc' : 'datatab.grid.sortedDesc')}</span>}
                  </button>
                </div>
              );
            })}
            <div role="columnheader" className={classes.headerCell} style={{ width: actionsWidth }}>
              <span className={classes.headerLabel}>{t('datatab.grid.actionsColumn')}</span>
            </div>
          </div>
        ))}
        <div role="row" aria-rowindex={2} className={classes.gridFilterRow}>
          {columns.map((column) => (
            <div key={column.key} role="gridcell" className={classes.filterCell} style={{ width: widths[column.key] ?? 150 }}>
              <FilterInput
                label={t('datatab.grid.filter', { label: column.label })}
                kind={typedFilterKind(column.type)}
                // The box shows what was typed, readable or not (the grid is drawn anew after each reload).
                value={filterProblems[column.key]?.text ?? filters[column.key] ?? ''}
                problem={filterProblems[column.key]}
                onChange={(value) => onFilter(column.key, value)}
                disabled={column.type === 'query'}
              />
            </div>
          ))}
          <div role="gridcell" className={classes.filterCell} style={{ width: actionsWidth }} />
        </div>
      </div>
  );
});

type RowLabels = {
  edit: string;
  delete: string;
  makeVariation: string;
  rowNumber: (id: string) => string;
  editRow: (row: string) => string;
  deleteRow: (row: string) => string;
  makeVariationOf: (row: string) => string;
};

type GridRowProps = {
  index: number;
  start: number;
  row: TableRow;
  /** The row as its buttons name it. */
  caption: string;
  cells: GridCell[];
  focused: boolean;
  canMakeVariation: boolean;
  canEditRows: boolean;
  labels: RowLabels;
  onFocus: (index: number) => void;
  onRowAction: (action: RowAction, row: TableRow) => void;
};

const GridRow = memo(
  function GridRow({ index, start, row, caption, cells, focused, canMakeVariation, canEditRows, labels, onFocus, onRowAction }: GridRowProps) {
    const id = String(row['id'] ?? '');
    return (
      <div
        id={rowDomId(index)}
        role="row"
        aria-rowindex={index + 3}
        aria-selected={focused}
        className={classes.gridRow}
        data-focused={focused || undefined}
        data-row-id={id}
        style={{ transform: `translateY(${start}px)` }}
        onClick={() => onFocus(index)}
        onDoubleClick={canEditRows ? () => onRowAction('edit', row) : undefined}
      >
        {cells.map((cell) => (
          <div key={cell.id} role="gridcell" className={classes.cell} style={{ width: cell.width }} data-column={cell.id} data-unknown={cell.hint ? true : undefined} title={cell.hint}>
            {cell.text}
          </div>
        ))}
        <div role="gridcell" className={classes.actionsCell} style={{ width: actionsWidth }}>
          {canEditRows && (
            <>
              <button type="button" className={classes.rowButton} aria-label={labels.editRow(caption)} title={labels.edit} onClick={() => onRowAction('edit', row)} tabIndex={-1}>
                ✎
              </button>
              {canMakeVariation && (
                <button type="button" className={classes.rowButton} aria-label={labels.makeVariationOf(caption)} title={labels.makeVariation} onClick={() => onRowAction('variation', row)} tabIndex={-1}>
                  <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.5">
                    <rect x="5" y="5" width="9" height="9" rx="1.5" />
                    <path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5" />
                  </svg>
                </button>
              )}
              <button type="button" className={classes.rowButton} data-danger aria-label={labels.deleteRow(caption)} title={labels.delete} onClick={() => onRowAction('delete', row)} tabIndex={-1}>
                ✕
              </button>
            </>
          )}
        </div>
      </div>
    );
  },
  (before, after) =>
    before.row === after.row &&
    before.caption === after.caption &&
    before.start === after.start &&
    before.focused === after.focused &&
    before.index === after.index &&
    before.canMakeVariation === after.canMakeVariation &&
    before.canEditRows === after.canEditRows &&
    before.labels === after.labels &&
    before.cells.length === after.cells.length &&
    before.cells.every((cell, i) => cell.width === after.cells[i]?.width && cell.text === after.cells[i]?.text && cell.hint === after.cells[i]?.hint),
);

/** What to type into a number or date column's filter: the placeholder says it short, the tooltip in full (a date's with examples in the viewer's pattern). */
const filterHelp: Record<TypedFilterKind, { placeholder: string; tooltip: string }> = {
  wholeNumber: { placeholder: 'datatab.grid.numberFilterPlaceholder', tooltip: 'datatab.grid.numberFilterTooltip' },
  number: { placeholder: 'datatab.grid.numberFilterPlaceholder', tooltip: 'datatab.grid.numberFilterTooltip' },
  date: { placeholder: 'datatab.grid.dateFilterPlaceholder', tooltip: 'datatab.grid.dateFilterTooltip' },
};

type FilterInputProps = {
  label: string;
  /** How the column reads its filter text (null: as text). */
  kind: TypedFilterKind | null;
  value: string;
  problem: TypedFilterProblem | undefined;
  onChange: (value: string) => void;
  disabled: boolean;
};

function FilterInput({ label, kind, value, problem, onChange, disabled }: FilterInputProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const [text, setText] = useState(value);
  const [focused, setFocused] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  const help = kind ? filterHelp[kind] : null;
  const { order, pattern } = useViewerDates();
  const examples = useMemo(() => ({ ...dateExamples(pattern), pattern }), [pattern]);
  // A date filter is said back while its box has the focus: 03.04.2026 could be read either way round.
  const reading = kind === 'date' && !problem && focused ? dateFilterReading(value, order) : null;
  const described = problem ?? reading;
  return (
    <>
      <input
        type="search"
        className={classes.filterInput}
        aria-label={label}
        aria-invalid={problem ? true : undefined}
        aria-describedby={described ? hintId : undefined}
        placeholder={t(help?.placeholder ?? 'datatab.grid.filterPlaceholder', examples)}
        title={help ? t(help.tooltip, examples) : undefined}
        value={text}
        disabled={disabled}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onChange={(event) => {
          const next = event.currentTarget.value;
          setText(next);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => onChange(next), filterDebounceMs);
        }}
      />
      {problem && (
        <div id={hintId} role="alert" className={classes.filterHint} data-testid="filter-hint">
          {problem.problem === 'noSuchDay' ? t('datatab.grid.filterHint.noSuchDay', { day: problem.day, why: problem.why }) : t(`datatab.grid.filterHint.${problem.problem}`, examples)}
        </div>
      )}
      {reading && (
        <div id={hintId} role="status" className={classes.filterReading} data-testid="filter-reading">
          {t(`datatab.grid.dateReading.${reading.kind}`, { from: reading.from, to: reading.to })}
        </div>
      )}
    </>
  );
}
