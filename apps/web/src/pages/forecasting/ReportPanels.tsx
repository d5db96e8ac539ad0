// The latest inventory report (products to order by urgency, with their first stockout) and the
// low-stock panel (the same list as orders to place: quantity, order-by date and cost). Both read the
// server's order advice, one page at a time; a row click selects the product, and an editor records
// an order placed from its row (ADR 0182). Each list can be narrowed to one supplier's products, the
// purchase order a buyer places (ADR 0184), whose orders an editor then records at once (ADR 0185).
import { Fragment, memo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Group, Loader, Pagination, Paper, Select, Switch, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { formatDay, quantityFormat as quantity, type InventoryReport } from '@stockwise/contract';
import { useForecastingStore, type AdviceView } from '../../stores/forecasting.ts';
import type { SupplierFilter } from '../../api/forecasting.ts';
import { formatTime } from '../../components/format-time.ts';
import { onHandCell } from './on-hand.ts';
import { quantitiesWords, withUnit } from '../../components/quantity-words.ts';
import { OrderByDay, orderDueNow } from '../../components/order-by.tsx';
import { TooLateMark } from './TooLateMark.tsx';
import { SupplierOrderNote } from './SupplierOrderNote.tsx';
import { useMoneyFormat } from '../../components/money.ts';
import { useCan } from '../../stores/role.ts';
import { RecordOrderAction } from './RecordOrderDialog.tsx';
import { SupplierOrdersButton } from './SupplierOrdersDialog.tsx';

const collapsedRows = 12;

type Select = (styleCode: string) => void;

function RetryAlert({ error, onRetry }: { error: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" mb="sm" title={error}>
      <Button size="xs" variant="light" onClick={onRetry}>
        {t('forecasting.errors.retry')}
      </Button>
    </Alert>
  );
}

function CodeButton({ code, onSelect }: { code: string; onSelect: Select }) {
  return (
    <Anchor component="button" type="button" onClick={(event) => (event.stopPropagation(), onSelect(code))} fw={500} c="blue.9" style={{ whiteSpace: 'nowrap' }}>
      {code}
    </Anchor>
  );
}

export type ReportView = AdviceView;

/**
 * A row to hurry orders nothing: a dash where an order and its cost would be (not "0" and "0.00"),
 * said in words to a screen reader; its order-by cell's mark says to hurry the delivery.
 */
function NoNewOrder() {
  const { t } = useTranslation();
  return (
    <span title={t('forecasting.lowStock.noNewOrder')} data-testid="no-new-order">
      <span aria-hidden>—</span>
      <VisuallyHidden>{t('forecasting.lowStock.noNewOrder')}</VisuallyHidden>
    </span>
  );
}

/**
 * The lists' stock column: what is on hand now, the product header's figure (ADR 0030, amendment
 * 2026-12-04), its header pointing at the note under the table that says what the figure is.
 */
function OnHandHeader({ noteId }: { noteId: string }) {
  const { t } = useTranslation();
  return (
    <Table.Th ta="right" aria-describedby={noteId}>
      {t('forecasting.report.onHand')}
    </Table.Th>
  );
}

function OnHandTd({ product }: { product: Pick<InventoryReport['products'][number], 'onHand' | 'unit'> }) {
  const { t } = useTranslation();
  const { figure, title } = onHandCell(product.onHand, product.unit, t);
  return (
    <Table.Td ta="right" title={title} data-testid="on-hand" style={{ whiteSpace: 'nowrap' }}>
      {figure}
    </Table.Td>
  );
}

/** The column of the rows' "Record order…", for editors and administrators only (a viewer sees no empty column). */
function RecordOrderHeader() {
  const { t } = useTranslation();
  return (
    <Table.Th>
      <VisuallyHidden>{t('forecasting.recordOrder.column')}</VisuallyHidden>
    </Table.Th>
  );
}

/** A row's "Record order…"; a row to hurry has no order to record. */
function RecordOrderTd({ product }: { product: InventoryReport['products'][number] }) {
  return <Table.Td ta="right">{product.orderBy === null ? null : <RecordOrderAction order={product} />}</Table.Td>;
}

function OnHandNote({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <Text id={id} size="xs" c="gray.7" mt={4}>
      {t('forecasting.report.onHandNote')}
    </Text>
  );
}

/**
 * An order on under four weeks of sales, in the order cell: "check before ordering", as the
 * product's own reorder advice says (ADR 0162, amendment 2026-12-04); the advice's sentence for
 * screen readers and on hover.
 */
function ShortHistoryMark({ shortHistory }: { shortHistory: boolean }) {
  const { t } = useTranslation();
  if (!shortHistory) return null;
  const why = t('forecasting.explain.shortHistoryCaution');
  return (
    <Badge variant="filled" color="yellow.4" autoContrast size="xs" ml={6} tt="none" title={why} data-testid="short-history-mark">
      {t('forecasting.report.checkBeforeOrdering')}
      <VisuallyHidden>{` ${why}`}</VisuallyHidden>
    </Badge>
  );
}

/** The best sellers' codes, each a button that selects the product, and "and N more." for the rest. */
function CodesNamed({ count, codes, onSelect }: { count: number; codes: string[]; onSelect: Select }) {
  const { t } = useTranslation();
  return (
    <>
      {codes.map((code, index) => (
        <Fragment key={code}>
          <CodeButton code={code} onSelect={onSelect} />
          {index < codes.length - 1 ? ', ' : ' '}
        </Fragment>
      ))}
      {count > codes.length ? <Text size="sm" span>{`${t('forecasting.report.unknownStockMore', { count: count - codes.length })} `}</Text> : null}
    </>
  );
}

/**
 * Products that sell but were never counted are not on the list (no stock projection, so no
 * advice): both views say how many and name the best sellers, so a blank stock cell is not mistaken
 * for "nothing to order". Those counted only after the sales data ends are named apart (ADR 0193
 * F9): they have a count, and what they need is the sales up to it.
 */
function UnknownStockNotice({ report, onSelect }: { report: InventoryReport; onSelect: Select }) {
  const { t } = useTranslation();
  const { count, codes, counted_after_sales: later } = report.unknown_stock;
  const salesEnd = later.sales_end === null ? null : formatDay(later.sales_end);
  return (
    <>
      {count > 0 ? (
        <Alert color="blue" mb="xs" title={t('forecasting.report.unknownStockTitle')} data-testid="unknown-stock">
          <Text size="sm" span>
            {t('forecasting.report.unknownStock', { count, days: report.inactive_days })}{' '}
          </Text>
          <CodesNamed count={count} codes={codes} onSelect={onSelect} />
          <Text size="sm" mt={4}>
            {t('forecasting.report.unknownStockAction')}
          </Text>
        </Alert>
      ) : null}
      {later.count > 0 ? (
        <Alert color="blue" mb="xs" title={t('forecasting.report.countedAfterSalesTitle')} data-testid="counted-after-sales">
          <Text size="sm" span>
            {(salesEnd === null ? t('forecasting.report.countedAfterSalesNoDay', { count: later.count, days: report.inactive_days }) : t('forecasting.report.countedAfterSales', { count: later.count, days: report.inactive_days, day: salesEnd }))}{' '}
          </Text>
          <CodesNamed count={later.count} codes={later.codes} onSelect={onSelect} />
          <Text size="sm" mt={4}>
            {salesEnd === null ? t('forecasting.report.countedAfterSalesActionNoDay', { count: later.count }) : t('forecasting.report.countedAfterSalesAction', { count: later.count, day: salesEnd })}
          </Text>
        </Alert>
      ) : null}
    </>
  );
}

/** The inactive filter above a list: products without demand lately are hidden unless switched on. */
function InactiveSwitch({ report, includeInactive, onView }: { report: InventoryReport; includeInactive: boolean; onView: (view: ReportView) => void }) {
  const { t } = useTranslation();
  return (
    <Switch
      size="sm"
      mb="xs"
      checked={includeInactive}
      onChange={(event) => onView({ page: 1, includeInactive: event.currentTarget.checked })}
      label={includeInactive ? t('forecasting.report.inactiveShown', { days: report.inactive_days }) : t('forecasting.report.inactiveHidden', { count: report.inactive, days: report.inactive_days })}
    />
  );
}

/**
 * Products made here (ADR 0194) are not on the list: one line says how many, and its switch shows
 * them, in the style of the inactive filter. Absent when none would be listed.
 */
function MadeHereSwitch({ report, includeMadeHere, onView }: { report: InventoryReport; includeMadeHere: boolean; onView: (view: ReportView) => void }) {
  const { t } = useTranslation();
  if (!includeMadeHere && !report.made_here) return null;
  return (
    <Switch
      size="sm"
      mb="xs"
      data-testid="made-here-switch"
      checked={includeMadeHere}
      onChange={(event) => onView({ page: 1, includeMadeHere: event.currentTarget.checked })}
      label={includeMadeHere ? t('forecasting.report.madeHereShown') : t('forecasting.report.madeHereHidden', { count: report.made_here ?? 0 })}
    />
  );
}

/** Products not stocked (a service or fee, ADR 0200) are never on the list: one line says how many. Absent when none would be listed. */
function NotStockedNotice({ report }: { report: InventoryReport }) {
  const { t } = useTranslation();
  if (!report.not_stocked) return null;
  return (
    <Text size="sm" c="gray.7" mb="xs" data-testid="not-stocked-notice">
      {t('forecasting.report.notStocked', { count: report.not_stocked })}
    </Text>
  );
}

// The supplier choices' values: every supplier, those with none, and one by its name (a name is any text).
const ALL_SUPPLIERS = '*all';
const NO_SUPPLIER = '*none';
const supplierValue = (supplier: string | null) => (supplier === null ? NO_SUPPLIER : `=${supplier}`);
const supplierOfValue = (value: string | null): SupplierFilter => (value === null || value === ALL_SUPPLIERS ? undefined : value === NO_SUPPLIER ? null : value.slice(1));

/**
 * The supplier filter above a list (ADR 0184): every supplier, one of the list's, or the products
 * with none, each with how many it lists; typed to narrow a long list of suppliers, taken with the
 * arrows and Enter. Not shown while no product on the list has a supplier and none is chosen.
 */
export function SupplierSelect({ report, supplier, onView }: { report: InventoryReport; supplier: SupplierFilter; onView: (view: ReportView) => void }) {
  const { t } = useTranslation();
  if (supplier === undefined && !report.suppliers.some((entry) => entry.supplier !== null)) return null;
  const all = report.suppliers.reduce((sum, entry) => sum + entry.count, 0);
  const data = [
    { value: ALL_SUPPLIERS, label: t('forecasting.report.allSuppliers', { count: all }) },
    ...report.suppliers.map((entry) => ({
      value: supplierValue(entry.supplier),
      label: entry.supplier === null ? t('forecasting.report.noSupplier', { count: entry.count }) : t('forecasting.report.supplierOption', { supplier: entry.supplier, count: entry.count }),
    })),
  ];
  return (
    <Select
      size="xs"
      mb="xs"
      w={{ base: '100%', xs: 280 }}
      label={t('forecasting.report.supplier')}
      searchable
      allowDeselect={false}
      data={data}
      value={supplier === undefined ? ALL_SUPPLIERS : supplierValue(supplier)}
      onChange={(value) => onView({ page: 1, supplier: supplierOfValue(value) })}
      nothingFoundMessage={t('forecasting.report.noSuchSupplier')}
      maxDropdownHeight={280}
      data-testid="supplier-filter"
    />
  );
}

/** An empty list under the supplier filter: nothing to order from that supplier (or of the products with none). */
const noneOfSupplier = (supplier: string | null, t: TFunction) => (supplier === null ? t('forecasting.report.noneWithoutSupplier') : t('forecasting.report.noneOfSupplier', { supplier }));

/** The product's name, its supplier in small print under it (none: nothing), and "Made here — not ordered" for one the filter shows (ADR 0194). */
function NameTd({ product }: { product: Pick<InventoryReport['products'][number], 'name' | 'supplier' | 'madeHere'> }) {
  const { t } = useTranslation();
  return (
    <Table.Td>
      {product.name}
      {product.supplier ? (
        <Text size="xs" c="gray.7" data-testid="row-supplier">
          {product.supplier}
        </Text>
      ) : null}
      {product.madeHere ? (
        <Text size="xs" c="gray.7" data-testid="row-made-here">
          {t('forecasting.explain.madeHere')}
        </Text>
      ) : null}
    </Table.Td>
  );
}

/** The server's pages of a list. */
function ReportPagination({ report, onView }: { report: InventoryReport; onView: (view: ReportView) => void }) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(report.total / report.page_size));
  if (pages <= 1) return null;
  return (
    <Pagination
      mt="xs"
      size="sm"
      total={pages}
      value={report.page}
      onChange={(page) => onView({ page })}
      getControlProps={(control) => ({ 'aria-label': t(`forecasting.report.pageControl.${control}`) })}
      getItemProps={(page) => ({ 'aria-label': t('forecasting.report.pageNumber', { page }) })}
    />
  );
}

/** What both views of the order advice (the report and the low-stock panel) are given besides the page itself. */
type AdviceViewProps = {
  /** The viewer's day (`viewerToday`): an order-by day on or before it reads "Now", as in the product panel. */
  today: string;
  includeInactive: boolean;
  /** Whether products made here (not ordered, ADR 0194) are listed. */
  includeMadeHere?: boolean;
  /** The supplier the list is narrowed to: undefined, every supplier; null, the products with none. */
  supplier?: SupplierFilter;
  message: string | null;
  isLoading: boolean;
  error: string | null;
  onSelect: Select;
  onRetry: () => void;
  onView: (view: ReportView) => void;
};

export const LatestReportPanel = memo(function LatestReportPanel(props: AdviceViewProps & { report: InventoryReport | null }) {
  const { report, today, includeInactive, includeMadeHere = false, supplier, message, isLoading, error, onSelect, onRetry, onView } = props;
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const canRecord = useCan('editor');
  // The server lists the products that need an order, most urgent first, a page at a time.
  const atRisk = report?.products ?? [];
  const shown = expanded ? atRisk : atRisk.slice(0, collapsedRows);
  return (
    <Paper withBorder p="md" data-testid="latest-report">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('forecasting.report.title')}
        </Title>
        <Group gap="xs">
          {isLoading ? <Loader size="xs" /> : null}
          <Button variant="subtle" size="xs" onClick={onRetry} disabled={isLoading}>
            {t('forecasting.report.refresh')}
          </Button>
        </Group>
      </Group>
      {error ? <RetryAlert error={error} onRetry={onRetry} /> : null}
      {!report && message ? <Text c="gray.7" data-testid="no-report">{message}</Text> : null}
      {report ? (
        <>
          <Text size="sm" c="gray.7" mb="xs" data-testid="report-generated">
            {t('forecasting.report.generatedAt', { timestamp: formatTime(report.timestamp), days: report.forecast_days })}
          </Text>
          <Text fw={600} size="sm" mb={4} data-testid="at-risk-count">
            {t(report.on_order_late ? 'forecasting.report.atRiskWithHurry' : 'forecasting.report.atRisk', { count: report.total })}
          </Text>
          <SupplierSelect report={report} supplier={supplier} onView={onView} />
          <SupplierOrdersButton report={report} supplier={supplier} includeInactive={includeInactive} />
          <InactiveSwitch report={report} includeInactive={includeInactive} onView={onView} />
          <MadeHereSwitch report={report} includeMadeHere={includeMadeHere} onView={onView} />
          <NotStockedNotice report={report} />
          <UnknownStockNotice report={report} onSelect={onSelect} />
          {atRisk.length === 0 ? (
            <Text size="sm">{supplier === undefined ? t('forecasting.report.noneAtRisk') : noneOfSupplier(supplier, t)}</Text>
          ) : (
            <Table.ScrollContainer minWidth={canRecord ? 680 : 560}>
              <Table highlightOnHover striped="odd" data-testid="at-risk-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('forecasting.report.styleCode')}</Table.Th>
                    <Table.Th>{t('forecasting.report.name')}</Table.Th>
                    <OnHandHeader noteId="report-on-hand-note" />
                    <Table.Th>{t('forecasting.report.firstStockout')}</Table.Th>
                    <Table.Th ta="right">{t('forecasting.report.orderQuantity')}</Table.Th>
                    <Table.Th>{t('forecasting.report.orderBy')}</Table.Th>
                    {canRecord && <RecordOrderHeader />}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((product) => (
                    <Table.Tr key={product.styleCode} onClick={() => onSelect(product.styleCode)} style={{ cursor: 'pointer' }} data-style-code={product.styleCode}>
                      <Table.Td>
                        <CodeButton code={product.styleCode} onSelect={onSelect} />
                      </Table.Td>
                      <NameTd product={product} />
                      <OnHandTd product={product} />
                      <Table.Td>{product.firstStockout ? formatDay(product.firstStockout) : ''}</Table.Td>
                      <Table.Td ta="right" data-testid="order-quantity">
                        {product.onOrderArrives ? <NoNewOrder /> : withUnit(quantity.format(product.orderQuantity), product.unit)}
                        <ShortHistoryMark shortHistory={product.shortHistory} />
                        <SupplierOrderNote order={product} />
                      </Table.Td>
                      <Table.Td>
                        <OrderByDay orderBy={product.orderBy} today={today} />
                        <TooLateMark product={product} />
                      </Table.Td>
                      {canRecord && <RecordOrderTd product={product} />}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <OnHandNote id="report-on-hand-note" />
            </Table.ScrollContainer>
          )}
          {atRisk.length > collapsedRows ? (
            <Button variant="subtle" size="xs" mt="xs" onClick={() => setExpanded(!expanded)}>
              {expanded ? t('forecasting.report.showFewer') : t('forecasting.report.showAll', { count: atRisk.length })}
            </Button>
          ) : null}
          <ReportPagination report={report} onView={onView} />
        </>
      ) : null}
    </Paper>
  );
});

/**
 * The low-stock list's count: the orders to place, dated by the list's most urgent order (not a
 * fixed "soon"; "now" once its day has come, as its row says), and the deliveries to hurry —
 * together the list's `total`.
 */
function LowStockCount({ advice, today }: { advice: InventoryReport; today: string }) {
  const { t } = useTranslation();
  const late = advice.on_order_late ?? 0;
  const orders = advice.total - late;
  const money = useMoneyFormat();
  const none = late ? t('forecasting.lowStock.countNoneNew') : t('forecasting.lowStock.countNone');
  return (
    <Text fw={600} size="sm" mb={4} data-testid="low-stock-count">
      {advice.first_order_by
        ? t(orderDueNow(advice.first_order_by, today) ? 'forecasting.lowStock.countNow' : 'forecasting.lowStock.count', { count: orders, date: formatDay(advice.first_order_by), quantities: quantitiesWords(advice.order_quantities, t), cost: money.format(advice.order_cost) })
        : none}
      {late ? t('forecasting.lowStock.hurry', { count: late }) : null}
    </Text>
  );
}

/**
 * Low stock: the products that need an order (the same list, count and order as the report), as
 * orders to place — the forecast's quantity, order-by date and cost; never a fixed quantity — and
 * those whose delivery on its way comes too late, marked to hurry it.
 */
export const LowStockPanel = memo(function LowStockPanel(props: AdviceViewProps & { advice: InventoryReport | null }) {
  const { advice, today, includeInactive, includeMadeHere = false, supplier, message, isLoading, error, onSelect, onRetry, onView } = props;
  const { t } = useTranslation();
  // On an empty catalogue there is nothing to regenerate yet: say what comes first.
  const catalogueEmpty = useForecastingStore((state) => state.catalogueEmpty);
  const orders = advice?.products ?? [];
  const money = useMoneyFormat();
  const canRecord = useCan('editor');
  return (
    <Paper withBorder p="md" data-testid="low-stock">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('forecasting.lowStock.title')}
        </Title>
        {isLoading ? <Loader size="xs" /> : null}
      </Group>
      <Text size="sm" c="gray.7" mb="xs">
        {t('forecasting.lowStock.description')}
      </Text>
      {error ? <RetryAlert error={error} onRetry={onRetry} /> : null}
      {!advice && message ? (
        <Text size="sm" data-testid="low-stock-empty">
          {catalogueEmpty ? t('forecasting.errors.noProductsYet') : t('forecasting.lowStock.noForecast')}
        </Text>
      ) : null}
      {advice ? (
        <>
          <LowStockCount advice={advice} today={today} />
          <SupplierSelect report={advice} supplier={supplier} onView={onView} />
          <SupplierOrdersButton report={advice} supplier={supplier} includeInactive={includeInactive} />
          <InactiveSwitch report={advice} includeInactive={includeInactive} onView={onView} />
          <MadeHereSwitch report={advice} includeMadeHere={includeMadeHere} onView={onView} />
          <NotStockedNotice report={advice} />
          <UnknownStockNotice report={advice} onSelect={onSelect} />
          {orders.length === 0 ? (
            <Text size="sm" data-testid="low-stock-empty">
              {advice.inactive > 0 && !includeInactive
                ? t('forecasting.lowStock.noneActive', { count: advice.inactive, days: advice.inactive_days })
                : supplier === undefined
                  ? t('forecasting.lowStock.none')
                  : noneOfSupplier(supplier, t)}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={canRecord ? 760 : 640}>
              <Table highlightOnHover striped="odd" data-testid="low-stock-table">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('forecasting.lowStock.styleCode')}</Table.Th>
                    <Table.Th>{t('forecasting.lowStock.name')}</Table.Th>
                    <OnHandHeader noteId="low-stock-on-hand-note" />
                    <Table.Th>{t('forecasting.lowStock.orderBy')}</Table.Th>
                    <Table.Th ta="right">{t('forecasting.lowStock.quantity')}</Table.Th>
                    <Table.Th ta="right">{t('forecasting.lowStock.cost')}</Table.Th>
                    {canRecord && <RecordOrderHeader />}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {orders.map((order) => (
                    <Table.Tr key={order.styleCode} onClick={() => onSelect(order.styleCode)} style={{ cursor: 'pointer' }} data-style-code={order.styleCode}>
                      <Table.Td>
                        <CodeButton code={order.styleCode} onSelect={onSelect} />
                      </Table.Td>
                      <NameTd product={order} />
                      <OnHandTd product={order} />
                      <Table.Td>
                        <OrderByDay orderBy={order.orderBy} today={today} />
                        <TooLateMark product={order} />
                      </Table.Td>
                      <Table.Td ta="right" data-testid="order-quantity">
                        {order.onOrderArrives ? <NoNewOrder /> : withUnit(quantity.format(order.orderQuantity), order.unit)}
                        <ShortHistoryMark shortHistory={order.shortHistory} />
                        <SupplierOrderNote order={order} />
                      </Table.Td>
                      <Table.Td ta="right" data-testid="order-cost">
                        {order.onOrderArrives ? <NoNewOrder /> : money.format(order.orderQuantity * order.unitCost)}
                      </Table.Td>
                      {canRecord && <RecordOrderTd product={order} />}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              <OnHandNote id="low-stock-on-hand-note" />
            </Table.ScrollContainer>
          )}
          <ReportPagination report={advice} onView={onView} />
        </>
      ) : null}
    </Paper>
  );
});
