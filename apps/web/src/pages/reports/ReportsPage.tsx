// The Reports screen (spec §2 /app/reports, §4 report editor): the list of reports, the editor
// (title, description, SQL with autocomplete, schema browser), running with Ctrl/Cmd+Enter, the
// result grid and chart, the chart picker, CSV and Excel export, and writing with AI (a change request, or
// the SQL regenerated). Viewers run and read; editors change their own reports; admins any.
import './mantine-styles.ts';
import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Alert, Badge, Button, Group, Modal, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatClockTime, formatMoment, toCsv, type CsvCell } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { hasUnsavedChanges, useReportsStore, type Operation, type ReportsState } from '../../stores/reports.ts';
import { useCan, useRole, useUserId } from '../../stores/role.ts';
import { useSessionStore } from '../../stores/session.ts';
import { downloadCsv } from '../../components/save-file.ts';
import { saveFile } from '../../components/save-file.ts';
import { SqlEditor, type SqlEditorHandle, type SqlMistake } from './SqlEditor.tsx';
import { SchemaBrowser } from './SchemaBrowser.tsx';
import { ResultGrid } from './ResultGrid.tsx';
import { ReportChart } from './ReportChart.tsx';
import { ChartEditor } from './ChartEditor.tsx';
import { chartShownFor } from './chart-data.ts';
import classes from './ReportsPage.module.css';
import { pinReport } from '../../api/dashboard.ts';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/**
 * An operation's error: the spec's message, the server's reason, and for SQL that did not run
 * PostgreSQL's detail and hint, each on its own line, and the place of the mistake as a button that
 * puts the cursor there (`goTo`, while the editor holds the SQL that failed).
 */
function OperationError({ operation, goTo = null }: { operation: Operation; goTo?: ((line: number, column: number) => void) | null }) {
  const { t } = useTranslation();
  const state = useReportsStore((store) => store.operations[operation]);
  // A save or delete refused because someone saved the report since it was opened: Reload shows their version.
  const savedMeanwhile = useReportsStore((store) => (operation === 'save' || operation === 'delete') && store.savedMeanwhile !== null);
  const reloadReport = useReportsStore((store) => store.reloadReport);
  if (!state.error) return null;
  const { hint = null, detail = null, line = null, column = null } = state.sqlError ?? {};
  return (
    // Light red with the app's darker red text (theme.ts): red.9 made the alert a dark red block its text could not be read on (axe).
    <Alert color="red" role="alert" data-testid={`${operation}-error`} title={state.error}>
      <Stack gap={4}>
        {state.detail ? (
          <Text size="sm" id={`${operation}-error-message`}>
            {state.detail}
          </Text>
        ) : null}
        {detail ? <Text size="sm">{detail}</Text> : null}
        {hint ? (
          <Text size="sm" data-testid={`${operation}-error-hint`}>
            {hint}
          </Text>
        ) : null}
        {savedMeanwhile ? <ReloadAfterConflict label={t('reports.errors.reload')} hint={t('reports.errors.reloadHint')} onReload={reloadReport} testId={`${operation}-error-reload`} /> : null}
        {goTo && line !== null && column !== null ? (
          <div>
            <Button variant="default" size="xs" title={t('reports.errors.placeTitle')} onClick={() => goTo(line, column)} data-testid={`${operation}-error-place`}>
              {t('reports.errors.place', { line, column })}
            </Button>
          </div>
        ) : null}
      </Stack>
    </Alert>
  );
}

/** What the applied request left out of the draft: said next to it, not silently dropped. */
function GenerateNotice() {
  const { t } = useTranslation();
  const notice = useReportsStore((store) => store.generateNotice);
  if (!notice) return null;
  return (
    <Alert color="blue" role="status" data-testid="generate-notice" title={t('reports.assistant.partlyApplied')}>
      {notice}
    </Alert>
  );
}

/**
 * A saved report opens with its rows and chart, as a saved question does in Metabase. SQL of a
 * restored draft is work in progress: it runs when the user says so.
 */
async function openReport(id: number): Promise<void> {
  const { selectReport, runSql } = useReportsStore.getState();
  await selectReport(id);
  const { selectedReport, draft } = useReportsStore.getState();
  if (selectedReport?.id === id && draft?.sql_code === selectedReport.sql_code) await runSql();
}

/** A `?report=` that names a report: a whole number above zero; null for anything else. */
const reportIdOf = (linked: string): number | null => (/^[1-9]\d{0,9}$/.test(linked) ? Number(linked) : null);

/**
 * The open report lives in the URL (?report=ID), as Forecasting's product does, so a reload or a
 * shared link opens it and Back returns to the report before. The URL leads: choosing a report in
 * the list writes it and the screen follows. A new report has none until its first Save, which
 * writes its id in place; a deleted one takes it away. Returns the way to choose (null: no report).
 */
function useReportInUrl(): { choose: (id: number | null) => void; badLink: string | null } {
  const [searchParams, setSearchParams] = useSearchParams();
  const linked = searchParams.get('report');
  const linkedId = linked === null ? null : reportIdOf(linked);
  const selectedId = useReportsStore((s) => s.selectedReport?.id ?? null);
  const sessionReady = useSessionStore((state) => !state.isLoading && state.isLoggedIn);
  useEffect(() => {
    if (sessionReady && linkedId !== null && linkedId !== useReportsStore.getState().selectedReport?.id) void openReport(linkedId);
  }, [sessionReady, linkedId]);
  // A new report saved for the first time (or a report chosen before this visit): the URL says which, in place.
  useEffect(() => {
    if (selectedId !== null && linked === null) setSearchParams((params) => withReport(params, selectedId), { replace: true });
  }, [selectedId, linked, setSearchParams]);
  const choose = useCallback(
    (id: number | null) => {
      if (id === null) {
        if (linked !== null) setSearchParams((params) => withReport(params, null));
      } else if (id !== linkedId) setSearchParams((params) => withReport(params, id), { replace: linked === null && selectedId === null });
      else void openReport(id);
    },
    [linked, linkedId, selectedId, setSearchParams],
  );
  return { choose, badLink: linked !== null && linkedId === null ? linked : null };
}

const withReport = (params: URLSearchParams, id: number | null) => {
  const next = new URLSearchParams(params);
  if (id === null) next.delete('report');
  else next.set('report', String(id));
  return next;
};

function ReportList({ canCreate, choose, onNew }: { canCreate: boolean; choose: (id: number | null) => void; onNew: () => void }) {
  const { t } = useTranslation();
  const { reportData, selectedId } = useReportsStore(useShallow((s) => ({ reportData: s.reportData, selectedId: s.selectedReport?.id ?? null })));
  return (
    <Paper withBorder p="sm" component="nav" aria-label={t('reports.list.heading')}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('reports.list.heading')}
          </Title>
          {canCreate ? (
            <Button color="blue.8" size="xs" onClick={onNew} data-testid="new-report">
              {t('reports.list.new')}
            </Button>
          ) : null}
        </Group>
        <div className={classes.list} data-testid="report-list">
          {reportData.length === 0 ? (
            <Text size="sm" c="gray.7">
              {t(canCreate ? 'reports.list.empty' : 'reports.list.emptyReadOnly')}
            </Text>
          ) : (
            reportData.map((report) => (
              <button type="button" key={report.id} className={classes.listItem} aria-current={report.id === selectedId} onClick={() => choose(report.id)}>
                <Text size="sm" truncate>
                  {report.title}
                </Text>
                <Text size="xs" c="gray.7" truncate>
                  {t('reports.list.owner', { owner: report.owner_username ?? '—' })}
                </Text>
              </button>
            ))
          )}
        </div>
      </Stack>
    </Paper>
  );
}

/** Set by New report: the plain-words box takes the focus once it is shown. */
type FocusRequest = RefObject<boolean>;

function AssistantPanel({ canEdit, focusRequestRef }: { canEdit: boolean; focusRequestRef: FocusRequest }) {
  const { t } = useTranslation();
  const [changeRequest, setChangeRequest] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  // A new report starts from words: its box is where the keyboard goes, not back to "New report".
  useEffect(() => {
    if (!focusRequestRef.current || !box.current) return;
    focusRequestRef.current = false;
    box.current.focus();
  });
  const { generating, regenerating, pseudocode } = useReportsStore(useShallow((s) => ({ generating: s.operations.generate.busy, regenerating: s.operations.regenerate.busy, pseudocode: s.draft?.pseudocode ?? '' })));
  const applyChangeRequest = useReportsStore((s) => s.applyChangeRequest);
  const regenerateSql = useReportsStore((s) => s.regenerateSql);
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {t('reports.assistant.heading')}
        </Title>
        {canEdit ? (
          <>
            <Textarea
              ref={box}
              label={t('reports.assistant.changeLabel')}
              placeholder={t('reports.assistant.placeholder')}
              value={changeRequest}
              autosize
              minRows={2}
              onChange={(event) => setChangeRequest(event.currentTarget.value)}
              data-testid="change-request"
            />
            <Group gap="xs">
              <BusyButton color="blue.8" onClick={() => void applyChangeRequest(changeRequest)} busy={generating} disabled={changeRequest.trim() === ''} data-testid="apply-change">
                {t('reports.assistant.apply')}
              </BusyButton>
              <BusyButton color="blue.8" variant="outline" onClick={() => void regenerateSql()} busy={regenerating} data-testid="regenerate-sql">
                {t('reports.assistant.regenerateSql')}
              </BusyButton>
            </Group>
            <OperationError operation="generate" />
            <GenerateNotice />
            <OperationError operation="regenerate" />
          </>
        ) : null}
        {pseudocode ? (
          <div>
            <Text size="sm" fw={600}>
              {t('reports.editor.pseudocode')}
            </Text>
            <pre className={classes.pseudocode} data-testid="pseudocode">
              {pseudocode}
            </pre>
          </div>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** Rows of SQL that has been edited since: shown with a notice, never exported under the report's title. */
const resultIsStale = (state: ReportsState) => state.execution !== null && state.executedSql !== (state.draft?.sql_code ?? null);

function Results({ canEdit }: { canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const { execution, chartConfig, stale } = useReportsStore(useShallow((s) => ({ execution: s.execution, chartConfig: s.draft?.chart_config ?? null, stale: resultIsStale(s) })));
  const updateDraft = useReportsStore((s) => s.updateDraft);
  if (!execution?.success) {
    return (
      <Text size="sm" c="gray.7">
        {t('reports.results.notRun')}
      </Text>
    );
  }
  const { chart: shownChart, missing: missingFields } = chartShownFor(chartConfig, execution.columns, execution.results.length);
  return (
    <Stack gap="sm">
      {stale ? (
        <Alert color="blue" data-testid="result-stale">
          {t('reports.results.stale')}
        </Alert>
      ) : null}
      <Group gap="sm">
        <Text size="sm" data-testid="result-summary">
          {t('reports.results.rows', { count: execution.row_count, formatted: execution.row_count.toLocaleString(i18n.language), ms: Math.round(execution.duration_ms).toLocaleString(i18n.language) })}
        </Text>
        {execution.truncated ? <Badge color="orange">{t('reports.results.truncated', { count: execution.row_count, formatted: execution.row_count.toLocaleString(i18n.language) })}</Badge> : null}
      </Group>
      {execution.results.length === 0 ? (
        <Text size="sm">{t('reports.results.empty')}</Text>
      ) : (
        <ResultGrid columns={execution.columns} rows={execution.results} label={t('reports.results.grid')} moneyFields={shownChart.money_fields ?? []} />
      )}
      <ChartEditor config={chartConfig} columns={execution.columns} rowCount={execution.results.length} disabled={!canEdit} onChange={(chart_config) => updateDraft({ chart_config })} />
      {missingFields.length > 0 ? (
        <Alert color="blue" title={t('reports.chart.missingFields', { fields: missingFields.join(', ') })} data-testid="chart-missing-fields">
          {t('reports.chart.missingFieldsHint')}
        </Alert>
      ) : null}
      <ReportChart config={shownChart} rows={execution.results} label={t('reports.chart.label')} unfinished={execution.unfinished_period} firstCut={execution.first_period_cut} />
    </Stack>
  );
}

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/** A draft kept from an earlier visit came back: said once, with the way back to the saved report. */
function RestoredDraftNotice({ onDiscard }: { onDiscard: () => void }) {
  const { t } = useTranslation();
  const restored = useReportsStore((s) => s.restoredDraft);
  if (!restored) return null;
  const editedAt = new Date(restored.editedAt);
  const time = sameDay(editedAt, new Date()) ? formatClockTime(editedAt) : formatMoment(editedAt);
  return (
    <Alert color="blue" role="status" data-testid="draft-restored">
      <Group gap="sm" justify="space-between" wrap="nowrap">
        <Text size="sm">
          {t('reports.draft.restored', { time })}
          {restored.savedSince ? ` ${t('reports.draft.savedSince')}` : ''}
        </Text>
        <Button size="xs" color="blue.8" onClick={onDiscard} data-testid="discard-restored-draft">
          {t('reports.draft.discard')}
        </Button>
      </Group>
    </Alert>
  );
}

function Editor({ onDeleted, focusRequestRef }: { onDeleted: () => void; focusRequestRef: FocusRequest }) {
  const { t } = useTranslation();
  const editorRef = useRef<SqlEditorHandle>(null);
  const titleRef = useRef<HTMLInputElement>(null);
  const [confirming, setConfirming] = useState(false);
  const { draft, selectedReport, isNewDraft, schema, operations, execution, stale, unsaved, editorHoldsRunSql } = useReportsStore(
    useShallow((s) => ({
      draft: s.draft,
      selectedReport: s.selectedReport,
      isNewDraft: s.isNewDraft,
      schema: s.schema,
      operations: s.operations,
      execution: s.execution,
      stale: resultIsStale(s),
      unsaved: hasUnsavedChanges(s),
      editorHoldsRunSql: s.draft !== null && s.draft.sql_code === s.executedSql,
    })),
  );
  const { updateDraft, runSql, saveReport, deleteReport, discardDraft, exportXlsx } = useReportsStore(
    useShallow((s) => ({ updateDraft: s.updateDraft, runSql: s.runSql, saveReport: s.saveReport, deleteReport: s.deleteReport, discardDraft: s.discardDraft, exportXlsx: s.exportXlsx })),
  );
  const role = useRole();
  const userId = useUserId();
  const canEdit = role === 'admin' || (role === 'editor' && (isNewDraft || (selectedReport !== null && selectedReport.owner === userId)));
  const onSqlChange = useCallback((sql_code: string) => updateDraft({ sql_code }), [updateDraft]);
  const onRun = useCallback(() => void runSql(), [runSql]);
  // The last run's mistake is pointed at only in the SQL that ran: once edited, its place may have moved.
  const runError = operations.run.sqlError;
  const mistake = useMemo<SqlMistake | null>(
    () => (runError && runError.line !== null && runError.column !== null && editorHoldsRunSql ? { line: runError.line, column: runError.column, message: runError.message, describedBy: 'run-error-message' } : null),
    [runError, editorHoldsRunSql],
  );
  const goToMistake = useCallback((line: number, column: number) => editorRef.current?.goTo(line, column), []);

  if (!draft || (!selectedReport && !isNewDraft)) return null;
  // The buttons that discard are gone once the edits are: the focus goes to the first field.
  const discard = () => {
    discardDraft();
    titleRef.current?.focus();
  };
  const fileName = (extension: string) => `${draft.title.replace(/[^\w -]+/g, '_') || 'report'}.${extension}`;
  const exportCsv = () => {
    if (!execution?.success || stale) return;
    const rows: CsvCell[][] = [execution.columns.map((c) => c.name), ...execution.results.map((row) => execution.columns.map((c) => { const value = row[c.name]; return value === null || typeof value === 'number' || typeof value === 'string' ? value : JSON.stringify(value); }))];
    downloadCsv(fileName('csv'), toCsv(rows));
  };
  // The server builds the workbook (docs/adr/0161): the browser would need exceljs for it.
  const exportExcel = async () => {
    const file = await exportXlsx();
    if (file) saveFile(fileName('xlsx'), file);
  };

  return (
    <Stack gap="sm" data-testid="report-editor">
      {!canEdit ? (
        <Alert color="blue" data-testid="read-only">
          {t('reports.editor.readOnly')}
        </Alert>
      ) : null}
      {isNewDraft ? (
        <Text size="sm" c="gray.7" data-testid="new-report-hint">
          {t('reports.editor.newDraft')}
        </Text>
      ) : null}
      <RestoredDraftNotice onDiscard={discard} />
      <TextInput ref={titleRef} label={t('reports.editor.titleLabel')} value={draft.title} readOnly={!canEdit} onChange={(event) => updateDraft({ title: event.currentTarget.value })} data-testid="report-title" />
      <Textarea label={t('reports.editor.descriptionLabel')} value={draft.description} readOnly={!canEdit} autosize minRows={1} onChange={(event) => updateDraft({ description: event.currentTarget.value })} />
      <div className={classes.sqlArea}>
        <Stack gap={4}>
          <Text size="sm" fw={500} id="sql-label">
            {t('reports.editor.sqlLabel')}
          </Text>
          <SqlEditor value={draft.sql_code} schema={schema} label={t('reports.editor.sqlLabel')} readOnly={!canEdit} onChange={onSqlChange} onRun={onRun} mistake={mistake} handle={editorRef} />
          <Text size="xs" c="gray.7">
            {t('reports.editor.sqlHint')}
          </Text>
        </Stack>
        <SchemaBrowser schema={schema} onInsert={(text) => editorRef.current?.insert(text)} />
      </div>
      <Group gap="xs">
        <BusyButton color="blue.8" onClick={onRun} busy={operations.run.busy} data-testid="run-sql">
          {t('reports.editor.run')}
        </BusyButton>
        {canEdit ? (
          <>
            <BusyButton color="blue.8" variant="outline" onClick={() => void saveReport()} busy={operations.save.busy || operations.create.busy} data-testid="save-report">
              {t('reports.editor.save')}
            </BusyButton>
            {unsaved ? (
              <>
                <Text size="sm" fw={600} data-testid="unsaved-changes">
                  {t('reports.editor.unsaved')}
                </Text>
                <Button variant="default" onClick={discard} data-testid="discard-changes">
                  {t('reports.editor.discard')}
                </Button>
              </>
            ) : null}
            {selectedReport ? (
              <BusyButton variant="outline" color="red.9" onClick={() => setConfirming(true)} busy={operations.delete.busy} data-testid="delete-report">
                {t('reports.editor.delete')}
              </BusyButton>
            ) : null}
          </>
        ) : null}
        <Button variant="default" onClick={exportCsv} disabled={!execution?.success || stale} data-testid="export-csv">
          {t('reports.editor.exportCsv')}
        </Button>
        <BusyButton variant="default" onClick={() => void exportExcel()} busy={operations.export.busy} disabled={!execution?.success || stale} data-testid="export-xlsx">
          {t('reports.editor.exportXlsx')}
        </BusyButton>
        {selectedReport ? <PinButton reportId={selectedReport.id} /> : null}
      </Group>
      <OperationError operation="run" goTo={mistake ? goToMistake : null} />
      <OperationError operation="export" />
      <OperationError operation="save" />
      <OperationError operation="create" />
      <OperationError operation="delete" />
      <AssistantPanel canEdit={canEdit} focusRequestRef={focusRequestRef} />
      <Results canEdit={canEdit} />
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('reports.editor.confirmDeleteTitle')} closeButtonProps={{ 'aria-label': t('reports.editor.cancel') }}>
        <Stack>
          <Text>{t('reports.editor.confirmDelete')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('reports.editor.cancel')}
            </Button>
            <Button
              color="red.9"
              data-testid="confirm-delete"
              onClick={() => {
                setConfirming(false);
                void deleteReport().then(() => {
                  if (useReportsStore.getState().selectedReport === null) onDeleted();
                });
              }}
            >
              {t('reports.editor.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Pins the report to the user's dashboard, where its chart shows (docs/api.md "Dashboard"). */
function PinButton({ reportId }: { reportId: number }) {
  const { t } = useTranslation();
  const [pinned, setPinned] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const pin = () => {
    setFailed(false);
    pinReport(reportId).then(() => setPinned(reportId), () => setFailed(true));
  };
  return (
    <Button variant="default" onClick={pin} disabled={pinned === reportId} data-testid="pin-report" color={failed ? 'red' : undefined}>
      {pinned === reportId ? t('reports.pin.pinned') : t('reports.pin.pin')}
    </Button>
  );
}

/** A reload or a closed tab with unsaved edits asks first (the edits are kept either way). */
function useWarnBeforeUnload(when: boolean) {
  useEffect(() => {
    if (!when) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [when]);
}

export default function ReportsPage() {
  const { t } = useTranslation();
  const { error, loading, hasDraft, unsaved } = useReportsStore(useShallow((s) => ({ error: s.error, loading: s.loading, hasDraft: s.draft !== null, unsaved: hasUnsavedChanges(s) })));
  const { loadReports, loadSchema } = useReportsStore(useShallow((s) => ({ loadReports: s.loadReports, loadSchema: s.loadSchema })));
  const canCreate = useCan('editor');
  const editorArea = useRef<HTMLElement>(null);
  useWarnBeforeUnload(unsaved);
  const { choose, badLink } = useReportInUrl();
  const newReport = useReportsStore((s) => s.newReport);
  const focusPlainWords = useRef(false);
  const startNewReport = () => {
    choose(null);
    focusPlainWords.current = true;
    newReport();
  };

  useEffect(() => {
    void loadReports();
    void loadSchema();
  }, [loadReports, loadSchema]);

  return (
    <Stack gap="md">
      <Title order={1}>{t('reports.title')}</Title>
      {error || badLink !== null ? (
        <Alert color="red" role="alert" data-testid="reports-error">
          {error ?? t('reports.errors.notFound', { id: badLink })}
        </Alert>
      ) : null}
      <div className={classes.layout}>
        <ReportList canCreate={canCreate} choose={choose} onNew={startNewReport} />
        {/* Focusable so that the focus has somewhere to go when the report it was in is deleted. */}
        <section aria-label={t('reports.title')} ref={editorArea} tabIndex={-1}>
          {hasDraft ? (
            <Editor
              focusRequestRef={focusPlainWords}
              onDeleted={() => {
                choose(null);
                editorArea.current?.focus();
              }}
            />
          ) : (
            <Text c="gray.7">{loading ? t('reports.editor.loading') : t(canCreate ? 'reports.editor.noSelection' : 'reports.editor.noSelectionReadOnly')}</Text>
          )}
        </section>
      </div>
    </Stack>
  );
}
