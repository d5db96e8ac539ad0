// Settings → Shop, "Closed on" (administrators; ADR 0171): the days the shop will be closed beyond
// those its sales show every year — a substitute bank holiday, a stock-take day. The forecast sells
// nothing on them. Typed in the browser's order (the Data screen's reader, ADR 0167) or picked; each
// change is saved at once, the whole list, at the version read (ADR 0168's amendment "the shop's
// settings"): a list saved by someone else since is refused, the typed day kept, until Reload.
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dayInPattern, formatDay, readTypedDay, typedFilterProblemText, type ShopClosedDate, type ShopSettings } from '@stockwise/contract';
import { fetchShopSettings, saveShopClosedDates } from '../../api/shop.ts';
import { normalizeError } from '../../api/errors.ts';
import { currentOfConflict } from '../../api/versions.ts';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';
import { viewerDates } from '../datatab/viewer-dates.ts';

const weekday = new Intl.DateTimeFormat('en', { weekday: 'short', timeZone: 'UTC' });
/** "Mon 28 Dec 2026": a planner checks the weekday of a closure. */
const dayWithWeekday = (date: string) => `${weekday.format(new Date(`${date}T00:00:00Z`))} ${formatDay(date)}`;
const todayHere = () => new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 10);

export function ShopClosedDates() {
  const { t } = useTranslation();
  const { order, pattern } = viewerDates();
  const [closed, setClosed] = useState<ShopClosedDate[] | null>(null);
  const [version, setVersion] = useState<string | undefined>(undefined);
  const [typed, setTyped] = useState('');
  const [note, setNote] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Saved by someone else since the list was read: the settings as they are now, until Reload.
  const [savedMeanwhile, setSavedMeanwhile] = useState<ShopSettings | null>(null);

  const show = (settings: ShopSettings) => {
    setClosed(settings.closedDates);
    setVersion(settings.closedDatesVersion);
  };

  useEffect(() => {
    fetchShopSettings().then(show, (failure: unknown) => setError(normalizeError(failure).message));
  }, []);

  const save = async (dates: ShopClosedDate[]): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setSavedMeanwhile(null);
    try {
      show(await saveShopClosedDates({ closedDates: dates }, version));
      return true;
    } catch (failure) {
      const normalized = normalizeError(failure);
      setError(normalized.message);
      setSavedMeanwhile(currentOfConflict<ShopSettings>(normalized));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const read = readTypedDay(typed, order);
    if ('problem' in read) {
      setTypedProblem(read.problem === 'noSuchDay' ? typedFilterProblemText(read, order) : t('shop.closed.notADate', { pattern, example: dayInPattern('2026-12-28', pattern) }));
      return;
    }
    setTypedProblem(null);
    const others = (closed ?? []).filter((day) => day.date !== read.day);
    if (await save([...others, { date: read.day, note: note.trim() || null }])) {
      setTyped('');
      setNote('');
    }
  };

  // The typed day and note stay: Add then puts them in the list as it is now.
  const reload = () => {
    if (savedMeanwhile) show(savedMeanwhile);
    setSavedMeanwhile(null);
    setError(null);
  };

  const today = todayHere();
  return (
    <Stack gap="xs" component="section" aria-labelledby="shop-closed-title" data-testid="shop-closed">
      <Title order={3} size="h4" id="shop-closed-title">
        {t('shop.closed.title')}
      </Title>
      <Text size="sm">{t('shop.closed.intro')}</Text>
      <form onSubmit={(event) => void add(event)} aria-label={t('shop.closed.addForm')}>
        <Group align="flex-start">
          <TextInput
            label={t('shop.closed.date')}
            description={t('shop.closed.dateHint', { pattern })}
            placeholder={dayInPattern('2026-12-28', pattern)}
            value={typed}
            onChange={(event) => {
              setTyped(event.currentTarget.value);
              setTypedProblem(null);
            }}
            error={typedProblem}
            required
            w={{ base: '100%', sm: 200 }}
          />
          <TextInput label={t('shop.closed.note')} description={t('shop.closed.noteHint')} value={note} onChange={(event) => setNote(event.currentTarget.value)} maxLength={100} w={{ base: '100%', sm: 280 }} />
          <Button type="submit" loading={busy} mt={{ base: 0, sm: 44 }}>
            {t('shop.closed.add')}
          </Button>
        </Group>
      </form>
      {closed && closed.length === 0 && <Text size="sm" c="dimmed">{t('shop.closed.none')}</Text>}
      {closed && closed.length > 0 && (
        <List listStyleType="none" spacing={4} aria-label={t('shop.closed.title')} data-testid="shop-closed-list">
          {closed.map((day) => (
            <List.Item key={day.date}>
              <Group gap="sm">
                <Text size="sm" c={day.date < today ? 'dimmed' : undefined}>
                  {dayWithWeekday(day.date)}
                  {day.note ? ` — ${day.note}` : ''}
                  {day.date < today ? ` ${t('shop.closed.past')}` : ''}
                </Text>
                <Button size="compact-sm" variant="subtle" color="red" disabled={busy} aria-label={t('shop.closed.remove', { day: formatDay(day.date) })} onClick={() => void save(closed.filter((other) => other.date !== day.date))}>
                  {t('shop.closed.removeShort')}
                </Button>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {error && (
        <Alert color="red" role="alert" data-testid="shop-closed-error">
          <Stack gap={4}>
            {error}
            {savedMeanwhile && <ReloadAfterConflict label={t('shop.closed.reload')} hint={t('shop.closed.reloadHint')} onReload={reload} testId="shop-closed-reload" />}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
