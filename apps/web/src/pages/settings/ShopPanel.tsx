// Settings → Shop (administrators): the shop's currency, which every money figure on the screens
// carries once chosen — unit costs, order costs, the stock's worth (ADR 0166). Chosen by code or
// name from the currencies the browser knows. Below it, the shop's time zone (ADR 0173) and the days
// the shop will be closed on (ADR 0171).
// Saved at the version read (ADR 0168's amendment "the shop's settings"): a save over another
// administrator's since is refused, the choice kept, until Reload shows theirs.
import { useMemo } from 'react';
import { Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { moneyFormat } from '@stockwise/contract';
import { useShopStore } from '../../stores/shop.ts';
import { ShopChoiceAnswer, useShopChoice } from './ShopChoice.tsx';
import { ShopClosedDates } from './ShopClosedDates.tsx';
import { ShopTimeZone } from './ShopTimeZone.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** The figure the panel writes in the chosen currency, so the choice shows as the screens will. */
const EXAMPLE_AMOUNT = 1240.5;
/** The option of no currency (bare figures): a choice in the list, so the keyboard reaches it as any other. */
const NO_CURRENCY = 'none';

const EURO_AREA = ['AT', 'BE', 'CY', 'DE', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PT', 'SI', 'SK'];
/** The currency of a region whose code does not start with the region's (a euro country's), or is not the first that does (CHE before CHF). */
const REGION_CURRENCY: Record<string, string> = { ...Object.fromEntries(EURO_AREA.map((region) => [region, 'EUR'])), CH: 'CHF', LI: 'CHF' };
/** The currency of the browser's region (en-GB: GBP; de-AT: EUR; en: the likely region, US), or null. */
export function regionCurrency(locale: string, codes: readonly string[]): string | null {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).maximize().region;
  } catch {
    return null;
  }
  if (!region) return null;
  // An ISO 4217 code starts with its country's code: GBP, USD, AUD, NZD, JPY.
  return REGION_CURRENCY[region] ?? codes.find((code) => code.startsWith(region)) ?? null;
}

/**
 * Every currency as "USD — US Dollar", by code, the browser region's first, so that typing its name
 * ("pound" in a British browser) offers it first, not the Egyptian pound (QA8 F1); `kept` stays an
 * option even if this browser does not list it.
 */
export function currencyOptions(kept: string | null, locale = navigator.language): { value: string; label: string }[] {
  const names = new Intl.DisplayNames('en', { type: 'currency' });
  const listed = Intl.supportedValuesOf('currency');
  const own = regionCurrency(locale, listed);
  const codes = own ? [own, ...listed.filter((code) => code !== own)] : listed;
  return [...codes, ...(kept && !codes.includes(kept) ? [kept] : [])].map((code) => {
    const name = names.of(code);
    return { value: code, label: name && name !== code ? `${code} — ${name}` : code };
  });
}

export function ShopPanel() {
  const { t } = useTranslation();
  const saved = useShopStore((state) => state.currency);
  const save = useShopStore((state) => state.save);
  const take = useShopStore((state) => state.take);
  const choice = useShopChoice(saved, take);
  const chosen = choice.chosen;
  const options = useMemo(() => [{ value: NO_CURRENCY, label: t('shop.none', { example: moneyFormat(null).format(EXAMPLE_AMOUNT) }) }, ...currencyOptions(saved)], [saved, t]);
  const example = (currency: string | null) => moneyFormat(currency).format(EXAMPLE_AMOUNT);

  const submit = () =>
    choice.submit(async (currency) => {
      await save({ currency });
      return currency ? t('shop.saved', { example: example(currency) }) : t('shop.savedNone', { example: example(null) });
    });

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="shop-title" data-testid="shop-panel">
      <Stack gap="sm">
        <Title order={2} size="h3" id="shop-title">
          {t('shop.title')}
        </Title>
        <Text>{t('shop.intro', { example: example(null) })}</Text>
        <Group align="flex-end">
          <Select
            label={t('shop.currency')}
            description={t('shop.currencyHint')}
            searchable
            allowDeselect={false}
            data={options}
            value={chosen ?? NO_CURRENCY}
            onChange={(value) => choice.pick(value === NO_CURRENCY ? null : value)}
            nothingFoundMessage={t('shop.nothingFound')}
            maxDropdownHeight={320}
            w={{ base: '100%', sm: 360 }}
            data-testid="shop-currency"
          />
          <BusyButton onClick={submit} busy={choice.busy} disabled={chosen === saved}>
            {t('shop.save')}
          </BusyButton>
        </Group>
        <Text size="sm" data-testid="shop-example">
          {t('shop.example', { example: example(chosen) })}
        </Text>
        <ShopChoiceAnswer choice={choice} reloadLabel={t('shop.reload')} reloadHint={t('shop.reloadHint')} testId="shop" />
        <ShopTimeZone />
        <ShopClosedDates />
      </Stack>
    </Paper>
  );
}
