// A field read from several columns on the Import screen and in Try the endpoint (ADR 0193; ADR
// 0195, amendment; ADR 0201, amendment 2026-12-07): every column joined after the field's own, in
// order, with the first line's value as the server read it ("Title + Option1 Value + Option2
// Value": “Linen Shirt XS White”); each joined column changed or removed, one more added, at most the
// contract's MAX_JOINED_COLUMNS; the values left out of the joined parts (Square's "Regular", ADR
// 0201 F8) said in the sentence and turned off or on with a checkbox. Native selects, buttons and a
// checkbox, each named after its column and field, so a keyboard reaches and understands them.
import { useEffect, useState } from 'react';
import { Button, Checkbox, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { LINE_NAME_FIELD, MAX_JOINED_COLUMNS, type EntityMapping, type ImportTarget, type PreviewFileResponse } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { useImportStore } from '../../stores/import.ts';
import { columnOptions } from './MappedRows.tsx';
import { formatCell } from './format.ts';
import { joinedLeaveOutOptions } from './preview.ts';

/**
 * The element to focus once the builder is shown again: every change reads the preview (or tries
 * the endpoint) again, and the builder is not shown, or disabled, while it is read, so the focus
 * would fall back to the page's start.
 */
let focusAfterPreview: string | null = null;
const focusLater = (id: string) => {
  focusAfterPreview = id;
};
/** Focuses the element asked for, once it is on the page again. */
function focusIfShown() {
  const element = focusAfterPreview ? document.getElementById(focusAfterPreview) : null;
  // A disabled element takes no focus: asked again once it is enabled.
  if (!element || element.matches(':disabled')) return;
  focusAfterPreview = null;
  element.focus();
}

/** No joined column: one array, so the store's selector answers the same value while nothing changed. */
const NONE: readonly string[] = [];

const partIdOf = (prefix: string, field: string, at: number) => `${prefix}-${field}-${at}`;
/** Values as a sentence quotes them: “Regular”, “Default”. */
const quoted = (values: readonly string[]) => values.map((value) => `“${value}”`).join(', ');

export type JoinedColumnsProps = {
  target: ImportTarget;
  /** The column (or path) the field's own value is read from. */
  column: string;
  /** What may follow it: a file's header, the paths of an endpoint's records. */
  columns: string[];
  /** The rows the server read with the draft: the first one's value of the field is shown as joined. */
  rows: PreviewFileResponse['rows'];
  joined: readonly string[];
  disabled: boolean;
  onJoined: (columns: string[]) => void;
  /** The values the draft leaves out of the joined parts, and those that may be (the draft's, else the proposal's). */
  leftOut?: readonly string[];
  leavable?: readonly string[];
  /** Leaves `values` out, or none (null). */
  onLeaveOut?: (values: readonly string[] | null) => void;
  /** The elements' ids start with it: Try the endpoint's dialog may be open over the Import screen's builder. */
  idPrefix?: string;
};

/** The joined columns of `target` (mapped to `column`) with their selects, Remove and Add. */
export function JoinedColumnsBuilder({ target, column, columns, rows, joined, disabled, onJoined, leftOut = NONE, leavable = NONE, onLeaveOut, idPrefix = 'joined' }: JoinedColumnsProps) {
  const { t } = useTranslation();
  const partId = (field: string, at: number) => partIdOf(idPrefix, field, at);
  const addId = (field: string) => `${idPrefix}-${field}-add`;
  const leaveOutId = `${idPrefix}-${target.field}-leave-out`;
  // A column being added: its select is shown empty until a column is chosen (nothing is read before).
  const [adding, setAdding] = useState(false);
  useEffect(() => {
    if (adding) document.getElementById(partIdOf(idPrefix, target.field, joined.length))?.focus();
  }, [adding, idPrefix, joined.length, target.field]);
  useEffect(focusIfShown);

  const change = (next: string[], focus: string) => {
    focusLater(focus);
    setAdding(false);
    onJoined(next);
  };
  // The columns that `at` may take: not the field's own, nor one joined elsewhere in it.
  const choices = (at: number) => columnOptions(columns, joined[at], t).filter((option) => option.value !== '' && option.value !== column && !joined.some((other, index) => index !== at && other === option.value));
  const slots = adding || joined.length === 0 ? [...joined, ''] : joined;
  const free = choices(joined.length).length > 0;
  // The first line's value as the server joined it, where the preview read one.
  const shownValue = formatCell(rows[0]?.values[target.field], target) || null;
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
              disabled={disabled}
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
                disabled={disabled}
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
          <Button id={addId(target.field)} variant="default" size="xs" disabled={disabled} onClick={() => setAdding(true)}>
            {t('import.builder.addJoined', { field: target.label })}
          </Button>
        </Group>
      ) : null}
      {joined.length && leavable.length && onLeaveOut ? (
        <Checkbox
          id={leaveOutId}
          label={t('import.builder.leaveOut', { values: quoted(leavable), field: target.label })}
          description={t('import.builder.leaveOutHint')}
          checked={leftOut.length > 0}
          disabled={disabled}
          onChange={(event) => {
            focusLater(leaveOutId);
            onLeaveOut(event.currentTarget.checked ? leavable : null);
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

/** The Import screen's builder: the import draft's joined columns, each change previewed again. */
export function JoinedColumns({ target, column, preview }: { target: ImportTarget; column: string; preview: PreviewFileResponse }) {
  const { joined, leftOut, isUploading } = useImportStore(
    useShallow((state) => ({ joined: state.draft?.joined_columns?.[target.field] ?? NONE, leftOut: state.draft?.joined_leave_out?.[target.field] ?? NONE, isUploading: state.isUploading })),
  );
  const onJoined = (columns: string[]) => void useImportStore.getState().setJoinedColumns(target.field, columns);
  // What may be left out: the draft's values, else those the server proposes for these joins (offered again once turned off).
  const leavable = leftOut.length ? leftOut : (preview.proposed_joined_leave_out?.[target.field] ?? NONE);
  const onLeaveOut = (values: readonly string[] | null) => {
    const { draft, setOptions } = useImportStore.getState();
    void setOptions(joinedLeaveOutOptions(draft ?? { field_mappings: {} }, target.field, values));
  };
  return (
    <JoinedColumnsBuilder target={target} column={column} columns={preview.header} rows={preview.rows} joined={joined} disabled={isUploading} onJoined={onJoined} leftOut={leftOut} leavable={leavable} onLeaveOut={onLeaveOut} />
  );
}

/**
 * The field a line's name is read into and its column, where the draft reads one (matching a line
 * without a product code by its name, or naming new products): the builder joins columns to it
 * (Item, followed by Price Point Name: ADR 0201 F6). Null where the draft reads no line name.
 */
export function lineNameJoin(draft: EntityMapping | null, t: TFunction): { target: ImportTarget; column: string } | null {
  const column = draft?.new_products?.['name'];
  if (!column || !(draft.blank_code_by_name || draft.create_missing_products)) return null;
  return { target: { field: LINE_NAME_FIELD, label: t('import.builder.lineName'), type: 'CharField', required: false }, column };
}
