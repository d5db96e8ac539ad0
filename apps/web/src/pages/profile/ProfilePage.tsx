import { useEffect } from 'react';
import { Alert, Button, Loader, Paper, Table, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAccountStore } from '../../stores/account.ts';
import { AccountSecurity } from './AccountSecurity.tsx';
import { YourPreferences } from './YourPreferences.tsx';
import './mantine-styles.ts';

export default function ProfilePage() {
  const { t } = useTranslation();
  const { account, isLoading, error, load } = useAccountStore();

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <>
      <Title order={1} mb="lg">
        {t('pages.profile.title')}
      </Title>
      {isLoading && <Loader size="sm" role="status" aria-label={t('pages.profile.loading')} />}
      {error && (
        <Alert color="red" role="alert" mb="md">
          {error}
          <Button variant="subtle" size="xs" ml="sm" onClick={() => void load()}>
            {t('pages.profile.retry')}
          </Button>
        </Alert>
      )}
      {account?.must_change_password && (
        <Alert color="blue" mb="md" maw={640} data-testid="choose-password-notice">
          {t('startingPassword.profileNotice')}
        </Alert>
      )}
      {account && (
        <Paper withBorder p="md" maw={480}>
          <Table variant="vertical" data-testid="account">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={140}>{t('pages.profile.username')}</Table.Th>
                <Table.Td data-testid="account-username">{account.username}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('pages.profile.email')}</Table.Th>
                <Table.Td>{account.email || t('pages.profile.noEmail')}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('pages.profile.role')}</Table.Th>
                <Table.Td data-testid="account-role">{t(`roles.${account.role}`)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{t('pages.profile.id')}</Table.Th>
                <Table.Td>{account.id}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {/* An approved account that chose its own password: a pending one reads no dates, a starting password comes first. */}
      {account && account.role !== 'pending' && !account.must_change_password && <YourPreferences />}
      {account && <AccountSecurity startingPassword={account.must_change_password} />}
    </>
  );
}
