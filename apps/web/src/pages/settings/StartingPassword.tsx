// A starting password an administrator gives (adding a colleague or resetting a forgotten
// password): generated or typed, and a generated one shown once with a copy button.
import { Button, Code, CopyButton, Group, PasswordInput, Radio, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { passwordPolicy } from '@stockwise/contract';
import { generateStartingPassword } from './starting-password.ts';

export type PasswordChoice = 'generate' | 'type';

/** The password to send: a fresh generated one, or what was typed. */
export const chosenPassword = (choice: PasswordChoice, typed: string) => (choice === 'generate' ? generateStartingPassword() : typed);

export function StartingPasswordFields(props: {
  choice: PasswordChoice;
  onChoice: (choice: PasswordChoice) => void;
  typed: string;
  onTyped: (typed: string) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Radio.Group label={t('users.add.password')} value={props.choice} onChange={(value) => props.onChoice(value as PasswordChoice)}>
        <Stack gap="xs" mt="xs">
          <Radio value="generate" label={t('users.add.generate')} />
          <Radio value="type" label={t('users.add.type')} />
        </Stack>
      </Radio.Group>
      {props.choice === 'type' && (
        <PasswordInput
          label={t('users.add.typedPassword')}
          description={t('users.add.passwordRules', { count: passwordPolicy.minLength })}
          autoComplete="new-password"
          value={props.typed}
          error={props.error}
          onChange={(event) => props.onTyped(event.currentTarget.value)}
        />
      )}
    </>
  );
}

export function GeneratedPassword({ password }: { password: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" fw={600}>
        {t('users.add.startingPassword')}
      </Text>
      <Code fz="md" data-testid="starting-password">
        {password}
      </Code>
      <CopyButton value={password}>
        {({ copied, copy }) => (
          <Button size="xs" variant="default" onClick={copy}>
            {copied ? t('users.add.copied') : t('users.add.copy')}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
