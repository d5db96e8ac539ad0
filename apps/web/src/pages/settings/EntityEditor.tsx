// One import entity in Settings → Import entities (administrators; ADR 0179): its table and key shown,
// what an import does with rows of one file sharing the key, its description, and its default field
// mappings as rows — the table's column chosen, the file's column typed — added and removed by
// keyboard. Saved at the version read (ADR 0168's amendment "the entity configuration"): a save over
// another administrator's since is refused, the typed values kept, until Reload shows theirs; a
// configuration the server refuses shows "Invalid configuration: " and why (spec §5). An entity that
// differs from the configuration file's version can be reset to it (ADR 0181), after a confirmation
// that lists what changes, at the version read as a save is.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Select, Stack, Table, Text, Textarea, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { repeatedKeyModes, type TableColumn } from '@stockwise/contract';
import type { ConfigEntity } from '@stockwise/contract';
import { resetEntityConfig, saveEntityConfig } from '../../api/import.ts';
import { fetchTableColumns } from '../../api/tables.ts';
import { normalizeError } from '../../api/errors.ts';
import { currentOfConflict } from '../../api/versions.ts';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import { changesFromFile, entityConfigOf, entityForm, inColumnOrder, invalidConfigurationText, newMappingRow, rowProblems, type EntityForm, type MappingRow, type RowProblems } from './entity-form.ts';
import { ResetEntityDialog } from './ResetEntityDialog.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** The columns a mapping can fill: the table's stored ones, by label and key ("Product (product_id)"). */
const targetOptions = (columns: TableColumn[]) =>
  columns.filter((column) => !column.read_only).map((column) => ({ value: column.key, label: column.label && column.label !== column.key ? `${column.label} (${column.key})` : column.key }));

export function EntityEditor({ initial }: { initial: ConfigEntity }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [entity, setEntity] = useState(initial);
  const [form, setForm] = useState<EntityForm>(() => entityForm(initial));
  const [changed, setChanged] = useState(false);
  // The same, for the columns' arrival: rows as read take the table's order, rows being edited stay put.
  const edited = useRef(false);
  const [problems, setProblems] = useState<RowProblems>({});
  const [columns, setColumns] = useState<{ value: string; label: string }[] | null>(null);
  const [columnsProblem, setColumnsProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What the last write did, said under the form until the next edit.
  const [done, setDone] = useState<'saved' | 'reset' | null>(null);
  const [confirmingReset, setConfirmingReset] = useState(false);
  const [resetting, setResetting] = useState(false);
  // The reset takes its button away (the entity is as in the file): the focus goes to what it did.
  const resetDone = useRef<HTMLDivElement>(null);
  const rememberResetOpener = useDialogFocusReturn(confirmingReset, () => resetDone.current);
  // Saved by someone else since it was read: the entity as it is now, until Reload.
  const [savedMeanwhile, setSavedMeanwhile] = useState<ConfigEntity | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const focusRow = useRef<number | null>(null);
  const targetFields = useRef(new Map<number, HTMLInputElement>());

  useEffect(() => {
    let live = true;
    fetchTableColumns(entity.table).then(
      (read) => {
        if (!live) return;
        const options = targetOptions(read);
        setColumns(options);
        if (!edited.current) setForm((shown) => ({ ...shown, rows: inColumnOrder(shown.rows, options.map((option) => option.value)) }));
      },
      (failure: unknown) => live && setColumnsProblem(normalizeError(failure).message),
    );
    return () => {
      live = false;
    };
  }, [entity.table]);

  useEffect(() => {
    if (focusRow.current === null) return;
    targetFields.current.get(focusRow.current)?.focus();
    focusRow.current = null;
  });

  const edit = (next: EntityForm) => {
    setForm(next);
    setChanged(true);
    edited.current = true;
    setDone(null);
  };
  const editRow = (id: number, change: Partial<MappingRow>) => edit({ ...form, rows: form.rows.map((row) => (row.id === id ? { ...row, ...change } : row)) });
  const addRow = () => {
    const row = newMappingRow();
    focusRow.current = row.id;
    edit({ ...form, rows: [...form.rows, row] });
  };
  const removeRow = (id: number) => {
    edit({ ...form, rows: form.rows.filter((row) => row.id !== id) });
    addButton.current?.focus();
  };
  const show = (read: ConfigEntity) => {
    const form = entityForm(read);
    setEntity(read);
    setForm(columns ? { ...form, rows: inColumnOrder(form.rows, columns.map((option) => option.value)) } : form);
    setChanged(false);
    edited.current = false;
    setProblems({});
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = rowProblems(form);
    setProblems(found);
    setDone(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    setError(null);
    setSavedMeanwhile(null);
    saveEntityConfig(entity.name, entityConfigOf(entity, form), entity.version).then(
      (stored) => {
        setBusy(false);
        show(stored);
        setDone('saved');
      },
      (failure: unknown) => {
        const normalized = normalizeError(failure);
        setBusy(false);
        setError(normalized.details.status === 400 ? invalidConfigurationText(normalized.message) : normalized.message);
        setSavedMeanwhile(currentOfConflict<ConfigEntity>(normalized));
      },
    );
  };
  const reset = () => {
    setResetting(true);
    setError(null);
    setSavedMeanwhile(null);
    setDone(null);
    resetEntityConfig(entity.name, entity.version).then(
      (stored) => {
        setResetting(false);
        show(stored);
        setDone('reset');
        setConfirmingReset(false);
      },
      (failure: unknown) => {
        const normalized = normalizeError(failure);
        setResetting(false);
        setConfirmingReset(false);
        setError(normalized.message);
        setSavedMeanwhile(currentOfConflict<ConfigEntity>(normalized));
      },
    );
  };
  const reload = () => {
    if (savedMeanwhile) show(savedMeanwhile);
    setSavedMeanwhile(null);
    setError(null);
  };

  // A target already filled by another row is not offered again; one the table no longer has stays shown (the server says why it is refused).
  const optionsOf = useMemo(() => {
    const known = columns ?? [];
    const chosen = form.rows.flatMap((row) => (row.target ? [row.target] : []));
    const missing = chosen.filter((target) => !known.some((option) => option.value === target)).map((target) => ({ value: target, label: target }));
    return (row: MappingRow) => [...known, ...missing].filter((option) => option.value === row.target || !chosen.includes(option.value));
  }, [columns, form.rows]);

  const fileChanges = useMemo(() => changesFromFile(entity), [entity]);
  const fieldLabel = (field: string) => columns?.find((option) => option.value === field)?.label ?? field;

  const name = entity.name;
  return (
    <form onSubmit={submit} aria-labelledby={titleId} data-testid={`entity-${name}`} noValidate>
      <Stack gap="sm">
        <Title order={3} size="h4" id={titleId}>
          {name}
        </Title>
        <Text size="sm" data-testid={`entity-${name}-table`}>
          {t('entities.tableAndKey', { table: entity.table, key: entity.key.join(', ') })}
        </Text>
        <Select
          label={t('entities.repeatedKeys')}
          description={t('entities.repeatedKeysHint')}
          data={repeatedKeyModes.map((mode) => ({ value: mode, label: t(`entities.repeated.${mode}`) }))}
          value={form.repeatedKeys}
          onChange={(value) => value && edit({ ...form, repeatedKeys: value as EntityForm['repeatedKeys'] })}
          allowDeselect={false}
          w={{ base: '100%', sm: 420 }}
        />
        <Textarea label={t('entities.description')} value={form.description} onChange={(event) => edit({ ...form, description: event.currentTarget.value })} minRows={2} maxLength={1000} />
        <div>
          <Text fw={500} size="sm" id={`${titleId}-mappings`}>
            {t('entities.mappings')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('entities.mappingsHint')}
          </Text>
        </div>
        {columnsProblem && (
          <Text size="sm" c="red.8">
            {t('entities.columnsUnread', { table: entity.table, message: columnsProblem })}
          </Text>
        )}
        {form.rows.length === 0 ? (
          <Text size="sm">{t('entities.noMappings')}</Text>
        ) : (
          <Table aria-labelledby={`${titleId}-mappings`} data-testid={`entity-${name}-mappings`} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('entities.target')}</Table.Th>
                <Table.Th scope="col">{t('entities.source')}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('entities.rowActions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {form.rows.map((row, index) => {
                const problem = problems[row.id];
                return (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      <Select
                        ref={(field) => {
                          if (field) targetFields.current.set(row.id, field);
                          else targetFields.current.delete(row.id);
                        }}
                        aria-label={t('entities.targetOf', { row: index + 1 })}
                        placeholder={t('entities.chooseFieldPlaceholder')}
                        data={optionsOf(row)}
                        value={row.target}
                        onChange={(value) => editRow(row.id, { target: value })}
                        searchable
                        allowDeselect={false}
                        nothingFoundMessage={t('entities.noField')}
                        error={problem?.target && t(problem.target)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={t('entities.sourceOf', { row: index + 1 })}
                        value={row.source}
                        onChange={(event) => editRow(row.id, { source: event.currentTarget.value })}
                        maxLength={500}
                        error={problem?.source && t(problem.source)}
                      />
                    </Table.Td>
                    <Table.Td>
                      <Button size="compact-sm" variant="subtle" color="red" onClick={() => removeRow(row.id)} aria-label={t('entities.removeRow', { row: index + 1, field: row.target ?? t('entities.noFieldYet') })}>
                        {t('entities.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Group>
          <Button ref={addButton} variant="default" onClick={addRow}>
            {t('entities.addRow')}
          </Button>
          <BusyButton type="submit" busy={busy} disabled={!changed}>
            {t('entities.save', { name })}
          </BusyButton>
          {fileChanges.length > 0 && (
            <Button
              variant="default"
              onClick={() => {
                rememberResetOpener();
                setConfirmingReset(true);
              }}
            >
              {t('entities.reset.button', { name })}
            </Button>
          )}
        </Group>
        {confirmingReset && (
          <ResetEntityDialog name={name} changes={fileChanges} unsaved={changed} fieldLabel={fieldLabel} busy={resetting} onCancel={() => setConfirmingReset(false)} onConfirm={reset} />
        )}
        {error && (
          <Alert color="red" role="alert" data-testid={`entity-${name}-error`}>
            <Stack gap={4}>
              {error}
              {savedMeanwhile && <ReloadAfterConflict label={t('entities.reload')} hint={t('entities.reloadHint')} onReload={reload} testId={`entity-${name}-reload`} />}
            </Stack>
          </Alert>
        )}
        {done === 'saved' && (
          <Alert color="green" role="status" data-testid={`entity-${name}-saved`}>
            {t('entities.saved')}
          </Alert>
        )}
        {done === 'reset' && (
          <Alert ref={resetDone} tabIndex={-1} color="green" role="status" data-testid={`entity-${name}-reset-done`}>
            {t('entities.reset.done')}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
