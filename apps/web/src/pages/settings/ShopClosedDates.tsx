// Settings → Shop, "Closed on" (administrators; ADR 0171): the days the shop will be closed beyond
// those its sales show every year — a substitute bank holiday, a stock-take day, a Christmas or
// summer closure. The forecast sells nothing on them. Typed in the person's order (the Data
// screen's reader, ADR 0167) or picked from the date fields' calendars, one day or a run from one day
// to another with one note; the list shows a run as one line with one Remove (ADR 0171's amendment
// "a run of closed days in one go"), the run under way on the shop's today said so, a past one
// marked past (its amendment "a date picker, and the closure under way"). Each
// change is saved at once, the whole list, at the version read (ADR 0168's amendment "the shop's
// settings"): a list saved by someone else since is refused, the typed days kept, until Reload.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dayInPattern, formatDay, formatDayOfMonth, MAX_CLOSED_DATES, readTypedDay, typedFilterProblemText, type ShopClosedDate, type ShopSettings } from '@stockwise/contract';
import { fetchShopSettings, saveShopClosedDates } from '../../api/shop.ts';
import { normalizeError } from '../../api/errors.ts';
import { currentOfConflict } from '../../api/versions.ts';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';
import { DayField } from '../../components/day-field/DayField.tsx';
import { shopToday } from '../../api/shop-day.ts';
import { useShopStore } from '../../stores/shop.ts';
import { useViewerDates } from '../../components/viewer-dates.ts';
import { closedRuns, LONGEST_ADDED_RUN, runWhen, withRun, type ClosedRun } from './closed-runs.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

const weekday = new Intl.DateTimeFormat('en', { weekday: 'short', timeZone: 'UTC' });
/** "Mon 28 Dec 2026": a planner checks the weekday of a closure. */
const dayWithWeekday = (date: string) => `${weekday.format(new Date(`${date}T00:00:00Z`))} ${formatDay(date)}`;
/** "24 Dec 2026 – 2 Jan 2027", or the one day: what a Remove button and the status line name. */
const runSpan = (run: Pick<ClosedRun, 'from' | 'to'>) => (run.from === run.to ? formatDay(run.from) : `${formatDay(run.from)} – ${formatDay(run.to)}`);
/** "2 Jan", or "2 Jan 2028" when that is a year or more from `today` (the forecast's own rule for its closed days' words). */
const lastDayText = (to: string, today: string) => (to >= `${Number(today.slice(0, 4)) + 1}${today.slice(4)}` ? formatDay(to) : formatDayOfMonth(to));

/** Where focus goes once a save has shown the new list: the From field after an add, the row now at a removed run's place. */
type FocusAfterSave = 'from' | { row: number };

export function ShopClosedDates() {
  const { t } = useTranslation();
  const { order, pattern } = useViewerDates();
  // The shop's day, not this browser's: a closure under way is the shop's (ADR 0173); the browser's until the settings are read.
  const zone = useShopStore((state) => state.timeZoneInEffect);
  const [closed, setClosed] = useState<ShopClosedDate[] | null>(null);
  const [version, setVersion] = useState<string | undefined>(undefined);
  const [typed, setTyped] = useState('');
  const [typedTo, setTypedTo] = useState('');
  const [note, setNote] = useState('');
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  const [toProblem, setToProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // Saved by someone else since the list was read: the settings as they are now, until Reload.
  const [savedMeanwhile, setSavedMeanwhile] = useState<ShopSettings | null>(null);
  const fromField = useRef<HTMLInputElement>(null);
  const toField = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement & HTMLOListElement>(null);
  const focusAfterSave = useRef<FocusAfterSave | null>(null);

  const show = (settings: ShopSettings) => {
    setClosed(settings.closedDates);
    setVersion(settings.closedDatesVersion);
    useShopStore.setState({ timeZoneInEffect: settings.timeZoneInEffect });
  };

  useEffect(() => {
    fetchShopSettings().then(show, (failure: unknown) => setError(normalizeError(failure).message));
  }, []);

  // Once a save's list and status line show: a removed run's button is gone, so the next row's (or
  // the last one's, or the From field when none is left) takes the focus rather than the page.
  useEffect(() => {
    const target = focusAfterSave.current;
    if (!target || busy) return;
    focusAfterSave.current = null;
    const rows = typeof target === 'object' ? [...(list.current?.querySelectorAll('button') ?? [])] : [];
    const row = typeof target === 'object' ? rows[Math.min(target.row, rows.length - 1)] : undefined;
    (row ?? fromField.current)?.focus();
  }, [closed, status, busy]);

  const save = async (dates: ShopClosedDate[]): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setStatus(null);
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

  const readDay = (text: string): { day: string } | { problem: string } => {
    const read = readTypedDay(text, order);
    if (!('problem' in read)) return read;
    return { problem: read.problem === 'noSuchDay' ? typedFilterProblemText(read, order) : t('shop.closed.notADate', { pattern, example: dayInPattern('2026-12-28', pattern) }) };
  };

  /** The sentence under a field, and the focus on it: nothing is sent. */
  const refuse = (field: 'from' | 'to', problem: string) => {
    (field === 'from' ? setTypedProblem : setToProblem)(problem);
    (field === 'from' ? fromField : toField).current?.focus();
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const from = readDay(typed);
    if ('problem' in from) return refuse('from', from.problem);
    const to = typedTo.trim() ? readDay(typedTo) : from;
    if ('problem' in to) return refuse('to', to.problem);
    setTypedProblem(null);
    setToProblem(null);
    const noteText = note.trim() || null;
    const added = withRun(closed ?? [], from.day, to.day, noteText);
    const span = { from: from.day, to: to.day };
    if ('problem' in added) {
      const field = typedTo.trim() ? 'to' : 'from';
      if (added.problem === 'reversed') return refuse(field, t('shop.closed.reversed', { from: formatDay(from.day), to: formatDay(to.day) }));
      if (added.problem === 'tooLong') return refuse(field, t('shop.closed.tooLong', { run: runSpan(span), count: added.days, longest: LONGEST_ADDED_RUN }));
      return refuse(field, t('shop.closed.tooMany', { count: added.total, max: MAX_CLOSED_DATES }));
    }
    if (!(await save(added.closedDates))) return;
    setStatus(`${t('shop.closed.added', { run: runText({ ...span, days: added.days }) })}${renotedText(added.alreadyListed, added.days, noteText)}`);
    setTyped('');
    setTypedTo('');
    setNote('');
    focusAfterSave.current = 'from';
  };

  const remove = async (run: ClosedRun, row: number) => {
    if (!(await save((closed ?? []).filter((day) => day.date < run.from || day.date > run.to)))) return;
    setStatus(t('shop.closed.removed', { run: runText(run) }));
    focusAfterSave.current = { row };
  };

  /** What an add did to the days the list held already (they took its note): " It was already on the list; …", or nothing. */
  const renotedText = (listed: number, days: number, noteText: string | null) => {
    if (!listed) return '';
    const key = `${days === 1 ? 'dayAlreadyListed' : 'alreadyListed'}${noteText ? '' : 'NoNote'}`;
    return ` ${t(`shop.closed.${key}`, { count: listed, note: noteText })}`;
  };

  /** "24 Dec 2026 – 2 Jan 2027 (10 days)", or the one day. */
  const runText = (run: Pick<ClosedRun, 'from' | 'to' | 'days'>) => (run.days === 1 ? runSpan(run) : `${runSpan(run)} (${t('shop.closed.days', { count: run.days })})`);

  // The typed days and note stay: Add then puts them in the list as it is now.
  const reload = () => {
    if (savedMeanwhile) show(savedMeanwhile);
    setSavedMeanwhile(null);
    setError(null);
  };

  const today = shopToday(zone);
  const runs = closedRuns(closed ?? []);
  const fromDay = readTypedDay(typed, order);
  /** What the list says of a run beside its days: past, or closed now and until when. */
  const whenText = (run: ClosedRun, when: ReturnType<typeof runWhen>) => {
    if (when === 'past') return t('shop.closed.past');
    if (when === 'ahead') return null;
    if (run.to === today) return t(run.from === today ? 'shop.closed.closedToday' : 'shop.closed.closedUntilToday');
    return t('shop.closed.closedNow', { to: lastDayText(run.to, today) });
  };
  return (
    <Stack gap="xs" component="section" aria-labelledby="shop-closed-title" data-testid="shop-closed">
      <Title order={3} size="h4" id="shop-closed-title">
        {t('shop.closed.title')}
      </Title>
      <Text size="sm">{t('shop.closed.intro')}</Text>
      <form onSubmit={(event) => void add(event)} aria-label={t('shop.closed.addForm')}>
        <Group align="flex-start">
          <DayField
            ref={fromField}
            label={t('shop.closed.from')}
            description={t('shop.closed.dateHint', { pattern })}
            order={order}
            pattern={pattern}
            placeholder={dayInPattern('2026-12-28', pattern)}
            today={today}
            value={typed}
            onChange={(text) => {
              setTyped(text);
              setTypedProblem(null);
            }}
            error={typedProblem}
            required
            w={{ base: '100%', sm: 200 }}
          />
          <DayField
            ref={toField}
            label={t('shop.closed.to')}
            description={t('shop.closed.toHint')}
            order={order}
            pattern={pattern}
            placeholder={dayInPattern('2027-01-02', pattern)}
            today={today}
            opensOn={'day' in fromDay ? fromDay.day : null}
            value={typedTo}
            onChange={(text) => {
              setTypedTo(text);
              setToProblem(null);
            }}
            error={toProblem}
            w={{ base: '100%', sm: 200 }}
          />
          <TextInput label={t('shop.closed.note')} description={t('shop.closed.noteHint')} value={note} onChange={(event) => setNote(event.currentTarget.value)} maxLength={100} w={{ base: '100%', sm: 260 }} />
          <BusyButton type="submit" busy={busy} mt={{ base: 0, sm: 44 }}>
            {t('shop.closed.add')}
          </BusyButton>
        </Group>
      </form>
      <Text size="sm" component="div" role="status" data-testid="shop-closed-status">
        {status}
      </Text>
      {closed && closed.length === 0 && <Text size="sm" c="dimmed">{t('shop.closed.none')}</Text>}
      {closed && closed.length > 0 && (
        <List ref={list} listStyleType="none" spacing={4} aria-label={t('shop.closed.title')} data-testid="shop-closed-list">
          {runs.map((run, row) => {
            const when = runWhen(run, today);
            const said = whenText(run, when);
            return (
              <List.Item key={run.from} data-when={when}>
                <Group gap="sm">
                  <Text size="sm" c={when === 'past' ? 'dimmed' : undefined}>
                    {run.days === 1 ? dayWithWeekday(run.from) : `${dayWithWeekday(run.from)} – ${dayWithWeekday(run.to)}`}
                    {run.note ? ` — ${run.note}` : ''}
                    {run.days > 1 ? ` · ${t('shop.closed.days', { count: run.days })}` : ''}
                    {said && (
                      <Text span inherit fw={when === 'now' ? 700 : undefined}>
                        {` ${said}`}
                      </Text>
                    )}
                  </Text>
                  <Button size="compact-sm" variant="subtle" color="red" disabled={busy} aria-label={t('shop.closed.remove', { day: runSpan(run) })} onClick={() => void remove(run, row)}>
                    {t('shop.closed.removeShort')}
                  </Button>
                </Group>
              </List.Item>
            );
          })}
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
