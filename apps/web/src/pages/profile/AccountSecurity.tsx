// The profile's security sections: change the password (old, new, confirm; errors under their
// fields), the active sessions with revoke, and "Sign out everywhere".
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Paper, PasswordInput, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { passwordPolicy } from '@stockwise/contract';
import { loginPath } from '../../routing/guard.ts';
import { useSessionsStore } from '../../stores/sessions.ts';
import { formatTime } from '../../components/format-time.ts';
import { deviceName } from './device.ts';
import { useFocusFirstInvalid } from '../../components/form-focus.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

type Fields = { old_password: string; new_password: string; confirm: string };
const emptyFields: Fields = { old_password: '', new_password: '', confirm: '' };

/** `startingPassword`: the account must choose its own first, so the form is what the visit is for. */
function ChangePasswordForm({ startingPassword }: { startingPassword: boolean }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<Fields>(emptyFields);
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const currentPassword = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (startingPassword) currentPassword.current?.focus();
  }, [startingPassword]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Partial<Record<keyof Fields, string>> = {};
    if (!fields.old_password) found.old_password = t('profile.password.required');
    if (fields.new_password.length < passwordPolicy.minLength) found.new_password = t('profile.password.tooShort', { count: passwordPolicy.minLength });
    if (fields.confirm !== fields.new_password) found.confirm = t('profile.password.mismatch');
    setErrors(found);
    setMessage(null);
    if (Object.keys(found).length > 0) {
      focusFirstInvalid();
      return;
    }
    setBusy(true);
    const result = await useSessionsStore.getState().changePassword({ oldPassword: fields.old_password, newPassword: fields.new_password });
    setBusy(false);
    if (result.ok) {
      setFields(emptyFields);
      setMessage({ ok: true, text: t('profile.password.changed', { count: result.revoked }) });
      return;
    }
    const fieldErrors = { old_password: result.fieldErrors.old_password?.join(' '), new_password: result.fieldErrors.new_password?.join(' ') };
    setErrors(fieldErrors);
    focusFirstInvalid();
    // A refusal that names a field is shown under it; anything else above the button.
    if (!fieldErrors.old_password && !fieldErrors.new_password) setMessage({ ok: false, text: result.message });
  };

  const field = (name: keyof Fields, autoComplete: string) => ({
    value: fields[name],
    error: errors[name],
    autoComplete,
    onChange: (event: { currentTarget: HTMLInputElement }) => {
      const value = event.currentTarget.value;
      setFields((current) => ({ ...current, [name]: value }));
      setErrors((current) => (current[name] ? { ...current, [name]: undefined } : current));
    },
  });

  return (
    <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate aria-labelledby="password-title">
      <Stack gap="sm" maw={420}>
        <Title order={2} size="h4" id="password-title">
          {t('profile.password.title')}
        </Title>
        <PasswordInput ref={currentPassword} label={t('profile.password.old')} {...field('old_password', 'current-password')} />
        <PasswordInput label={t('profile.password.new')} {...field('new_password', 'new-password')} />
        <PasswordInput label={t('profile.password.confirm')} {...field('confirm', 'new-password')} />
        {message && (
          <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'} data-testid="password-message">
            {message.text}
          </Alert>
        )}
        <Group>
          <BusyButton type="submit" color="blue.8" busy={busy}>
            {t('profile.password.submit')}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

function SessionsTable() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { sessions, error } = useSessionsStore();
  const { load, revoke, signOutEverywhere } = useSessionsStore.getState();

  useEffect(() => {
    void load();
  }, [load]);

  const everywhere = async () => {
    await signOutEverywhere();
    if (!useSessionsStore.getState().error) void navigate(loginPath, { replace: true });
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4" id="sessions-title">
          {t('profile.sessions.title')}
        </Title>
        <Button variant="default" color="red" onClick={() => void everywhere()}>
          {t('profile.sessions.signOutEverywhere')}
        </Button>
      </Group>
      {error && (
        <Alert color="red" role="alert" data-testid="sessions-error">
          {error}
        </Alert>
      )}
      {sessions && sessions.length === 0 && <Text>{t('profile.sessions.none')}</Text>}
      {sessions && sessions.length > 0 && (
        <Table.ScrollContainer minWidth={600}>
          <Table striped aria-labelledby="sessions-title" data-testid="sessions-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('profile.sessions.device')}</Table.Th>
                <Table.Th>{t('profile.sessions.started')}</Table.Th>
                <Table.Th>{t('profile.sessions.lastUsed')}</Table.Th>
                <Table.Th>{t('profile.sessions.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sessions.map((session) => (
                <Table.Tr key={session.id} data-testid="session-row" data-current={session.current || undefined}>
                  <Table.Td>
                    <Text size="sm" lineClamp={2} title={session.user_agent ?? undefined}>
                      {session.user_agent ? deviceName(session.user_agent) : t('profile.sessions.unknownAgent')}
                    </Text>
                    {session.current && (
                      <Text size="xs" fw={600} c="teal.9">
                        {t('profile.sessions.thisDevice')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{formatTime(session.started_at)}</Table.Td>
                  <Table.Td>{formatTime(session.last_used_at)}</Table.Td>
                  <Table.Td>
                    {!session.current && (
                      <Button size="xs" variant="default" onClick={() => void revoke(session.id)} aria-label={t('profile.sessions.revokeOne', { started: formatTime(session.started_at) })}>
                        {t('profile.sessions.revoke')}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

export function AccountSecurity({ startingPassword }: { startingPassword: boolean }) {
  return (
    <>
      <Paper withBorder p="md" mt="lg" maw={480} component="section">
        <ChangePasswordForm startingPassword={startingPassword} />
      </Paper>
      <Paper withBorder p="md" mt="lg" component="section" aria-labelledby="sessions-title">
        <SessionsTable />
      </Paper>
    </>
  );
}
