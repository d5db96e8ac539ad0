// The import log (spec §3 Import log entry): recent imports, newest first, and one import's details
// (row errors, and the file content when the server kept it: files under 500,000 bytes, spec §9).
import { useRef, useState } from 'react';
import { Alert, Badge, Button, CloseButton, Group, Paper, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { entityLabel } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import type { ImportLogSummary } from '../../api/import.ts';
import { useImportStore } from '../../stores/import.ts';
import { formatTime } from '../../components/format-time.ts';
import { durationMessage, formatBytes, formatCount } from './format.ts';
import { ImportNotices, ImportWarnings, RowErrorsTable } from './ImportForm.tsx';
import { FilteredLines } from './LeaveOutLines.tsx';
import { UndoImportDialog } from './UndoImport.tsx';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import { useCan } from '../../stores/role.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

// Shades whose white text meets WCAG AA's 4.5:1, as the integrations' statuses.
const statusColor = (status: ImportLogSummary['status']): string => {
  switch (status) {
    case 'success':
      return 'teal.9';
    case 'error':
      return 'red.9';
    case 'running':
      return 'blue.8';
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
};

function StatusBadge({ status, undone }: { status: ImportLogSummary['status']; undone: boolean }) {
  const { t } = useTranslation();
  // A crowded table may squeeze a badge's clipped label to "ER…": it keeps the width of its text.
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={statusColor(status)} variant="filled" miw="max-content" data-testid="log-status">
        {t(`import.log.statuses.${status}`)}
      </Badge>
      {undone ? (
        <Badge color="gray.8" variant="filled" miw="max-content" data-testid="log-undone">
          {t('import.log.undone')}
        </Badge>
      ) : null}
    </Group>
  );
}

function LogDetail() {
  const { t } = useTranslation();
  const { detail, isLoading, error, selectedLogId } = useImportStore(useShallow((state) => ({ detail: state.logDetail, isLoading: state.isLoadingLogDetail, error: state.logDetailError, selectedLogId: state.selectedLogId })));
  const selectLog = useImportStore((state) => state.selectLog);
  if (!selectedLogId) return null;
  const rowErrors = detail?.details.row_errors ?? [];
  return (
    <Paper withBorder p="md" data-testid="log-detail" aria-busy={isLoading || undefined}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {t('import.detail.title', { file: detail?.fileName ?? '' })}
        </Title>
        <CloseButton aria-label={t('import.detail.close')} onClick={() => void selectLog(null)} />
      </Group>
      {isLoading ? <Text c="dimmed">{t('import.detail.loading')}</Text> : null}
      {error ? <Alert color="red" title={error} /> : null}
      {detail ? (
        <Stack gap="sm">
          <Group gap="xl">
            <StatusBadge status={detail.status} undone={detail.undone !== null} />
            <Text size="sm">
              {t('import.log.mapping')}: {detail.mappingName}
            </Text>
            <Text size="sm">
              {t('import.detail.entity')}: {entityLabel(detail.entityType)}
            </Text>
            {detail.details.bytes !== undefined ? (
              <Text size="sm">
                {t('import.detail.bytes')}: {formatBytes(detail.details.bytes)}
              </Text>
            ) : null}
            <Text size="sm">
              {t('import.detail.progress')}: {formatCount(detail.progress.rows_done)}
            </Text>
            <Text size="sm">
              {t('import.detail.finished')}: {formatTime(detail.finishedAt)}
            </Text>
          </Group>
          {detail.details.dates_read ? (
            <Text size="sm" data-testid="log-date-order">
              {detail.details.dates_read}
            </Text>
          ) : null}
          {detail.undone ? (
            <Text size="sm" data-testid="log-detail-undone">
              {t('import.detail.undone', { at: formatTime(detail.undone.at), by: detail.undone.by ? t('import.detail.undoneBy', { user: detail.undone.by }) : '', message: detail.undone.message })}
            </Text>
          ) : null}
          {detail.errorMessage ? (
            <Text c="red.9" size="sm" data-testid="log-detail-error">
              {detail.errorMessage}
            </Text>
          ) : null}
          <ImportWarnings warnings={detail.details.warnings} testId="log-warnings" />
          <ImportNotices notices={detail.details.notices} testId="log-notices" />
          <FilteredLines counts={detail.details.counts} testId="log-filtered" />
          <RowErrorsTable rowErrors={rowErrors} total={rowErrors.length} testId="log-row-errors" />
          <Text fw={600} size="sm">
            {t('import.detail.fileContent')}
          </Text>
          {detail.fileContent !== null ? (
            <pre data-testid="log-file-content" tabIndex={0} style={{ maxHeight: 320, overflow: 'auto', margin: 0, padding: 8, background: 'var(--mantine-color-gray-0)', border: '1px solid var(--mantine-color-gray-3)', fontSize: 12 }}>
              {detail.fileContent}
            </pre>
          ) : (
            <Text size="sm" c="dimmed">
              {t('import.detail.noFileContent')}
            </Text>
          )}
        </Stack>
      ) : null}
    </Paper>
  );
}

export function ImportLog() {
  const { t } = useTranslation();
  const { logs, isLoading, error, selectedLogId } = useImportStore(useShallow((state) => ({ logs: state.logs, isLoading: state.isLoadingLogs, error: state.logsError, selectedLogId: state.selectedLogId })));
  const { loadLogs, selectLog } = useImportStore.getState();
  const canUndo = useCan('editor');
  const [undoing, setUndoing] = useState<ImportLogSummary | null>(null);
  // The Undo button goes once its import is undone (when the log has reloaded, which may be after
  // the dialog closed): the focus then goes to the log's title.
  const undone = useRef(false);
  const rememberUndoOpener = useDialogFocusReturn(undoing !== null, () => document.getElementById('import-log-title'), () => undone.current);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4" id="import-log-title" tabIndex={-1}>
          {t('import.log.title')}
        </Title>
        <BusyButton size="xs" variant="default" onClick={() => void loadLogs()} busy={isLoading}>
          {t('import.log.refresh')}
        </BusyButton>
      </Group>
      {error ? <Alert color="red" title={error} data-testid="log-error" /> : null}
      {logs.length === 0 && !isLoading && !error ? <Text c="dimmed">{t('import.log.empty')}</Text> : null}
      {logs.length ? (
        <Table.ScrollContainer minWidth={800}>
          <Table highlightOnHover withTableBorder data-testid="import-log" aria-label={t('import.log.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('import.log.status')}</Table.Th>
                <Table.Th>{t('import.log.file')}</Table.Th>
                <Table.Th>{t('import.log.mapping')}</Table.Th>
                <Table.Th>{t('import.log.counts')}</Table.Th>
                <Table.Th>{t('import.log.duration')}</Table.Th>
                <Table.Th>{t('import.log.error')}</Table.Th>
                <Table.Th>{t('import.log.time')}</Table.Th>
                {canUndo ? <Table.Th>{t('import.log.undoColumn')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {logs.map((entry) => {
                const counts = entry.details.counts;
                return (
                  <Table.Tr
                    key={entry.id}
                    data-testid="log-row"
                    data-import-id={entry.id}
                    aria-selected={entry.id === selectedLogId}
                    onClick={() => void selectLog(entry.id)}
                    style={{ cursor: 'pointer', background: entry.id === selectedLogId ? 'var(--mantine-color-blue-light)' : undefined }}
                  >
                    <Table.Td>
                      <StatusBadge status={entry.status} undone={entry.undone !== null} />
                    </Table.Td>
                    <Table.Td>
                      <UnstyledButton
                        aria-label={t('import.log.detailsOf', { file: entry.fileName })}
                        onClick={(event) => {
                          event.stopPropagation();
                          void selectLog(entry.id);
                        }}
                        style={{ textDecoration: 'underline' }}
                      >
                        {entry.fileName}
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td>{entry.mappingName}</Table.Td>
                    <Table.Td data-testid="log-counts">{counts
                        ? t('import.log.countsValue', { rows: formatCount(counts.rows), written: formatCount(counts.written ?? counts.inserted + counts.updated), inserted: formatCount(counts.inserted), updated: formatCount(counts.updated) })
                        : entry.status === 'running'
                          ? formatCount(entry.progress.rows_done)
                          : ''}</Table.Td>
                    <Table.Td>{entry.details.duration_ms !== undefined ? t(...durationMessage(entry.details.duration_ms)) : ''}</Table.Td>
                    <Table.Td>
                      <Text size="sm" c="red.9" lineClamp={2}>
                        {entry.errorMessage ?? ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatTime(entry.createdAt)}</Table.Td>
                    {canUndo ? (
                      <Table.Td>
                        {entry.undoable ? (
                          <Button
                            size="xs"
                            variant="default"
                            aria-label={t('import.log.undoOf', { file: entry.fileName })}
                            onClick={(event) => {
                              event.stopPropagation();
                              rememberUndoOpener();
                              undone.current = false;
                              setUndoing(entry);
                            }}
                          >
                            {t('import.log.undo')}
                          </Button>
                        ) : null}
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <LogDetail />
      {undoing ? (
        <UndoImportDialog
          entry={undoing}
          onClose={() => setUndoing(null)}
          onUndone={() => {
            undone.current = true;
            void loadLogs();
            const { selectedLogId } = useImportStore.getState();
            if (selectedLogId) void selectLog(selectedLogId);
          }}
        />
      ) : null}
    </Stack>
  );
}
