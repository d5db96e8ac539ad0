// Settings → Shop, "Time zone" (administrators; ADR 0173): where the shop is, whose today the
// forecast starts on and whose clock a new integration runs on. Chosen by typing a city or region
// from the zones the browser knows and saved, or this browser's own saved at a click (the button
// reads as the action: QA Irish gift shop F5, ADR 0201); none chosen leaves the
// server's zone in effect, and the panel says which. Saved on its own, at the version read (ADR
// 0168's amendment "the shop's settings"): a save over another administrator's since is refused,
// the choice kept, until Reload shows theirs.
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ShopSettings } from '@stockwise/contract';
import { fetchShopSettings, saveShopTimeZone } from '../../api/shop.ts';
import { normalizeError } from '../../api/errors.ts';
import { browserTimeZone } from '../../api/shop-day.ts';
import { useShopStore } from '../../stores/shop.ts';
import { ShopChoiceAnswer, useShopChoice } from './ShopChoice.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

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
  const [readError, setReadError] = useState<string | null>(null);

  const show = (read: ShopSettings) => {
    setSettings(read);
    useShopStore.setState({ timeZone: read.timeZone, timeZoneInEffect: read.timeZoneInEffect });
  };
  useEffect(() => {
    fetchShopSettings().then(show, (failure: unknown) => setReadError(normalizeError(failure).message));
  }, []);

  const saved = settings?.timeZone ?? null;
  const choice = useShopChoice(saved, show);
  const chosen = choice.chosen;
  const options = useMemo(() => [{ value: SERVER_ZONE, label: t('shop.zone.serverDefault') }, ...timeZoneOptions(saved)], [saved, t]);
  const browserZone = browserTimeZone();

  const save = (zone: string | null) =>
    choice.submit(async (timeZone) => {
      const answer = await saveShopTimeZone({ timeZone }, settings?.timeZoneVersion);
      show(answer);
      return answer.timeZone ? t('shop.zone.saved', { zone: answer.timeZone }) : t('shop.zone.savedServer');
    }, zone);
  // The button goes once its zone is chosen: the focus goes to the box showing it.
  const zoneBox = useRef<HTMLInputElement>(null);
  const saveBrowserZone = (zone: string) => {
    choice.pick(zone);
    save(zone);
    zoneBox.current?.focus();
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="shop-zone-title" data-testid="shop-zone">
      <Title order={3} size="h4" id="shop-zone-title">
        {t('shop.zone.title')}
      </Title>
      <Text size="sm">{t('shop.zone.intro')}</Text>
      <Group align="flex-end">
        <Select
          ref={zoneBox}
          label={t('shop.zone.label')}
          description={t('shop.zone.hint')}
          searchable
          allowDeselect={false}
          data={options}
          value={chosen ?? SERVER_ZONE}
          onChange={(value) => choice.pick(value === SERVER_ZONE ? null : value)}
          nothingFoundMessage={t('shop.zone.nothingFound')}
          maxDropdownHeight={320}
          w={{ base: '100%', sm: 360 }}
          disabled={!settings}
          data-testid="shop-zone-select"
        />
        <BusyButton onClick={() => save(chosen)} busy={choice.busy} disabled={!settings || chosen === saved}>
          {t('shop.zone.save')}
        </BusyButton>
      </Group>
      {browserZone && browserZone !== chosen && (
        <Group>
          <Button variant="subtle" size="compact-sm" onClick={() => saveBrowserZone(browserZone)} disabled={!settings || choice.busy}>
            {t('shop.zone.useBrowser', { zone: browserZone })}
          </Button>
        </Group>
      )}
      {settings && (
        <Text size="sm" data-testid="shop-zone-in-effect">
          {settings.timeZoneSource === 'shop' ? t('shop.zone.inEffectShop', { zone: settings.timeZoneInEffect }) : t('shop.zone.inEffectServer', { zone: settings.timeZoneInEffect })}
        </Text>
      )}
      {readError && (
        <Text size="sm" c="red" role="alert">
          {readError}
        </Text>
      )}
      <ShopChoiceAnswer choice={choice} reloadLabel={t('shop.zone.reload')} reloadHint={t('shop.zone.reloadHint')} testId="shop-zone" />
    </Stack>
  );
});
