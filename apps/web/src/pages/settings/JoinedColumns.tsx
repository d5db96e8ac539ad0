// A field read from several columns on the Import screen (ADR 0193; ADR 0195, amendment): every
// column joined after the field's own, in order, with the first line's value as the server read it
// ("Title + Option1 Value + Option2 Value": “Linen Shirt XS White”); each joined column changed or
// removed, one more added, at most the contract's MAX_JOINED_COLUMNS; the values left out of the
// joined parts (Square's "Regular", ADR 0201 F8) said in the sentence and turned off or on with a
// checkbox. Native selects, buttons and a checkbox, each named after its column and field, so a
// keyboard reaches and understands them.
import { useEffect, useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MAX_JOINED_COLUMNS, type ImportTarget, type PreviewFileResponse } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { useImportStore } from '../../stores/import.ts';
import { columnOptions } from './MappedRows.tsx';
import { joinedLeaveOutOptions } from './preview.ts';
import { formatCell } from './format.ts';

/**
 * The element to focus once the builder is shown again: every change reads the preview again, and
 * the builder is not shown while it is read, so the focus would fall back to the page's start.
 */
let focusAfterPreview: string | null = null;
const focusLater = (id: string) => {
  focusAfterPreview = id;
};
/** Focuses the element asked for, once it is on the page again. */
function focusIfShown() {
  const element = focusAfterPreview ? document.getElementById(focusAfterPreview) : null;
  if (!element) return;
  focusAfterPreview = null;
  element.focus();
}

/** No joined column: one array, so the store's selector answers the same value while nothing changed. */
const NONE: readonly string[] = [];

const partId = (field: string, at: number) => `joined-${field}-${at}`;
const addId = (field: string) => `joined-${field}-add`;
const leaveOutId = (field: string) => `joined-${field}-leave-out`;
/** Values as a sentence quotes them: “Regular”, “Default”. */
const quoted = (values: readonly string[]) => values.map((value) => `“${value}”`).join(', ');

/** The joined columns of `target` (mapped to `column`) with their selects, Remove and Add. */
export function JoinedColumns({ target, column, preview }: { target: ImportTarget; column: string; preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const { joined, leftOut, isUploading } = useImportStore(
    useShallow((state) => ({ joined: state.draft?.joined_columns?.[target.field] ?? NONE, leftOut: state.draft?.joined_leave_out?.[target.field] ?? NONE, isUploading: state.isUploading })),
  );
  const { setJoinedColumns, setOptions } = useImportStore.getState();
  // A column being added: its select is shown empty until a column is chosen (nothing is read before).
  const [adding, setAdding] = useState(false);
  useEffect(() => {
    if (adding) document.getElementById(partId(target.field, joined.length))?.focus();
  }, [adding, joined.length, target.field]);
  useEffect(focusIfShown);

  const change = (columns: string[], focus: string) => {
    focusLater(focus);
    setAdding(false);
    void setJoinedColumns(target.field, columns);
  };
  // The file's columns that `at` may take: not the field's own, nor one joined elsewhere in it.
  const choices = (at: number) => columnOptions(preview.header, joined[at], t).filter((option) => option.value !== '' && option.value !== column && !joined.some((other, index) => index !== at && other === option.value));
  const slots = adding || joined.length === 0 ? [...joined, ''] : joined;
  const free = choices(joined.length).length > 0;
  // The first line's value as the server joined it, where the preview read one.
  const shownValue = formatCell(preview.rows[0]?.values[target.field], target) || null;
  // What may be left out: the draft's values, else those the server proposes for these joins (offered again once turned off).
  const leavable = leftOut.length ? leftOut : (preview.proposed_joined_leave_out?.[target.field] ?? NONE);
  const read = { field: target.label, columns: [column, ...joined].join(' + '), values: quoted(leftOut), value: shownValue };
  const sentence = `import.builder.${shownValue === null ? 'joinedRead' : 'joinedReadValue'}${leftOut.length ? 'LeavingOut' : ''}`;

  return (
    <Stack gap={4} data-joined-columns={target.field}>
      {joined.length ? (
        <Text size="sm" data-testid={`joined-${target.field}`}>
          {t(sentence, read)}
        </Text>
      ) : null}
      {slots.map((joinedColumn, at) => {
        const first = at === 0;
        const empty = first ? t('import.builder.followedByNothing') : t('import.builder.chooseJoined');
        return (
          <Group key={at} gap="xs" align="flex-end" wrap="nowrap">
            <NativeSelect
              id={partId(target.field, at)}
              label={first ? t('import.builder.followedBy', { field: target.label }) : t('import.builder.followedByPart', { field: target.label, part: at + 2 })}
              data-joined-for={first ? target.field : undefined}
              value={joinedColumn}
              disabled={isUploading}
              description={first && !joined.length ? t('import.builder.followedByHint') : undefined}
              onChange={(event) => {
                const chosen = event.currentTarget.value;
                if (!chosen) {
                  // "(nothing)" on the first leaves it out (the next moves up); an added select left empty is dropped.
                  if (at < joined.length) change(joined.filter((_, index) => index !== at), partId(target.field, 0));
                  else setAdding(false);
                  return;
                }
                change(at < joined.length ? joined.map((other, index) => (index === at ? chosen : other)) : [...joined, chosen], partId(target.field, at));
              }}
              data={[...(first || at >= joined.length ? [{ value: '', label: empty }] : []), ...choices(at)]}
              style={{ flex: 1 }}
            />
            {at < joined.length ? (
              <Button
                variant="subtle"
                aria-label={t('import.builder.removeJoined', { column: joinedColumn, field: target.label })}
                disabled={isUploading}
                onClick={() => change(joined.filter((_, index) => index !== at), joined.length > 1 ? addId(target.field) : partId(target.field, 0))}
              >
                {t('import.builder.removeJoinedShort')}
              </Button>
            ) : null}
          </Group>
        );
      })}
      {joined.length > 0 && joined.length < MAX_JOINED_COLUMNS && !adding && free ? (
        <Group>
          <Button id={addId(target.field)} variant="default" size="xs" disabled={isUploading} onClick={() => setAdding(true)}>
            {t('import.builder.addJoined', { field: target.label })}
          </Button>
        </Group>
      ) : null}
      {joined.length && leavable.length ? (
        <Checkbox
          id={leaveOutId(target.field)}
          label={t('import.builder.leaveOut', { values: quoted(leavable), field: target.label })}
          description={t('import.builder.leaveOutHint')}
          checked={leftOut.length > 0}
          disabled={isUploading}
          onChange={(event) => {
            focusLater(leaveOutId(target.field));
            const draft = useImportStore.getState().draft ?? { field_mappings: {} };
            void setOptions(joinedLeaveOutOptions(draft, target.field, event.currentTarget.checked ? leavable : null));
          }}
        />
      ) : null}
      {joined.length >= MAX_JOINED_COLUMNS ? (
        <Text size="xs" c="dimmed">
          {t('import.builder.joinedAtMost', { count: MAX_JOINED_COLUMNS })}
        </Text>
      ) : null}
    </Stack>
  );
}
