// Small dialogs of the Data screen: new folder, move a table, delete a table, delete a row.
import { useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TableSummary } from '@stockwise/contract';
import { useTablesStore, type OperationResult } from '../../stores/tables.ts';

type DialogFrameProps = {
  title: string;
  submitLabel: string;
  danger?: boolean;
  onClose: () => void;
  onSubmit: () => Promise<OperationResult<unknown>>;
  children: ReactNode;
  testId: string;
};

/** A modal form: runs the operation, closes on success, shows the §8 message on failure. */
function DialogFrame({ title, submitLabel, danger, onClose, onSubmit, children, testId }: DialogFrameProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    const result = await onSubmit();
    setBusy(false);
    if (result.ok) onClose();
    else setMessage(result.message);
  };
  return (
    <Modal opened onClose={onClose} title={title}>
      <form onSubmit={(event) => void submit(event)} noValidate data-testid={testId}>
        <Stack>
          {message && (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          )}
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('datatab.actions.cancel')}
            </Button>
            <Button type="submit" color={danger ? 'red' : undefined} loading={busy}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export function folderOptions(folders: readonly string[], noFolderLabel: string) {
  return [{ value: '', label: noFolderLabel }, ...folders.map((folder) => ({ value: folder, label: folder }))];
}

export function CreateFolderDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const createFolder = useTablesStore((state) => state.createFolder);
  const [path, setPath] = useState('');
  return (
    <DialogFrame title={t('datatab.folderDialog.title')} submitLabel={t('datatab.actions.create')} onClose={onClose} onSubmit={() => createFolder(path)} testId="folder-dialog">
      <TextInput
        label={t('datatab.folderDialog.path')}
        description={t('datatab.folderDialog.pathDescription')}
        data-autofocus
        withAsterisk
        value={path}
        onChange={(event) => setPath(event.currentTarget.value)}
      />
    </DialogFrame>
  );
}

export function MoveTableDialog({ table, onClose }: { table: TableSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const folders = useTablesStore((state) => state.folders);
  const moveTable = useTablesStore((state) => state.moveTable);
  const [folder, setFolder] = useState(table.folder);
  return (
    <DialogFrame
      title={t('datatab.moveDialog.title', { name: table.name })}
      submitLabel={t('datatab.actions.move')}
      onClose={onClose}
      onSubmit={() => moveTable(table.encodedName, folder)}
      testId="move-dialog"
    >
      <NativeSelect
        label={t('datatab.moveDialog.folder')}
        data-autofocus
        value={folder}
        data={folderOptions(folders, t('datatab.tableDialog.noFolder'))}
        onChange={(event) => setFolder(event.currentTarget.value)}
      />
    </DialogFrame>
  );
}

export function DeleteTableDialog({ table, onClose }: { table: TableSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const deleteTable = useTablesStore((state) => state.deleteTable);
  return (
    <DialogFrame
      title={t('datatab.deleteTableDialog.title')}
      submitLabel={t('datatab.actions.delete')}
      danger
      onClose={onClose}
      onSubmit={() => deleteTable(table.encodedName)}
      testId="delete-table-dialog"
    >
      <Text>{t('datatab.deleteTableDialog.message', { name: table.name })}</Text>
      <Text c="dimmed" size="sm">
        {t('datatab.deleteTableDialog.variations')}
      </Text>
    </DialogFrame>
  );
}

export function DeleteRowDialog({ tableName, rowId, onClose }: { tableName: string; rowId: number | string; onClose: () => void }) {
  const { t } = useTranslation();
  const deleteRow = useTablesStore((state) => state.deleteRow);
  return (
    <DialogFrame
      title={t('datatab.deleteRowDialog.title')}
      submitLabel={t('datatab.actions.delete')}
      danger
      onClose={onClose}
      onSubmit={() => deleteRow(rowId)}
      testId="delete-row-dialog"
    >
      <Text>{t('datatab.deleteRowDialog.message', { id: String(rowId), name: tableName })}</Text>
    </DialogFrame>
  );
}
