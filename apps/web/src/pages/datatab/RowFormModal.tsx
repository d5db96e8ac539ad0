// The row add/edit form (spec §2, §5): a 12-column grid with spans by field type, inputs by type,
// client-side required checks, 'Invalid row data: …' with the server's field errors on a 400; a save
// over someone else's since the form opened is refused, keeping what was typed (ADR 0168).
import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Checkbox, Grid, Group, List, Modal, NativeSelect, Text, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dateRuleOf, dayInPattern, isSupplierColumn, labelOfRow, rowLabelColumns, type TableColumn, type TableRow } from '@stockwise/contract';
import { useTablesStore } from '../../stores/tables.ts';
import { useRowHistoryStore } from '../../stores/row-history.ts';
import {
  addPayload,
  dateProblems,
  dateTimeBounds,
  editPayload,
  fieldSpan,
  formGridColumns,
  initialFormValues,
  inputKindOf,
  isEditable,
  lengthCounter,
  lengthProblems,
  missingRequired,
  steppedNumber,
  type FormValues,
  type InputKind,
} from './row-form.ts';
import { referenceText, type UnknownValues } from './table-query.ts';
import { ReferencePicker } from './ReferencePicker.tsx';
import { SupplierField } from './SupplierField.tsx';
import { DayField } from '../../components/day-field/DayField.tsx';
import { useViewerDates } from '../../components/viewer-dates.ts';
import { FieldIcon } from '../../components/FieldIcon.tsx';
import classes from './DataPage.module.css';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/**
 * A date field spans 2 of 12, yet is never narrower than its placeholder (`DD.MM.YYYY`) and its
 * calendar button (a date and time: the browser's own control with its calendar button): in a
 * narrow form it takes the room, moving the next field on.
 */
function minimumWidthOf(kind: InputKind): string | undefined {
  if (kind.kind === 'date') return '10.5rem';
  if (kind.kind === 'datetime') return '13.5rem';
  return undefined;
}

type RowFormModalProps = {
  tableName: string;
  /** The table's database name: which of its dates a rule limits (a sale's, a delivery's). */
  encodedName: string;
  columns: readonly TableColumn[];
  /** null: add a new row. */
  row: TableRow | null;
  /** The loaded rows' values never recorded (ADR 0149): such a field starts empty, saying so. */
  unknownValues: UnknownValues;
  onClose: () => void;
  onOpenVariation: (row: TableRow) => void;
};

export function RowFormModal({ tableName, encodedName, columns, row, unknownValues, onClose, onOpenVariation }: RowFormModalProps) {
  const { t } = useTranslation();
  // Saved through the undo history: the Data screen can take the change back (Ctrl+Z, its Undo button).
  const addRow = useRowHistoryStore((state) => state.addRow);
  const editRow = useRowHistoryStore((state) => state.editRow);
  // How the rows the loaded ones refer to are known (`code — name`): the pickers start with the row's.
  const references = useTablesStore((state) => state.references);
  // The row as the form last read it: the one it opened, or the one Reload brought after a refused save.
  const [opened, setOpened] = useState(() => ({ row, initial: initialFormValues(columns, row, unknownValues) }));
  const { initial } = opened;
  const [values, setValues] = useState<FormValues>(initial);
  /** The row as someone else saved it since the form read it (a save refused as stale, ADR 0168). */
  const [savedMeanwhile, setSavedMeanwhile] = useState<TableRow | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const isEdit = row !== null;
  const dateRule = dateRuleOf(encodedName);
  const dates = useViewerDates();

  const setValue = (key: string, value: string | boolean) => setValues((current) => ({ ...current, [key]: value }));

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A date-and-time input holding one it cannot read (ISO typed into month/day/year boxes) reports an empty value: not "required".
    const unreadable = columns.filter((column) => (event.currentTarget.elements.namedItem(column.key) as HTMLInputElement | null)?.validity?.badInput).map((column) => column.key);
    const missing = missingRequired(columns, values).filter((key) => !unreadable.includes(key));
    const refused = {
      ...lengthProblems(columns, values),
      ...dateProblems(columns, values, dateRule, { badYear: (year) => t('datatab.rowForm.badYear', { year }), notADate: () => t('datatab.rowForm.notADate', { pattern: dates.pattern, example: dayInPattern('2026-12-24', dates.pattern) }) }),
      ...Object.fromEntries(missing.map((key) => [key, [t('datatab.rowForm.required')]])),
      ...Object.fromEntries(unreadable.map((key) => [key, [t('datatab.rowForm.badDate')]])),
    };
    if (Object.keys(refused).length > 0) {
      setFieldErrors(refused);
      setMessage(null);
      return;
    }
    setSaving(true);
    setFieldErrors({});
    setMessage(null);
    const result = opened.row ? await editRow(editPayload(columns, initial, values, opened.row['id']), opened.row) : await addRow(addPayload(columns, values));
    setSaving(false);
    if (result.ok) {
      onClose();
      return;
    }
    // What was typed stays in the fields; the other person's values are shown beside the message.
    setSavedMeanwhile(result.current ?? null);
    setMessage(result.message);
    setFieldErrors(result.fieldErrors);
  };

  /** The row as it is now, in place of what was typed: saving then starts from their change. */
  const reload = () => {
    if (!savedMeanwhile) return;
    const reread = { row: savedMeanwhile, initial: initialFormValues(columns, savedMeanwhile, unknownValues) };
    setOpened(reread);
    setValues(reread.initial);
    setSavedMeanwhile(null);
    setMessage(null);
    setFieldErrors({});
  };

  /** Each field the other person's save changed, with its value now, as the form shows values. */
  const changedMeanwhile = savedMeanwhile
    ? (() => {
        const now = initialFormValues(columns, savedMeanwhile, unknownValues);
        return columns.filter((column) => isEditable(column) && now[column.key] !== initial[column.key]).map((column) => ({ column, value: now[column.key] }));
      })()
    : [];
  const shownValue = (column: TableColumn, value: FormValues[string] | undefined) => {
    if (typeof value === 'boolean') return t(value ? 'datatab.grid.yes' : 'datatab.grid.no');
    if (value === '' || value === undefined) return t('datatab.undo.empty');
    return (column.type === 'ForeignKey' && savedMeanwhile && referenceText(references, column.key, savedMeanwhile[column.key])) || value;
  };

  const errorOf = (key: string) => fieldErrors[key]?.join(' ') || undefined;
  // The dialog opens on the first field the user can change (Mantine's focus trap takes
  // `data-autofocus`), not on its Close button or a read-only id.
  const firstEditable = columns.find((column) => isEditable(column) && inputKindOf(column).kind !== 'variation')?.key;

  return (
    <Modal
      opened
      onClose={onClose}
      // Wider than Mantine's xl (780px): a field of span 3 then shows a product's `code — name`.
      size={960}
      closeButtonProps={{ 'aria-label': t('datatab.actions.close') }}
      // Named as the row's own Edit button is (`Edit GAR-1099 — Pflanzschaufel`): by number only where the table has no code.
      title={isEdit ? t('datatab.actions.editRow', { row: labelOfRow(rowLabelColumns(columns), row) || t('datatab.undo.rowNumber', { id: String(row['id'] ?? '') }) }) : t('datatab.rowForm.addTitle', { name: tableName })}
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate data-testid="row-form" aria-busy={saving}>
        {message && (
          <Alert color="red" role="alert" mb="md" data-testid="row-form-error">
            {message}
            {savedMeanwhile && (
              <>
                {changedMeanwhile.length > 0 && (
                  <>
                    <Text size="sm" fw={500} mt="xs">
                      {t('datatab.rowForm.theirValues')}
                    </Text>
                    <List size="sm" aria-label={t('datatab.rowForm.theirValuesLabel')} data-testid="row-form-their-values">
                      {changedMeanwhile.map(({ column, value }) => (
                        <List.Item key={column.key}>
                          {column.label}: {shownValue(column, value)}
                        </List.Item>
                      ))}
                    </List>
                  </>
                )}
                <Box mt="xs">
                  <ReloadAfterConflict label={t('datatab.rowForm.reload')} hint={t('datatab.rowForm.reloadHint')} onReload={reload} testId="row-form-reload" />
                </Box>
              </>
            )}
          </Alert>
        )}
        <Grid columns={formGridColumns}>
          {columns.map((column) => {
            const span = fieldSpan(column);
            const kind = inputKindOf(column);
            const value = values[column.key];
            const text = typeof value === 'string' ? value : '';
            const common = { label: column.label, withAsterisk: column.required === true, error: errorOf(column.key), name: column.key, 'data-autofocus': column.key === firstEditable || undefined };
            let input;
            switch (kind.kind) {
              case 'text': {
                // Nothing typed or pasted is cut: near the limit a counter shows, and Save refuses what is over it at the field.
                const counter = lengthCounter(text.length, kind.maxLength);
                const description = counter ? (
                  <span data-testid="row-form-counter" className={counter.over ? classes.overLimit : undefined}>
                    {t(counter.over ? 'datatab.rowForm.overLimit' : 'datatab.rowForm.nearLimit', { length: counter.length.toLocaleString('en-US'), max: counter.max.toLocaleString('en-US'), over: (counter.length - counter.max).toLocaleString('en-US') })}
                  </span>
                ) : undefined;
                // The products' supplier offers the suppliers there are (ADR 0186).
                input = isSupplierColumn(encodedName, column.key) ? (
                  <SupplierField {...common} description={description} value={text} onChange={(typed) => setValue(column.key, typed)} />
                ) : (
                  <TextInput {...common} description={description} inputWrapperOrder={['label', 'input', 'description', 'error']} value={text} onChange={(e) => setValue(column.key, e.currentTarget.value)} />
                );
                break;
              }
              case 'textarea':
                input = <Textarea {...common} autosize minRows={2} maxRows={8} value={text} onChange={(e) => setValue(column.key, e.currentTarget.value)} />;
                break;
              case 'email':
                input = <TextInput {...common} type="email" value={text} onChange={(e) => setValue(column.key, e.currentTarget.value)} />;
                break;
              case 'number':
                input = (
                  <TextInput
                    {...common}
                    inputMode={kind.step === 1 ? 'numeric' : 'decimal'}
                    data-step={kind.step}
                    placeholder={row && unknownValues[column.key]?.[String(row['id'])] === 'not_counted' ? t('datatab.rowForm.notCounted') : undefined}
                    value={text}
                    onChange={(e) => setValue(column.key, e.currentTarget.value)}
                    onKeyDown={(e) => {
                      const next = steppedNumber(text, kind.step, e.key);
                      if (next === null) return;
                      e.preventDefault();
                      setValue(column.key, next);
                    }}
                  />
                );
                break;
              case 'date':
                // Typed as the viewer writes dates (their order, or ISO), so a day the calendar lacks is named, not "no whole date"; or picked from its calendar.
                input = <DayField {...common} order={dates.order} pattern={dates.pattern} value={text} onChange={(typed) => setValue(column.key, typed)} />;
                break;
              case 'datetime':
                input = <TextInput {...common} type="datetime-local" {...dateTimeBounds(column, dateRule)} value={text} onChange={(e) => setValue(column.key, e.currentTarget.value)} />;
                break;
              case 'boolean':
                input = <Checkbox mt="lg" label={column.label} name={column.key} error={errorOf(column.key)} checked={value === true} onChange={(e) => setValue(column.key, e.currentTarget.checked)} />;
                break;
              case 'reference':
                input = (
                  <ReferencePicker
                    tableName={tableName}
                    columnKey={column.key}
                    label={column.label}
                    required={column.required === true}
                    error={errorOf(column.key)}
                    value={text}
                    valueLabel={opened.row ? referenceText(references, column.key, opened.row[column.key]) : null}
                    onChange={(id) => setValue(column.key, id)}
                    autofocus={column.key === firstEditable}
                  />
                );
                break;
              case 'select':
                input = (
                  <NativeSelect
                    {...common}
                    value={text}
                    data={[{ value: '', label: t('datatab.rowForm.noValue') }, ...kind.options.map((option) => ({ value: option, label: option }))]}
                    onChange={(e) => setValue(column.key, e.currentTarget.value)}
                  />
                );
                break;
              case 'readOnly': {
                // Greyed, with a lock: the server fills these (spec §5), nothing typed here would be kept.
                const why = t(kind.placeholder === 'autoGenerated' ? 'datatab.rowForm.autoGenerated' : 'datatab.rowForm.calculated');
                input = <TextInput {...common} readOnly variant="filled" classNames={{ input: classes.readOnlyInput }} value={text} placeholder={why} title={why} rightSection={<FieldIcon shape="lock" />} />;
                break;
              }
              case 'variation':
                input = (
                  <Button mt="lg" variant="light" disabled={!isEdit} onClick={() => row && onOpenVariation(row)}>
                    {t('datatab.actions.openVariation')}
                  </Button>
                );
                break;
            }
            return (
              <Grid.Col key={column.key} span={span} miw={minimumWidthOf(kind)} data-span={span} data-field={column.key}>
                {input}
              </Grid.Col>
            );
          })}
        </Grid>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={onClose}>
            {t('datatab.actions.cancel')}
          </Button>
          <BusyButton type="submit" busy={saving}>
            {t('datatab.actions.save')}
          </BusyButton>
        </Group>
      </form>
    </Modal>
  );
}
