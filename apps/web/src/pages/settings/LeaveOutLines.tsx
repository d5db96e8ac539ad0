// "Leave out lines where": the mapping's row filters (`skip_rows_where`) — a web shop's refunded
// and voided orders kept out of its sales. The filters the draft holds are listed, each with
// Remove (a proposed one too); a new one is chosen from the file itself: a column, the values seen
// in it with how many lines hold each, and the order column whose line above a blank cell takes
// its value from (docs/adr/0011-real-data-in.md, row filters).
import { useState, type ReactNode } from 'react';
import { Button, Checkbox, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ImportCounts, PreviewFileResponse, RowFilter } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { useImportStore } from '../../stores/import.ts';
import { columnOptions } from './MappedRows.tsx';
import { formatCount } from './format.ts';

const TITLE_ID = 'leave-out-lines-title';

/** "refunded or voided", as the server's message lists them. */
const listed = (values: readonly string[], or: string) => (values.length > 1 ? `${values.slice(0, -1).join(', ')} ${or} ${values.at(-1)}` : (values[0] ?? ''));

/** A row filter in words: "Lines whose order.status is refunded" (Import screen, Try the endpoint). */
export function rowFilterText(filter: RowFilter, t: TFunction): string {
  const values = listed(filter.values, t('import.leaveOut.or'));
  return filter.blank_means_same_as ? t('import.leaveOut.filterByOrder', { column: filter.column, values, order: filter.blank_means_same_as }) : t('import.leaveOut.filter', { column: filter.column, values });
}

/**
 * The row filters, each in words (`describe`, else rowFilterText) with a note beside it and Remove;
 * `onChange` gets the filters left. Nothing when there are none.
 */
export function RowFilterList({
  filters,
  disabled,
  onChange,
  describe,
  note,
}: {
  filters: readonly RowFilter[];
  disabled: boolean;
  onChange: (filters: RowFilter[]) => void;
  describe?: (filter: RowFilter) => string;
  note?: (filter: RowFilter) => ReactNode;
}) {
  const { t } = useTranslation();
  if (!filters.length) return null;
  return (
    <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }} aria-label={t('import.leaveOut.listed')}>
      {filters.map((filter, at) => (
        <li key={`${filter.column}-${at}`} data-testid="row-filter">
          <Group gap="sm">
            <Text size="sm">{describe ? describe(filter) : rowFilterText(filter, t)}</Text>
            {note?.(filter)}
            <Button size="compact-sm" variant="default" disabled={disabled} aria-label={t('import.leaveOut.removeOf', { column: filter.column })} onClick={() => onChange(filters.filter((_, other) => other !== at))}>
              {t('import.leaveOut.remove')}
            </Button>
          </Group>
        </li>
      ))}
    </ul>
  );
}

export function LeaveOutLines({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const { draft, isUploading } = useImportStore(useShallow((state) => ({ draft: state.draft, isUploading: state.isUploading })));
  const setOptions = useImportStore((state) => state.setOptions);
  const filters = draft?.skip_rows_where ?? [];
  const [column, setColumn] = useState('');
  const [values, setValues] = useState<string[]>([]);
  const [orderColumn, setOrderColumn] = useState('');
  const seen = preview.column_values?.[column] ?? [];
  const change = (next: RowFilter[]) => void setOptions({ skip_rows_where: next.length ? next : undefined });
  const add = () => {
    change([...filters, { column, values, ...(orderColumn ? { blank_means_same_as: orderColumn } : {}) }]);
    setColumn('');
    setValues([]);
    setOrderColumn('');
  };
  return (
    <Paper withBorder p="md" maw={760} component="section" aria-labelledby={TITLE_ID} data-testid="leave-out-lines">
      <Stack gap="sm">
        <Title order={4} size="h6" id={TITLE_ID}>
          {t('import.leaveOut.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('import.leaveOut.intro')}
        </Text>
        <RowFilterList
          filters={filters}
          disabled={isUploading}
          onChange={change}
          note={(filter) =>
            [filter.column, filter.blank_means_same_as].some((name) => name !== undefined && !preview.header.includes(name)) ? (
              <Text size="sm" c="red.9" data-testid="row-filter-not-in-file">
                {t('import.leaveOut.notInFile')}
              </Text>
            ) : null
          }
        />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            add();
          }}
        >
          <Stack gap="xs">
            <NativeSelect
              label={t('import.leaveOut.column')}
              value={column}
              disabled={isUploading}
              onChange={(event) => {
                setColumn(event.currentTarget.value);
                setValues([]);
              }}
              data={columnOptions(preview.header, column || undefined, t)}
              w={320}
            />
            {column ? (
              seen.length ? (
                <Checkbox.Group label={t('import.leaveOut.values', { column })} value={values} onChange={setValues}>
                  <Group gap="md" mt={4}>
                    {seen.map((entry) => (
                      <Checkbox key={entry.value} value={entry.value} disabled={isUploading} label={t('import.leaveOut.value', { value: entry.value, count: entry.lines, lines: formatCount(entry.lines) })} />
                    ))}
                  </Group>
                </Checkbox.Group>
              ) : (
                <Text size="sm" data-testid="leave-out-no-values">
                  {t('import.leaveOut.noValues', { column })}
                </Text>
              )
            ) : null}
            <NativeSelect
              label={t('import.leaveOut.blankMeans')}
              description={t('import.leaveOut.blankMeansHint')}
              value={orderColumn}
              disabled={isUploading || !column}
              onChange={(event) => setOrderColumn(event.currentTarget.value)}
              data={[{ value: '', label: t('import.leaveOut.blankKept') }, ...preview.header.filter((name) => name !== column).map((name) => ({ value: name, label: name }))]}
              w={320}
            />
            <Group>
              <Button type="submit" variant="default" disabled={isUploading || !column || !values.length}>
                {t('import.leaveOut.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}

/** How many lines each filter left out, under a finished import's counts and in its log entry. */
export function FilteredLines({ counts, testId }: { counts: ImportCounts | undefined; testId: string }) {
  const { t } = useTranslation();
  if (!counts?.filtered_by?.length) return null;
  return (
    <Stack gap={2} data-testid={testId}>
      {counts.filtered_by.map((entry) => (
        <Text size="sm" key={entry.column}>
          {t('import.leaveOut.leftOut', { count: entry.lines, lines: formatCount(entry.lines), column: entry.column, values: listed(entry.values, t('import.leaveOut.or')) })}
        </Text>
      ))}
    </Stack>
  );
}
