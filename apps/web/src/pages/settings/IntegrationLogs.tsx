// One integration's run log (spec §3 integration log entries): each run's start and end, status,
// pages, rows inserted, updated and rejected (and the lines its mapping left out, so they add up to
// the records fetched), the {from}/{to} window and its messages (the error, a running run's retry,
// the lines its mapping left out and the products it created, what replace kept), newest first, a
// page at a time; the first rejected records of a run under them.
import { Badge, Button, CloseButton, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { formatDay, INTEGRATION_LOG_PAGE_SIZE, type IntegrationRunStatus } from '@stockwise/contract';
import { useIntegrationsStore } from '../../stores/integrations.ts';
import { formatTime } from '../../components/format-time.ts';
import { formatCount } from './format.ts';
import { FailureAlert } from './IntegrationsPanel.tsx';
import { RetryProgressText } from './RetryProgress.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** A run's one status: a run that wrote the good records and rejected the bad ones finished with them (ADR 0060's amendment). */
const runShown = (status: IntegrationRunStatus, rejected: number): { key: string; color: string } => {
  switch (status) {
    case 'success':
      return rejected > 0 ? { key: 'finishedWithRejected', color: 'yellow.3' } : { key: 'success', color: 'teal.9' };
    case 'failed':
      return { key: 'failed', color: 'red.9' };
    case 'running':
      return { key: 'running', color: 'blue.8' };
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
};

function RunStatus({ status, rejected }: { status: IntegrationRunStatus; rejected: number }) {
  const { t } = useTranslation();
  const shown = runShown(status, rejected);
  return (
    <Badge color={shown.color} autoContrast variant="filled" data-testid="integration-log-status">
      {t(`integrations.logs.statuses.${shown.key}`, { rejected: formatCount(rejected) })}
    </Badge>
  );
}

/** The lines a run's mapping left out, not rejected: for a blank product code, and by its row filters; nothing when none. */
function LeftOut({ skipped, filtered }: { skipped: number; filtered: number }) {
  const { t } = useTranslation();
  const lines = [
    ...(skipped ? [t('integrations.logs.skippedLines', { count: skipped, formatted: formatCount(skipped) })] : []),
    ...(filtered ? [t('integrations.logs.filteredLines', { count: filtered, formatted: formatCount(filtered) })] : []),
  ];
  if (!lines.length) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="integration-log-left-out">
      {t('integrations.logs.leftOut', { lines: lines.join(', ') })}
    </Text>
  );
}

export function IntegrationLogs() {
  const { t } = useTranslation();
  const { logsFor, logs, logsCount, logsPage, logsNext, isLoadingLogs, logsError, endpoint } = useIntegrationsStore(
    useShallow((state) => ({
      logsFor: state.logsFor,
      logs: state.logs,
      logsCount: state.logsCount,
      logsPage: state.logsPage,
      logsNext: state.logsNext,
      isLoadingLogs: state.isLoadingLogs,
      logsError: state.logsError,
      endpoint: state.integrations.find((item) => item.id === state.logsFor)?.endpoint ?? '',
    })),
  );
  const { openLogs, loadLogs } = useIntegrationsStore.getState();
  if (logsFor === null) return null;
  const pages = Math.max(1, Math.ceil(logsCount / INTEGRATION_LOG_PAGE_SIZE));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="integration-logs-title" data-testid="integration-logs" aria-busy={isLoadingLogs || undefined}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5" id="integration-logs-title">
            {t('integrations.logs.title', { endpoint })}
          </Title>
          <Group gap="xs">
            <BusyButton size="xs" variant="default" onClick={() => void loadLogs(logsPage)} busy={isLoadingLogs}>
              {t('integrations.logs.refresh')}
            </BusyButton>
            <CloseButton aria-label={t('integrations.logs.close')} onClick={() => void openLogs(null)} />
          </Group>
        </Group>
        <FailureAlert failure={logsError} testId="integration-logs-error" />
        {logs.length === 0 && !isLoadingLogs && !logsError ? <Text c="dimmed">{t('integrations.logs.empty')}</Text> : null}
        {logs.length ? (
          <Table.ScrollContainer minWidth={900}>
            <Table withTableBorder aria-labelledby="integration-logs-title">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('integrations.logs.started')}</Table.Th>
                  <Table.Th>{t('integrations.logs.finished')}</Table.Th>
                  <Table.Th>{t('integrations.logs.status')}</Table.Th>
                  <Table.Th>{t('integrations.logs.trigger')}</Table.Th>
                  <Table.Th>{t('integrations.logs.pages')}</Table.Th>
                  <Table.Th>{t('integrations.logs.rows')}</Table.Th>
                  <Table.Th>{t('integrations.logs.window')}</Table.Th>
                  <Table.Th>{t('integrations.logs.messages')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {logs.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="integration-log-row">
                    <Table.Td>{formatTime(entry.started_at)}</Table.Td>
                    <Table.Td>{formatTime(entry.finished_at)}</Table.Td>
                    <Table.Td>
                      <RunStatus status={entry.status} rejected={entry.rows_rejected} />
                    </Table.Td>
                    <Table.Td>{t(`integrations.logs.triggers.${entry.trigger}`)}</Table.Td>
                    <Table.Td>{formatCount(entry.pages)}</Table.Td>
                    <Table.Td data-testid="integration-log-rows">
                      {t('integrations.logs.rowsValue', { inserted: formatCount(entry.rows_inserted), updated: formatCount(entry.rows_updated), rejected: formatCount(entry.rows_rejected), deleted: formatCount(entry.rows_deleted) })}
                      <LeftOut skipped={entry.rows_skipped} filtered={entry.rows_filtered} />
                    </Table.Td>
                    <Table.Td>{entry.window_from ? t('integrations.logs.windowValue', { from: formatDay(entry.window_from), to: entry.window_to ? formatDay(entry.window_to) : '' }) : ''}</Table.Td>
                    <Table.Td>
                      <Text size="sm" c="red.9">
                        {entry.error_message ?? ''}
                      </Text>
                      <RetryProgressText progress={entry.status === 'running' ? entry.progress : null} testId="integration-log-retry" />
                      {entry.summary ? (
                        <Text size="sm" data-testid="integration-log-summary">
                          {entry.summary}
                        </Text>
                      ) : null}
                      {entry.kept_message ? (
                        <Text size="sm" data-testid="integration-log-kept">
                          {entry.kept_message}
                        </Text>
                      ) : null}
                      {entry.rejections.slice(0, 5).map((rejection) => (
                        <Text size="xs" c="dimmed" key={`${rejection.page}-${rejection.record}-${rejection.line ?? ''}-${rejection.field ?? ''}`}>
                          {rejection.line
                            ? t('integrations.logs.lineRejection', { page: rejection.page, record: rejection.record, line: rejection.line, field: rejection.field ?? '—', reason: rejection.reason })
                            : t('integrations.logs.rejection', { page: rejection.page, record: rejection.record, field: rejection.field ?? '—', reason: rejection.reason })}
                        </Text>
                      ))}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        {logsCount > INTEGRATION_LOG_PAGE_SIZE ? (
          <Group justify="flex-end" gap="xs">
            <Button size="xs" variant="default" disabled={logsPage <= 1 || isLoadingLogs} onClick={() => void loadLogs(logsPage - 1)}>
              {t('integrations.logs.newer')}
            </Button>
            <Text size="sm">{t('integrations.logs.page', { page: logsPage, pages })}</Text>
            <Button size="xs" variant="default" disabled={logsNext === null || isLoadingLogs} onClick={() => void loadLogs(logsNext ?? logsPage)}>
              {t('integrations.logs.older')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
