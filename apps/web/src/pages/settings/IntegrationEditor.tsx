// The integration editor dialog (spec §2, §4): endpoint, schedule (a custom cron shown in words),
// mapping and target entity (changing the mapping loads its configuration), data action, fetch
// type and previous days, initial setup, rate limit, batch size, paging, and an optional auth
// header whose stored value is only ever shown masked, and "Try the endpoint" to build a mapping
// from its first page. Closing clears the edited item and errors.
import type { FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { Alert, Button, Checkbox, Fieldset, Group, Modal, NativeSelect, NumberInput, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { dataActions, dataFetchTypes, LINE_NAME_FIELD, MASKED_SECRET, MAX_BATCH_SIZE, MAX_PREVIOUS_DAYS, MAX_RATE_LIMIT, paginationKinds, scheduleFrequencies } from '@stockwise/contract';
import { useIntegrationsStore } from '../../stores/integrations.ts';
import { IMPORT_ENTITY_ID, shownColumns } from './preview.ts';
import { cronOf, scheduleInWords, timeZoneChoices, type IntegrationDraft } from './integration-form.ts';
import { BasicAuthFromKey } from './BasicAuthFromKey.tsx';
import { EndpointTry } from './EndpointTry.tsx';
import { rowFilterText } from './LeaveOutLines.tsx';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

// The counts are not clamped into range (clampBehavior none): a 0 stays 0 and saving names the range, never a silent 1.
const numberOrNull = (value: string | number) => (value === '' || value === null ? null : Number(value));

export function IntegrationEditor() {
  const { t } = useTranslation();
  const { editorOpen, editing, draft, mappingConfig, mappingEntities, entityNames, isLoadingMapping, isSaving, editorError, fieldErrors, savedMeanwhile } = useIntegrationsStore(
    useShallow((state) => ({
      editorOpen: state.editorOpen,
      editing: state.editing,
      draft: state.draft,
      mappingConfig: state.mappingConfig,
      mappingEntities: state.mappingEntities,
      entityNames: state.entityNames,
      isLoadingMapping: state.isLoadingMapping,
      isSaving: state.isSaving,
      editorError: state.editorError,
      fieldErrors: state.fieldErrors,
      savedMeanwhile: state.savedMeanwhile,
    })),
  );
  const { closeEditor, updateDraft, selectMapping, selectTarget, save, reloadEditing } = useIntegrationsStore.getState();
  if (!editorOpen || !draft) return null;
  const errorOf = (field: keyof IntegrationDraft) => fieldErrors[field]?.join(' ');
  const set = <K extends keyof IntegrationDraft>(field: K) => (value: IntegrationDraft[K]) => updateDraft({ [field]: value } as Partial<IntegrationDraft>);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void save();
  };
  const cron = cronOf(draft.schedule_frequency, draft.cron_expression);
  const words = draft.schedule_frequency === 'custom' ? scheduleInWords(cron) : null;
  // What the data is comes first (any entity of the shop), then the mappings that read it (ADR 0060 amendment 2026-12-06).
  const targets = entityNames.length ? entityNames : Object.keys(mappingConfig?.entities ?? {});
  const fitting = Object.keys(mappingEntities).filter((name) => mappingEntities[name]?.includes(draft.target_entity));
  const mappingChoices = [
    ...(draft.mapping_selection && !fitting.includes(draft.mapping_selection) ? [{ value: draft.mapping_selection, label: draft.mapping_selection }] : []),
    ...(draft.mapping_selection ? [] : [{ value: '', label: t(fitting.length ? 'integrations.editor.chooseMapping' : 'integrations.editor.noMappingFor', { entity: draft.target_entity }) }]),
    ...fitting.map((name) => ({ value: name, label: name })),
  ];
  // The dialog closes (its focus goes back to the opener at once), then the focus moves on to the import's entity.
  const goToMappingBuilder = () => {
    flushSync(closeEditor);
    const entity = document.getElementById(IMPORT_ENTITY_ID);
    entity?.focus();
    entity?.scrollIntoView({ block: 'center' });
  };
  const entityMapping = mappingConfig?.entities[draft.target_entity];
  const fieldMappings = entityMapping?.field_mappings;
  // A line's name as the mapping reads it, its joined columns too (Item + Price Point Name, ADR 0201 amendment 2026-12-07).
  const lineName = entityMapping?.blank_code_by_name && entityMapping.new_products?.['name'] ? [entityMapping.new_products['name'], ...(entityMapping.joined_columns?.[LINE_NAME_FIELD] ?? [])].join(' + ') : null;
  const rules = [
    ...(entityMapping?.skip_rows_where ?? []).map((filter) => t('integrations.try.leftOut', { filter: rowFilterText(filter, t) })),
    ...(entityMapping?.skip_rows_without_code ? [t('integrations.editor.ruleSkipBlank')] : []),
    ...(lineName ? [t('integrations.editor.ruleByName', { columns: lineName })] : []),
  ];

  return (
    <Modal
      opened
      onClose={closeEditor}
      title={editing ? t('integrations.editor.editTitle', { id: editing.id }) : t('integrations.editor.newTitle')}
      size="xl"
     
      closeButtonProps={{ 'aria-label': t('integrations.actions.close') }}
    >
      <form onSubmit={submit} noValidate data-testid="integration-editor">
        <Stack gap="sm">
          {editorError ? (
            <Alert color="red" title={editorError.message} role="alert" data-testid="integration-editor-error">
              <Stack gap={4}>
                {editorError.detail}
                {/* Saved by someone else since the form opened: what was typed stays until Reload. */}
                {savedMeanwhile ? <ReloadAfterConflict label={t('integrations.editor.reload')} hint={t('integrations.editor.reloadHint')} onReload={() => void reloadEditing()} testId="integration-editor-reload" /> : null}
              </Stack>
            </Alert>
          ) : null}
          <TextInput
            label={t('integrations.editor.endpoint')}
            description={t('integrations.editor.endpointHelp')}
            placeholder="https://shop.example.com/api/sales?from={from}&to={to}"
            withAsterisk
            data-autofocus
            value={draft.endpoint}
            error={errorOf('endpoint')}
            onChange={(event) => set('endpoint')(event.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NativeSelect
              label={t('integrations.editor.schedule')}
              value={draft.schedule_frequency}
              data={scheduleFrequencies.map((value) => ({ value, label: t(`integrations.frequencies.${value}`) }))}
              onChange={(event) => set('schedule_frequency')(event.currentTarget.value as IntegrationDraft['schedule_frequency'])}
            />
            {draft.schedule_frequency === 'custom' ? (
              <TextInput
                label={t('integrations.editor.cron')}
                description={words ? t('integrations.schedule.inZone', { words, zone: draft.time_zone }) : t('integrations.editor.cronHelp')}
                placeholder="30 6 * * 1-5"
                withAsterisk
                value={draft.cron_expression ?? ''}
                error={errorOf('cron_expression')}
                onChange={(event) => set('cron_expression')(event.currentTarget.value)}
                data-testid="integration-cron"
              />
            ) : (
              <Text size="sm" c="dimmed" mt={28}>
                {t('integrations.schedule.inZone', { words: scheduleInWords(cron) ?? cron, zone: draft.time_zone })}
              </Text>
            )}
            <NativeSelect
              label={t('integrations.editor.timeZone')}
              value={draft.time_zone}
              data={timeZoneChoices(draft.time_zone)}
              error={errorOf('time_zone')}
              onChange={(event) => set('time_zone')(event.currentTarget.value)}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NativeSelect
              label={t('integrations.editor.target')}
              description={t('integrations.editor.targetHelp')}
              value={draft.target_entity}
              data={(targets.includes(draft.target_entity) || !draft.target_entity ? targets : [draft.target_entity, ...targets]).map((name) => ({ value: name, label: name }))}
              error={errorOf('target_entity')}
              onChange={(event) => void selectTarget(event.currentTarget.value)}
            />
            <NativeSelect
              label={t('integrations.editor.mapping')}
              description={draft.mapping_selection || fitting.length ? undefined : t('integrations.editor.noMappingHelp')}
              value={draft.mapping_selection}
              data={mappingChoices}
              error={errorOf('mapping_selection')}
              disabled={isLoadingMapping}
              onChange={(event) => void selectMapping(event.currentTarget.value)}
            />
            <NativeSelect
              label={t('integrations.editor.dataAction')}
              value={draft.data_action}
              description={draft.data_action === 'replace' ? t(draft.data_fetch_type === 'latest' ? 'integrations.editor.replaceLatest' : 'integrations.editor.replace') : undefined}
              data={dataActions.map((value) => ({ value, label: t(`integrations.dataActions.${value}`) }))}
              onChange={(event) => set('data_action')(event.currentTarget.value as IntegrationDraft['data_action'])}
            />
          </SimpleGrid>
          <Group gap="xs" align="flex-start" wrap="nowrap" data-testid="integration-mapping-help">
            <Text size="xs" c="dimmed">
              {t('integrations.editor.mappingHelp')}
            </Text>
            <Button size="compact-xs" variant="default" onClick={goToMappingBuilder} style={{ flexShrink: 0 }}>
              {t('integrations.editor.mappingHelpGo')}
            </Button>
          </Group>
          {fieldMappings ? (
            <Text size="xs" c="dimmed" data-testid="integration-field-mappings">
              {t('integrations.editor.fieldMappings', {
                list: Object.entries(shownColumns({ ...entityMapping, field_mappings: fieldMappings }))
                  .map(([target, source]) => `${target} ← ${source}`)
                  .join(', '),
              })}
            </Text>
          ) : null}
          {fieldMappings ? (
            <Text size="xs" c="dimmed" data-testid="integration-mapping-rules">
              {rules.length ? `${t('integrations.editor.mappingRules', { list: rules.join('; ') })} ` : null}
              {t('integrations.editor.mappingRulesWhere')}
            </Text>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NativeSelect
              label={t('integrations.editor.fetchType')}
              value={draft.data_fetch_type}
              data={dataFetchTypes.map((value) => ({ value, label: t(`integrations.fetchTypes.${value}`) }))}
              onChange={(event) => set('data_fetch_type')(event.currentTarget.value as IntegrationDraft['data_fetch_type'])}
              // The window reaches the endpoint only through {from} / {to} in its address: without them every run reads everything.
              description={draft.data_fetch_type === 'latest' && !/\{(from|to)\}/.test(draft.endpoint) ? t('integrations.editor.latestNeedsFrom') : undefined}
            />
            <NumberInput
              label={t('integrations.editor.previousDays')}
              min={1}
              max={MAX_PREVIOUS_DAYS}
              allowDecimal={false}
              value={draft.previous_days ?? ''}
              clampBehavior="none"
              error={errorOf('previous_days')}
              onChange={(value) => set('previous_days')(numberOrNull(value))}
            />
            <Checkbox
              mt={30}
              label={t('integrations.editor.initialSetup')}
              checked={draft.initial_setup}
              onChange={(event) => set('initial_setup')(event.currentTarget.checked)}
            />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label={t('integrations.editor.rateLimit')}
              min={1}
              max={MAX_RATE_LIMIT}
              allowDecimal={false}
              value={draft.rate_limit ?? ''}
              clampBehavior="none"
              error={errorOf('rate_limit')}
              onChange={(value) => set('rate_limit')(numberOrNull(value))}
            />
            <NumberInput
              label={t('integrations.editor.batchSize')}
              min={1}
              max={MAX_BATCH_SIZE}
              allowDecimal={false}
              value={draft.batch_size ?? ''}
              clampBehavior="none"
              error={errorOf('batch_size')}
              onChange={(value) => set('batch_size')(numberOrNull(value))}
            />
          </SimpleGrid>
          <Fieldset legend={t('integrations.editor.paging')}>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextInput
                label={t('integrations.editor.recordsPath')}
                description={t('integrations.editor.recordsPathHelp')}
                value={draft.records_path ?? ''}
                error={errorOf('records_path')}
                onChange={(event) => set('records_path')(event.currentTarget.value)}
              />
              <NativeSelect
                label={t('integrations.editor.pagination')}
                value={draft.pagination}
                data={paginationKinds.map((value) => ({ value, label: t(`integrations.paginations.${value}`) }))}
                onChange={(event) => set('pagination')(event.currentTarget.value as IntegrationDraft['pagination'])}
              />
              {draft.pagination === 'next_link' ? (
                <TextInput label={t('integrations.editor.nextField')} value={draft.next_field ?? ''} error={errorOf('next_field')} onChange={(event) => set('next_field')(event.currentTarget.value)} />
              ) : draft.pagination === 'page_parameter' ? (
                <TextInput label={t('integrations.editor.pageParameter')} value={draft.page_parameter ?? ''} error={errorOf('page_parameter')} onChange={(event) => set('page_parameter')(event.currentTarget.value)} />
              ) : null}
            </SimpleGrid>
          </Fieldset>
          <Fieldset legend={t('integrations.editor.auth')}>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('integrations.editor.authName')}
                placeholder="Authorization"
                value={draft.auth_header_name ?? ''}
                error={errorOf('auth_header_name')}
                onChange={(event) => set('auth_header_name')(event.currentTarget.value)}
              />
              <PasswordInput
                label={t('integrations.editor.authValue')}
                description={draft.auth_header_value === MASKED_SECRET ? t('integrations.editor.authStored') : t('integrations.editor.authHelp')}
                autoComplete="off"
                value={draft.auth_header_value === MASKED_SECRET ? '' : (draft.auth_header_value ?? '')}
                placeholder={draft.auth_header_value === MASKED_SECRET ? MASKED_SECRET : ''}
                error={errorOf('auth_header_value')}
                onChange={(event) => set('auth_header_value')(event.currentTarget.value || (editing?.auth_header_value ?? null))}
              />
            </SimpleGrid>
            {draft.auth_header_value === MASKED_SECRET ? (
              <Button variant="subtle" size="xs" mt="xs" onClick={() => set('auth_header_value')(null)}>
                {t('integrations.editor.authRemove')}
              </Button>
            ) : null}
            <BasicAuthFromKey />
          </Fieldset>
          <EndpointTry />
          <Switch label={t('integrations.editor.enabled')} checked={draft.enabled} onChange={(event) => set('enabled')(event.currentTarget.checked)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={closeEditor}>
              {t('integrations.actions.cancel')}
            </Button>
            <BusyButton type="submit" busy={isSaving}>
              {t('integrations.actions.save')}
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
