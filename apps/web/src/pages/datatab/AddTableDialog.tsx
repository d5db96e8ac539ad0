// The add-table dialog: name, folder and a column editor (key, label, type and the type's options).
// Without columns the server creates Name and Notes.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ActionIcon, Alert, Button, Checkbox, Group, Modal, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldType } from '@stockwise/contract';
import { fetchNamedQueries, type NamedQuerySummary } from '../../api/tables.ts';
import { normalizeError } from '../../api/errors.ts';
import { useTablesStore, withDetail } from '../../stores/tables.ts';
import { draftToDefinition, emptyDraft, fieldTypeOptions, keyFromLabel, supportsChoices, supportsRequired, type ColumnDraft } from './column-drafts.ts';
import { folderOptions } from './TableDialogs.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

export function AddTableDialog({ defaultFolder, onClose }: { defaultFolder: string; onClose: () => void }) {
  const { t } = useTranslation();
  const folders = useTablesStore((state) => state.folders);
  const tables = useTablesStore((state) => state.tables);
  const createTable = useTablesStore((state) => state.createTable);
  const [name, setName] = useState('');
  const [folder, setFolder] = useState(defaultFolder);
  const [drafts, setDrafts] = useState<ColumnDraft[]>([]);
  const [queries, setQueries] = useState<NamedQuerySummary[]>([]);
  const [queryError, setQueryError] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const nextUid = useRef(1);

  const needsQueries = drafts.some((draft) => draft.type === 'query');
  useEffect(() => {
    if (!needsQueries) return;
    let live = true;
    fetchNamedQueries().then(
      (list) => live && setQueries(list),
      (error: unknown) => live && setQueryError(withDetail(t('datatab.errors.loadQueries'), normalizeError(error))),
    );
    return () => {
      live = false;
    };
  }, [needsQueries, t]);

  const update = (uid: number, change: Partial<ColumnDraft>) =>
    setDrafts((current) => current.map((draft) => (draft.uid === uid ? { ...draft, ...change } : draft)));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setMessage(null);
    setNameError(null);
    if (!name.trim()) {
      setNameError(t('datatab.validation.tableNameRequired'));
      return;
    }
    if (drafts.some((draft) => !draft.key.trim() && !keyFromLabel(draft.label))) {
      setMessage(t('datatab.tableDialog.keyRequired'));
      return;
    }
    setBusy(true);
    const columns = drafts.map(draftToDefinition);
    const result = await createTable({ name, folder, ...(columns.length > 0 ? { columns } : {}) });
    setBusy(false);
    if (result.ok) onClose();
    else setMessage(result.message);
  };

  return (
    <Modal opened onClose={onClose} title={t('datatab.tableDialog.title')} size="xl" closeButtonProps={{ 'aria-label': t('datatab.actions.close') }}>
      <form onSubmit={(event) => void submit(event)} noValidate data-testid="table-dialog">
        <Stack>
          {message && (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          )}
          <Group grow align="flex-start">
            <TextInput label={t('datatab.tableDialog.name')} withAsterisk data-autofocus value={name} error={nameError} onChange={(e) => setName(e.currentTarget.value)} />
            <NativeSelect label={t('datatab.tableDialog.folder')} value={folder} data={folderOptions(folders, t('datatab.tableDialog.noFolder'))} onChange={(e) => setFolder(e.currentTarget.value)} />
          </Group>
          <Text fw={600}>{t('datatab.tableDialog.columns')}</Text>
          {drafts.length === 0 && (
            <Text c="dimmed" size="sm">
              {t('datatab.tableDialog.noColumns')}
            </Text>
          )}
          {queryError && (
            <Alert color="red" role="alert">
              {queryError}
            </Alert>
          )}
          {drafts.map((draft, index) => (
            <Paper key={draft.uid} withBorder p="sm" data-testid="column-draft">
              <Group align="flex-end" gap="xs" wrap="wrap">
                <TextInput
                  label={t('datatab.tableDialog.label')}
                  value={draft.label}
                  onChange={(e) => {
                    const label = e.currentTarget.value;
                    update(draft.uid, draft.key === '' || draft.key === keyFromLabel(draft.label) ? { label, key: keyFromLabel(label) } : { label });
                  }}
                  w={160}
                />
                <TextInput label={t('datatab.tableDialog.key')} value={draft.key} onChange={(e) => update(draft.uid, { key: e.currentTarget.value })} w={140} />
                <NativeSelect
                  label={t('datatab.tableDialog.type')}
                  value={draft.type}
                  data={fieldTypeOptions.map((type) => ({ value: type, label: t(`datatab.types.${type}`) }))}
                  onChange={(e) => update(draft.uid, { type: e.currentTarget.value as FieldType })}
                  w={190}
                />
                {draft.type === 'CharField' && (
                  <TextInput label={t('datatab.tableDialog.maxLength')} type="number" min={1} step={1} value={draft.maxLength} onChange={(e) => update(draft.uid, { maxLength: e.currentTarget.value })} w={100} />
                )}
                {draft.type === 'DecimalField' && (
                  <>
                    <TextInput label={t('datatab.tableDialog.maxDigits')} type="number" min={1} max={38} step={1} value={draft.maxDigits} onChange={(e) => update(draft.uid, { maxDigits: e.currentTarget.value })} w={100} />
                    <TextInput label={t('datatab.tableDialog.decimalPlaces')} type="number" min={0} max={20} step={1} value={draft.decimalPlaces} onChange={(e) => update(draft.uid, { decimalPlaces: e.currentTarget.value })} w={120} />
                    <Checkbox label={t('datatab.tableDialog.money')} checked={draft.money} onChange={(e) => update(draft.uid, { money: e.currentTarget.checked })} mb={8} />
                  </>
                )}
                {supportsChoices(draft.type) && (
                  <TextInput label={t('datatab.tableDialog.choices')} value={draft.choices} onChange={(e) => update(draft.uid, { choices: e.currentTarget.value })} w={200} />
                )}
                {draft.type === 'ForeignKey' && (
                  <NativeSelect
                    label={t('datatab.tableDialog.relatedTable')}
                    value={draft.relatedTable}
                    data={[{ value: '', label: '' }, ...tables.map((table) => ({ value: table.name, label: table.name }))]}
                    onChange={(e) => update(draft.uid, { relatedTable: e.currentTarget.value })}
                    w={180}
                  />
                )}
                {draft.type === 'query' && (
                  <NativeSelect
                    label={t('datatab.tableDialog.queryName')}
                    value={draft.queryName}
                    data={[{ value: '', label: '' }, ...queries.map((query) => ({ value: query.name, label: query.name }))]}
                    onChange={(e) => update(draft.uid, { queryName: e.currentTarget.value })}
                    w={200}
                  />
                )}
                {supportsRequired(draft.type) && (
                  <Checkbox label={t('datatab.tableDialog.required')} checked={draft.required} onChange={(e) => update(draft.uid, { required: e.currentTarget.checked })} mb={8} />
                )}
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('datatab.tableDialog.removeColumn', { index: index + 1 })}
                  onClick={() => setDrafts((current) => current.filter((d) => d.uid !== draft.uid))}
                  mb={4}
                >
                  ✕
                </ActionIcon>
              </Group>
            </Paper>
          ))}
          <Group justify="space-between">
            <Button variant="light" onClick={() => setDrafts((current) => [...current, emptyDraft(nextUid.current++)])}>
              {t('datatab.tableDialog.addColumn')}
            </Button>
            <Group>
              <Button variant="default" onClick={onClose}>
                {t('datatab.actions.cancel')}
              </Button>
              <BusyButton type="submit" busy={busy}>
                {t('datatab.actions.create')}
              </BusyButton>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
