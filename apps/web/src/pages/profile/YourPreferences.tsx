// Profile → Your preferences: how the person writes dates with numbers alone (ADR 0167, amendment).
// Stored on their account, so it follows them to another computer; every screen that reads a typed
// date (the Data screen's filters and row form, the shop's closed days, the assistant) reads it so.
import { useState, type FormEvent } from 'react';
import { Alert, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dateOrderPreferences, dayInPattern, type DateOrderPreference } from '@stockwise/contract';
import { useAccountStore } from '../../stores/account.ts';
import { browserDates, viewerDates } from '../../components/viewer-dates.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** What each choice writes: 30 November 2026 in its pattern; the browser's pattern and the language it comes from. */
function exampleOf(preference: DateOrderPreference): string {
  if (preference !== 'browser') return dayInPattern('2026-11-30', viewerDates(preference).pattern);
  const { pattern, language } = browserDates();
  return language ? `${pattern} (${language})` : pattern;
}

export function YourPreferences() {
  const { t } = useTranslation();
  const saved = useAccountStore((state) => state.dateOrder);
  const [chosen, setChosen] = useState<DateOrderPreference>(saved);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await useAccountStore.getState().saveDateOrder(chosen);
    setBusy(false);
    setMessage(result.ok ? { ok: true, text: t('profile.preferences.saved', { choice: t(`profile.preferences.${chosen}`), example: exampleOf(chosen) }) } : { ok: false, text: result.message });
  };

  return (
    <Paper withBorder p="md" mt="lg" maw={480} component="section" aria-labelledby="preferences-title">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="preferences-title">
            {t('profile.preferences.title')}
          </Title>
          <Radio.Group
            label={t('profile.preferences.dates')}
            description={t('profile.preferences.datesHelp')}
            value={chosen}
            onChange={(value) => {
              setChosen(value as DateOrderPreference);
              setMessage(null);
            }}
          >
            <Stack gap="xs" mt="xs">
              {dateOrderPreferences.map((preference) => (
                <Radio
                  key={preference}
                  value={preference}
                  data-testid={`dates-${preference}`}
                  label={
                    <Text component="span" size="sm">
                      {t(`profile.preferences.${preference}`)} — <span dir="ltr">{exampleOf(preference)}</span>
                    </Text>
                  }
                />
              ))}
            </Stack>
          </Radio.Group>
          {message && (
            <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'} data-testid="preferences-message">
              {message.text}
            </Alert>
          )}
          <Group>
            <BusyButton type="submit" color="blue.8" busy={busy} disabled={chosen === saved}>
              {t('profile.preferences.save')}
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
