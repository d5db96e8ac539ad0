// Settings → Users → Add user: username, role and a starting password the administrator types or
// has generated. Once created, a generated password is shown this one time with a copy button and
// the words to pass it on; the colleague chooses their own at their first sign-in.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { approvedRoles, createUserRequest, type UserSummary } from '@stockwise/contract';
import { useUsersStore } from '../../stores/users.ts';
import { chosenPassword, GeneratedPassword, StartingPasswordFields, type PasswordChoice } from './StartingPassword.tsx';
import { useFocusFirstInvalid } from '../../components/form-focus.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

type ApprovedRole = (typeof approvedRoles)[number];
type Created = { user: UserSummary; generatedPassword: string | null };

export function AddUserDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [created, setCreated] = useState<Created | null>(null);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('users.add.title')}
     
      closeButtonProps={{ 'aria-label': t('users.add.close') }}
      // A password shown only once is not lost to a stray click beside the dialog.
      closeOnClickOutside={!created?.generatedPassword}
    >
      {created ? <CreatedNotice created={created} onClose={onClose} /> : <AddUserForm onCreated={setCreated} onCancel={onClose} />}
    </Modal>
  );
}

function AddUserForm({ onCreated, onCancel }: { onCreated: (created: Created) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<ApprovedRole>('viewer');
  const [choice, setChoice] = useState<PasswordChoice>('generate');
  const [typedPassword, setTypedPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string | undefined>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  // A field's refusal is about what was in it: editing it takes the words away.
  const edited = (field: string) => setFieldErrors((errors) => (errors[field] ? { ...errors, [field]: undefined } : errors));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const password = chosenPassword(choice, typedPassword);
    const show = (errors: Partial<Record<string, string[]>>) => {
      const shown = { username: errors.username?.join(' '), role: errors.role?.join(' '), password: errors.password?.join(' ') };
      setFieldErrors(shown);
      focusFirstInvalid();
      return shown;
    };
    setMessage(null);
    // The server's own schema, so a mistake it would refuse is named in its words before asking.
    const checked = createUserRequest.safeParse({ username, password, role });
    if (!checked.success) {
      show(z.flattenError(checked.error).fieldErrors);
      return;
    }
    setBusy(true);
    const result = await useUsersStore.getState().addUser(checked.data);
    setBusy(false);
    if (result.ok) {
      onCreated({ user: result.user, generatedPassword: choice === 'generate' ? password : null });
      return;
    }
    const shown = show(result.fieldErrors);
    // A refusal that names a field on screen is shown under it; anything else above the buttons.
    if (!shown.username && !shown.role && !(choice === 'type' && shown.password)) setMessage(result.message);
  };

  return (
    <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate data-testid="add-user-form">
      <Stack>
        <TextInput
          label={t('users.add.username')}
          withAsterisk
          data-autofocus
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={username}
          error={fieldErrors.username}
          onChange={(event) => {
            setUsername(event.currentTarget.value);
            edited('username');
          }}
        />
        <NativeSelect
          label={t('users.add.role')}
          value={role}
          error={fieldErrors.role}
          data={approvedRoles.map((value) => ({ value, label: t(`roles.${value}`) }))}
          onChange={(event) => setRole(event.currentTarget.value as ApprovedRole)}
        />
        <StartingPasswordFields
          choice={choice}
          onChoice={setChoice}
          typed={typedPassword}
          onTyped={(typed) => {
            setTypedPassword(typed);
            edited('password');
          }}
          error={fieldErrors.password}
        />
        {message && (
          <Alert color="red" role="alert">
            {message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('users.add.cancel')}
          </Button>
          <BusyButton type="submit" color="blue.8" busy={busy}>
            {t('users.add.submit')}
          </BusyButton>
        </Group>
      </Stack>
    </form>
  );
}

function CreatedNotice({ created, onClose }: { created: Created; onClose: () => void }) {
  const { t } = useTranslation();
  const { user, generatedPassword } = created;
  const words = { username: user.username, role: t(`roles.${user.role}`) };
  const done = useRef<HTMLButtonElement>(null);
  // The form (and the button that had focus) is gone: focus moves on, not to the page behind.
  useEffect(() => done.current?.focus(), []);
  return (
    <Stack data-testid="user-added">
      <Text role="status">{t('users.add.created', words)}</Text>
      {generatedPassword && (
        <>
          <GeneratedPassword password={generatedPassword} />
          <Text size="sm">{t('users.add.passOnGenerated', words)}</Text>
        </>
      )}
      {!generatedPassword && <Text size="sm">{t('users.add.passOnTyped', words)}</Text>}
      <Group justify="flex-end">
        <Button color="blue.8" ref={done} onClick={onClose}>
          {t('users.add.done')}
        </Button>
      </Group>
    </Stack>
  );
}
