// The integration editor's "Fill from a key and secret (HTTP Basic)": a shop that gives a consumer
// key and secret (WooCommerce) or a user name and password for Basic auth, written into the
// editor's Header name / Header value as `Authorization: Basic base64(key:secret)`. The two fields
// are cleared once used: the value is stored encrypted with the integration, as a typed one is,
// and never shown again. No form of its own (the editor is one form): Enter here fills the header.
import { useState, type KeyboardEvent } from 'react';
import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useIntegrationsStore } from '../../stores/integrations.ts';
import { basicAuthValue } from './integration-form.ts';

const PANEL_ID = 'basic-auth-from-key';

export function BasicAuthFromKey() {
  const { t } = useTranslation();
  const updateDraft = useIntegrationsStore((state) => state.updateDraft);
  const [open, setOpen] = useState(false);
  const [user, setUser] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [filled, setFilled] = useState(false);

  const fill = () => {
    // RFC 7617: the user name of Basic auth holds no colon (the first colon ends it).
    if (!user.trim() || user.includes(':')) return setError(t('integrations.editor.basicUserProblem'));
    if (!secret) return setError(t('integrations.editor.basicSecretProblem'));
    updateDraft({ auth_header_name: 'Authorization', auth_header_value: basicAuthValue(user.trim(), secret) });
    setUser('');
    setSecret('');
    setError(null);
    setFilled(true);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    fill();
  };

  return (
    <Stack gap="xs" mt="xs">
      <Group>
        <Button variant="subtle" size="xs" aria-expanded={open} aria-controls={PANEL_ID} onClick={() => setOpen(!open)}>
          {t('integrations.editor.basicOpen')}
        </Button>
      </Group>
      {filled ? (
        <Text size="sm" c="teal.9" role="status" data-testid="basic-auth-filled">
          {t('integrations.editor.basicFilled')}
        </Text>
      ) : null}
      {open ? (
        <Stack gap="xs" id={PANEL_ID} data-testid="basic-auth-from-key">
          <Text size="xs" c="dimmed">
            {t('integrations.editor.basicHelp')}
          </Text>
          <Group gap="sm" align="flex-start">
            <TextInput label={t('integrations.editor.basicUser')} value={user} autoComplete="off" onChange={(event) => setUser(event.currentTarget.value)} onKeyDown={onKeyDown} w={260} />
            <PasswordInput label={t('integrations.editor.basicSecret')} value={secret} autoComplete="off" onChange={(event) => setSecret(event.currentTarget.value)} onKeyDown={onKeyDown} error={error ?? undefined} w={260} />
          </Group>
          <Group>
            <Button variant="default" size="xs" onClick={fill}>
              {t('integrations.editor.basicFill')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Stack>
  );
}
