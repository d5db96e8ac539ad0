// Small dialogs of the Data screen: new folder, move a table, delete a table, delete a row.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, List, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RowReferences, TableSummary } from '@stockwise/contract';
import { useCan } from '../../stores/role.ts';
import { useTablesStore, type OperationResult } from '../../stores/tables.ts';
import { referringRowsText } from './referring-rows.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** Mantine's default red under white text is 3.2:1; its darkest red meets WCAG AA's 4.5:1. */
const DANGER_COLOR = 'red.9';

type DialogFrameProps = {
  title: string;
  submitLabel: string;
  danger?: boolean;
  /** 'waiting': shown but not yet usable; 'hidden': nothing to submit (only Cancel). */
  submit?: 'ready' | 'waiting' | 'hidden';
  onClose: () => void;
  onSubmit: () => Promise<OperationResult<unknown>>;
  children: ReactNode;
  testId: string;
};

/** A modal form: runs the operation, closes on success, shows the §8 message on failure. */
function DialogFrame({ title, submitLabel, danger, submit = 'ready', onClose, onSubmit, children, testId }: DialogFrameProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const run = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    const result = await onSubmit();
    setBusy(false);
    if (result.ok) onClose();
    else setMessage(result.message);
  };
  return (
    <Modal opened onClose={onClose} title={title} closeButtonProps={{ 'aria-label': t('datatab.actions.close') }}>
      <form onSubmit={(event) => void run(event)} noValidate data-testid={testId}>
        <Stack>
          {message && (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          )}
          {children}
          <Group justify="flex-end">
            {/* A delete asks first with the safe choice focused, as ConfirmButtons does (ADR 0196 F4). */}
            <Button variant="default" onClick={onClose} data-autofocus={danger || undefined}>
              {t('datatab.actions.cancel')}
            </Button>
            {submit !== 'hidden' && (
              <BusyButton type="submit" color={danger ? DANGER_COLOR : undefined} busy={busy} disabled={submit === 'waiting'}>
                {submitLabel}
              </BusyButton>
            )}
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

/**
 * Asks first: a row other rows refer to (a product's sales, stock, deliveries, forecasts) is named
 * with their counts; an administrator may then delete it together with them, anyone else is told
 * why it stays. The server decides either way (409 / 403), this only says so before the click.
 */
export function DeleteRowDialog({ tableName, rowId, version, onClose }: { tableName: string; rowId: number | string; version: string | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const deleteRow = useTablesStore((state) => state.deleteRow);
  const rowReferences = useTablesStore((state) => state.rowReferences);
  const isAdmin = useCan('admin');
  const [references, setReferences] = useState<OperationResult<RowReferences> | null>(null);
  useEffect(() => {
    let current = true;
    void rowReferences(rowId).then((result) => current && setReferences(result));
    return () => {
      current = false;
    };
  }, [rowReferences, rowId]);
  const referring = references?.ok ? references.value : null;
  const referred = referring !== null && referring.total > 0;
  // The row by its code and name when it has them: the user sees which product goes before a delete that cannot be undone.
  const label = referring?.label ?? null;
  const named = label !== null;
  const texts = { id: String(rowId), name: tableName, label };
  let submit: DialogFrameProps['submit'] = 'ready';
  if (references === null) submit = 'waiting';
  else if (referred && !isAdmin) submit = 'hidden';
  return (
    <DialogFrame
      title={t('datatab.deleteRowDialog.title')}
      submitLabel={referred ? t('datatab.deleteRowDialog.cascadeAction', { count: referring.total }) : t('datatab.actions.delete')}
      danger
      submit={submit}
      onClose={onClose}
      onSubmit={() => deleteRow(rowId, { cascade: referred, version })}
      testId="delete-row-dialog"
    >
      {references === null && <Text c="dimmed">{t('datatab.deleteRowDialog.checking')}</Text>}
      {references && !references.ok && (
        <Alert color="yellow" role="status">
          {references.message}
        </Alert>
      )}
      {referred ? (
        <>
          <Text>{t(named ? 'datatab.deleteRowDialog.referredNamed' : 'datatab.deleteRowDialog.referred', texts)}</Text>
          <List data-testid="row-references">
            {referring.references.map((reference) => (
              <List.Item key={reference.table}>{referringRowsText(t, reference)}</List.Item>
            ))}
          </List>
          <Text fw={500}>{isAdmin ? t('datatab.deleteRowDialog.cascadeWarning') : t('datatab.deleteRowDialog.adminOnly')}</Text>
        </>
      ) : (
        references !== null && <Text>{t(named ? 'datatab.deleteRowDialog.messageNamed' : 'datatab.deleteRowDialog.message', texts)}</Text>
      )}
    </DialogFrame>
  );
}
