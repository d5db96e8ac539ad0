// The Dashboard (spec §1, route /app/home): what needs attention today — the task checklist, total
// inventory and monthly growth, the six-month stock projection, and the reports the user pinned.
import './mantine-styles.ts';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Checkbox, CloseButton, EmptyState, Group, List, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatDay, formatMonth, PROJECTION_SETTLED_DAYS, quantityFormat, type ProjectionHistory, type ReportDataResponse, type ResultColumn, type ResultRow, type UnitStockProjection } from '@stockwise/contract';
import { quantitiesWords, unitName, withUnit } from '../../components/quantity-words.ts';
import { earlyEstimate } from '../../components/early-estimate.ts';
import { fetchReportData } from '../../api/reports.ts';
import { useDashboardStore } from '../../stores/dashboard.ts';
import { useSessionStore } from '../../stores/session.ts';
import { ReportChart } from '../reports/ReportChart.tsx';
import { ResultGrid } from '../reports/ResultGrid.tsx';
import { useMoneyFormat } from '../../components/money.ts';

// Whole pieces, a tenth of a kilo: the places the server rounds a unit's projection to.
const projected = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

/** A projection month ('2026-12') as the other charts name months ('Dec 2026'). */
export const projectionMonth = (month: unknown): string => (typeof month === 'string' && /^\d{4}-\d{2}$/.test(month) ? formatMonth(month) : String(month ?? ''));
/**
 * The axis names every month (Recharts' default drops one that it reckons would crowd its
 * neighbour, so April went missing between March and May): the year only on the first and on
 * January, so six labels fit a phone's width.
 */
export const projectionTick = (month: unknown, index: number): string => {
  const label = projectionMonth(month);
  return index === 0 || (typeof month === 'string' && month.endsWith('-01')) ? label : label.slice(0, 3);
};
const projectionFigure = (value: unknown): string => (typeof value === 'number' ? projected.format(value) : String(value ?? ''));
// The legend and the readouts in the lines' order, high to low (Recharts sorts them by name otherwise: High, Low, Medium).
const PROJECTION_ORDER = ['high', 'medium', 'low'];
const projectionOrder = (item: { dataKey?: unknown }) => PROJECTION_ORDER.indexOf(String(item.dataKey));

function Tasks() {
  const { t } = useTranslation();
  const tasks = useDashboardStore((state) => state.data?.tasks ?? []);
  const { toggleTask, addTask, deleteTask } = useDashboardStore.getState();
  const [draft, setDraft] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = await addTask(draft);
    setRefusal(reason);
    if (reason === null) setDraft('');
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="tasks-title">
      <Title order={2} size="h3" id="tasks-title" mb="sm">
        {t('dashboard.tasks.title')}
      </Title>
      {tasks.length === 0 && <Text c="gray.7">{t('dashboard.tasks.empty')}</Text>}
      <Stack gap="xs" data-testid="dashboard-tasks">
        {tasks.map((task) => (
          <Group key={task.id} justify="space-between" wrap="nowrap" data-testid="dashboard-task">
            <Checkbox label={task.text} checked={task.completed} onChange={() => void toggleTask(task.id)} />
            <CloseButton size="sm" aria-label={t('dashboard.tasks.delete', { text: task.text })} onClick={() => void deleteTask(task.id)} />
          </Group>
        ))}
      </Stack>
      <form onSubmit={(event) => void onSubmit(event)}>
        <Group mt="sm" gap="xs" align="flex-start">
          <TextInput
            style={{ flex: 1 }}
            aria-label={t('dashboard.tasks.new')}
            placeholder={t('dashboard.tasks.new')}
            value={draft}
            error={refusal}
            onChange={(event) => {
              setDraft(event.currentTarget.value);
              setRefusal(null);
            }}
          />
          <Button type="submit" variant="light">
            {t('dashboard.tasks.add')}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}

const growthWords = (percent: number) => `${percent > 0 ? '+' : ''}${percent.toFixed(1)} %`;

/** The stock totals (exported for its test). */
export function Stats() {
  const { t } = useTranslation();
  const stats = useDashboardStore((state) => state.data?.inventoryStats);
  const money = useMoneyFormat();
  if (!stats) return null;
  const inUnits = stats.inventoryByUnit.some((total) => total.unit !== null);
  // Kilos and pieces grow apart: once a product has a unit, one percent per unit (ADR 0177, amendment 2026-12-06 (2)).
  const growthPerUnit = inUnits || stats.growthByUnit.some((unitGrowth) => unitGrowth.unit !== null);
  const noGrowth = growthPerUnit ? stats.growthByUnit.length === 0 : stats.monthlyGrowth === null;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <Paper withBorder p="md" component="section" aria-labelledby="total-inventory-title">
        {/* Kilos and pieces do not add up: once a product has a unit, one total per unit (ADR 0177, amendment 2026-12-06). */}
        <Text id="total-inventory-title" c="gray.7" size="sm">
          {t(inUnits ? 'dashboard.stats.totalInventoryByUnit' : 'dashboard.stats.totalInventory')}
        </Text>
        <Text size="xl" fw={700} data-testid="total-inventory">
          {inUnits ? quantitiesWords(stats.inventoryByUnit, t) : quantityFormat.format(stats.totalInventory)}
        </Text>
        <Text size="sm" data-testid="total-value">
          {t('dashboard.stats.value', { value: money.format(stats.totalValue) })}
          {/* A blank cost is unknown, not free: the worth says which stock it leaves out. */}
          {stats.withoutCost > 0 ? ` ${t('dashboard.stats.withoutCost', { count: stats.withoutCost })}` : null}
        </Text>
        {(stats.notStocked ?? 0) > 0 && (
          // A service or fee has no stock (ADR 0200, amendment 2026-12-07): a wholesaler whose delivery charge had stock in a file is told why it is not counted.
          <Text c="gray.7" size="sm" mt={4} data-testid="total-not-stocked">
            {t('dashboard.stats.notStocked', { count: stats.notStocked })}
          </Text>
        )}
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="monthly-growth-title">
        <Text id="monthly-growth-title" c="gray.7" size="sm">
          {t('dashboard.stats.monthlyGrowth')}
        </Text>
        {/* No figure rather than a misleading one: the sentence saying when there will be one, not a big "0 %" or "—". */}
        <Text size={noGrowth ? 'md' : 'xl'} fw={noGrowth ? 500 : 700} data-testid="monthly-growth">
          {noGrowth
            ? t('dashboard.stats.noGrowth')
            : growthPerUnit
              ? stats.growthByUnit.map(({ unit, percent }) => t('dashboard.stats.growthInUnit', { growth: growthWords(percent), unit: unitName(unit, t) })).join(', ')
              : growthWords(stats.monthlyGrowth ?? 0)}
        </Text>
        {stats.snapshotDate && stats.growthSince && (
          <Text size="sm" data-testid="monthly-growth-basis">
            {t(noGrowth ? 'dashboard.stats.noGrowthBasis' : 'dashboard.stats.growthBasis', { date: formatDay(stats.snapshotDate), since: formatDay(stats.growthSince) })}
          </Text>
        )}
      </Paper>
    </SimpleGrid>
  );
}

/**
 * The unit a projection opens on: the one with the most products (a deli's cheese by the kg rather
 * than its few gift boxes), the first listed of those with as many.
 */
export const openingUnit = (byUnit: readonly UnitStockProjection[]): number =>
  byUnit.reduce((most, projection, i) => (projection.products > (byUnit[most]?.products ?? 0) ? i : most), 0);

/**
 * The six-month projection (exported for its test). Kilos and pieces do not add up (ADR 0177,
 * amendment 2026-12-06 (2)): one unit's products at a time, a chooser when the shop has several, the
 * explanation, the chart's name and its readouts naming the unit. A catalogue of pieces reads as before.
 */
export function Projection({ byUnit, history = null, madeHere = 0, notStocked = 0 }: { byUnit: UnitStockProjection[]; history?: ProjectionHistory | null; madeHere?: number; notStocked?: number }) {
  const { t } = useTranslation();
  // The unit chosen, by its word ('' for pieces): the list may change under it when the dashboard reloads.
  const [chosen, setChosen] = useState<string | null>(null);
  const shown = byUnit.find((projection) => (projection.unit ?? '') === chosen) ?? byUnit[openingUnit(byUnit)];
  const inUnits = byUnit.some((projection) => projection.unit !== null);
  const readout = (value: unknown) => withUnit(projectionFigure(value), shown?.unit);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="projection-title">
      <Group justify="space-between" align="flex-start">
        <Title order={2} size="h3" id="projection-title">
          {t('dashboard.projection.title')}
        </Title>
        {byUnit.length > 1 && (
          <SegmentedControl
            size="xs"
            value={shown?.unit ?? ''}
            onChange={setChosen}
            data={byUnit.map((projection) => ({ value: projection.unit ?? '', label: unitName(projection.unit, t) }))}
            aria-label={t('dashboard.projection.unit')}
            data-testid="projection-unit"
          />
        )}
      </Group>
      <Text c="gray.7" size="sm" mb="sm" data-testid="projection-explain">
        {shown && inUnits ? t('dashboard.projection.explainUnit', { count: shown.products, unit: unitName(shown.unit, t) }) : t('dashboard.projection.explain')}
      </Text>
      {shown && history && history.days < PROJECTION_SETTLED_DAYS && (
        // Six months from a new shop's few days of sales: said beside the chart, not hidden (ADR 0070, amendment 2026-12-06).
        <Text size="sm" mb="sm" fw={500} data-testid="projection-history">
          {earlyEstimate(t, history)}
        </Text>
      )}
      {madeHere > 0 && (
        // The projection is of the stock the shop buys: a café whose croissants are missing from it is told why (ADR 0194, amendment 2026-12-06).
        <Text c="gray.7" size="sm" mb="sm" data-testid="projection-made-here">
          {t('dashboard.projection.madeHere', { count: madeHere })}
        </Text>
      )}
      {notStocked > 0 && (
        // A service or fee has no stock (ADR 0200): a wholesaler whose delivery charge is missing from it is told why.
        <Text c="gray.7" size="sm" mb="sm" data-testid="projection-not-stocked">
          {t('dashboard.projection.notStocked', { count: notStocked })}
        </Text>
      )}
      {!shown ? (
        // Every product made here or not stocked: forecasts there are, none of stock to buy; the lines above say it.
        madeHere + notStocked > 0 ? null : <Text>{t('dashboard.projection.none')}</Text>
      ) : (
        <div role="img" aria-label={inUnits ? t('dashboard.projection.labelUnit', { unit: unitName(shown.unit, t) }) : t('dashboard.projection.label')} data-testid="projection-chart" style={{ height: 280 }}>
          <ResponsiveContainer width="100%" height="100%">
            {/* Room on the right for the last month's label, which is centred on the chart's edge. */}
            {/* Recharts' keyboard layer off: inside the named image it was a tab stop without a name that did nothing. */}
            <LineChart data={shown.points} margin={{ top: 5, right: 24, bottom: 5, left: 5 }} accessibilityLayer={false}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="month" tickFormatter={projectionTick} interval={0} />
              <YAxis tickFormatter={projectionFigure} />
              {/* The readouts in the page's text colour: in the lines' own, High's green read too faint on white (axe, WCAG 1.4.3). */}
              <Tooltip labelFormatter={projectionMonth} formatter={readout} itemStyle={{ color: 'var(--mantine-color-text)' }} itemSorter={projectionOrder} />
              <Legend itemSorter={projectionOrder} />
              <Line dataKey="high" name={t('dashboard.projection.high')} stroke="#2ca02c" isAnimationActive={false} />
              <Line dataKey="medium" name={t('dashboard.projection.medium')} stroke="#1f77b4" strokeWidth={2} isAnimationActive={false} />
              <Line dataKey="low" name={t('dashboard.projection.low')} stroke="#d62728" isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
    </Paper>
  );
}

/**
 * A pinned chart's rows as a table, behind a disclosure button (WAI-ARIA disclosure pattern: Enter or
 * Space opens and closes it, the focus stays on the button, `aria-expanded` says which). The chart is
 * no tab stop (its keyboard layer is off, QA8 F18) and a category path is shortened on its axis, the
 * whole path in the mouse's tooltip only: the table is how a keyboard or screen-reader user reads each
 * bar's whole name and figure (ADR 0196, amendment 2026-12-07). Exported for its test.
 */
export function PinnedTable({ columns, rows, moneyFields, title }: { columns: ResultColumn[]; rows: ResultRow[]; moneyFields: string[]; title: string }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const tableId = useId();
  return (
    <>
      <Group mt="xs">
        <Button variant="subtle" size="xs" c="blue.8" aria-expanded={shown} aria-controls={tableId} leftSection={<span aria-hidden>{shown ? '▾' : '▸'}</span>} onClick={() => setShown(!shown)} data-testid="pinned-report-table-toggle">
          {t('dashboard.pins.table')}
        </Button>
      </Group>
      <div id={tableId} hidden={!shown}>
        {shown && <ResultGrid columns={columns} rows={rows} label={t('dashboard.pins.tableLabel', { title })} moneyFields={moneyFields} />}
      </div>
    </>
  );
}

function PinnedReport({ id, title }: { id: number; title: string }) {
  const { t } = useTranslation();
  const [data, setData] = useState<ReportDataResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    fetchReportData(id)
      .then((answer) => current && setData(answer))
      // The message names the report by the title the user knows it by.
      .catch(() => current && setError(t('reports.errors.fetchReportData', { name: title })));
    return () => {
      current = false;
    };
  }, [id, title, t]);
  return (
    <Paper withBorder p="md" component="section" aria-label={title} data-testid="pinned-report">
      <Group justify="space-between">
        <Title order={3} size="h4">
          {title}
        </Title>
        <CloseButton aria-label={t('dashboard.pins.unpin', { title })} onClick={() => void useDashboardStore.getState().unpin(id)} />
      </Group>
      {error && <Alert color="red">{error}</Alert>}
      {!error && !data && <Loader size="sm" role="status" aria-label={t('dashboard.loading')} />}
      {/* The report ran and failed (its SQL, a timeout): the reason, not an empty chart. */}
      {data && !data.success && (
        <Alert color="red" title={t('reports.errors.fetchReportData', { name: title })} data-testid="pinned-report-error">
          {data.error}
        </Alert>
      )}
      {data?.success &&
        (data.chart_config ? (
          <>
            <ReportChart config={data.chart_config} rows={data.results} label={title} unfinished={data.unfinished_period} firstCut={data.first_period_cut} />
            <PinnedTable columns={data.columns} rows={data.results} moneyFields={data.chart_config.money_fields ?? []} title={title} />
          </>
        ) : (
          <Text c="gray.7">{t('dashboard.pins.noChart')}</Text>
        ))}
    </Paper>
  );
}

function EmptyDashboard() {
  const { t } = useTranslation();
  return (
    <EmptyState title={t('dashboard.empty.title')} description={t('dashboard.empty.description')} data-testid="dashboard-empty">
      <List ta="left" size="sm" mb="md">
        <List.Item>{t('dashboard.empty.products')}</List.Item>
        <List.Item>{t('dashboard.empty.sales')}</List.Item>
        <List.Item>{t('dashboard.empty.stock')}</List.Item>
      </List>
      <Anchor component={Link} to="/app/settings#data-integration-title" c="blue.8" underline="always">
        {t('dashboard.empty.link')}
      </Anchor>
    </EmptyState>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation();
  const sessionReady = useSessionStore((state) => !state.isLoading && state.isLoggedIn);
  const data = useDashboardStore((state) => state.data);
  const loading = useDashboardStore((state) => state.loading);
  const error = useDashboardStore((state) => state.error);
  const actionError = useDashboardStore((state) => state.actionError);

  // Spec §5: nothing is fetched until the session has loaded and the user is logged in.
  useEffect(() => {
    if (sessionReady) void useDashboardStore.getState().load();
  }, [sessionReady]);

  return (
    <Stack gap="md" pb="xl">
      <Title order={1}>{t('pages.home.title')}</Title>
      {error && (
        <Alert color="red" data-testid="dashboard-error">
          {error}
        </Alert>
      )}
      {actionError && (
        <Alert color="red" withCloseButton closeButtonLabel={t('dashboard.errors.dismiss')} onClose={() => useDashboardStore.getState().dismissActionError()} data-testid="dashboard-action-error">
          {actionError}
        </Alert>
      )}
      {loading && !data && <Loader role="status" aria-label={t('dashboard.loading')} />}
      {data?.state === 'empty' && <EmptyDashboard />}
      {data && (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          <Tasks />
          <Stack gap="md">
            <Stats />
            {data.state === 'ready' && <Projection byUnit={data.stockProjectionByUnit} history={data.projectionHistory} madeHere={data.projectionMadeHere} notStocked={data.projectionNotStocked} />}
          </Stack>
        </SimpleGrid>
      )}
      {data && (
        <Stack gap="md" component="section" aria-labelledby="pinned-title">
          <Title order={2} size="h3" id="pinned-title">
            {t('dashboard.pins.title')}
          </Title>
          {data.pinnedReports.length === 0 ? (
            <Text c="gray.7">
              {t('dashboard.pins.empty')}{' '}
              <Anchor component={Link} to="/app/reports" underline="always" c="blue.8">
                {t('nav.reports')}
              </Anchor>
              .
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 1, lg: 2 }}>
              {data.pinnedReports.map((report) => (
                <PinnedReport key={report.id} id={report.id} title={report.title} />
              ))}
            </SimpleGrid>
          )}
        </Stack>
      )}
    </Stack>
  );
}
