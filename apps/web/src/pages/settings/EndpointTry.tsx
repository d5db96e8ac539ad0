// "Try the endpoint" in the integration editor: fetches the first page with the settings above
// (nothing is saved), says how many records it held, lets the user choose the source path of each
// target field (starting from the server's proposal, a few values of each path shown), shows the
// first records as that mapping types them with the values the server would refuse, and saves the
// mapping under a name, which the editor then selects. When the records hold lines (an order's
// line_items), it offers the records path reading one record per line, and it says which mapped
// paths read an array's first element only. The mapping's rules go with it: the lines a refunded
// order's status leaves out, lines without a product code skipped or known by their name, the
// code read in brackets, products created for unknown codes with every field the server proposes
// for them, and the paths joined to a field's own or to a line's name (Item followed by Price
// Point Name: ADR 0201, amendment 2026-12-07), with the Import screen's own components.
import { useEffect, useState, type KeyboardEvent } from 'react';
import { Alert, Checkbox, Fieldset, Group, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useShallow } from 'zustand/react/shallow';
import type { ImportTarget, IntegrationTryResponse } from '@stockwise/contract';
import { useEndpointTryStore } from '../../stores/endpoint-try.ts';
import { useIntegrationsStore } from '../../stores/integrations.ts';
import { formatCell, shortened } from './format.ts';
import { RowFilterList, rowFilterText } from './LeaveOutLines.tsx';
import { BlankCodeByNameChoice, blankCodesText } from './BlankCodeByName.tsx';
import { CodeInBracketsChoice } from './CodeInBracketsChoice.tsx';
import { JoinedColumnsBuilder, lineNameJoin } from './JoinedColumns.tsx';
import { CreateMissingChoice, NewProductColumns } from './NewProductColumns.tsx';
import { joinedLeaveOutOptions, joinsColumns } from './preview.ts';
import { MappedRowsTable, targetLabel } from './MappedRows.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** A path as an option: its name and the first values the page holds there. */
const pathLabel = (path: IntegrationTryResponse['paths'][number]) => {
  const samples = path.samples.map((value) => shortened(formatCell(value))).join(', ');
  return samples ? `${path.path} (${samples})` : path.path;
};

/** The records path reading each order's lines as records, with the mapping proposed for them, and the button that takes it. */
function LinesProposal({ proposal }: { proposal: NonNullable<IntegrationTryResponse['records_path_proposal']> }) {
  const { t } = useTranslation();
  const isTrying = useEndpointTryStore((state) => state.isTrying);
  const readLines = useEndpointTryStore((state) => state.readLines);
  const mapping = Object.entries(proposal.proposed_mapping)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([field, path]) => `${field} ← ${path}`)
    .join(', ');
  return (
    <Alert color="blue" title={t('integrations.try.linesTitle')} data-testid="endpoint-try-lines">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('integrations.try.lines', { path: proposal.records_path, count: proposal.record_count, mapping })}</Text>
        <BusyButton size="xs" variant="default" busy={isTrying} onClick={() => void readLines(proposal.records_path)}>
          {t('integrations.try.useLines')}
        </BusyButton>
      </Stack>
    </Alert>
  );
}

/** No path joined: one array, so the store's selector answers the same value while nothing changed. */
const NO_PATHS: readonly string[] = [];

/** The paths joined after `target`'s own, with the Import screen's builder; each change tried again. */
function TryJoinedColumns({ target, column, tried }: { target: ImportTarget; column: string; tried: IntegrationTryResponse }) {
  const { joined, leftOut, isTrying } = useEndpointTryStore(
    useShallow((state) => ({ joined: state.mapping?.joined_columns?.[target.field] ?? NO_PATHS, leftOut: state.mapping?.joined_leave_out?.[target.field] ?? NO_PATHS, isTrying: state.isTrying })),
  );
  const { setJoinedColumns, setRules } = useEndpointTryStore.getState();
  // As on the Import screen: the mapping's values left out, else the proposal's (offered again once turned off).
  const leavable = leftOut.length ? leftOut : (tried.proposed_joined_leave_out?.[target.field] ?? NO_PATHS);
  const onLeaveOut = (values: readonly string[] | null) => {
    const { mapping } = useEndpointTryStore.getState();
    if (mapping) void setRules(joinedLeaveOutOptions(mapping, target.field, values));
  };
  return (
    <JoinedColumnsBuilder
      idPrefix="try-joined"
      target={target}
      column={column}
      columns={tried.paths.map((path) => path.path)}
      rows={tried.rows}
      joined={joined}
      disabled={isTrying}
      onJoined={(paths) => void setJoinedColumns(target.field, paths)}
      leftOut={leftOut}
      leavable={leavable}
      onLeaveOut={onLeaveOut}
    />
  );
}

/** What the page's lines without a product code are: those known by their name said as the Import screen says them (ADR 0195 F4). */
const skipDescription = (tried: IntegrationTryResponse, t: TFunction) =>
  tried.blank_code_matched ? blankCodesText(tried, t) : tried.blank_code_lines ? t('integrations.try.blankCodes', { count: tried.blank_code_lines, total: tried.record_count }) : t('import.builder.skipWithoutCodeHint');

/**
 * The mapping's rules, saved with it: the lines its row filters leave out (a refunded order's, as a
 * file import proposes them), each with Remove, and skipping lines without a product code, proposed
 * on when the page holds such lines beside coded ones (a shop's gift wrap), with how many; knowing
 * them by their name and reading the code in brackets, checked as proposed (as the Import screen's).
 */
function MappingRules({ tried }: { tried: IntegrationTryResponse }) {
  const { t } = useTranslation();
  const { mapping, isTrying } = useEndpointTryStore(useShallow((state) => ({ mapping: state.mapping, isTrying: state.isTrying })));
  const setRules = useEndpointTryStore((state) => state.setRules);
  const filters = mapping?.skip_rows_where ?? [];
  const hasProductCode = tried.targets.some((target) => target.reference && mapping?.field_mappings[target.field]);
  const createsProducts = tried.targets.some((target) => target.reference?.table === 'products');
  const lineName = lineNameJoin(mapping, t);
  return (
    <Stack gap="xs" data-testid="endpoint-try-rules">
      <RowFilterList
        filters={filters}
        disabled={isTrying}
        onChange={(others) => void setRules({ skip_rows_where: others.length ? others : undefined })}
        describe={(filter) => t('integrations.try.leftOut', { filter: rowFilterText(filter, t) })}
      />
      {hasProductCode ? (
        <Checkbox
          label={t('import.builder.skipWithoutCode')}
          description={skipDescription(tried, t)}
          checked={mapping?.skip_rows_without_code === true}
          disabled={isTrying}
          onChange={(event) => void setRules({ skip_rows_without_code: event.currentTarget.checked || undefined })}
        />
      ) : null}
      {createsProducts ? <CreateMissingChoice preview={tried} draft={mapping} disabled={isTrying} onOptions={(options) => void setRules(options)} /> : null}
      <BlankCodeByNameChoice preview={tried} draft={mapping} disabled={isTrying} onOptions={(options) => void setRules(options)} />
      <CodeInBracketsChoice preview={tried} draft={mapping} disabled={isTrying} onOptions={(options) => void setRules(options)} />
      {createsProducts && mapping?.create_missing_products ? (
        <NewProductColumns preview={tried} columns={tried.paths.map((path) => path.path)} draft={mapping} disabled={isTrying} onOptions={(options) => void setRules(options)} />
      ) : null}
      {lineName ? <TryJoinedColumns target={lineName.target} column={lineName.column} tried={tried} /> : null}
    </Stack>
  );
}

/** The mapping's name and its save button (no form of its own: the editor is one form, and Enter here saves the mapping, not the integration). */
function SaveAsMapping() {
  const { t } = useTranslation();
  const { isSavingMapping, saveMappingError, savedAs } = useEndpointTryStore(
    useShallow((state) => ({ isSavingMapping: state.isSavingMapping, saveMappingError: state.saveMappingError, savedAs: state.savedAs })),
  );
  const saveAsMapping = useEndpointTryStore((state) => state.saveAsMapping);
  const [name, setName] = useState('');
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    void saveAsMapping(name);
  };
  return (
    <Group gap="sm" align="flex-end">
      <TextInput label={t('integrations.try.saveName')} value={name} onChange={(event) => setName(event.currentTarget.value)} onKeyDown={onKeyDown} error={saveMappingError ?? undefined} w={320} maxLength={100} />
      <BusyButton variant="default" busy={isSavingMapping} onClick={() => void saveAsMapping(name)}>
        {t('integrations.try.save')}
      </BusyButton>
      {savedAs ? (
        <Text size="sm" c="teal.9" role="status" data-testid="endpoint-try-saved">
          {t('integrations.try.saved', { name: savedAs })}
        </Text>
      ) : null}
    </Group>
  );
}

function TryResult({ tried }: { tried: IntegrationTryResponse }) {
  const { t } = useTranslation();
  const { mapping, entity, isTrying } = useEndpointTryStore(useShallow((state) => ({ mapping: state.mapping, entity: state.entity, isTrying: state.isTrying })));
  const setPath = useEndpointTryStore((state) => state.setPath);
  const fieldMappings = mapping?.field_mappings ?? {};
  return (
    <Stack gap="sm" data-testid="endpoint-try-result">
      <Text size="sm" role="status" data-testid="endpoint-try-count">
        {t('integrations.try.count', { count: tried.record_count, paths: tried.paths.length })}
      </Text>
      {tried.warnings.length ? (
        <Alert color="yellow" title={t('integrations.try.warningsTitle')} data-testid="endpoint-try-warnings">
          <Stack gap={4}>
            {tried.warnings.map((warning) => (
              <Text size="sm" key={warning}>
                {warning}
              </Text>
            ))}
          </Stack>
        </Alert>
      ) : null}
      {tried.records_path_proposal ? <LinesProposal proposal={tried.records_path_proposal} /> : null}
      {tried.record_count === 0 ? (
        <Text size="sm" data-testid="endpoint-try-empty">
          {t('integrations.try.empty')}
        </Text>
      ) : (
        <>
          <Text size="sm" fw={600}>
            {t('integrations.try.mappingTitle', { entity })}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {tried.targets.map((field) => {
              const path = fieldMappings[field.field];
              return (
                <Stack key={field.field} gap={4}>
                  <NativeSelect
                    label={targetLabel(field, t)}
                    data-target={field.field}
                    value={path ?? ''}
                    disabled={isTrying}
                    error={field.required && !path ? t('integrations.try.choosePath') : undefined}
                    onChange={(event) => void setPath(field.field, event.currentTarget.value || null)}
                    data={[{ value: '', label: t('integrations.try.noPath') }, ...tried.paths.map((option) => ({ value: option.path, label: pathLabel(option) }))]}
                  />
                  {path && joinsColumns(field) ? <TryJoinedColumns target={field} column={path} tried={tried} /> : null}
                </Stack>
              );
            })}
          </SimpleGrid>
          <MappingRules tried={tried} />
          <MappedRowsTable targets={tried.targets} rows={tried.rows} fieldMappings={fieldMappings} testId="endpoint-try-rows" />
          <SaveAsMapping />
        </>
      )}
    </Stack>
  );
}

export function EndpointTry() {
  const { t } = useTranslation();
  const { tried, isTrying, tryError, entity } = useEndpointTryStore(useShallow((state) => ({ tried: state.tried, isTrying: state.isTrying, tryError: state.tryError, entity: state.entity })));
  const { entityNames, target } = useIntegrationsStore(useShallow((state) => ({ entityNames: state.entityNames, target: state.draft?.target_entity ?? '' })));
  const { tryEndpoint, chooseEntity, reset } = useEndpointTryStore.getState();
  const mapsOnto = entity ?? target;
  // Each editor starts without a try: what the last one fetched goes with it.
  useEffect(() => reset, [reset]);
  return (
    <Fieldset legend={t('integrations.try.title')} data-testid="endpoint-try">
      <Stack gap="sm">
        <Text size="xs" c="dimmed">
          {t('integrations.try.help')}
        </Text>
        <Group gap="sm" align="flex-end">
          {/* Any entity: a shop's orders go to sales, whichever entities the chosen mapping fills. */}
          <NativeSelect
            label={t('integrations.try.entity')}
            value={mapsOnto}
            data={(entityNames.includes(mapsOnto) || !mapsOnto ? entityNames : [mapsOnto, ...entityNames]).map((name) => ({ value: name, label: name }))}
            disabled={isTrying}
            onChange={(event) => void chooseEntity(event.currentTarget.value)}
            w={220}
          />
          <BusyButton variant="default" busy={isTrying} onClick={() => void tryEndpoint()}>
            {t('integrations.try.button')}
          </BusyButton>
        </Group>
        {tryError ? (
          <Alert color="red" title={tryError.message} role="alert" data-testid="endpoint-try-error">
            {tryError.detail}
          </Alert>
        ) : null}
        {tried ? <TryResult tried={tried} /> : null}
      </Stack>
    </Fieldset>
  );
}
