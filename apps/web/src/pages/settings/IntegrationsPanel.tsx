// The Settings screen's scheduled integrations (spec §2 integration editor dialog, §3, §4): each
// integration with its schedule in words, enabled switch, status, last and next run, and its
// actions: run now (editors), edit and delete (admins), the run log (everyone who can read). One
// status per integration, in a shop's words: a last run that rejected records finished with them
// (ADR 0060's amendment), and the first of them is shown under it, as are the lines its mapping
// left out and the products it created (ADR 0011's amendment).
import './integrations-styles.ts';
import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Modal, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import type { Integration, IntegrationStatus } from '@stockwise/contract';
import { useCan, useRole } from '../../stores/role.ts';
import { useSessionStore } from '../../stores/session.ts';
import { useIntegrationsStore, type Failure } from '../../stores/integrations.ts';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';
import { formatTime } from '../../components/format-time.ts';
import { formatCount } from './format.ts';
import { scheduleInWords } from './integration-form.ts';
import { IntegrationEditor } from './IntegrationEditor.tsx';
import { IntegrationLogs } from './IntegrationLogs.tsx';
import { RetryProgressText } from './RetryProgress.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

type StatusShown = { key: string; color: string; rejected?: string };

/** The one status an integration shows; filled badges in shades dark enough for their text (WCAG AA). */
const statusShown = (integration: Integration): StatusShown => {
  const status: IntegrationStatus = integration.status;
  switch (status) {
    case 'idle':
      if (integration.last_run_rejected > 0) return { key: 'finishedWithRejected', color: 'yellow.3', rejected: formatCount(integration.last_run_rejected) };
      return integration.last_run_time ? { key: 'finished', color: 'teal.9' } : { key: 'notRunYet', color: 'gray.7' };
    case 'queued':
      return { key: 'queued', color: 'indigo.8' };
    case 'running':
      return { key: 'running', color: 'blue.8' };
    case 'failed':
      return { key: 'failed', color: 'red.9' };
    default: {
      const unreachable: never = status;
      return unreachable;
    }
  }
};

/** `onReload`: offered when the failure is a refusal as saved meanwhile (ADR 0168). */
export function FailureAlert({ failure, testId, onReload }: { failure: Failure | null; testId: string; onReload?: () => void }) {
  const { t } = useTranslation();
  if (!failure) return null;
  return (
    <Alert color="red" title={failure.message} data-testid={testId} role="alert">
      <Stack gap={4}>
        {failure.detail}
        {failure.savedMeanwhile && onReload ? <ReloadAfterConflict label={t('integrations.errors.reload')} hint={t('integrations.errors.reloadHint')} onReload={onReload} testId={`${testId}-reload`} /> : null}
      </Stack>
    </Alert>
  );
}

// Hourly and quarter-hourly runs are the same in every zone; the others fall on the zone's hours.
const clockBound = (frequency: Integration['schedule_frequency']) => frequency === 'daily' || frequency === 'weekly';

function ScheduleCell({ integration }: { integration: Integration }) {
  const { t } = useTranslation();
  const words = scheduleInWords(integration.schedule_cron);
  return (
    <Stack gap={0}>
      <Text size="sm">
        {integration.schedule_frequency === 'custom' ? (words ? t('integrations.schedule.inZone', { words, zone: integration.time_zone }) : integration.schedule_cron) : t(`integrations.frequencies.${integration.schedule_frequency}`)}
      </Text>
      {clockBound(integration.schedule_frequency) ? (
        <Text size="xs" c="gray.7">
          {integration.time_zone}
        </Text>
      ) : null}
      {integration.schedule_frequency === 'custom' ? (
        <Text size="xs" c="dimmed" ff="monospace">
          {integration.schedule_cron}
        </Text>
      ) : null}
    </Stack>
  );
}

function DeleteDialog({ integration, onClose }: { integration: Integration; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useIntegrationsStore((state) => state.remove);
  const [busy, setBusy] = useState(false);
  return (
    <Modal opened onClose={onClose} title={t('integrations.delete.title')} closeButtonProps={{ 'aria-label': t('integrations.actions.close') }}>
      <Stack>
        <Text>{t('integrations.delete.confirm', { endpoint: integration.endpoint })}</Text>
        <Group justify="flex-end">
          {/* The safe choice has the focus: Enter right after opening must not delete. */}
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('integrations.actions.cancel')}
          </Button>
          <BusyButton
            color="red.9"
            busy={busy}
            onClick={() => {
              setBusy(true);
              void remove(integration.id).then(() => onClose());
            }}
          >
            {t('integrations.actions.delete')}
          </BusyButton>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The last run finished with rejected records: the first, where and why (the log has the rest). */
function FirstRejected({ integration }: { integration: Integration }) {
  const { t } = useTranslation();
  if (integration.status !== 'idle' || integration.last_run_rejected === 0 || !integration.last_run_warning) return null;
  return (
    <Text size="xs" mt={4} lineClamp={3} title={integration.last_run_warning} data-testid="integration-warning-detail">
      {t('integrations.list.firstProblem', { problem: integration.last_run_warning })}
    </Text>
  );
}

/**
 * A sentence of the last run the server wrote: what replace kept (rows data tables refer to) and
 * why, or the lines the mapping left out and the products it created, as a file import says them.
 */
function RunNotice({ message, testId }: { message: string | null; testId: string }) {
  if (!message) return null;
  return (
    <Text size="xs" mt={4} lineClamp={3} title={message} data-testid={testId}>
      {message}
    </Text>
  );
}

function IntegrationRow({ integration, onEdit, onDelete }: { integration: Integration; onEdit: (integration: Integration) => void; onDelete: (integration: Integration) => void }) {
  const { t } = useTranslation();
  const canAdminister = useCan('admin');
  const canRun = useCan('editor');
  const { toggle, runNow, openLogs } = useIntegrationsStore.getState();
  const logsShown = useIntegrationsStore((state) => state.logsFor === integration.id);
  const busy = integration.status === 'queued' || integration.status === 'running';
  const shown = statusShown(integration);
  return (
    <Table.Tr data-testid="integration-row" data-integration-id={integration.id}>
      <Table.Td>
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {integration.endpoint}
        </Text>
        <Text size="xs" c="dimmed">
          {t('integrations.list.target', { mapping: integration.mapping_selection, entity: integration.target_entity, action: t(`integrations.dataActions.${integration.data_action}`) })}
        </Text>
      </Table.Td>
      <Table.Td>
        <ScheduleCell integration={integration} />
      </Table.Td>
      <Table.Td>
        <Switch
          checked={integration.enabled}
          disabled={!canAdminister}
          onChange={() => void toggle(integration.id)}
          aria-label={t('integrations.list.enabledFor', { endpoint: integration.endpoint })}
          data-testid="integration-enabled"
        />
      </Table.Td>
      <Table.Td>
        <Badge color={shown.color} autoContrast variant="filled" data-testid="integration-status">
          {t(`integrations.statuses.${shown.key}`, { rejected: shown.rejected })}
        </Badge>
        {integration.status === 'failed' && integration.last_error_message ? (
          <Text size="xs" c="red.9" mt={4} data-testid="integration-error" lineClamp={3} title={integration.last_error_message}>
            {integration.last_error_message}
          </Text>
        ) : null}
        <RetryProgressText progress={integration.status === 'running' ? integration.run_progress : null} testId="integration-retry" />
        {busy ? null : (
          <>
            <FirstRejected integration={integration} />
            <RunNotice message={integration.last_run_summary} testId="integration-summary" />
            <RunNotice message={integration.last_run_kept_message} testId="integration-kept" />
          </>
        )}
      </Table.Td>
      <Table.Td data-testid="integration-last-run">{formatTime(integration.last_run_time) || t('integrations.list.never')}</Table.Td>
      <Table.Td data-testid="integration-next-run">{integration.enabled ? formatTime(integration.next_run_time) : t('integrations.list.off')}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          {canRun ? (
            // Busy is shown, not set as `disabled`: a disabled button drops the keyboard's focus to the page.
            <Button
              size="xs"
              onClick={() => (busy ? undefined : void runNow(integration.id))}
              data-disabled={busy || undefined}
              aria-disabled={busy}
              leftSection={busy ? <Loader size={12} color="gray.7" aria-hidden /> : undefined}
              aria-label={t('integrations.actions.runFor', { endpoint: integration.endpoint })}
            >
              {t('integrations.actions.run')}
            </Button>
          ) : null}
          <Button size="xs" variant="default" onClick={() => void openLogs(integration.id)} aria-label={t('integrations.actions.logsFor', { endpoint: integration.endpoint })} aria-expanded={logsShown}>
            {t('integrations.actions.logs')}
          </Button>
          {canAdminister ? (
            <>
              <Button size="xs" variant="default" onClick={() => onEdit(integration)} aria-label={t('integrations.actions.editFor', { endpoint: integration.endpoint })}>
                {t('integrations.actions.edit')}
              </Button>
              <Button size="xs" variant="default" c="red.9" onClick={() => onDelete(integration)} aria-label={t('integrations.actions.deleteFor', { endpoint: integration.endpoint })}>
                {t('integrations.actions.delete')}
              </Button>
            </>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

export function IntegrationsPanel() {
  const { t } = useTranslation();
  const sessionReady = useSessionStore((state) => !state.isLoading && state.isLoggedIn);
  const canAdminister = useCan('admin');
  const role = useRole();
  const { integrations, isLoading, error, actionError, editorOpen } = useIntegrationsStore(
    useShallow((state) => ({ integrations: state.integrations, isLoading: state.isLoading, error: state.error, actionError: state.actionError, editorOpen: state.editorOpen })),
  );
  const { load, openEditor, reloadList } = useIntegrationsStore.getState();
  const [deleting, setDeleting] = useState<Integration | null>(null);
  // A dialog gives the focus back to its opener, or to the list when its work removed the opener (a delete).
  const list = useRef<HTMLTableElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const rememberOpener = useDialogFocusReturn(editorOpen || deleting !== null, () => list.current ?? panel.current);
  const edit = (integration: Integration | null) => {
    rememberOpener();
    void openEditor(integration);
  };
  const confirmDelete = (integration: Integration) => {
    rememberOpener();
    setDeleting(integration);
  };

  // Spec §5: nothing is fetched until the session has loaded and the user is logged in.
  useEffect(() => {
    if (sessionReady) void load();
  }, [sessionReady, load]);

  return (
    <Stack gap="md" data-testid="integrations-panel" ref={panel} tabIndex={-1}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2} size="h3" id="integrations-title">
            {t('integrations.title')}
          </Title>
          <Text c="dimmed">{t('integrations.intro')}</Text>
        </div>
        {canAdminister ? <Button onClick={() => edit(null)}>{t('integrations.actions.new')}</Button> : null}
      </Group>
      {/* Why the switches are greyed and there is no Edit or Delete, as the import card says it. */}
      {role && !canAdminister ? (
        <Text size="sm" data-testid="integrations-role-note">
          {t(role === 'editor' ? 'integrations.roleNote.editor' : 'integrations.roleNote.viewer')}
        </Text>
      ) : null}
      <FailureAlert failure={error} testId="integrations-error" />
      <FailureAlert failure={actionError} testId="integrations-action-error" onReload={() => void reloadList()} />
      {integrations.length === 0 && !isLoading && !error ? <Text c="dimmed">{t('integrations.list.empty')}</Text> : null}
      {integrations.length ? (
        <Table.ScrollContainer minWidth={980}>
          <Table withTableBorder verticalSpacing="sm" data-testid="integrations" aria-labelledby="integrations-title" ref={list} tabIndex={-1}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('integrations.list.endpoint')}</Table.Th>
                <Table.Th>{t('integrations.list.schedule')}</Table.Th>
                <Table.Th>{t('integrations.list.enabled')}</Table.Th>
                <Table.Th>{t('integrations.list.status')}</Table.Th>
                <Table.Th>{t('integrations.list.lastRun')}</Table.Th>
                <Table.Th>{t('integrations.list.nextRun')}</Table.Th>
                <Table.Th>{t('integrations.list.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {integrations.map((integration) => (
                <IntegrationRow key={integration.id} integration={integration} onEdit={edit} onDelete={confirmDelete} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <IntegrationLogs />
      <IntegrationEditor />
      {deleting ? <DeleteDialog integration={deleting} onClose={() => setDeleting(null)} /> : null}
    </Stack>
  );
}
