// "Record order…" (ADR 0182): a buyer who placed an order of a product on the lists records it from
// its row — the quantity ordered (prefilled with the advice's, in the product's unit) and the day the
// supplier delivers (prefilled with the first day the shop is open from its today plus the lead
// time, the list's `arrivalDate`, ADR 0182 amendment 2026-12-06; typed in the person's date order or
// picked, any day the shop's today or later; a day the shop is closed on is noted under it, not refused), with the supplier it is ordered from when the product has one (ADR 0184). Saved
// as a scheduled delivery; the product's advice is then updated on the row.
// Editors and administrators only, as the route is.
import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDay, quantityFormat } from '@stockwise/contract';
import type { NormalizedError } from '../../api/errors.ts';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import { useFocusFirstInvalid } from '../../components/form-focus.ts';
import { useForecastingStore } from '../../stores/forecasting.ts';
import { useCan } from '../../stores/role.ts';
import { orderDueNow } from '../../components/order-by.tsx';
import { withUnit } from '../../components/quantity-words.ts';
import { ClosedDayNote, OrderArrivalInput, orderFieldErrors, OrderQuantityInput, useOrderFields, type OrderProblems } from './order-fields.tsx';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** What a row (or the product panel) knows of the order it advises; `supplier`: who it is ordered from, when the product has one (ADR 0184). */
export type AdvisedOrder = { styleCode: string; name: string; unit: string | null; supplier?: string | null; orderQuantity: number; orderBy: string | null; leadTimeDays: number; arrivalDate?: string };

export function RecordOrderDialog({ order, onClose }: { order: AdvisedOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const recordOrder = useForecastingStore((state) => state.recordOrder);
  const { dates, today, proposedArrival, checkedOrder } = useOrderFields();
  const [quantity, setQuantity] = useState(() => String(order.orderQuantity));
  const [arrival, setArrival] = useState(() => proposedArrival(order));
  const [problems, setProblems] = useState<OrderProblems>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  const advised = withUnit(quantityFormat.format(order.orderQuantity), order.unit);

  const refuse = (found: OrderProblems, message: string | null = null) => {
    setProblems(found);
    setRefusal(message);
    focusFirstInvalid();
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkedOrder(quantity, arrival);
    if ('problems' in checked) return refuse(checked.problems);
    setSaving(true);
    try {
      await recordOrder({ styleCode: order.styleCode, ...checked });
      onClose();
    } catch (error) {
      setSaving(false);
      const { message, details } = error as NormalizedError;
      const named = orderFieldErrors(details.fieldErrors);
      refuse(named, Object.keys(named).length ? null : message);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('forecasting.recordOrder.title', { code: order.styleCode, name: order.name })}
      closeButtonProps={{ 'aria-label': t('forecasting.recordOrder.close') }}
      // Opened from a list row that selects its product when clicked: the dialog's clicks stay its own.
      onClick={(event) => event.stopPropagation()}
    >
      <form ref={formRef} onSubmit={(event) => void save(event)} noValidate aria-busy={saving} data-testid="record-order-form">
        <Stack gap="sm">
          {order.supplier ? (
            <Text size="sm" fw={500} data-testid="record-order-supplier">
              {t('forecasting.recordOrder.supplier', { supplier: order.supplier })}
            </Text>
          ) : null}
          <Text size="sm">{t(order.orderBy && orderDueNow(order.orderBy, today) ? 'forecasting.recordOrder.advisedNow' : 'forecasting.recordOrder.advised', { quantity: advised, date: order.orderBy ? formatDay(order.orderBy) : '' })}</Text>
          {refusal && (
            <Alert color="red" role="alert" data-testid="record-order-error">
              {refusal}
            </Alert>
          )}
          <OrderQuantityInput
            label={t('forecasting.recordOrder.quantity')}
            description={order.unit ? t('forecasting.recordOrder.quantityIn', { unit: order.unit }) : t('forecasting.recordOrder.quantityInUnits')}
            unit={order.unit}
            value={quantity}
            error={problems.quantity}
            data-autofocus
            onChange={(text) => {
              setQuantity(text);
              setProblems(({ quantity: _was, ...others }) => others);
            }}
          />
          <OrderArrivalInput
            label={t('forecasting.recordOrder.arrival')}
            description={t(order.arrivalDate ? 'forecasting.recordOrder.arrivalHint' : 'forecasting.recordOrder.arrivalHintLeadTime', { pattern: dates.pattern, count: order.leadTimeDays })}
            value={arrival}
            error={problems.expectedDate}
            onChange={(text) => {
              setArrival(text);
              setProblems(({ expectedDate: _was, ...others }) => others);
            }}
          />
          <ClosedDayNote arrival={arrival} />
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('forecasting.recordOrder.cancel')}
            </Button>
            <BusyButton type="submit" busy={saving}>
              {t('forecasting.recordOrder.save')}
            </BusyButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * A row's "Record order…" (its product named for screen readers), which opens the dialog; while the
 * order's product runs again it says "Updating advice…" and stays where the focus can come back to.
 * Nothing for a viewer.
 */
export function RecordOrderAction({ order }: { order: AdvisedOrder }) {
  const { t } = useTranslation();
  const canRecord = useCan('editor');
  const updating = useForecastingStore((state) => state.ordersUpdating[order.styleCode] === true);
  const [open, setOpen] = useState(false);
  const opening = useDialogFocusReturn(open);
  if (!canRecord) return null;
  const label = t(updating ? 'forecasting.recordOrder.updating' : 'forecasting.recordOrder.action');
  return (
    <>
      <Button
        size="compact-xs"
        variant="light"
        data-testid="record-order"
        // The visible words first, then the product: each row's button has a name of its own.
        aria-label={`${label}${t('forecasting.recordOrder.actionFor', { code: order.styleCode, name: order.name })}`}
        data-disabled={updating || undefined}
        aria-disabled={updating || undefined}
        leftSection={updating ? <Loader size={10} aria-hidden /> : undefined}
        style={{ whiteSpace: 'nowrap' }}
        onClick={(event) => {
          event.stopPropagation();
          if (updating) return;
          opening();
          setOpen(true);
        }}
      >
        {label}
      </Button>
      {open && <RecordOrderDialog order={order} onClose={() => setOpen(false)} />}
    </>
  );
}
