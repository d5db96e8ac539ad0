// Sign-in (spec §2, §8), and on a server without any account the first one's creation, as
// Metabase's and Gitea's first screens do. Kept light: this route's code is all a signed-out
// visitor downloads.
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Center, Image, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import type { FirstRun } from '@stockwise/contract';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../stores/session.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

// The HTTP client is not needed to draw this screen: it loads when the user starts typing (or at
// the latest on submit), which keeps the JavaScript a signed-out visitor waits for small.
const loadSignIn = () => import('../../stores/sign-in.ts');

// A bare fetch for the same reason; an answer that does not come means the usual sign-in form.
async function fetchFirstRun(): Promise<FirstRun | null> {
  try {
    const response = await fetch('/api/accounts/first-run/', { headers: { accept: 'application/json' } });
    return response.ok ? ((await response.json()) as FirstRun) : null;
  } catch {
    return null;
  }
}

export default function LoginPage() {
  const { t } = useTranslation();
  const isLoggingIn = useSessionStore((state) => state.isLoggingIn);
  const error = useSessionStore((state) => state.error);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [repeatedPassword, setRepeatedPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [firstRun, setFirstRun] = useState<FirstRun | null>(null);

  useEffect(() => {
    let current = true;
    void fetchFirstRun().then((answer) => current && setFirstRun(answer));
    return () => {
      current = false;
    };
  }, []);

  const creatingFirstAccount = firstRun?.first_account_needed === true && firstRun.registration_enabled;
  const registrationOffOnEmptyServer = firstRun?.first_account_needed === true && !firstRun.registration_enabled;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const session = useSessionStore.getState();
    if (session.isLoggingIn) return;
    if (creatingFirstAccount && password !== repeatedPassword) {
      setFieldErrors({ repeated_password: [t('login.firstAccount.passwordsDiffer')] });
      return;
    }
    session.loginStarted();
    setFieldErrors({});
    let signInCode: Awaited<ReturnType<typeof loadSignIn>>;
    try {
      signInCode = await loadSignIn();
    } catch {
      session.loginFailed(t('login.errors.network'));
      return;
    }
    const result = creatingFirstAccount ? await signInCode.createFirstAccount({ username, password }) : await signInCode.signIn({ username, password });
    if (!result.ok) setFieldErrors(result.fieldErrors);
  };

  const fieldError = (field: string) => fieldErrors[field]?.join(' ') || undefined;
  const edited = (field: string, update: (value: string) => void) => (value: string) => {
    update(value);
    if (fieldErrors[field]) setFieldErrors(({ [field]: _, ...others }) => others);
    void loadSignIn();
  };

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={400}>
        <form onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={isLoggingIn}>
          <Stack>
            <Stack gap={4} align="center">
              <Image src="/logo.svg" alt={t('app.logoAlt')} w={48} h={48} />
              <Title order={1} size="h3" ta="center">
                {creatingFirstAccount ? t('login.firstAccount.title') : t('login.title')}
              </Title>
              <Text c="dimmed" size="sm" ta="center">
                {creatingFirstAccount ? t('login.firstAccount.subtitle') : t('login.subtitle')}
              </Text>
            </Stack>
            {registrationOffOnEmptyServer && (
              <Alert color="yellow" data-testid="first-account-registration-off">
                {t('login.firstAccount.registrationOff')}
              </Alert>
            )}
            {error && (
              <Alert color="red" role="alert" data-testid="login-error">
                {error}
              </Alert>
            )}
            <TextInput
              label={t('login.username')}
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              value={username}
              onChange={(event) => edited('username', setUsername)(event.currentTarget.value)}
              error={fieldError('username')}
            />
            <PasswordInput
              label={t('login.password')}
              description={creatingFirstAccount ? t('login.firstAccount.passwordRule') : undefined}
              name="password"
              autoComplete={creatingFirstAccount ? 'new-password' : 'current-password'}
              value={password}
              onChange={(event) => edited('password', setPassword)(event.currentTarget.value)}
              error={fieldError('password')}
            />
            {creatingFirstAccount && (
              <PasswordInput
                label={t('login.firstAccount.repeatPassword')}
                name="repeated_password"
                autoComplete="new-password"
                value={repeatedPassword}
                onChange={(event) => edited('repeated_password', setRepeatedPassword)(event.currentTarget.value)}
                error={fieldError('repeated_password')}
              />
            )}
            <BusyButton type="submit" busy={isLoggingIn} fullWidth>
              {creatingFirstAccount ? t('login.firstAccount.submit') : t('login.submit')}
            </BusyButton>
          </Stack>
        </form>
        {!firstRun?.first_account_needed && (
          <Text size="sm" ta="center" mt="md">
            {t('login.noAccount')}
          </Text>
        )}
      </Paper>
    </Center>
  );
}
