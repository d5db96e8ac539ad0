// The forecast in a buyer's words: how it was made and why, how the demand behaves, how accurate it
// has been, when stock runs out and what to order by when (the model's name and statistics behind a
// "Technical details" disclosure), with "Record order…" beside an order it advises (ADR 0182).
import { List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEFAULT_FORECAST_DAYS, formatDay, quantityFormat as quantity, salesSpan, SHORT_MONTH_NAMES, type ProductForecastResponse, type ProjectionHistory } from '@stockwise/contract';
import { earlyEstimate } from '../../components/early-estimate.ts';
import { addDays } from '../../components/day-field/day-picker.ts';
import { orderByWords, orderDueNow } from '../../components/order-by.tsx';
import { quantityWords, withUnit } from '../../components/quantity-words.ts';
import { RecordOrderAction } from './RecordOrderDialog.tsx';
import { withSupplierOrder } from './supplier-order-words.ts';

const one = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const two = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const finite = (value: number | null | undefined): value is number => typeof value === 'number' && Number.isFinite(value);
const DAY_MS = 86_400_000;
/** A season's months from its first and last selling days: "Nov–Dec", or "Dec" within one month. */
function seasonMonths(from: string, to: string): string {
  const [first, last] = [from, to].map((day) => SHORT_MONTH_NAMES[Number(day.slice(5, 7)) - 1]);
  return first === last ? `${first}` : `${first}–${last}`;
}

const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const dayCount = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/**
 * Where the product stands with the order advice's lists (the latest report, the low-stock list):
 * on them when it sold in their last N days; off them, a product that never sold since it was
 * listed, a new one without sales yet, or one that sold before but not lately. Off the lists, its
 * own advice is not urgent either: never "hurry" for a product the lists leave out.
 */
type Standing = 'active' | 'unsold' | 'new' | 'inactive';
function standingOf(forecast: ProductForecastResponse): Standing {
  if (forecast.activity.recentDemand > 0) return 'active';
  if (forecast.metrics.model.history === 'none') return 'new';
  return forecast.metrics.model.demandClass === 'none' ? 'unsold' : 'inactive';
}

/** Which reorder sentence: stock unknown; off the lists; an order too late to avoid the stockout, an order due now, an order in time, a delivery on its way too late, or none. */
function reorderSummaryKey(standing: Standing, stockUnknown: boolean, daysLate: number, ordering: boolean, tooLateForSeason: boolean, stockout: boolean, dueNow: boolean): string {
  if (stockUnknown) return 'forecasting.explain.reorderSummaryStockUnknown';
  // A season-only item whose order would come after its season: no order, and any stockout before the season ends is bought elsewhere (ADR 0126, amendment 2026-12-04).
  if (tooLateForSeason) return stockout ? 'forecasting.explain.reorderSummaryTooLateForSeasonStockout' : 'forecasting.explain.reorderSummaryTooLateForSeason';
  if (standing === 'unsold') return 'forecasting.explain.reorderSummaryUnsold';
  if (standing === 'new') return ordering ? 'forecasting.explain.reorderSummaryNew' : 'forecasting.explain.reorderSummaryNewNoOrder';
  if (standing === 'inactive') return ordering ? 'forecasting.explain.reorderSummaryInactive' : 'forecasting.explain.reorderSummaryInactiveNoOrder';
  // No order, and the delivery on its way comes after the stockout: hurry it (ADR 0072, amendment 2026-12-04).
  if (!ordering) return daysLate > 0 ? 'forecasting.explain.reorderSummaryOnOrder' : 'forecasting.explain.reorderSummaryNoOrder';
  if (daysLate > 0) return 'forecasting.explain.reorderSummaryLate';
  return dueNow ? 'forecasting.explain.reorderSummaryNow' : 'forecasting.explain.reorderSummary';
}

/**
 * The stockout sentence's key: an empty shelf is out of stock now, whether or not demand is expected
 * (a zero forecast has no stockout, but the shelf is still empty); a new product with nothing on hand
 * has nothing yet, not "out of stock now".
 */
function stockoutKey(standing: Standing, emptyNow: boolean, stockout: boolean): string {
  if (!emptyNow) return stockout ? 'forecasting.explain.stockout' : 'forecasting.explain.noStockout';
  if (standing === 'new') return stockout ? 'forecasting.explain.outOfStockNew' : 'forecasting.explain.nothingYetNoDemand';
  return stockout ? 'forecasting.explain.outOfStock' : 'forecasting.explain.outOfStockNoDemand';
}

/** The 1-in-40 sentence: on an empty shelf, the chance of demand it cannot meet, not of running out; none beside an expected stockout as early. */
function lowerStockoutKey(emptyNow: boolean, stockout: string | null, lowerStockout: string | null): string | null {
  if (!lowerStockout) return null;
  if (emptyNow) return stockout ? null : 'forecasting.explain.emptyLowerChance';
  return !stockout || lowerStockout < stockout ? 'forecasting.explain.stockoutLower' : null;
}

/**
 * The days of sales a forecast made of under four weeks of them (its history 'short': a level of
 * those days) rests on — the first and last day the product sold on —, for its stock-out day to say
 * it is an early estimate, as the dashboard says of a new shop's projection (ADR 0070, amendment
 * 2026-12-06 (2)); null for a forecast of four weeks or more, or of a product that never sold.
 */
function earlySpan(forecast: ProductForecastResponse): ProjectionHistory | null {
  if (forecast.metrics.model.history !== 'short') return null;
  const sold = forecast.historical.sales.filter((point) => point.y !== 0).map((point) => point.ds).sort();
  return sold.length ? salesSpan(sold[0] as string, sold.at(-1) as string) : null;
}

type DemandKey = 'smooth' | 'erratic' | 'intermittent' | 'lumpy' | 'other';
function demandKey(demandClass: string): DemandKey {
  switch (demandClass.toLowerCase()) {
    case 'smooth':
    case 'erratic':
    case 'intermittent':
    case 'lumpy':
      return demandClass.toLowerCase() as DemandKey;
    default:
      return 'other';
  }
}

/** `today`: the viewer's day; an order-by day on or before it is due now, not a date to meet (ADR 0169). */
/**
 * The advice of a product not bought: made here (ADR 0194; the forecast beside it says how many to
 * make) or not stocked (a service or fee, ADR 0200): no order, and why.
 */
function NotBoughtAdvice({ kind }: { kind: NotBought }) {
  const { t } = useTranslation();
  return (
    <>
      <Text size="sm" fw={600} data-testid="reorder-summary">
        {t(`forecasting.explain.${kind}`)}
      </Text>
      <Text size="sm">{t(`forecasting.explain.${kind}Why`)}</Text>
    </>
  );
}

type NotBought = 'madeHere' | 'notStocked';
/** Why a product is not bought, if it is not: not stocked first (a service marked made here keeps no stock either). */
const notBoughtOf = (product: ProductForecastResponse['product']): NotBought | null => (product.notStocked ? 'notStocked' : product.madeHere ? 'madeHere' : null);

export function ForecastExplanation({ forecast, today }: { forecast: ProductForecastResponse; today: string }) {
  const { t } = useTranslation();
  const { model, accuracy } = forecast.metrics;
  const { reorder } = forecast;
  const standing = standingOf(forecast);
  const days = forecast.forecast.sales.length;
  // The forecast's own stockouts, as the report lists them: unlike the chart's crossings, which
  // start at the first forecast day, they know the stock before it (a shelf empty already, or one
  // that runs out on the first day).
  const stockout = forecast.stockouts.find((item) => item.type === 'stockForecast')?.date ?? null;
  const lowerStockout = forecast.stockouts.find((item) => item.type === 'stockLowerBound')?.date ?? null;
  // What the projection starts from (the chart's stock line today), not the stored count.
  const emptyNow = forecast.product.onHand !== null && forecast.product.onHand.units <= 0;
  const lowerKey = lowerStockoutKey(emptyNow, stockout, lowerStockout);
  // A product added to an older shop: its stock-out day rests on its own few days of sales.
  const early = earlySpan(forecast);
  // No stock count yet (a products file's blank stock cell writes none): no projection, so neither a
  // stockout nor an order quantity can be told — said, rather than "no stockout expected".
  const stockUnknown = forecast.forecast.stock.length === 0;
  // Counted, but only after the sales data ends (ADR 0193 F9): the sales up to the count are what is missing.
  const countedLater = stockUnknown ? forecast.product.lastCount : null;
  const salesEnd = countedLater && forecast.forecast.sales[0] ? formatDay(addDays(forecast.forecast.sales[0].ds, -1)) : null;
  // Made here (ADR 0194) or not stocked (ADR 0200): forecast, never ordered, and no stockout warned of.
  const notBought = notBoughtOf(forecast.product);

  // A backtest over weeks the product sold (next to) nothing in — a bedding plant tested in winter —
  // is "error ≈ 0, 100 % smaller than guessing": true of those weeks, and no measure of its season.
  const quietBacktest = finite(accuracy.mae) && accuracy.mae < 0.005;
  const maseComparison = (() => {
    if (!finite(accuracy.mase)) return null;
    const percent = Math.round(Math.abs(1 - accuracy.mase) * 100);
    if (percent < 5) return t('forecasting.explain.maseEqual');
    return t(accuracy.mase < 1 ? 'forecasting.explain.maseBetter' : 'forecasting.explain.maseWorse', { percent });
  })();

  // An order-by day that has come (or passed, on a forecast made days ago) is "now": the order is
  // placed today and arrives a lead time from today, not from a day gone by.
  const dueNow = reorder.orderBy !== null && orderDueNow(reorder.orderBy, today);
  const orderDay = reorder.orderBy && dueNow ? today : reorder.orderBy;
  // An order placed by its order-by date that still arrives after the expected stockout: too late to
  // avoid it, which "order by today" alone would hide.
  const arrival = orderDay && reorder.orderQuantity > 0 ? shiftDay(orderDay, reorder.leadTimeDays) : null;
  // No order advised, yet it runs out: a delivery already on its way ends the stockout, later than it.
  const onOrder = arrival === null ? (reorder.onOrderArrives ?? null) : null;
  const tooLateForSeason = reorder.tooLateForSeason ?? null;
  const arrives = arrival ?? onOrder ?? tooLateForSeason?.arrives ?? null;
  const daysLate = !stockUnknown && stockout && arrives ? dayCount(stockout, arrives) : 0;
  const needsCount = t(countedLater ? 'forecasting.explain.needsRecentSales' : 'forecasting.explain.needsStockCount');
  // Not sold since it was listed: no order is advised, whatever the safety stock of a zero forecast comes to.
  const notAdvised = standing === 'unsold' ? t('forecasting.explain.notAdvised') : null;
  // Looking further ahead than the stored 90 days finds orders due after them, which the order lists
  // (90 days ahead, as the catalogue run stores) do not hold yet (ADR 0162, amendment 2026-12-04 horizon).
  const beyondLists = arrival !== null && reorder.orderBy !== null && reorder.orderBy > shiftDay(forecast.metrics.display_window.forecast_start, DEFAULT_FORECAST_DAYS);
  // Stock levels and the order in the product's unit, to the places the engine rounds them to (ADR 0176, 0177, 0203 F3): "3.25 kg", "40".
  const { unit } = forecast.product;
  const amount = (value: number) => withUnit(quantity.format(value), unit);
  // The supplier's case size and minimum, where the product has them, and what they made of the order (ADR 0183).
  const supplierTerms: [string, number | undefined][] = [
    [t('forecasting.supplierOrder.caseSize'), reorder.orderMultiple],
    [t('forecasting.supplierOrder.minimumOrder'), reorder.minOrderQuantity],
  ];
  const reorderItems: [string, string][] = [
    [t('forecasting.explain.reorderPoint'), amount(reorder.reorderPoint)],
    [t('forecasting.explain.safetyStock'), amount(reorder.safetyStock)],
    [t('forecasting.explain.orderQuantity'), stockUnknown ? needsCount : (notAdvised ?? withSupplierOrder(amount(reorder.orderQuantity), reorder, unit, t))],
    ...supplierTerms.flatMap(([label, value]): [string, string][] => (value === undefined ? [] : [[label, amount(value)]])),
    [t('forecasting.explain.orderBy'), stockUnknown ? needsCount : (notAdvised ?? (reorder.orderBy ? orderByWords(reorder.orderBy, today, t) : t('forecasting.explain.orderByNone')))],
    [t('forecasting.explain.leadTime'), t('forecasting.product.leadTimeDays', { count: reorder.leadTimeDays })],
    [t('forecasting.explain.serviceLevel'), `${one.format(reorder.serviceLevel * 100)}%`],
  ];

  return (
    <Paper withBorder p="md" data-testid="forecast-explanation">
      <Title order={2} size="h4" mb="sm">
        {t('forecasting.explain.title')}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <Stack gap={4}>
          <Text fw={600}>{t('forecasting.explain.basisTitle')}</Text>
          {/* The engine's plain sentence says how it forecast, and why when the history is short or empty. */}
          <Text size="sm" data-testid="model-description">
            {model.description}
          </Text>
          {/* A few days of sales, or none, say nothing about how a product sells: no demand class is named. */}
          {model.history === 'full' && model.demandClass !== 'none' ? (
            <Text size="sm" data-testid="demand-class">
              {/* An item sold in its season only is classed by its off-season's empty days: its demand is its season's, not intermittent. */}
              {model.patterns.includes('season_only') ? t('forecasting.explain.demand.seasonOnly') : t(`forecasting.explain.demand.${demandKey(model.demandClass)}`, { value: model.demandClass })}
            </Text>
          ) : null}
          {(model.history === 'full' && model.demandClass !== 'none') || model.patterns.length ? (
            <List size="sm" spacing={2} data-testid="patterns">
              {(model.patterns.length ? model.patterns : (['none'] as const)).map((pattern) => (
                <List.Item key={pattern}>{t(`forecasting.explain.pattern.${pattern}`)}</List.Item>
              ))}
            </List>
          ) : null}
          {/* The model's name and its statistics are for whoever checks the engine, not a buyer's first read. */}
          <details data-testid="model-details">
            <summary style={{ cursor: 'pointer', fontSize: 'var(--mantine-font-size-xs)', color: 'var(--mantine-color-gray-7)' }}>{t('forecasting.explain.details')}</summary>
            <Text size="xs" c="gray.7">
              {t('forecasting.explain.model', { name: model.name })}
            </Text>
            {finite(accuracy.mase) ? (
              <Text size="xs" c="gray.7">
                {t('forecasting.explain.mase', { mase: two.format(accuracy.mase) })}
              </Text>
            ) : null}
          </details>
        </Stack>
        <Stack gap={4}>
          <Text fw={600}>{t('forecasting.explain.accuracyTitle')}</Text>
          {finite(accuracy.mae) && maseComparison ? (
            <List size="sm" spacing={2} data-testid="accuracy">
              {quietBacktest ? (
                <List.Item>{t('forecasting.explain.quietBacktest')}</List.Item>
              ) : (
                <>
                  <List.Item>{t('forecasting.explain.mae', { error: quantityWords(accuracy.mae, unit, t, two) })}</List.Item>
                  <List.Item>{t('forecasting.explain.versusNaive', { comparison: maseComparison })}</List.Item>
                </>
              )}
              {finite(accuracy.coverage95) ? <List.Item>{t('forecasting.explain.coverage', { percent: Math.round(accuracy.coverage95 * 100) })}</List.Item> : null}
            </List>
          ) : (
            <Text size="sm">{t('forecasting.explain.noAccuracy')}</Text>
          )}
          <Text fw={600} mt="xs">
            {t('forecasting.explain.stockoutTitle')}
          </Text>
          <Text size="sm" data-testid="stockout-summary" c={(stockout || emptyNow) && standing === 'active' && !notBought ? 'red.8' : undefined}>
            {notBought ? t(`forecasting.explain.${notBought}Stock`) : countedLater ? t('forecasting.explain.countedAfterSales', { counted: formatDay(countedLater.date), day: salesEnd }) : stockUnknown ? t('forecasting.explain.stockUnknown') : t(stockoutKey(standing, emptyNow, stockout !== null), { date: stockout ? formatDay(stockout) : '', days })}
          </Text>
          {!notBought && !stockUnknown && early ? (
            <Text size="sm" data-testid="stockout-early-estimate">
              {earlyEstimate(t, early)}
            </Text>
          ) : null}
          {!notBought && !stockUnknown && lowerKey && lowerStockout ? (
            <Text size="sm" data-testid="stockout-chance">
              {t(lowerKey, { date: formatDay(lowerStockout) })}
            </Text>
          ) : null}
        </Stack>
        <Stack gap={4}>
          <Text fw={600}>{t('forecasting.explain.reorderTitle')}</Text>
          {notBought ? (
            <NotBoughtAdvice kind={notBought} />
          ) : (
            <>
              <Text size="sm" data-testid="reorder-summary">
                {t(countedLater ? 'forecasting.explain.reorderSummaryCountedAfterSales' : reorderSummaryKey(standing, stockUnknown, daysLate, arrival !== null, tooLateForSeason !== null, stockout !== null, dueNow), {
                  day: salesEnd,
                  lists: t('forecasting.explain.leftOutOfLists', { inactiveDays: forecast.activity.inactiveDays }),
                  inactiveDays: forecast.activity.inactiveDays,
                  reorderPoint: quantityWords(reorder.reorderPoint, unit, t),
                  safetyStock: quantityWords(reorder.safetyStock, unit, t),
                  serviceLevel: one.format(reorder.serviceLevel * 100),
                  orderQuantity: withSupplierOrder(quantityWords(reorder.orderQuantity, unit, t), reorder, unit, t),
                  orderBy: reorder.orderBy ? formatDay(reorder.orderBy) : '',
                  leadTime: reorder.leadTimeDays,
                  days,
                  count: daysLate,
                  arrival: arrives ? formatDay(arrives) : '',
                  stockout: stockout ? formatDay(stockout) : '',
                  season: tooLateForSeason ? seasonMonths(tooLateForSeason.seasonFrom, tooLateForSeason.seasonTo) : '',
                  nextOrderFrom: tooLateForSeason ? formatDay(tooLateForSeason.nextOrderFrom) : '',
                })}
              </Text>
              {/* A season-only item's whole cases can be more than the rest of its season sells: ordered all the same, and said (ADR 0183). */}
              {reorder.leftAfterSeason !== undefined && arrival !== null && !stockUnknown ? (
                <Text size="sm" data-testid="left-after-season">
                  {t('forecasting.supplierOrder.leftAfterSeason', { quantity: quantityWords(reorder.leftAfterSeason, unit, t) })}
                </Text>
              ) : null}
              {beyondLists && standing === 'active' && !stockUnknown ? (
                <Text size="sm" data-testid="order-beyond-lists">
                  {t('forecasting.explain.orderBeyondLists', { days: DEFAULT_FORECAST_DAYS })}
                </Text>
              ) : null}
              {/* A few days of sales make a level, not a pattern: an order sized on them can be the list's largest (QA3 #8). */}
              {model.history === 'short' && standing === 'active' && arrival !== null && !stockUnknown ? (
                <Text size="sm" fw={600} data-testid="short-history-caution">
                  {t('forecasting.explain.shortHistoryCaution')}
                </Text>
              ) : null}
              <dl style={{ display: 'grid', gridTemplateColumns: 'auto auto', gap: '2px 16px', margin: 0, fontSize: 14 }} data-testid="reorder-advice">
                {reorderItems.map(([label, value]) => (
                  <div key={label} style={{ display: 'contents' }}>
                    <dt style={{ color: 'var(--mantine-color-gray-7)' }}>{label}</dt>
                    <dd style={{ margin: 0, fontWeight: 500 }}>{value}</dd>
                  </div>
                ))}
              </dl>
              {arrival !== null && !stockUnknown && !notAdvised ? (
                <div>
                  <RecordOrderAction order={{ styleCode: forecast.product.styleCode, name: forecast.product.name, unit, supplier: forecast.product.supplier, orderQuantity: reorder.orderQuantity, orderBy: reorder.orderBy, leadTimeDays: reorder.leadTimeDays }} />
                </div>
              ) : null}
            </>
          )}
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}
