// The Forecasting screen (spec §2): pick a product, read its sales and stock chart with the
// forecast bands and stockout markers, the forecast explained, regenerate with progress, the latest
// inventory report and the low-stock list; CSV exports of the forecast and the report.
import './mantine-styles.ts';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Alert, Anchor, Box, Button, Center, Group, Loader, LoadingOverlay, Paper, Progress, SegmentedControl, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { DEFAULT_FORECAST_DAYS, FORECAST_HORIZONS, inventoryReportFileName } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { useForecastingStore } from '../../stores/forecasting.ts';
import { useSessionStore } from '../../stores/session.ts';
import { ProductPicker } from './ProductPicker.tsx';
import { ForecastChart } from './ForecastChart.tsx';
import { ForecastExplanation } from './ForecastExplanation.tsx';
import { LatestReportPanel, LowStockPanel, type ReportView } from './ReportPanels.tsx';
import { OrderNotice } from './OrderNotice.tsx';
import { buildChartRows, type ChartRow } from './chart-data.ts';
import { findZeroCrossings, type ZeroCrossing } from './zero-crossings.ts';
import { downloadCsv } from '../../components/save-file.ts';
import { forecastCsv } from './csv.ts';
import { onHandWords } from './on-hand.ts';
import { WorkbookButton } from './WorkbookButton.tsx';
import { useMoneyFormat } from '../../components/money.ts';
import { fetchForecastWorkbook, fetchReportExport } from '../../api/forecasting.ts';
import { viewerToday } from '../../api/shop-day.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** The chart shows everything (two years and the horizon) or the last six months and the horizon. */
type ChartRange = 'all' | 'recent';
const recentDays = 183;
const shiftDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

// Over the sales chart of the empty frame, where the eye goes first (the whole frame is taller than many screens).
const emptyMessageHeight = 320;
const noRows: ChartRow[] = [];
const noCrossings: ZeroCrossing[] = [];

function SelectedProduct() {
  const { t } = useTranslation();
  const selectedProduct = useForecastingStore((state) => state.selectedProduct);
  const forecast = useForecastingStore((state) => state.forecast);
  const selectedCode = useForecastingStore((state) => state.selectedCode);
  const money = useMoneyFormat();
  const shown = forecast && forecast.product.styleCode === selectedCode ? forecast : null;
  const product = shown?.product ?? selectedProduct;
  if (!product) return null;
  const leadTime = product.leadTimeDays;
  // The stored figure is the last count (0 when never counted): the header waits for the forecast's own.
  const stock = shown ? onHandWords(shown, t) : null;
  const facts: [string, string, string, string | null][] = [
    ['name', t('forecasting.product.name'), product.name, null],
    ['style-code', t('forecasting.product.styleCode'), product.styleCode, null],
    ['current-stock', t('forecasting.product.onHandNow'), stock?.figure ?? t('forecasting.product.unknown'), stock?.beside ?? null],
    ['unit-cost', t('forecasting.product.unitCost'), money.format(product.unitCost), null],
    ['lead-time', t('forecasting.product.leadTime'), leadTime === null ? t('forecasting.product.unknown') : t('forecasting.product.leadTimeDays', { count: leadTime }), null],
  ];
  return (
    <Group gap="xl" data-testid="selected-product" wrap="wrap">
      {facts.map(([key, label, value, beside]) => (
        <Stack key={key} gap={0}>
          {/* Mantine's "dimmed" is below WCAG AA contrast at this size. */}
          <Text size="xs" c="gray.7">
            {label}
          </Text>
          <Text fw={600} data-testid={`selected-${key}`}>
            {value}
          </Text>
          {beside ? (
            <Text size="xs" c="gray.7" maw={key === 'current-stock' && stock && !stock.counted ? 320 : undefined} data-testid={`selected-${key}-beside`}>
              {beside}
            </Text>
          ) : null}
        </Stack>
      ))}
    </Group>
  );
}

function GenerationControls() {
  const { t } = useTranslation();
  const generation = useForecastingStore((state) => state.generation);
  const selectedCode = useForecastingStore((state) => state.selectedCode);
  const regenerate = useForecastingStore((state) => state.regenerate);
  const catalogueEmpty = useForecastingStore((state) => state.catalogueEmpty);
  const busy = generation.phase === 'starting' || generation.phase === 'running';
  const { done, total } = generation.progress;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  return (
    <Stack gap="xs" data-testid="generation">
      <Group gap="sm">
        <BusyButton onClick={() => void regenerate('product')} disabled={busy || !selectedCode} busy={busy && generation.scope === 'product'}>
          {t('forecasting.generate.product')}
        </BusyButton>
        <BusyButton variant="light" onClick={() => void regenerate('all')} disabled={busy || catalogueEmpty} busy={busy && generation.scope === 'all'}>
          {t('forecasting.generate.all')}
        </BusyButton>
      </Group>
      {busy || generation.phase === 'done' ? (
        <Stack gap={2} maw={520}>
          <Progress value={generation.phase === 'done' ? 100 : percent} animated={busy} aria-label={t('forecasting.generate.progressLabel')} data-testid="generation-progress" />
          <Text size="sm" c="dimmed" data-testid="generation-status" data-phase={generation.phase}>
            {generation.phase === 'done'
              ? t('forecasting.generate.done', { count: generation.results?.products ?? done })
              : generation.phase === 'starting' || total === 0
                ? t('forecasting.generate.starting')
                : t('forecasting.generate.running', { done, total })}
          </Text>
          {generation.restart ? (
            <Text size="sm" c="orange.8" role="status" data-testid="generation-restart">
              {generation.restart}
            </Text>
          ) : null}
        </Stack>
      ) : null}
      {generation.phase === 'done' && generation.results && generation.results.failed.length > 0 ? (
        <Text size="sm" c="orange.8" data-testid="generation-failed">
          {t('forecasting.generate.failedSome', {
            count: generation.results.failed.length,
            codes: generation.results.failed
              .slice(0, 5)
              .map((failure) => `${failure.styleCode} (${failure.error})`)
              .join(', '),
          })}
        </Text>
      ) : null}
      {generation.phase === 'error' && generation.error ? (
        <Alert color="red" title={generation.error} data-testid="generation-error" maw={520}>
          {null}
        </Alert>
      ) : null}
    </Stack>
  );
}

/** Days to look ahead: 90 (the stored forecast, the order lists'), 180 or 365, forecast when chosen. */
function HorizonChoice({ onChoose }: { onChoose: (days: number) => void }) {
  const { t } = useTranslation();
  const horizon = useForecastingStore((state) => state.horizon);
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" fw={500} aria-hidden>
        {t('forecasting.horizon.label')}
      </Text>
      <SegmentedControl
        size="xs"
        value={String(horizon)}
        onChange={(value) => onChoose(Number(value))}
        data={FORECAST_HORIZONS.map((days) => ({ value: String(days), label: t('forecasting.horizon.days', { count: days }) }))}
        aria-label={t('forecasting.horizon.label')}
        data-testid="horizon"
      />
    </Group>
  );
}

function ChartSection({ onHorizon }: { onHorizon: (days: number) => void }) {
  const { t } = useTranslation();
  const horizon = useForecastingStore((state) => state.horizon);
  const selectedCode = useForecastingStore((state) => state.selectedCode);
  const forecast = useForecastingStore((state) => state.forecast);
  const isLoading = useForecastingStore((state) => state.isLoadingForecast);
  const error = useForecastingStore((state) => state.forecastError);
  const errorDetail = useForecastingStore((state) => state.forecastErrorDetail);
  const showHistorical = useForecastingStore((state) => state.showHistoricalForecast);
  const setShowHistorical = useForecastingStore((state) => state.setShowHistoricalForecast);
  const reloadForecast = useForecastingStore((state) => state.reloadForecast);
  const catalogueEmpty = useForecastingStore((state) => state.catalogueEmpty);

  const [range, setRange] = useState<ChartRange>('all');
  // While the next product's forecast loads, the previous chart stays (dimmed, under a loader):
  // the page does not jump, and Recharts updates its data instead of building both charts anew,
  // which is several times the work on every product switch.
  const [lastForecast, setLastForecast] = useState(forecast);
  if (forecast && forecast !== lastForecast) setLastForecast(forecast);
  const shown = forecast ?? (isLoading && !error ? lastForecast : null);

  const chart = useMemo((): { rows: ChartRow[]; crossings: ZeroCrossing[] } | { error: true } | null => {
    if (!shown) return null;
    try {
      const rows = buildChartRows(shown, showHistorical);
      const from = range === 'all' ? null : shiftDays(shown.metrics.display_window.forecast_start, -recentDays);
      // A service or fee keeps no stock (ADR 0200): the stock chart is not drawn, nor its "runs out" markers.
      return { rows: from === null ? rows : rows.filter((row) => row.date >= from), crossings: shown.product.notStocked ? [] : findZeroCrossings(shown.forecast.stock) };
    } catch {
      return { error: true };
    }
  }, [shown, showHistorical, range]);

  // Before the first forecast is shown the chart is an empty frame: no product chosen yet, or its
  // forecast on the way. Recharts builds its charts there, so the forecast arriving only updates
  // them, as when switching products (ADR 0010).
  const emptyFrame = !selectedCode || (!chart && isLoading);
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('forecasting.chart.title')}
        </Title>
        <Group gap="md">
          <HorizonChoice onChoose={onHorizon} />
          <SegmentedControl
            size="xs"
            value={range}
            onChange={(value) => setRange(value === 'recent' ? 'recent' : 'all')}
            data={[
              { value: 'all', label: t('forecasting.chart.rangeAll') },
              { value: 'recent', label: t('forecasting.chart.rangeRecent') },
            ]}
            aria-label={t('forecasting.chart.range')}
            disabled={!selectedCode}
          />
          <Switch label={t('forecasting.chart.showHistoricalForecast')} checked={showHistorical} disabled={!selectedCode} onChange={(event) => setShowHistorical(event.currentTarget.checked)} />
          <Button variant="default" size="xs" disabled={!forecast} onClick={() => forecast && downloadCsv(`forecast-${forecast.product.styleCode}.csv`, forecastCsv(forecast))}>
            {t('forecasting.export.forecast')}
          </Button>
          <WorkbookButton
            label={t('forecasting.export.forecastExcel')}
            testId="export-forecast-xlsx"
            disabled={!forecast}
            fileName={`forecast-${forecast?.product.styleCode ?? ''}.xlsx`}
            fetchFile={() => fetchForecastWorkbook(forecast?.product.styleCode ?? '', forecast?.forecast.sales.length ?? horizon)}
          />
        </Group>
      </Group>
      {error && selectedCode ? (
        <Alert color="red" title={error} data-testid="forecast-error" mb="sm">
          {errorDetail ? (
            <Text size="sm" mb="xs">
              {errorDetail}
            </Text>
          ) : null}
          <Button size="xs" variant="light" onClick={() => void reloadForecast()}>
            {t('forecasting.errors.retry')}
          </Button>
        </Alert>
      ) : null}
      {chart && 'error' in chart ? (
        <Alert color="red" title={t('forecasting.errors.chartData')} data-testid="chart-error" />
      ) : (chart && shown) || emptyFrame ? (
        <Box pos="relative" aria-busy={isLoading} data-testid={isLoading ? 'forecast-loading' : undefined}>
          <LoadingOverlay visible={isLoading} zIndex={2} overlayProps={{ backgroundOpacity: 0.6 }} loaderProps={horizon === DEFAULT_FORECAST_DAYS ? { 'aria-label': t('forecasting.chart.loading') } : { children: <LongerForecastLoading days={horizon} /> }} />
          {selectedCode ? null : (
            <Center pos="absolute" top={0} left={0} right={0} h={emptyMessageHeight} style={{ zIndex: 2 }} data-testid="no-product">
              <Paper withBorder shadow="xs" px="lg" py="sm">
                {catalogueEmpty ? (
                  <Text data-testid="no-products-yet">
                    {t('forecasting.errors.noProductsYet')}{' '}
                    <Anchor component={Link} to="/app/settings" c="blue.8" underline="always">
                      {t('dashboard.empty.link')}
                    </Anchor>
                  </Text>
                ) : (
                  <Text c="gray.7">
                    {t('forecasting.errors.noProduct')} {t('forecasting.chart.chooseProduct')}
                  </Text>
                )}
              </Paper>
            </Center>
          )}
          {chart && shown && selectedCode ? (
            <ForecastChart rows={chart.rows} crossings={chart.crossings} forecastStart={shown.metrics.display_window.forecast_start} styleCode={shown.product.styleCode} unit={shown.product.unit} stockKept={!shown.product.notStocked} />
          ) : (
            <ForecastChart rows={noRows} crossings={noCrossings} forecastStart={null} styleCode={null} unit={null} />
          )}
        </Box>
      ) : null}
    </Paper>
  );
}

/** A longer look ahead is forecast when asked (a second or so): said over the chart while it runs. */
function LongerForecastLoading({ days }: { days: number }) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap={4} data-testid="horizon-loading">
      <Loader aria-hidden />
      <Text size="sm" fw={500} role="status">
        {t('forecasting.horizon.loading', { count: days })}
      </Text>
    </Stack>
  );
}

/**
 * How far ahead the screen looks lives in the URL (?days=180) beside the product, so a reload or a
 * shared link keeps it; without it (or with a number not offered) the screen looks 90 days ahead,
 * the stored forecast's and the order lists' horizon. A choice replaces the URL: it changes how a
 * product is seen, not which, so Back returns to the product before (ADR 0162, amendment 2026-12-04
 * horizon).
 */
function useHorizonInUrl(sessionReady: boolean): (days: number) => void {
  const [searchParams, setSearchParams] = useSearchParams();
  const linked = Number(searchParams.get('days'));
  const horizon = FORECAST_HORIZONS.find((days) => days === linked) ?? DEFAULT_FORECAST_DAYS;
  const setHorizon = useForecastingStore((state) => state.setHorizon);
  useEffect(() => {
    if (sessionReady) void setHorizon(horizon);
  }, [sessionReady, horizon, setHorizon]);
  return useCallback(
    (days: number) => {
      // The store first, so the chart follows the choice at once: the router renders a new URL as a
      // transition, which a busy page's keyboard and pointer updates can keep putting off.
      void setHorizon(days);
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          if (days === DEFAULT_FORECAST_DAYS) next.delete('days');
          else next.set('days', String(days));
          return next;
        },
        { replace: true },
      );
    },
    [setHorizon, setSearchParams],
  );
}

/**
 * The chosen product lives in the URL (?product=CODE), so a reload, a shared link or the
 * assistant's link opens it, and Back returns to the product before. The URL leads: a choice
 * (the picker, a report or low-stock row) writes it and the screen follows. Each choice is a history
 * entry, except the first on a screen without one, which replaces it: a Forecasting screen with no
 * product is not a place to go back to (nor would Back leave it: the product stays selected, see
 * below). Typing in the picker only searches; nothing is chosen, so the URL is not touched.
 */
function useProductInUrl(sessionReady: boolean): (styleCode: string) => void {
  const [searchParams, setSearchParams] = useSearchParams();
  const linked = searchParams.get('product');
  const selectedCode = useForecastingStore((state) => state.selectedCode);
  const selectProduct = useForecastingStore((state) => state.selectProduct);
  useEffect(() => {
    if (sessionReady && linked && linked !== useForecastingStore.getState().selectedCode) void selectProduct(linked);
  }, [sessionReady, linked, selectProduct]);
  // Back on the screen (its menu link) with a product chosen earlier: the URL says which, in place.
  useEffect(() => {
    if (!linked && selectedCode) setSearchParams((params) => withProduct(params, selectedCode), { replace: true });
  }, [linked, selectedCode, setSearchParams]);
  // Changes with the URL only (a choice), not when a forecast arrives: the report tables keep still then.
  return useCallback(
    (styleCode: string) => {
      if (styleCode !== linked) setSearchParams((params) => withProduct(params, styleCode), { replace: !linked });
    },
    [linked, setSearchParams],
  );
}

const withProduct = (params: URLSearchParams, styleCode: string) => {
  const next = new URLSearchParams(params);
  next.set('product', styleCode);
  return next;
};

export default function ForecastingPage() {
  const { t } = useTranslation();
  const sessionReady = useSessionStore((state) => !state.isLoading && state.isLoggedIn);
  // Only what this component shows: a forecast arriving re-renders the chart, not the tables.
  const {
    productsError,
    forecast,
    selectedCode,
    report,
    reportIncludeInactive,
    reportIncludeMadeHere,
    reportSupplier,
    reportMessage,
    isLoadingReport,
    reportError,
    lowStock,
    lowStockIncludeInactive,
    lowStockIncludeMadeHere,
    lowStockSupplier,
    lowStockMessage,
    isLoadingLowStock,
    lowStockError,
  } = useForecastingStore(
    useShallow((state) => ({
      productsError: state.productsError,
      forecast: state.forecast,
      selectedCode: state.selectedCode,
      report: state.report,
      reportIncludeInactive: state.reportIncludeInactive,
      reportIncludeMadeHere: state.reportIncludeMadeHere,
      reportSupplier: state.reportSupplier,
      reportMessage: state.reportMessage,
      isLoadingReport: state.isLoadingReport,
      reportError: state.reportError,
      lowStock: state.lowStock,
      lowStockIncludeInactive: state.lowStockIncludeInactive,
      lowStockIncludeMadeHere: state.lowStockIncludeMadeHere,
      lowStockSupplier: state.lowStockSupplier,
      lowStockMessage: state.lowStockMessage,
      isLoadingLowStock: state.isLoadingLowStock,
      lowStockError: state.lowStockError,
    })),
  );
  const { loadProducts, loadLatestReport, loadLowStock } = useForecastingStore.getState();
  // The viewer's day, read again with each forecast or list that arrives: an order-by day may have come.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- their arrival is when to read the day again
  const today = useMemo(() => viewerToday(), [forecast, report, lowStock]);

  useEffect(() => {
    if (!sessionReady) return;
    void loadProducts();
    void loadLatestReport();
    void loadLowStock();
  }, [sessionReady, loadProducts, loadLatestReport, loadLowStock]);

  // Before the product's: a link with both reads the product over the linked horizon at once.
  const chooseHorizon = useHorizonInUrl(sessionReady);
  const choose = useProductInUrl(sessionReady);
  const horizon = useForecastingStore((state) => state.horizon);
  // Stable callbacks, so a forecast arriving does not re-render the report tables.
  const pick = useCallback(
    (styleCode: string) => {
      choose(styleCode);
      window.scrollTo({ top: 0, behavior: 'smooth' });
    },
    [choose],
  );
  const retryReport = useCallback(() => void loadLatestReport(), [loadLatestReport]);
  const viewReport = useCallback((view: ReportView) => void loadLatestReport(view), [loadLatestReport]);
  const retryLowStock = useCallback(() => void loadLowStock(), [loadLowStock]);
  const viewLowStock = useCallback((view: ReportView) => void loadLowStock(view), [loadLowStock]);

  return (
    <Stack gap="md" pb="xl">
      <div>
        <Title order={1}>{t('forecasting.title')}</Title>
        <Text c="dimmed">{t('forecasting.intro', { days: horizon })}</Text>
      </div>
      <Paper withBorder p="md">
        <Stack gap="md">
          <Group align="flex-end" justify="space-between" wrap="wrap" gap="md">
            <ProductPicker onChoose={choose} />
            <GenerationControls />
          </Group>
          {productsError ? (
            <Alert color="red" title={productsError} data-testid="products-error">
              <Button size="xs" variant="light" onClick={() => void loadProducts()}>
                {t('forecasting.errors.retry')}
              </Button>
            </Alert>
          ) : null}
          <SelectedProduct />
        </Stack>
      </Paper>
      <ChartSection onHorizon={chooseHorizon} />
      {forecast && forecast.product.styleCode === selectedCode ? <ForecastExplanation forecast={forecast} today={today} /> : null}
      <SimpleGrid cols={{ base: 1, xl: 2 }} spacing="md">
        <div>
          <LatestReportPanel report={report} today={today} includeInactive={reportIncludeInactive} includeMadeHere={reportIncludeMadeHere} supplier={reportSupplier} message={reportMessage} isLoading={isLoadingReport} error={reportError} onSelect={pick} onRetry={retryReport} onView={viewReport} />
          {report ? (
            <Group gap="xs" mt="xs">
              <WorkbookButton
                label={t('forecasting.export.report')}
                testId="export-report-csv"
                failure="forecasting.export.csvFailed"
                fileName={`${inventoryReportFileName(report.timestamp, reportSupplier)}.csv`}
                fetchFile={() => fetchReportExport('csv', report, reportIncludeInactive, reportSupplier, reportIncludeMadeHere)}
              />
              <WorkbookButton
                label={t('forecasting.export.reportExcel')}
                testId="export-report-xlsx"
                fileName={`${inventoryReportFileName(report.timestamp, reportSupplier)}.xlsx`}
                fetchFile={() => fetchReportExport('xlsx', report, reportIncludeInactive, reportSupplier, reportIncludeMadeHere)}
              />
              <Text size="xs" c="gray.7">
                {t('forecasting.export.reportWhole')}
              </Text>
            </Group>
          ) : null}
        </div>
        <div>
          <LowStockPanel
            advice={lowStock}
            today={today}
            includeInactive={lowStockIncludeInactive}
            includeMadeHere={lowStockIncludeMadeHere}
            supplier={lowStockSupplier}
            message={lowStockMessage}
            isLoading={isLoadingLowStock}
            error={lowStockError}
            onSelect={pick}
            onRetry={retryLowStock}
            onView={viewLowStock}
          />
        </div>
      </SimpleGrid>
      <OrderNotice />
    </Stack>
  );
}
