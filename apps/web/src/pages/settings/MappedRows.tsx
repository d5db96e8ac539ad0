// What the Import screen's mapping builder and the integration editor's "Try the endpoint" share:
// a target field's label, and the first records as the server typed them through the mapping, each
// cell the server will refuse marked with its reason, and a count of those cells.
import { Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { PREVIEW_ROWS, type ImportTarget, type PreviewFileResponse } from '@stockwise/contract';
import { problemCount } from './preview.ts';
import { CELL_DISPLAY_CHARS, formatCell, shortened } from './format.ts';

/** The label of a target field: its name, whether it is required, and the key a reference is fed by. */
export function targetLabel(target: ImportTarget, t: TFunction): string {
  const parts = [target.label === target.field ? target.field : `${target.label} (${target.field})`];
  if (target.reference) parts.push(t('import.builder.byKey', { key: target.reference.key }));
  if (target.required) parts.push(t('import.builder.required'));
  return parts.join(' · ');
}

/** The file's columns to choose from; a draft's column the file's first records lack is shown as such, not as no column. */
export function columnOptions(header: string[], column: string | undefined, t: TFunction) {
  const options = [{ value: '', label: t('import.builder.noColumn') }, ...header.map((name) => ({ value: name, label: name }))];
  return column && !header.includes(column) ? [...options, { value: column, label: t('import.builder.notInFile', { column }) }] : options;
}

type MappedRowsProps = {
  targets: ImportTarget[];
  rows: PreviewFileResponse['rows'];
  /** target field → the column or path it is read from, shown under the field's name. */
  fieldMappings: Record<string, string>;
  /** target field → the one value every line gets (the mapping's field_values), shown instead of a column. */
  fieldValues?: Record<string, string> | undefined;
  testId: string;
};

/** The mapped fields (and any field with a problem) as columns, one row per record. */
export function MappedRowsTable({ targets, rows, fieldMappings, fieldValues = {}, testId }: MappedRowsProps) {
  const { t } = useTranslation();
  const issues = problemCount(rows);
  const fields = targets.filter((target) => fieldMappings[target.field] || fieldValues[target.field] || rows.some((row) => row.problems[target.field]));
  return (
    <Stack gap="xs" data-testid={testId} data-issues={issues}>
      <Table.ScrollContainer minWidth={600}>
        <Table withTableBorder withColumnBorders captionSide="top" aria-label={t('import.preview.title', { count: PREVIEW_ROWS })}>
          <Table.Caption>{t('import.preview.title', { count: PREVIEW_ROWS })}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('import.preview.row')}</Table.Th>
              {fields.map((target) => (
                <Table.Th key={target.field}>
                  <div>{target.field}</div>
                  <Text size="xs" c="dimmed" component="div">
                    {fieldValues[target.field] ? t('import.builder.sameForAllLines') : `← ${fieldMappings[target.field] ?? t('import.builder.noColumn')}`}
                  </Text>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.row} data-testid="preview-row" data-skipped={row.skipped || row.totals_line ? true : undefined} data-left-out={row.left_out ? true : undefined}>
                <Table.Td>
                  {row.row}
                  {row.skipped ? (
                    <Text size="xs" component="div" data-testid="row-skipped">
                      {t('import.preview.skipped')}
                    </Text>
                  ) : null}
                  {row.totals_line ? (
                    <Text size="xs" component="div" data-testid="row-totals-line">
                      {t('import.preview.totalsLine', { word: row.totals_line })}
                    </Text>
                  ) : null}
                  {row.left_out ? (
                    <Text size="xs" component="div" data-testid="row-left-out">
                      {t('import.preview.leftOut', { column: row.left_out.column, value: row.left_out.value })}
                    </Text>
                  ) : null}
                </Table.Td>
                {fields.map((target) => {
                  const value = row.values[target.field];
                  const problem = row.problems[target.field];
                  return (
                    <Table.Td key={target.field} data-column={target.field} data-problem={problem ? true : undefined} style={problem ? { background: 'var(--mantine-color-red-light)' } : undefined} aria-invalid={problem ? true : undefined}>
                      <span title={formatCell(value, target).length > CELL_DISPLAY_CHARS ? formatCell(value, target) : undefined} style={{ overflowWrap: 'anywhere' }}>
                        {shortened(formatCell(value, target))}
                      </span>
                      {problem ? (
                        <Text size="xs" c="red.9" component="div" data-testid="cell-problem">
                          {problem}
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
      <Text size="sm" c={issues ? 'red.9' : 'teal.9'} data-testid="preview-summary">
        {issues ? t('import.preview.issues', { count: issues }) : t('import.preview.clean')}
      </Text>
    </Stack>
  );
}
