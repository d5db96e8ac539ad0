// Settings → Users (administrators): every account with its role, last sign-in and state; add a
// colleague, approve a pending account, change a role, give a new starting password, disable or
// enable an account. The server keeps one active admin and its refusal (409) is shown as it comes.
import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, NativeSelect, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { roles, type Role, type UserSummary } from '@stockwise/contract';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import { useUserId } from '../../stores/role.ts';
import { useUsersStore } from '../../stores/users.ts';
import { AddUserDialog } from './AddUserDialog.tsx';
import { ResetPasswordDialog } from './ResetPasswordDialog.tsx';
import { formatTime } from '../../components/format-time.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

export function UsersPanel() {
  const { t } = useTranslation();
  const { users, error, busyId } = useUsersStore();
  const { load, setRole, setDisabled } = useUsersStore.getState();
  const ownId = useUserId();
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<UserSummary | null>(null);
  const rememberDialogOpener = useDialogFocusReturn(adding || resetting !== null);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h3" id="users-title">
          {t('users.title')}
        </Title>
        <Button
          color="blue.8"
          onClick={() => {
            rememberDialogOpener();
            setAdding(true);
          }}
        >
          {t('users.add.open')}
        </Button>
      </Group>
      {adding && <AddUserDialog onClose={() => setAdding(false)} />}
      {resetting && <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />}
      <Text mb="md">
        {t('users.intro')}
      </Text>
      {error && (
        <Alert color="red" role="alert" mb="md" data-testid="users-error">
          {error}
        </Alert>
      )}
      {users === null && !error && <Loader size="sm" role="status" aria-label={t('users.loading')} />}
      {users && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped data-testid="users-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('users.columns.username')}</Table.Th>
                <Table.Th>{t('users.columns.role')}</Table.Th>
                <Table.Th>{t('users.columns.lastSignIn')}</Table.Th>
                <Table.Th>{t('users.columns.state')}</Table.Th>
                <Table.Th>{t('users.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((user) => (
                <Table.Tr key={user.id} data-testid="user-row" data-username={user.username}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {user.username}
                      {user.id === ownId ? ` ${t('users.you')}` : ''}
                    </Text>
                    {user.email && (
                      <Text size="xs">
                        {user.email}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <NativeSelect
                      size="xs"
                      value={user.role}
                      disabled={busyId === user.id}
                      aria-label={t('users.roleOf', { username: user.username })}
                      data={roles.map((role) => ({ value: role, label: t(`roles.${role}`) }))}
                      onChange={(event) => void setRole(user, event.currentTarget.value as Role)}
                    />
                  </Table.Td>
                  <Table.Td>{user.last_sign_in_at ? formatTime(user.last_sign_in_at) : t('users.never')}</Table.Td>
                  <Table.Td>
                    {user.disabled ? (
                      <Badge color="gray.7">{t('users.disabled')}</Badge>
                    ) : user.role === 'pending' ? (
                      <Badge color="indigo.8">{t('users.pending')}</Badge>
                    ) : user.must_change_password ? (
                      <Badge color="indigo.8" title={t('users.startingPasswordHint')}>
                        {t('users.startingPasswordBadge')}
                      </Badge>
                    ) : (
                      <Badge color="teal.9">{t('users.active')}</Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {user.role === 'pending' && !user.disabled && (
                        <BusyButton size="xs" color="blue.8" busy={busyId === user.id} aria-label={t('users.approveUser', { username: user.username })} onClick={() => void setRole(user, 'viewer')}>
                          {t('users.approve')}
                        </BusyButton>
                      )}
                      {user.id !== ownId && !user.disabled && (
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={t('users.reset.openFor', { username: user.username })}
                          onClick={() => {
                            rememberDialogOpener();
                            setResetting(user);
                          }}
                        >
                          {t('users.reset.open')}
                        </Button>
                      )}
                      <Button
                        size="xs"
                        variant="default"
                        color={user.disabled ? undefined : 'red'}
                        disabled={busyId === user.id}
                        aria-label={t(user.disabled ? 'users.enableUser' : 'users.disableUser', { username: user.username })}
                        onClick={() => void setDisabled(user, !user.disabled)}
                      >
                        {t(user.disabled ? 'users.enable' : 'users.disable')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
