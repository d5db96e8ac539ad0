// The Data screen (spec §2): a fixed 280px left pane with the folder tree and a flexible right pane
// with the selected table's grid; dialogs for folders, tables and rows.
import './mantine-styles.ts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Badge, Button, Group, Loader, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { rowVersion, type DownloadFormat, type TableRow, type TableSummary } from '@stockwise/contract';
import { saveFile } from '../../components/save-file.ts';
import { useTablesStore } from '../../stores/tables.ts';
import { useSessionStore } from '../../stores/session.ts';
import { useCan } from '../../stores/role.ts';
import { FolderTree } from './FolderTree.tsx';
import { DataGrid, type RowAction } from './DataGrid.tsx';
import { RowFormModal } from './RowFormModal.tsx';
import { AddTableDialog } from './AddTableDialog.tsx';
import { CreateFolderDialog, DeleteRowDialog, DeleteTableDialog, MoveTableDialog } from './TableDialogs.tsx';
import { isVariationName } from './tree.ts';
import { HistoryNotice, UndoRedoButtons, useUndoShortcuts } from './RowHistory.tsx';
import { useRowHistoryStore } from '../../stores/row-history.ts';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import classes from './DataPage.module.css';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

type Dialog =
  | { kind: 'folder' }
  | { kind: 'table' }
  | { kind: 'move'; table: TableSummary }
  | { kind: 'deleteTable'; table: TableSummary }
  | { kind: 'row'; row: TableRow | null }
  /** `version`: the row's as the grid showed it; a row changed since is not deleted unseen (ADR 0168). */
  | { kind: 'deleteRow'; id: number | string; version: string | undefined };

export default function DataPage() {
  const { t, i18n } = useTranslation();
  // Offer only what the role may do; the server still decides (and its 403 is shown as a notice).
  const canEditRows = useCan('editor');
  const canManageTables = useCan('admin');
  const [searchParams, setSearchParams] = useSearchParams();
  const sessionLoaded = useSessionStore((state) => !state.isLoading && state.isLoggedIn);
  const store = useTablesStore();
  const { tables, folders, isLoading, error, selected, selectionCount, columns, rows, count, countIsEstimate, hasMore, sort, filters, filterProblems, isLoadingRows, rowsError, isLoadingMore } = store;
  const { loadStructure, selectTable, toggleSort, setFilter, loadMore, loadEnd, makeVariation, setPageSize, exportRows } = store;
  const [exporting, setExporting] = useState<DownloadFormat | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const tablePane = useRef<HTMLElement>(null);
  const rememberDialogOpener = useDialogFocusReturn(dialog !== null, () => tablePane.current);
  const openDialog = useCallback(
    (next: Dialog) => {
      rememberDialogOpener();
      setDialog(next);
    },
    [rememberDialogOpener],
  );
  const [notice, setNotice] = useState<string | null>(null);
  const initialTable = useRef(searchParams.get('table'));
  useUndoShortcuts(canEditRows);

  useEffect(() => {
    const pageSize = searchParams.get('page_size');
    if (pageSize) setPageSize(Number(pageSize));
    // Read once: the page size is a start-up option (benchmarks, power users).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (!sessionLoaded) return;
    void loadStructure().then(() => {
      const wanted = initialTable.current;
      initialTable.current = null;
      if (wanted) void useTablesStore.getState().selectTable(wanted);
    });
  }, [sessionLoaded, loadStructure]);

  // The address names the open table, so a reload or a shared link opens it again.
  const selectedName = selected?.name ?? null;
  useEffect(() => {
    if (initialTable.current !== null) return;
    const current = searchParams.get('table');
    if (selectedName === current) return;
    const nextParams = new URLSearchParams(searchParams);
    if (selectedName) nextParams.set('table', selectedName);
    else nextParams.delete('table');
    setSearchParams(nextParams, { replace: true });
  }, [selectedName, searchParams, setSearchParams]);

  const onSelect = useCallback(
    (table: TableSummary) => {
      setNotice(null);
      useRowHistoryStore.getState().dismiss();
      void selectTable(table.encodedName);
    },
    [selectTable],
  );
  const onMove = useCallback((table: TableSummary) => openDialog({ kind: 'move', table }), [openDialog]);
  const onDelete = useCallback((table: TableSummary) => openDialog({ kind: 'deleteTable', table }), [openDialog]);

  const openVariation = useCallback(
    async (row: TableRow) => {
      const id = Number(row['id']);
      setDialog(null);
      setNotice(null);
      const result = await makeVariation(id);
      if (!result.ok) setNotice(result.message);
    },
    [makeVariation],
  );

  const onRowAction = useCallback(
    (action: RowAction, row: TableRow) => {
      const id = row['id'];
      switch (action) {
        case 'edit':
          openDialog({ kind: 'row', row });
          break;
        case 'delete':
          if (typeof id === 'number' || typeof id === 'string') openDialog({ kind: 'deleteRow', id, version: rowVersion(row) });
          break;
        case 'variation':
          void openVariation(row);
          break;
      }
    },
    [openDialog, openVariation],
  );

  const onSort = useCallback((key: string) => void toggleSort(key), [toggleSort]);
  const onFilter = useCallback((key: string, value: string) => void setFilter(key, value), [setFilter]);
  const onLoadMore = useCallback(() => void loadMore(), [loadMore]);
  const onLoadEnd = useCallback(() => void loadEnd(), [loadEnd]);
  const closeDialog = useCallback(() => setDialog(null), []);

  const downloadRows = async (format: DownloadFormat) => {
    if (!selected) return;
    setExporting(format);
    setNotice(null);
    const result = await exportRows(format);
    setExporting(null);
    if (result.ok) saveFile(`${selected.name}.${format}`, result.value);
    else setNotice(result.message);
  };

  const hasFilters = Object.keys(filters).length > 0;
  const formatNumber = (n: number) => n.toLocaleString(i18n.language);
  const addRowButton = canEditRows ? (
    <Button onClick={() => openDialog({ kind: 'row', row: null })} disabled={columns.length === 0}>
      {t('datatab.actions.addRow')}
    </Button>
  ) : null;

  return (
    <div className={classes.page}>
      <Title order={1} size="h2">
        {t('datatab.title')}
      </Title>
      <div className={classes.panes}>
        <aside className={classes.left} aria-label={t('datatab.tree.label')}>
          <Stack gap="xs" className={classes.leftHeader}>
            <Title order={2} size="h5">
              {t('datatab.tree.heading')}
            </Title>
            {canManageTables && (
              <Group gap="xs">
                <Button size="xs" variant="default" onClick={() => openDialog({ kind: 'folder' })}>
                  {t('datatab.actions.createFolder')}
                </Button>
                <Button size="xs" onClick={() => openDialog({ kind: 'table' })}>
                  {t('datatab.actions.addTable')}
                </Button>
              </Group>
            )}
          </Stack>
          <div className={classes.treeScroll}>
            {error && (
              <Alert color="red" role="alert" m="xs" data-testid="tree-error">
                <Stack gap="xs" align="flex-start">
                  <span>{error}</span>
                  <Button size="xs" variant="light" color="red" onClick={() => void loadStructure()}>
                    {t('datatab.tree.retry')}
                  </Button>
                </Stack>
              </Alert>
            )}
            {isLoading && tables.length === 0 ? (
              <Group gap="xs" p="sm" role="status">
                <Loader size="xs" />
                <Text size="sm">{t('datatab.tree.loading')}</Text>
              </Group>
            ) : tables.length === 0 && folders.length === 0 && !error ? (
              <Text size="sm" c="dimmed" p="sm">
                {t('datatab.tree.empty')}
              </Text>
            ) : (
              <FolderTree folders={folders} tables={tables} selected={selected} canManage={canManageTables} onSelect={onSelect} onMove={onMove} onDelete={onDelete} />
            )}
          </div>
        </aside>

        <section ref={tablePane} tabIndex={-1} className={classes.right} aria-label={selected ? selected.name : t('datatab.grid.noTable')} data-testid="table-pane">
          {notice && (
            <Alert color="red" role="alert" withCloseButton onClose={() => setNotice(null)} data-testid="data-notice">
              {notice}
            </Alert>
          )}
          {!selected && !isLoadingRows && !rowsError ? (
            <div className={classes.emptyPane} data-testid="no-table">
              <Text c="dimmed">{t('datatab.grid.noTable')}</Text>
            </div>
          ) : (
            <>
              <div className={classes.toolbar}>
                <Title order={2} size="h4" data-testid="table-title">
                  {selected?.name ?? ''}
                </Title>
                {selected && !isLoadingRows && !rowsError && (
                  <Badge variant="light" size="lg" tt="none" data-testid="row-count" aria-label={t('datatab.grid.rowCount')}>
                    {t(countIsEstimate ? 'datatab.grid.countEstimate' : 'datatab.grid.count', { count, formatted: formatNumber(count) })}
                  </Badge>
                )}
                {selected && !isLoadingRows && rows.length > 0 && (
                  <Text size="sm" c="dimmed" data-testid="rows-loaded">
                    {t('datatab.grid.loaded', { loaded: formatNumber(rows.length) })}
                  </Text>
                )}
                <div style={{ flex: 1 }} />
                {selected && columns.length > 0 && (
                  <>
                    <BusyButton variant="default" onClick={() => void downloadRows('csv')} busy={exporting === 'csv'} disabled={isLoadingRows || Boolean(rowsError) || exporting === 'xlsx'}>
                      {t('datatab.actions.downloadCsv')}
                    </BusyButton>
                    <BusyButton variant="default" onClick={() => void downloadRows('xlsx')} busy={exporting === 'xlsx'} disabled={isLoadingRows || Boolean(rowsError) || exporting === 'csv'}>
                      {t('datatab.actions.downloadXlsx')}
                    </BusyButton>
                  </>
                )}
                {selected && canEditRows && <UndoRedoButtons table={selected} />}
                {selected && addRowButton}
              </div>
              {selected && canEditRows && <HistoryNotice table={selected} />}
              {rowsError && (
                <Alert color="red" role="alert" data-testid="rows-error">
                  <Stack gap="xs" align="flex-start">
                    <span>{rowsError}</span>
                    {selected && (
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        // A failed further page is asked for again; a failed first page reloads the table.
                        onClick={() => void (rows.length > 0 && hasMore ? loadMore() : selectTable(selected.encodedName))}
                      >
                        {t('datatab.actions.retry')}
                      </Button>
                    )}
                  </Stack>
                </Alert>
              )}
              {/* A new table loads under a skeleton; a sort or filter reloads into the grid, whose header
                  (with the filter being typed in and its focus) stays. */}
              {isLoadingRows && columns.length === 0 ? (
                <Stack gap={6} role="status" aria-label={t('datatab.grid.loading')} data-testid="rows-loading">
                  {Array.from({ length: 8 }, (_, index) => (
                    <Skeleton key={index} height={28} />
                  ))}
                </Stack>
              ) : (
                selected &&
                columns.length > 0 && (
                  <DataGrid
                    key={`${selected.encodedName}:${selectionCount}`}
                    tableName={selected.name}
                    columns={columns}
                    rows={rows}
                    tail={store.tail}
                    tailOffset={store.tailOffset}
                    totalRows={count}
                    references={store.references}
                    unknownValues={store.unknownValues}
                    sort={sort}
                    filters={filters}
                    filterProblems={filterProblems}
                    hasNext={hasMore}
                    isLoadingMore={isLoadingMore}
                    canMakeVariation={!isVariationName(selected.name)}
                    canEditRows={canEditRows}
                    onSort={onSort}
                    onFilter={onFilter}
                    onLoadMore={onLoadMore}
                    onLoadEnd={onLoadEnd}
                    onRowAction={onRowAction}
                    emptyContent={
                      isLoadingRows ? (
                        <Text c="dimmed" data-testid="rows-loading">
                          {t('datatab.grid.loading')}
                        </Text>
                      ) : // A page that failed to load says so above; "no rows" would not be true.
                      rowsError ? null : hasFilters ? (
                        <Text c="dimmed">{t('datatab.grid.noMatches')}</Text>
                      ) : (
                        <>
                          <Text fw={600} data-testid="no-rows">
                            {t('datatab.grid.empty')}
                          </Text>
                          {addRowButton}
                        </>
                      )
                    }
                  />
                )
              )}
            </>
          )}
        </section>
      </div>

      {dialog?.kind === 'folder' && <CreateFolderDialog onClose={closeDialog} />}
      {dialog?.kind === 'table' && <AddTableDialog defaultFolder={selected?.folder ?? ''} onClose={closeDialog} />}
      {dialog?.kind === 'move' && <MoveTableDialog table={dialog.table} onClose={closeDialog} />}
      {dialog?.kind === 'deleteTable' && <DeleteTableDialog table={dialog.table} onClose={closeDialog} />}
      {dialog?.kind === 'row' && selected && (
        <RowFormModal tableName={selected.name} encodedName={selected.encodedName} columns={columns} row={dialog.row} unknownValues={store.unknownValues} onClose={closeDialog} onOpenVariation={(row) => void openVariation(row)} />
      )}
      {dialog?.kind === 'deleteRow' && selected && <DeleteRowDialog tableName={selected.name} rowId={dialog.id} version={dialog.version} onClose={closeDialog} />}
    </div>
  );
}
