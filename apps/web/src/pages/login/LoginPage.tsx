// Sign-in (spec §2, §8). Kept light: this route's code is all a signed-out visitor downloads.
import { useState, type FormEvent } from 'react';
import { Alert, Button, Center, Image, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../stores/session.ts';

// The HTTP client is not needed to draw this screen: it loads when the user starts typing (or at
// the latest on submit), which keeps the JavaScript a signed-out visitor waits for small.
const loadSignIn = () => import('../../stores/sign-in.ts');

export default function LoginPage() {
  const { t } = useTranslation();
  const isLoggingIn = useSessionStore((state) => state.isLoggingIn);
  const error = useSessionStore((state) => state.error);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const session = useSessionStore.getState();
    if (session.isLoggingIn) return;
    session.loginStarted();
    setFieldErrors({});
    let signIn: Awaited<ReturnType<typeof loadSignIn>>['signIn'];
    try {
      ({ signIn } = await loadSignIn());
    } catch {
      session.loginFailed(t('login.errors.network'));
      return;
    }
    const result = await signIn({ username, password });
    if (!result.ok) setFieldErrors(result.fieldErrors);
  };

  const fieldError = (field: string) => fieldErrors[field]?.join(' ') || undefined;

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={400}>
        <form onSubmit={(event) => void onSubmit(event)} noValidate aria-busy={isLoggingIn}>
          <Stack>
            <Stack gap={4} align="center">
              <Image src="/logo.svg" alt={t('app.logoAlt')} w={48} h={48} />
              <Title order={1} size="h3" ta="center">
                {t('login.title')}
              </Title>
              <Text c="dimmed" size="sm">
                {t('login.subtitle')}
              </Text>
            </Stack>
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
              onChange={(event) => {
                setUsername(event.currentTarget.value);
                void loadSignIn();
              }}
              error={fieldError('username')}
            />
            <PasswordInput
              label={t('login.password')}
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => {
                setPassword(event.currentTarget.value);
                void loadSignIn();
              }}
              error={fieldError('password')}
            />
            <Button type="submit" loading={isLoggingIn} fullWidth>
              {t('login.submit')}
            </Button>
          </Stack>
        </form>
        <Text size="sm" ta="center" mt="md">
          {t('login.noAccount')}
        </Text>
      </Paper>
    </Center>
  );
}
