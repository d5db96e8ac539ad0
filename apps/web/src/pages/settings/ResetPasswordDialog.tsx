// Settings → Users → Reset password: a colleague forgot theirs. The administrator gives a new
// starting password (generated or typed); the colleague's sign-ins end, and at the next sign-in they
// choose their own before anything else (docs/adr/0151).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { resetPasswordRequest, type UserSummary } from '@stockwise/contract';
import { useUsersStore } from '../../stores/users.ts';
import { chosenPassword, GeneratedPassword, StartingPasswordFields, type PasswordChoice } from './StartingPassword.tsx';
import { useFocusFirstInvalid } from '../../components/form-focus.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

export function ResetPasswordDialog({ user, onClose }: { user: UserSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState<PasswordChoice>('generate');
  const [typedPassword, setTypedPassword] = useState('');
  const [error, setError] = useState<{ field: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Set once the server has taken it: null for a typed password, which the administrator knows.
  const [done, setDone] = useState<{ generatedPassword: string | null } | null>(null);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const words = { username: user.username };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const password = chosenPassword(choice, typedPassword);
    const checked = resetPasswordRequest.safeParse({ password });
    if (!checked.success) {
      setError({ field: true, text: checked.error.issues.map((issue) => issue.message).join(' ') });
      focusFirstInvalid();
      return;
    }
    setBusy(true);
    const result = await useUsersStore.getState().resetPassword(user, password);
    setBusy(false);
    if (result.ok) {
      setDone({ generatedPassword: choice === 'generate' ? password : null });
      return;
    }
    const fieldError = result.fieldErrors.password?.join(' ');
    setError(fieldError && choice === 'type' ? { field: true, text: fieldError } : { field: false, text: fieldError ?? result.message });
    focusFirstInvalid();
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('users.reset.title', words)}
     
      closeButtonProps={{ 'aria-label': t('users.add.close') }}
      // A password shown only once is not lost to a stray click beside the dialog.
      closeOnClickOutside={!done?.generatedPassword}
    >
      {done ? (
        <ResetNotice username={user.username} generatedPassword={done.generatedPassword} onClose={onClose} />
      ) : (
        <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate data-testid="reset-password-form">
          <Stack>
            <Text size="sm">{t('users.reset.explain', words)}</Text>
            <StartingPasswordFields
              choice={choice}
              onChoice={setChoice}
              typed={typedPassword}
              onTyped={(typed) => {
                setTypedPassword(typed);
                setError(null);
              }}
              error={error?.field ? error.text : undefined}
            />
            {error && !error.field && (
              <Alert color="red" role="alert">
                {error.text}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} data-autofocus>
                {t('users.add.cancel')}
              </Button>
              <BusyButton type="submit" color="red.8" busy={busy}>
                {t('users.reset.submit')}
              </BusyButton>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function ResetNotice({ username, generatedPassword, onClose }: { username: string; generatedPassword: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const doneButton = useRef<HTMLButtonElement>(null);
  // The form (and the button that had focus) is gone: focus moves on, not to the page behind.
  useEffect(() => doneButton.current?.focus(), []);
  return (
    <Stack data-testid="password-reset">
      <Text role="status">{t('users.reset.done', { username })}</Text>
      {generatedPassword && <GeneratedPassword password={generatedPassword} />}
      <Text size="sm">{t(generatedPassword ? 'users.reset.passOnGenerated' : 'users.reset.passOnTyped', { username })}</Text>
      <Group justify="flex-end">
        <Button color="blue.8" ref={doneButton} onClick={onClose}>
          {t('users.add.done')}
        </Button>
      </Group>
    </Stack>
  );
}
