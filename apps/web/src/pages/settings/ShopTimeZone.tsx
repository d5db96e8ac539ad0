// Settings → Shop, "Time zone" (administrators; ADR 0173): where the shop is, whose today the
// forecast starts on and whose clock a new integration runs on. Chosen by typing a city or region
// from the zones the browser knows, or this browser's own at a click; none chosen leaves the
// server's zone in effect, and the panel says which. Saved on its own, at the version read (ADR
// 0168's amendment "the shop's settings"): a save over another administrator's since is refused,
// the choice kept, until Reload shows theirs.
import { memo, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ShopSettings } from '@stockwise/contract';
import { fetchShopSettings, saveShopTimeZone } from '../../api/shop.ts';
import { normalizeError } from '../../api/errors.ts';
import { browserTimeZone } from '../../api/shop-day.ts';
import { currentOfConflict } from '../../api/versions.ts';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';
import { useShopStore } from '../../stores/shop.ts';

/** The option of no zone (the server's decides): a choice in the list, so the keyboard reaches it as any other. */
const SERVER_ZONE = 'server';

/** The zone's offset from UTC now, as "GMT+01:00" (GMT for UTC itself), so two zones of one name are told apart. */
function offsetNow(zone: string): string {
  const parts = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(Date.now());
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/**
 * Every zone the browser lists, as "Europe/London (GMT+01:00)" — typing "london" finds it — after
 * those it does not list but can be chosen: the saved one (an older name), this browser's own and
 * UTC (the lists of Chromium and Node leave UTC out).
 */
export function timeZoneOptions(kept: string | null): { value: string; label: string }[] {
  const listed = Intl.supportedValuesOf('timeZone');
  const unlisted = [...new Set([kept, browserTimeZone(), 'UTC'])].filter((zone): zone is string => !!zone && !listed.includes(zone));
  return [...unlisted, ...listed].map((zone) => ({ value: zone, label: `${zone} (${offsetNow(zone)})` }));
}

// Memo: the currency's panel around it re-renders at each of its own changes; the 400 zones need not.
export const ShopTimeZone = memo(function ShopTimeZone() {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<ShopSettings | null>(null);
  // Undefined until the administrator picks: the saved zone shows.
  const [picked, setPicked] = useState<string | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // Saved by someone else since it was read: the settings as they are now, until Reload.
  const [savedMeanwhile, setSavedMeanwhile] = useState<ShopSettings | null>(null);

  const show = (read: ShopSettings) => {
    setSettings(read);
    useShopStore.setState({ timeZone: read.timeZone });
  };
  useEffect(() => {
    fetchShopSettings().then(show, (failure: unknown) => setError(normalizeError(failure).message));
  }, []);

  const saved = settings?.timeZone ?? null;
  const chosen = picked === undefined ? saved : picked;
  const options = useMemo(() => [{ value: SERVER_ZONE, label: t('shop.zone.serverDefault') }, ...timeZoneOptions(saved)], [saved, t]);
  const browserZone = browserTimeZone();

  const submit = () => {
    setBusy(true);
    setError(null);
    setDone(null);
    setSavedMeanwhile(null);
    saveShopTimeZone({ timeZone: chosen }, settings?.timeZoneVersion).then(
      (answer) => {
        show(answer);
        setBusy(false);
        setPicked(undefined);
        setDone(answer.timeZone ? t('shop.zone.saved', { zone: answer.timeZone }) : t('shop.zone.savedServer'));
      },
      (failure: unknown) => {
        const normalized = normalizeError(failure);
        setBusy(false);
        setError(normalized.message);
        setSavedMeanwhile(currentOfConflict<ShopSettings>(normalized));
      },
    );
  };
  const reload = () => {
    if (savedMeanwhile) show(savedMeanwhile);
    setPicked(undefined);
    setSavedMeanwhile(null);
    setError(null);
  };
  const pick = (zone: string | null) => {
    setPicked(zone);
    setDone(null);
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="shop-zone-title" data-testid="shop-zone">
      <Title order={3} size="h4" id="shop-zone-title">
        {t('shop.zone.title')}
      </Title>
      <Text size="sm">{t('shop.zone.intro')}</Text>
      <Group align="flex-end">
        <Select
          label={t('shop.zone.label')}
          description={t('shop.zone.hint')}
          searchable
          allowDeselect={false}
          data={options}
          value={chosen ?? SERVER_ZONE}
          onChange={(value) => pick(value === SERVER_ZONE ? null : value)}
          nothingFoundMessage={t('shop.zone.nothingFound')}
          maxDropdownHeight={320}
          w={{ base: '100%', sm: 360 }}
          disabled={!settings}
          data-testid="shop-zone-select"
        />
        <Button onClick={submit} loading={busy} disabled={!settings || chosen === saved}>
          {t('shop.zone.save')}
        </Button>
      </Group>
      {browserZone && browserZone !== chosen && (
        <Group>
          <Button variant="subtle" size="compact-sm" onClick={() => pick(browserZone)} disabled={!settings}>
            {t('shop.zone.useBrowser', { zone: browserZone })}
          </Button>
        </Group>
      )}
      {settings && (
        <Text size="sm" data-testid="shop-zone-in-effect">
          {settings.timeZoneSource === 'shop' ? t('shop.zone.inEffectShop', { zone: settings.timeZoneInEffect }) : t('shop.zone.inEffectServer', { zone: settings.timeZoneInEffect })}
        </Text>
      )}
      {error && (
        <Alert color="red" role="alert" data-testid="shop-zone-error">
          <Stack gap={4}>
            {error}
            {savedMeanwhile && <ReloadAfterConflict label={t('shop.zone.reload')} hint={t('shop.zone.reloadHint')} onReload={reload} testId="shop-zone-reload" />}
          </Stack>
        </Alert>
      )}
      {done && (
        <Alert color="green" role="status" data-testid="shop-zone-saved">
          {done}
        </Alert>
      )}
    </Stack>
  );
});
