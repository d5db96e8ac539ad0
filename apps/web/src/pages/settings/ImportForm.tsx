// Choose a mapping and a file, read the preview of the first records after mapping with hints for
// the values the server will refuse, import with upload and server progress, see the result or
// the refused rows (spec §2 Data integration screen, §4 Import flow).
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { Alert, Badge, Button, Group, NativeSelect, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PREVIEW_ROWS, type RowError } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { useImportStore } from '../../stores/import.ts';
import { importEntityType } from '../../api/import.ts';
import { entityFieldMappings, JSON_PREVIEW_MAX_BYTES, type PreviewData } from './preview.ts';
import { CELL_DISPLAY_CHARS, durationMessage, formatBytes, formatCell, formatCount, hintMessage, shortened } from './format.ts';

function MappingChooser() {
  const { t } = useTranslation();
  const { availableMappings, selectedMapping, mappingConfig, availableEntities, isUploading } = useImportStore(
    useShallow((state) => ({ availableMappings: state.availableMappings, selectedMapping: state.selectedMapping, mappingConfig: state.mappingConfig, availableEntities: state.availableEntities, isUploading: state.isUploading })),
  );
  const selectMapping = useImportStore((state) => state.selectMapping);
  const fieldMappings = entityFieldMappings(mappingConfig, importEntityType);
  const description = availableMappings.find((mapping) => mapping.name === selectedMapping)?.description;
  return (
    <Stack gap="xs">
      <NativeSelect
        label={t('import.mapping.label')}
        value={selectedMapping ?? ''}
        disabled={isUploading || availableMappings.length === 0}
        onChange={(event) => void selectMapping(event.currentTarget.value || null)}
        data={[...(selectedMapping ? [] : [{ value: '', label: t('import.mapping.placeholder') }]), ...availableMappings.map((mapping) => ({ value: mapping.name, label: mapping.name }))]}
        maw={420}
      />
      {description ? (
        <Text size="sm" c="dimmed" data-testid="mapping-description">
          {description}
        </Text>
      ) : null}
      {availableEntities.length ? (
        <Text size="xs" c="dimmed">
          {t('import.mapping.entities', { list: availableEntities.join(', ') })}
        </Text>
      ) : null}
      {fieldMappings ? (
        <Table withTableBorder captionSide="top" maw={560} data-testid="field-mappings" aria-label={t('import.mapping.fields', { entity: importEntityType })}>
          <Table.Caption>{t('import.mapping.fields', { entity: importEntityType })}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('import.mapping.target')}</Table.Th>
              <Table.Th aria-hidden="true" />
              <Table.Th>{t('import.mapping.source')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {Object.entries(fieldMappings).map(([target, source]) => (
              <Table.Tr key={target} data-target={target} data-source={source}>
                <Table.Td>
                  <code>{target}</code>
                </Table.Td>
                <Table.Td aria-hidden="true">←</Table.Td>
                <Table.Td>
                  <code>{source}</code>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
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
            accept=".csv,.json,text/csv,application/json"
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

function PreviewTable({ preview }: { preview: PreviewData }) {
  const { t } = useTranslation();
  const issues = preview.rows.reduce((total, row) => total + Object.keys(row.hints).length, 0);
  if (preview.rows.length === 0) {
    return (
      <Text c="dimmed" data-testid="preview-empty">
        {t('import.preview.empty')}
      </Text>
    );
  }
  return (
    <Stack gap="xs" data-testid="preview" data-issues={issues}>
      <Title order={3} size="h5">
        {t('import.preview.title', { count: PREVIEW_ROWS })}
      </Title>
      <Table.ScrollContainer minWidth={600}>
        <Table withTableBorder withColumnBorders aria-label={t('import.preview.title', { count: PREVIEW_ROWS })}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('import.preview.row')}</Table.Th>
              {preview.columns.map((column) => (
                <Table.Th key={column.target} title={`${column.target} ← ${column.source}`}>
                  <div>{column.target}</div>
                  <Text size="xs" c="dimmed" component="div">
                    ← {column.source}
                  </Text>
                  {column.known ? null : (
                    <Text size="xs" c="red" component="div">
                      {t('import.preview.notAColumn')}
                    </Text>
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row) => (
              <Table.Tr key={row.row} data-testid="preview-row">
                <Table.Td>{row.row}</Table.Td>
                {preview.columns.map((column) => {
                  const value = row.values[column.target];
                  const hint = row.hints[column.target];
                  const [key, options] = hint ? hintMessage(hint) : ['', {}];
                  return (
                    <Table.Td
                      key={column.target}
                      data-column={column.target}
                      data-hint={hint?.code}
                      style={hint ? { background: 'var(--mantine-color-red-light)' } : undefined}
                      aria-invalid={hint ? true : undefined}
                    >
                      {value === undefined ? (
                        <Text size="sm" c="dimmed" fs="italic" component="span">
                          {t('import.preview.missing')}
                        </Text>
                      ) : (
                        <span title={formatCell(value).length > CELL_DISPLAY_CHARS ? formatCell(value) : undefined} style={{ overflowWrap: 'anywhere' }}>
                          {shortened(formatCell(value))}
                        </span>
                      )}
                      {hint ? (
                        <Text size="xs" c="red" component="div" data-testid="cell-hint">
                          {t(key, options)}
                        </Text>
                      ) : null}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" c={issues ? 'red' : 'teal'} data-testid="preview-summary">
        {issues ? t('import.preview.issues', { count: issues }) : t('import.preview.clean')}
      </Text>
      {preview.warnings.map((warning, index) => (
        <Text size="sm" c="orange" key={index} data-testid="preview-warning">
          {warning.row === null ? t('import.preview.warningNoRow', { message: warning.message }) : t('import.preview.warning', { row: warning.row, message: warning.message })}
        </Text>
      ))}
    </Stack>
  );
}

export function RowErrorsTable({ rowErrors, total, testId }: { rowErrors: RowError[]; total: number; testId: string }) {
  const { t } = useTranslation();
  if (rowErrors.length === 0) return null;
  return (
    <Stack gap={4} data-testid={testId}>
      <Table withTableBorder captionSide="top" aria-label={t('import.rowErrors.title')}>
        <Table.Caption>{t('import.rowErrors.title')}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('import.rowErrors.row')}</Table.Th>
            <Table.Th>{t('import.rowErrors.field')}</Table.Th>
            <Table.Th>{t('import.rowErrors.reason')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rowErrors.map((error, index) => (
            <Table.Tr key={`${error.row}-${error.field ?? ''}-${index}`} data-testid="row-error">
              <Table.Td>{error.row}</Table.Td>
              <Table.Td>{error.field ?? ''}</Table.Td>
              <Table.Td>{error.reason}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {total > rowErrors.length ? (
        <Text size="sm" c="dimmed" data-testid="row-errors-more">
          {t('import.rowErrors.more', { count: total - rowErrors.length })}
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

function ImportOutcome() {
  const { t } = useTranslation();
  const { error, errorDetail, rowErrors, rowErrorCount, result } = useImportStore(
    useShallow((state) => ({ error: state.error, errorDetail: state.errorDetail, rowErrors: state.rowErrors, rowErrorCount: state.rowErrorCount, result: state.result })),
  );
  return (
    <>
      {error ? (
        <Alert color="red" title={error} data-testid="import-error">
          {errorDetail ? (
            <Text size="sm" mb={rowErrors.length ? 'xs' : 0} data-testid="import-error-detail">
              {errorDetail}
            </Text>
          ) : null}
          <RowErrorsTable rowErrors={rowErrors} total={rowErrorCount} testId="upload-row-errors" />
        </Alert>
      ) : null}
      {result ? (
        <Alert color="teal" title={result.message} data-testid="import-result">
          <Group gap="xl">
            {(
              [
                ['rows', result.counts.rows],
                ['inserted', result.counts.inserted],
                ['updated', result.counts.updated],
                ['duplicates', result.counts.duplicates],
              ] as const
            ).map(([key, value]) => (
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
        </Alert>
      ) : null}
    </>
  );
}

export function ImportForm() {
  const { t } = useTranslation();
  const { previewData, previewUnavailable, isLoading, isUploading, selectedFile, mappingConfig } = useImportStore(
    useShallow((state) => ({
      previewData: state.previewData,
      previewUnavailable: state.previewUnavailable,
      isLoading: state.isLoading,
      isUploading: state.isUploading,
      selectedFile: state.selectedFile,
      mappingConfig: state.mappingConfig,
    })),
  );
  const { submit, cancelUpload } = useImportStore.getState();
  return (
    <Stack gap="md">
      <MappingChooser />
      <FileChooser />
      {isLoading && selectedFile ? (
        <Text size="sm" c="dimmed" aria-busy="true">
          {t('import.preview.loading')}
        </Text>
      ) : null}
      {previewUnavailable ? (
        <Alert color="yellow" title={t('import.preview.tooLarge', { size: JSON_PREVIEW_MAX_BYTES / 1_000_000 })} data-testid="preview-unavailable" />
      ) : null}
      {previewData ? <PreviewTable preview={previewData} /> : null}
      <Group gap="sm">
        <Button
          onClick={() => void submit().catch(() => undefined /* the store shows the error */)}
          loading={isUploading}
          disabled={isUploading || isLoading}
          data-ready={Boolean(selectedFile && mappingConfig) || undefined}
        >
          {t('import.submit.button')}
        </Button>
        {isUploading ? (
          <Button variant="default" onClick={cancelUpload}>
            {t('import.submit.cancel')}
          </Button>
        ) : null}
        {isUploading ? <Badge variant="light">{selectedFile?.name}</Badge> : null}
      </Group>
      <UploadProgress />
      <ImportOutcome />
    </Stack>
  );
}
