// "<supplier>: record N orders…" (ADR 0185): a buyer who placed one purchase order with a
// supplier records all of its orders at once, from a list narrowed to that supplier (ADR 0184). The
// dialog lists every order of the whole filtered list — not only the page shown — each prefilled as
// "Record order…" prefills one (the advised quantity in the product's unit, the shop's today plus the
// lead time), each editable and each left out by unticking it, a typed arrival day the shop is closed
// on noted under its field as in "Record order…"; rows to hurry order nothing and are
// not listed. Saved all or none; the rows then say "Updating advice…" and one notice says "Recorded
// N orders for <supplier>". Editors and administrators only, as the route is.
import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { MAX_BATCH_ORDERS, type InventoryReport, type RecordOrderRequest } from '@stockwise/contract';
import { fetchLatestReport, type SupplierFilter } from '../../api/forecasting.ts';
import { normalizeError, type NormalizedError } from '../../api/errors.ts';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import { useFocusFirstInvalid } from '../../components/form-focus.ts';
import { useForecastingStore } from '../../stores/forecasting.ts';
import { useCan } from '../../stores/role.ts';
import { ClosedDayNote, OrderArrivalInput, orderFieldErrors, OrderQuantityInput, useOrderFields, useSharedOpenDayLookup, type OrderProblems } from './order-fields.tsx';
import { SupplierOrderNote } from './SupplierOrderNote.tsx';
import { TooLateMark } from './TooLateMark.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

type ListedOrder = InventoryReport['products'][number];
type Row = { order: ListedOrder; included: boolean; quantity: string; arrival: string; problems: OrderProblems };

/** A row's own label, hidden: the table's header says it to sighted readers, the field's name to a screen reader. */
const HIDDEN_LABEL = { label: { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } } as const;

/** The orders of a list narrowed to one supplier, all its pages: the orders to place (rows to hurry order nothing). */
async function supplierOrders(supplier: SupplierFilter, includeInactive: boolean): Promise<{ orders: ListedOrder[]; more: number }> {
  const answer = await fetchLatestReport({ page: 1, pageSize: MAX_BATCH_ORDERS, includeInactive, supplier });
  const report = answer.success ? answer.report : null;
  const orders = (report?.products ?? []).filter((product) => product.orderBy !== null);
  return { orders, more: report ? report.total - (report.on_order_late ?? 0) - orders.length : 0 };
}

export function SupplierOrdersDialog({ supplier, includeInactive, onClose }: { supplier: string | null; includeInactive: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const recordOrders = useForecastingStore((state) => state.recordOrders);
  const { dates, proposedArrival, checkedOrder } = useOrderFields();
  const openDayLookup = useSharedOpenDayLookup();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [more, setMore] = useState(0);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const name = supplier ?? t('forecasting.recordOrders.noSupplierName');

  useEffect(() => {
    let current = true;
    supplierOrders(supplier, includeInactive).then(
      (found) => {
        if (!current) return;
        setRows(found.orders.map((order) => ({ order, included: true, quantity: String(order.orderQuantity), arrival: proposedArrival(order), problems: {} })));
        setMore(found.more);
      },
      (error: unknown) => current && (setRows([]), setRefusal(normalizeError(error).message)),
    );
    return () => {
      current = false;
    };
    // Read once, as the dialog opens: the list it lists is the one the buyer chose to record.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The list comes after the dialog opened (its close button had the focus): the first order takes it.
  const loaded = rows !== null;
  useEffect(() => {
    if (loaded) formRef.current?.querySelector<HTMLElement>('input[type="checkbox"]')?.focus();
  }, [loaded, formRef]);

  const change = (index: number, edit: Partial<Row>) => setRows((shown) => shown && shown.map((row, at) => (at === index ? { ...row, ...edit } : row)));
  const included = rows?.filter((row) => row.included) ?? [];

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!rows) return;
    if (!included.length) {
      setRefusal(t('forecasting.recordOrders.noneChosen'));
      return;
    }
    const checked = rows.map((row) => (row.included ? checkedOrder(row.quantity, row.arrival) : null));
    if (checked.some((order) => order && 'problems' in order)) {
      setRows(rows.map((row, index) => ({ ...row, problems: checked[index] && 'problems' in checked[index] ? checked[index].problems : {} })));
      setRefusal(null);
      return focusFirstInvalid();
    }
    // The request's positions are those of the rows included.
    const sent = rows.flatMap((row, index) => (row.included ? [{ index, request: { styleCode: row.order.styleCode, ...(checked[index] as Omit<RecordOrderRequest, 'styleCode'>) } }] : []));
    setSaving(true);
    try {
      await recordOrders(
        sent.map(({ request }) => request),
        supplier,
      );
      onClose();
    } catch (error) {
      setSaving(false);
      const { message, details } = error as NormalizedError;
      const named = new Map(sent.map(({ index }, position) => [index, orderFieldErrors(details.fieldErrors, `orders.${position}.`)]));
      setRows(rows.map((row, index) => ({ ...row, problems: named.get(index) ?? {} })));
      // A refusal naming rows' fields is said under them; one of the whole list (a product gone, 404) above it.
      setRefusal([...named.values()].some((problems) => Object.keys(problems).length) ? null : message);
      focusFirstInvalid();
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('forecasting.recordOrders.title', { supplier: name })}
      closeButtonProps={{ 'aria-label': t('forecasting.recordOrder.close') }}
      onClick={(event) => event.stopPropagation()}
    >
      <form ref={formRef} onSubmit={(event) => void save(event)} noValidate aria-busy={saving || !rows} data-testid="supplier-orders-form">
        <Stack gap="sm">
          <Text size="sm">{t('forecasting.recordOrders.intro', { pattern: dates.pattern })}</Text>
          {refusal && (
            <Alert color="red" role="alert" data-testid="supplier-orders-error">
              {refusal}
            </Alert>
          )}
          {!rows ? (
            <Group gap="xs">
              <Loader size="xs" aria-hidden />
              <Text size="sm">{t('forecasting.recordOrders.loading')}</Text>
            </Group>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table data-testid="supplier-orders-table" verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('forecasting.recordOrders.include')}</Table.Th>
                    <Table.Th>{t('forecasting.report.styleCode')}</Table.Th>
                    <Table.Th>{t('forecasting.report.name')}</Table.Th>
                    <Table.Th>{t('forecasting.recordOrder.quantity')}</Table.Th>
                    <Table.Th>{t('forecasting.recordOrder.arrival')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((row, index) => {
                    const product = t('forecasting.recordOrders.product', { code: row.order.styleCode, name: row.order.name });
                    return (
                      <Table.Tr key={row.order.styleCode} data-style-code={row.order.styleCode}>
                        <Table.Td>
                          <Checkbox
                            checked={row.included}
                            aria-label={t('forecasting.recordOrders.includeProduct', { product })}
                            onChange={(event) => change(index, { included: event.currentTarget.checked, problems: {} })}
                          />
                        </Table.Td>
                        <Table.Td fw={500}>{row.order.styleCode}</Table.Td>
                        <Table.Td>
                          {row.order.name}
                          <TooLateMark product={row.order} />
                        </Table.Td>
                        <Table.Td w={170}>
                          <OrderQuantityInput
                            label={t('forecasting.recordOrders.quantityOf', { product })}
                            styles={HIDDEN_LABEL}
                            size="xs"
                            unit={row.order.unit}
                            value={row.quantity}
                            disabled={!row.included}
                            error={row.problems.quantity}
                            onChange={(text) => change(index, { quantity: text, problems: { ...row.problems, quantity: undefined } })}
                          />
                          <SupplierOrderNote order={row.order} />
                        </Table.Td>
                        <Table.Td w={190}>
                          <OrderArrivalInput
                            label={t('forecasting.recordOrders.arrivalOf', { product })}
                            styles={HIDDEN_LABEL}
                            size="xs"
                            value={row.arrival}
                            disabled={!row.included}
                            error={row.problems.expectedDate}
                            onChange={(text) => change(index, { arrival: text, problems: { ...row.problems, expectedDate: undefined } })}
                          />
                          {/* A row left out sends no day: no note about it. */}
                          <ClosedDayNote arrival={row.included ? row.arrival : ''} lookup={openDayLookup} size="xs" />
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {more > 0 ? <Text size="sm">{t('forecasting.recordOrders.more', { count: more, max: MAX_BATCH_ORDERS })}</Text> : null}
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('forecasting.recordOrder.cancel')}
            </Button>
            <BusyButton type="submit" busy={saving} disabled={!rows?.length}>
              {t('forecasting.recordOrders.save', { count: included.length })}
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Above a list narrowed to one supplier (or to the products with none) that has orders to place:
 * "Lumen Ltd: record 3 orders…", which opens the dialog — the supplier's name first, so the
 * dialog's ellipsis never follows a name's own full stop ("Fresh Drinks Co.: record 16 orders…", ADR
 * 0185 amendment). Nothing for a viewer, for every supplier at once, or for a list of rows to hurry only.
 */
export function SupplierOrdersButton({ report, supplier, includeInactive }: { report: InventoryReport; supplier: SupplierFilter; includeInactive: boolean }) {
  const { t } = useTranslation();
  const canRecord = useCan('editor');
  const [open, setOpen] = useState(false);
  const opening = useDialogFocusReturn(open);
  const count = report.total - (report.on_order_late ?? 0);
  if (!canRecord || supplier === undefined || count <= 0) return null;
  return (
    <>
      <Button
        size="xs"
        variant="light"
        mb="xs"
        data-testid="record-supplier-orders"
        onClick={(event) => {
          event.stopPropagation();
          opening();
          setOpen(true);
        }}
      >
        {supplier === null ? t('forecasting.recordOrders.actionNoSupplier', { count }) : t('forecasting.recordOrders.action', { count, supplier })}
      </Button>
      {open && <SupplierOrdersDialog supplier={supplier} includeInactive={includeInactive} onClose={() => setOpen(false)} />}
    </>
  );
}
