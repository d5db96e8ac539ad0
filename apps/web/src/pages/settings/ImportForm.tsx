// Choose the entity, a saved mapping (or build one on the file's own header) and a file; map each
// target field to a file column, say how the file writes dates, decimals and repeated keys, save the
// mapping under a name; read the raw header and the first records as the import would store them,
// with the cells the server will refuse marked, and say what values outside a column's choices
// mean; import with upload and server progress, then see the counts or the refused rows with row
// and column (spec §2 Data integration screen, §4 Import flow; issue 13).
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Alert, Badge, Button, Checkbox, Group, NativeSelect, Paper, Progress, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dateFormats, entityInSentence, entityLabel, readableName, repeatedKeyModes, TODAY_VALUE, type ImportResult, type ImportTarget, type ImportWarning, type PreviewFileResponse, type RowError } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { useImportStore } from '../../stores/import.ts';
import { columnsNotImported, IMPORT_ENTITY_ID, joinsColumns, localToday, SAME_VALUE_CHOICE, shownColumns, takesOneDate, unmappedRequired } from './preview.ts';
import { CreateMissingChoice, NewProductColumns } from './NewProductColumns.tsx';
import { JoinedColumns, lineNameJoin } from './JoinedColumns.tsx';
import { CodeInBracketsChoice } from './CodeInBracketsChoice.tsx';
import { BlankCodeByNameChoice, blankCodesText } from './BlankCodeByName.tsx';
import { columnOptions, MappedRowsTable, targetLabel } from './MappedRows.tsx';
import { FilteredLines, LeaveOutLines } from './LeaveOutLines.tsx';
import { ValueMeanings } from './ValueMeanings.tsx';
import { ReplacesSales } from './ReplacesSales.tsx';
import { UndoThisImport } from './UndoImport.tsx';
import { durationMessage, formatBytes, formatCell, formatCount, shortened } from './format.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

function EntityAndMappingChooser() {
  const { t } = useTranslation();
  const { availableMappings, selectedMapping, entities, entityType, isUploading, mappingNotice } = useImportStore(
    useShallow((state) => ({ availableMappings: state.availableMappings, selectedMapping: state.selectedMapping, entities: state.entities, entityType: state.entityType, isUploading: state.isUploading, mappingNotice: state.mappingNotice })),
  );
  const { selectMapping, selectEntity } = useImportStore.getState();
  const description = availableMappings.find((mapping) => mapping.name === selectedMapping)?.description;
  const entityNames = entities.some((entity) => entity.name === entityType) ? entities.map((entity) => entity.name) : [entityType, ...entities.map((entity) => entity.name)];
  return (
    <Stack gap="xs">
      <Group gap="md" align="flex-end">
        <NativeSelect id={IMPORT_ENTITY_ID} label={t('import.entity.label')} value={entityType} disabled={isUploading} onChange={(event) => void selectEntity(event.currentTarget.value)} data={entityNames.map((name) => ({ value: name, label: entityLabel(name) }))} w={240} />
        <NativeSelect
          label={t('import.mapping.label')}
          value={selectedMapping ?? ''}
          disabled={isUploading}
          onChange={(event) => void selectMapping(event.currentTarget.value || null)}
          data={[{ value: '', label: t('import.mapping.build') }, ...availableMappings.map((mapping) => ({ value: mapping.name, label: readableName(mapping.name) }))]}
          w={320}
        />
      </Group>
      {description ? (
        <Text size="sm" c="dimmed" data-testid="mapping-description">
          {description}
        </Text>
      ) : null}
      {mappingNotice ? (
        <Text size="sm" role="status" data-testid="mapping-notice">
          {mappingNotice}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The file's columns the mapping leaves out, named before the import (a supplier column the table has no field for). */
function ColumnsNotImported({ columns, entity }: { columns: string[]; entity: string }) {
  const { t } = useTranslation();
  if (columns.length === 0) return null;
  return (
    <Text size="sm" maw={760} data-testid="columns-not-imported">
      {t('import.builder.notImported', { count: columns.length, columns: columns.join(', '), entity })}
    </Text>
  );
}

function MappingBuilder({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const { draft, entities, entityType, isUploading, selectedMapping } = useImportStore(
    useShallow((state) => ({ draft: state.draft, entities: state.entities, entityType: state.entityType, isUploading: state.isUploading, selectedMapping: state.selectedMapping })),
  );
  const { setOptions } = useImportStore.getState();
  const entityDefault = entities.find((entity) => entity.name === entityType)?.repeatedKeys ?? 'last';
  const createsProducts = preview.targets.some((target) => target.reference?.table === 'products');
  // Lines without a product code can be left out wherever rows carry one (a reference, or the products' own key).
  const hasProductCode = createsProducts || preview.targets.some((target) => target.field === 'product_code');
  const detected = preview.date_format.detected;
  return (
    <Stack gap="sm" data-testid="mapping-builder">
      <Title order={3} size="h5">
        {t('import.builder.title', { entity: entityInSentence(entityType) })}
      </Title>
      <Text size="sm" c="dimmed">
        {t('import.builder.intro')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" maw={760}>
        {preview.targets.map((target) => (
          <TargetField key={target.field} target={target} preview={preview} />
        ))}
      </SimpleGrid>
      <ColumnsNotImported columns={columnsNotImported(preview, draft)} entity={entityInSentence(entityType)} />
      <Group gap="md" align="flex-end">
        <NativeSelect
          label={t('import.builder.dateFormat')}
          description={detected ? t('import.builder.detected', { format: t(`import.builder.dateFormats.${detected}`) }) : preview.date_format.ambiguous ? t('import.builder.ambiguous') : undefined}
          value={draft?.date_format ?? 'auto'}
          disabled={isUploading}
          onChange={(event) => void setOptions({ date_format: event.currentTarget.value === 'auto' ? undefined : (event.currentTarget.value as (typeof dateFormats)[number]) })}
          data={dateFormats.map((format) => ({ value: format, label: t(`import.builder.dateFormats.${format}`) }))}
          w={220}
        />
        <NativeSelect
          label={t('import.builder.repeatedKeys')}
          description={preview.counted_by_location ? t('import.builder.countedByLocation', { column: preview.counted_by_location }) : undefined}
          value={draft?.repeated_keys ?? ''}
          disabled={isUploading}
          onChange={(event) => void setOptions({ repeated_keys: (event.currentTarget.value || undefined) as (typeof repeatedKeyModes)[number] | undefined })}
          data={[{ value: '', label: t('import.builder.repeatedDefault', { mode: t(`import.builder.repeated.${entityDefault}`) }) }, ...repeatedKeyModes.map((mode) => ({ value: mode, label: t(`import.builder.repeated.${mode}`) }))]}
          w={260}
        />
        <DecimalSeparatorChoice preview={preview} />
      </Group>
      {preview.date_format.undecided_in_lines_read ? (
        <Text size="sm" maw={760} role="status" data-testid="date-order-undecided">
          {preview.date_format.undecided_in_lines_read}
        </Text>
      ) : null}
      {createsProducts || hasProductCode ? (
        <Group gap="lg">
          {createsProducts ? <CreateMissingChoice preview={preview} draft={draft} disabled={isUploading} onOptions={(options) => void setOptions(options)} /> : null}
          {hasProductCode ? (
            <Checkbox
              label={t('import.builder.skipWithoutCode')}
              description={blankCodesText(preview, t)}
              checked={draft?.skip_rows_without_code === true}
              disabled={isUploading}
              onChange={(event) => void setOptions({ skip_rows_without_code: event.currentTarget.checked || undefined })}
            />
          ) : null}
        </Group>
      ) : null}
      <FillDownChoice preview={preview} />
      <BlankCodeByNameChoice preview={preview} draft={draft} disabled={isUploading} onOptions={(options) => void setOptions(options)} />
      <CodeInBracketsChoice preview={preview} draft={draft} disabled={isUploading} onOptions={(options) => void setOptions(options)} />
      {createsProducts && draft?.create_missing_products ? <NewProductColumns preview={preview} columns={preview.header} draft={draft} disabled={isUploading} onOptions={(options) => void setOptions(options)} /> : null}
      <LineNameColumns preview={preview} />
      <LeaveOutLines preview={preview} />
      {/* A new selected mapping starts the name field afresh. */}
      <SaveMappingForm key={selectedMapping ?? ''} initialName={selectedMapping ?? ''} />
    </Stack>
  );
}

/**
 * The columns a line's name is read from, where the draft reads one (matching a line without a
 * product code by its name, or naming new products): its new_products column followed by those
 * joined to it, edited with a field's own builder (Item, followed by Price Point Name: ADR 0201 F6).
 */
function LineNameColumns({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const draft = useImportStore((state) => state.draft);
  const lineName = lineNameJoin(draft, t);
  return lineName ? <JoinedColumns target={lineName.target} column={lineName.column} preview={preview} /> : null;
}

/**
 * How the file writes its decimals: detected (nothing sent: a point is read where no figure could
 * be a thousand), or a point or a comma chosen. A deli's file of only `1.250`, `2.450` kg shows
 * neither for sure (`2.450` could be a German till's 2450): choosing Point is how it is read
 * (ADR 0176, amendment 2026-12-06). The draft starts with what the file showed.
 */
function DecimalSeparatorChoice({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const { draft, isUploading } = useImportStore(useShallow((state) => ({ draft: state.draft, isUploading: state.isUploading })));
  const { setOptions } = useImportStore.getState();
  const detected = preview.decimal_separator.detected;
  return (
    <NativeSelect
      label={t('import.builder.decimalSeparator')}
      description={t(`import.builder.decimalDetected.${detected === '.' ? 'point' : detected === ',' ? 'comma' : 'none'}`)}
      value={draft?.decimal_separator ?? ''}
      disabled={isUploading}
      onChange={(event) => void setOptions({ decimal_separator: (event.currentTarget.value || undefined) as '.' | ',' | undefined })}
      data={[
        { value: '', label: t('import.builder.decimalSeparators.detect') },
        { value: '.', label: t('import.builder.decimalSeparators.point') },
        { value: ',', label: t('import.builder.decimalSeparators.comma') },
      ]}
      w={240}
    />
  );
}

/**
 * "Blank cells repeat the line above with the same Handle" (a mapping's fill_down_by, ADR 0195 F3):
 * shown where the proposal or the draft has it, a checkbox to turn it off (and on again).
 */
function FillDownChoice({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const { draft, isUploading } = useImportStore(useShallow((state) => ({ draft: state.draft, isUploading: state.isUploading })));
  const { setOptions } = useImportStore.getState();
  const column = draft?.fill_down_by ?? preview.proposed_fill_down_by;
  if (!column) return null;
  return (
    <Checkbox
      label={t('import.builder.fillDown', { column })}
      description={t('import.builder.fillDownHint')}
      data-testid="fill-down"
      checked={draft?.fill_down_by !== undefined}
      disabled={isUploading}
      onChange={(event) => void setOptions({ fill_down_by: event.currentTarget.checked ? column : undefined })}
    />
  );
}

/**
 * The file column a target field is read from; a date field may instead take one day for every
 * line ("Same date for all lines", today unless changed): a stock count or a till's day export
 * has no date column. A day after today is not offered: sales and counts are dated when they happened.
 */
function TargetField({ target, preview }: { target: ImportTarget; preview: PreviewFileResponse }) {
  const { header } = preview;
  const { t } = useTranslation();
  const { draft, entityType, isUploading } = useImportStore(useShallow((state) => ({ draft: state.draft, entityType: state.entityType, isUploading: state.isUploading })));
  const { setColumn, setFieldValue } = useImportStore.getState();
  const column = draft?.field_mappings[target.field];
  const oneValue = draft?.field_values?.[target.field];
  // The day proposed from the file's title line, while it is the proposal's: where it came from.
  const fromTitle = oneValue && preview.proposed_field_values?.[target.field] === oneValue ? preview.skipped_rows?.find((line) => line.text.includes(oneValue.slice(0, 4))) : undefined;
  const offersOneDate = takesOneDate(target);
  const options = [...columnOptions(header, column, t), ...(offersOneDate ? [{ value: SAME_VALUE_CHOICE, label: t('import.builder.sameDate') }] : [])];
  return (
    <Stack gap={4}>
      <NativeSelect
        label={targetLabel(target, t)}
        data-target={target.field}
        value={oneValue ? SAME_VALUE_CHOICE : (column ?? '')}
        disabled={isUploading}
        error={target.required && !column && !oneValue ? t('import.builder.chooseColumn') : undefined}
        description={target.needed_for_new_rows ? t('import.builder.neededForNew', { entity: entityInSentence(entityType) }) : offersOneDate && !column && !oneValue ? t('import.builder.sameDateHint') : undefined}
        onChange={(event) => {
          const chosen = event.currentTarget.value;
          void (chosen === SAME_VALUE_CHOICE ? setFieldValue(target.field, localToday()) : setColumn(target.field, chosen || null));
        }}
        data={options}
      />
      {column && joinsColumns(target) ? <JoinedColumns target={target} column={column} preview={preview} /> : null}
      {oneValue ? (
        <TextInput
          type="date"
          label={t('import.builder.dateForAllLines', { field: target.label })}
          data-value-for={target.field}
          // A saved mapping of a daily feed says `today`: shown as the day it means here.
          value={oneValue.toLowerCase() === TODAY_VALUE ? localToday() : oneValue}
          max={localToday()}
          description={fromTitle ? t('import.builder.dateFromTitle', { text: fromTitle.text }) : undefined}
          required
          disabled={isUploading}
          // A date input says '' while its day is typed half-way: only a whole day replaces the value.
          onChange={(event) => {
            const day = event.currentTarget.value;
            if (day) void setFieldValue(target.field, day);
          }}
          w={200}
        />
      ) : null}
    </Stack>
  );
}

/** Saves the draft under a name (the selected mapping's, to replace it, or a new one). */
function SaveMappingForm({ initialName }: { initialName: string }) {
  const { t } = useTranslation();
  const { draft, isUploading, isSaving, saveError, savedAs } = useImportStore(
    useShallow((state) => ({ draft: state.draft, isUploading: state.isUploading, isSaving: state.isSaving, saveError: state.saveError, savedAs: state.savedAs })),
  );
  const saveDraft = useImportStore((state) => state.saveDraft);
  const [name, setName] = useState(initialName);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        void saveDraft(name);
      }}
    >
      <Group gap="sm" align="flex-end">
        <TextInput label={t('import.builder.saveName')} value={name} onChange={(event) => setName(event.currentTarget.value)} error={saveError ?? undefined} w={320} maxLength={100} />
        <BusyButton type="submit" variant="default" busy={isSaving} disabled={isUploading || !draft}>
          {t('import.builder.save')}
        </BusyButton>
        {savedAs ? (
          <Text size="sm" c="teal.9" role="status" data-testid="mapping-saved">
            {t('import.builder.saved', { name: savedAs })}
          </Text>
        ) : null}
      </Group>
    </form>
  );
}

/** Rows offered for the column names: the first ones, where a title block ends. */
const HEADER_ROW_CHOICES = 20;

/** "Column names are on row [N]": the row the server found or the draft says, and the rows above it, skipped. */
export function HeaderRowChooser({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const isUploading = useImportStore((state) => state.isUploading);
  const setHeaderRow = useImportStore((state) => state.setHeaderRow);
  const used = preview.header_row;
  if (used === undefined) return null;
  const rows = Array.from({ length: Math.max(HEADER_ROW_CHOICES, used) }, (_, at) => at + 1);
  const skipped = preview.skipped_rows ?? [];
  const description =
    used === 1
      ? undefined
      : skipped.length
        ? t('import.raw.skipped', { rows: skipped.map((row) => t('import.raw.skippedRow', { row: row.row, text: shortened(row.text) })).join(', ') })
        : t('import.raw.nothingSkipped');
  return (
    <NativeSelect
      label={t('import.raw.headerRow')}
      description={description}
      value={String(used)}
      disabled={isUploading}
      onChange={(event) => void setHeaderRow(Number(event.currentTarget.value))}
      data={rows.map((row) => ({ value: String(row), label: row === preview.detected_header_row ? t('import.raw.headerRowDetected', { row }) : String(row) }))}
      w={320}
      data-testid="header-row"
    />
  );
}

function RawHeader({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const caption = t('import.raw.title', { format: preview.format.toUpperCase() });
  return (
    <Stack gap={4} data-testid="raw-preview">
      <HeaderRowChooser preview={preview} />
      {/* A Shopify export's 39 columns scroll sideways: the keyboard scrolls them once the region is focused (axe: scrollable-region-focusable). */}
      <Table.ScrollContainer minWidth={400} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': caption } }}>
        <Table withTableBorder withColumnBorders captionSide="top" aria-label={caption}>
          <Table.Caption>
            {caption}
            {preview.separator ? ` · ${t('import.raw.separator', { separator: preview.separator === '\t' ? t('import.raw.tab') : preview.separator })}` : ''}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {preview.header.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.raw_rows.map((row, index) => (
              <Table.Tr key={index}>
                {row.map((value, at) => (
                  <Table.Td key={at}>{shortened(formatCell(value))}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function FileChooser() {
  const { t } = useTranslation();
  const selectedFile = useImportStore((state) => state.selectedFile);
  const isUploading = useImportStore((state) => state.isUploading);
  const selectFile = useImportStore((state) => state.selectFile);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  // The store forgets the file after a successful import: the input must too.
  useEffect(() => {
    if (!selectedFile && input.current) input.current.value = '';
  }, [selectedFile]);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !isUploading) void selectFile(file);
  };

  return (
    <Paper
      withBorder
      p="md"
      data-testid="file-drop"
      data-dragging={dragging || undefined}
      onDragOver={(event: DragEvent<HTMLDivElement>) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      style={{ borderStyle: 'dashed', borderWidth: 2, background: dragging ? 'var(--mantine-color-blue-light)' : undefined }}
    >
      <Stack gap="xs">
        <label htmlFor="import-file">
          <Text fw={600}>{t('import.file.label')}</Text>
        </label>
        <Text size="sm" c="dimmed">
          {dragging ? t('import.file.dropActive') : t('import.file.drop')}
        </Text>
        <Group gap="sm">
          <input
            ref={input}
            id="import-file"
            type="file"
            accept=".csv,.tsv,.txt,.json,.xlsx,text/csv,application/json,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            disabled={isUploading}
            onChange={(event) => void selectFile(event.currentTarget.files?.[0] ?? null)}
          />
          {selectedFile ? (
            <>
              <Text size="sm" data-testid="selected-file">
                {t('import.file.selected', { name: selectedFile.name, size: formatBytes(selectedFile.size) })}
              </Text>
              <Button size="xs" variant="subtle" disabled={isUploading} onClick={() => void selectFile(null)}>
                {t('import.file.clear')}
              </Button>
            </>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}

function PreviewTable({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const draft = useImportStore((state) => state.draft);
  if (preview.rows.length === 0) {
    return (
      <Text c="dimmed" data-testid="preview-empty">
        {t('import.preview.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <MappedRowsTable targets={preview.targets} rows={preview.rows} fieldMappings={draft ? shownColumns(draft) : {}} fieldValues={draft?.field_values} testId="preview" />
      {preview.warning ? (
        <Text size="sm" c="orange.9" data-testid="preview-warning">
          {preview.warning}
        </Text>
      ) : null}
      {/* Said before importing as the import's message will say it after (ADR 0178): the products without a unit are the shop's to set. */}
      {preview.units_as_written ? (
        <Text size="sm" maw={760} data-testid="preview-units-as-written">
          {preview.units_as_written.message}
        </Text>
      ) : null}
    </Stack>
  );
}

/** A titled list of sentences about an import that worked: none, nothing shown. */
function ResultNotes({ title, messages, testId, itemTestId }: { title: string; messages: readonly string[]; testId: string; itemTestId: string }) {
  if (!messages.length) return null;
  return (
    <Stack gap={2} data-testid={testId}>
      {/* The page's own text color: Mantine's orange.9 is under WCAG AA's 4.5:1 on white. */}
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
        {messages.map((message) => (
          <li key={message}>
            <Text size="sm" data-testid={itemTestId}>
              {message}
            </Text>
          </li>
        ))}
      </ul>
    </Stack>
  );
}

/** What the import filled in itself (defaults for blank cells): said, though nothing was refused. */
export function ImportWarnings({ warnings, testId }: { warnings: readonly ImportWarning[] | undefined; testId: string }) {
  const { t } = useTranslation();
  return <ResultNotes title={t('import.warnings.title')} messages={warnings?.map((warning) => warning.message) ?? []} testId={testId} itemTestId="import-warning" />;
}

/** What the import wrote without changing (stock counts older than the stock recorded later): said, though nothing was refused. */
export function ImportNotices({ notices, testId }: { notices: readonly string[] | undefined; testId: string }) {
  const { t } = useTranslation();
  return <ResultNotes title={t('import.notices.title')} messages={notices ?? []} testId={testId} itemTestId="import-notice" />;
}

/** The refused lines the listed entries describe: a row once, however many of its fields are named, and an entry naming its key's other lines for them all. */
const linesListed = (rowErrors: RowError[]) => {
  const linesByRow = new Map<number, number>();
  for (const error of rowErrors) linesByRow.set(error.row, Math.max(linesByRow.get(error.row) ?? 1, error.lines ?? 1));
  return [...linesByRow.values()].reduce((sum, lines) => sum + lines, 0);
};

export function RowErrorsTable({ rowErrors, total, testId }: { rowErrors: RowError[]; total: number; testId: string }) {
  const { t } = useTranslation();
  if (rowErrors.length === 0) return null;
  const unlisted = total - linesListed(rowErrors);
  return (
    <Stack gap={4} data-testid={testId}>
      <Table withTableBorder captionSide="top" aria-label={t('import.rowErrors.title')}>
        <Table.Caption>{t('import.rowErrors.title')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('import.rowErrors.row')}</Table.Th>
            <Table.Th>{t('import.rowErrors.field')}</Table.Th>
            <Table.Th>{t('import.rowErrors.column')}</Table.Th>
            <Table.Th>{t('import.rowErrors.reason')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rowErrors.map((error, index) => (
            <Table.Tr key={`${error.row}-${error.field ?? ''}-${index}`} data-testid="row-error">
              <Table.Td>{error.row}</Table.Td>
              <Table.Td>{error.field ?? ''}</Table.Td>
              <Table.Td>{error.column ?? ''}</Table.Td>
              <Table.Td>{error.reason}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {unlisted > 0 ? (
        <Text size="sm" c="dimmed" data-testid="row-errors-more">
          {t('import.rowErrors.more', { count: unlisted })}
        </Text>
      ) : null}
    </Stack>
  );
}

function UploadProgress() {
  const { t } = useTranslation();
  const { isUploading, uploadProgress, serverProgress } = useImportStore(useShallow((state) => ({ isUploading: state.isUploading, uploadProgress: state.uploadProgress, serverProgress: state.serverProgress })));
  if (!isUploading || !uploadProgress) return null;
  const percent = uploadProgress.total ? Math.min(100, Math.round((uploadProgress.loaded / uploadProgress.total) * 100)) : 0;
  return (
    <Stack gap={4} maw={560} data-testid="upload-progress">
      <Progress value={percent} animated aria-label={t('import.submit.uploadLabel')} />
      <Text size="sm" c="dimmed">
        {percent >= 100 ? t('import.submit.uploaded') : t('import.submit.uploading', { percent })}
      </Text>
      <Text size="sm" c="dimmed" data-testid="server-progress">
        {serverProgress ? t('import.submit.serverRows', { count: serverProgress.rowsDone, rows: formatCount(serverProgress.rowsDone) }) : t('import.submit.serverWaiting')}
      </Text>
    </Stack>
  );
}

/**
 * The counts of a finished import that say something: rows that share a key are named for what
 * became of them (added into another row's total, or replaced by a later row) and only when there
 * are some; products created only when the mapping creates missing ones.
 */
function resultCounts(result: ImportResult): [string, number][] {
  const { counts } = result;
  const shown: [string, number][] = [
    ['rows', counts.rows],
    ['written', counts.written ?? counts.inserted + counts.updated],
    ['inserted', counts.inserted],
    ['updated', counts.updated],
  ];
  if (counts.duplicates > 0) shown.push([result.repeated_keys === 'sum' ? 'addedUp' : 'replaced', counts.duplicates]);
  if (counts.created_references !== undefined) shown.push(['created', counts.created_references]);
  // Lines without a product code given one by their name (ADR 0195 F4): imported, beside those still skipped.
  if (counts.matched_by_name) shown.push(['matchedByName', counts.matched_by_name]);
  if (counts.skipped) shown.push(['skipped', counts.skipped]);
  if (counts.empty_skipped) shown.push(['emptySkipped', counts.empty_skipped]);
  if (counts.totals_skipped) shown.push(['totalsSkipped', counts.totals_skipped]);
  if (counts.filtered) shown.push(['filtered', counts.filtered]);
  return shown;
}

/**
 * What became of the file: the counts, or why nothing was imported. `imports`: how many imports
 * ended on this screen; each moves the keyboard's focus to the outcome's title, where the button
 * it was on may have gone away (WCAG 2.4.3).
 */
function ImportOutcome({ imports }: { imports: number }) {
  const { t } = useTranslation();
  const { error, errorDetail, rowErrors, rowErrorCount, result, fileName } = useImportStore(
    useShallow((state) => ({ error: state.error, errorDetail: state.errorDetail, rowErrors: state.rowErrors, rowErrorCount: state.rowErrorCount, result: state.result, fileName: state.resultFileName })),
  );
  const title = useRef<HTMLElement>(null);
  useEffect(() => {
    if (imports > 0) title.current?.focus();
  }, [imports]);
  return (
    <>
      {error ? (
        <Alert
          color="red"
          title={
            <Text inherit c="red.9" component="span" ref={title} tabIndex={-1} data-testid="import-error-title">
              {error}
            </Text>
          }
          data-testid="import-error"
        >
          {errorDetail ? (
            <Text size="sm" mb={rowErrors.length ? 'xs' : 0} data-testid="import-error-detail">
              {errorDetail}
            </Text>
          ) : null}
          <RowErrorsTable rowErrors={rowErrors} total={rowErrorCount} testId="upload-row-errors" />
        </Alert>
      ) : null}
      {result ? (
        <Alert
          color="teal"
          variant="outline"
          title={
            <Text inherit c="teal.9" component="span" ref={title} tabIndex={-1} data-testid="import-result-title">
              {result.message}
            </Text>
          }
          data-testid="import-result"
        >
          <Group gap="xl">
            {resultCounts(result).map(([key, value]) => (
              <Stack gap={0} key={key}>
                <Text size="xs" c="dimmed">
                  {t(`import.result.${key}`)}
                </Text>
                <Text fw={600} data-testid={`result-${key}`}>
                  {formatCount(value)}
                </Text>
              </Stack>
            ))}
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                {t('import.result.duration')}
              </Text>
              <Text fw={600}>{t(...durationMessage(result.duration_ms))}</Text>
            </Stack>
          </Group>
          <ImportWarnings warnings={result.warnings} testId="import-warnings" />
          <ImportNotices notices={result.notices} testId="import-notices" />
          <FilteredLines counts={result.counts} testId="import-filtered" />
          {result.replaced_sales || result.stock_written ? <UndoThisImport result={result} fileName={fileName} /> : null}
        </Alert>
      ) : null}
    </>
  );
}

export function ImportForm() {
  const { t } = useTranslation();
  const { previewData, isLoading, isUploading, selectedFile, draft } = useImportStore(
    useShallow((state) => ({ previewData: state.previewData, isLoading: state.isLoading, isUploading: state.isUploading, selectedFile: state.selectedFile, draft: state.draft })),
  );
  const { submit, cancelUpload } = useImportStore.getState();
  const [imports, setImports] = useState(0);
  const unmapped = previewData ? unmappedRequired(previewData.targets, draft) : [];
  // A file the preview could not read stays unimportable; the preview's reason is on screen.
  const unreadFile = selectedFile !== null && previewData === null;
  return (
    <Stack gap="md">
      <EntityAndMappingChooser />
      <FileChooser />
      {isLoading && selectedFile ? (
        <Text size="sm" c="dimmed" aria-busy="true">
          {t('import.preview.loading')}
        </Text>
      ) : null}
      {previewData ? (
        <>
          <RawHeader preview={previewData} />
          <MappingBuilder preview={previewData} />
          <PreviewTable preview={previewData} />
          <ReplacesSales preview={previewData} />
        </>
      ) : null}
      <ValueMeanings />
      {unmapped.length ? (
        <Text size="sm" c="red.9" data-testid="unmapped-required">
          {t('import.builder.unmapped', { list: unmapped.map((target) => target.field).join(', ') })}
        </Text>
      ) : null}
      <Group gap="sm">
        <BusyButton
          onClick={() =>
            void submit()
              .catch(() => undefined /* the store shows the error */)
              .finally(() => setImports((count) => count + 1))
          }
          busy={isUploading}
          disabled={isUploading || isLoading || unmapped.length > 0 || unreadFile}
          data-ready={Boolean(selectedFile && draft) || undefined}
        >
          {t('import.submit.button')}
        </BusyButton>
        {isUploading ? (
          <Button variant="default" onClick={cancelUpload}>
            {t('import.submit.cancel')}
          </Button>
        ) : null}
        {isUploading ? <Badge variant="light">{selectedFile?.name}</Badge> : null}
      </Group>
      <UploadProgress />
      <ImportOutcome imports={imports} />
    </Stack>
  );
}
