// The confirmation of setting an import entity back to the configuration file's version (ADR 0181):
// what it changes, setting by setting — as it is now, and after the reset — and that unsaved edits in
// the form go too. The safe choice has the focus, so Enter right after opening resets nothing.
import { Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ConfirmButtons } from '../../components/ConfirmButtons.tsx';
import type { FileChange } from './entity-form.ts';

type Props = {
  name: string;
  changes: FileChange[];
  /** The form holds edits not saved: the reset replaces them too. */
  unsaved: boolean;
  /** A field as the form names it ("Product (product_id)"). */
  fieldLabel: (field: string) => string;
  busy: boolean;
  onCancel: () => void;
  onConfirm: () => void;
};

export function ResetEntityDialog({ name, changes, unsaved, fieldLabel, busy, onCancel, onConfirm }: Props) {
  const { t } = useTranslation();
  const setting = (change: FileChange) => (change.setting === 'mapping' ? fieldLabel(change.field) : t(`entities.reset.setting.${change.setting}`));
  const value = (change: FileChange, shown: string | null) => {
    if (shown === null || shown === '') return t(change.setting === 'mapping' ? 'entities.reset.notMapped' : 'entities.reset.none');
    if (change.setting === 'repeatedKeys') return t(`entities.repeated.${shown}`);
    return change.setting === 'mapping' || change.setting === 'description' ? `“${shown}”` : shown;
  };
  return (
    <Modal opened onClose={onCancel} title={t('entities.reset.title', { name })} size="lg" closeButtonProps={{ 'aria-label': t('entities.reset.close') }}>
      <Stack>
        <Text>{t('entities.reset.intro', { name })}</Text>
        <Table data-testid={`entity-${name}-reset-changes`} verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('entities.reset.setting.title')}</Table.Th>
              <Table.Th scope="col">{t('entities.reset.now')}</Table.Th>
              <Table.Th scope="col">{t('entities.reset.after')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map((change) => (
              <Table.Tr key={change.setting === 'mapping' ? `mapping:${change.field}` : change.setting}>
                <Table.Th scope="row" fw={500}>
                  {setting(change)}
                </Table.Th>
                <Table.Td>{value(change, change.now)}</Table.Td>
                <Table.Td>{value(change, change.file)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {unsaved && <Text data-testid={`entity-${name}-reset-unsaved`}>{t('entities.reset.unsaved')}</Text>}
        <ConfirmButtons cancelLabel={t('entities.reset.cancel')} confirmLabel={t('entities.reset.confirm')} busy={busy} onCancel={onCancel} onConfirm={onConfirm} />
      </Stack>
    </Modal>
  );
}
