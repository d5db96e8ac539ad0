// The fields of an order recorded from the lists, shared by "Record order…" (ADR 0182) and a
// supplier's orders recorded at once (ADR 0185): the quantity ordered, in the product's unit, and
// the day the supplier delivers, typed in the person's date order or picked — each refused under
// itself before sending by the same rules (the day's is the contract's `orderArrivalProblem`, the
// server's too).
import { useEffect, useState, type ComponentProps } from 'react';
import { Text, TextInput, type MantineSize } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dayInPattern, formatDay, orderArrivalDay, orderArrivalProblem, readTypedDay, typedFilterProblemText, type OpenDayAnswer } from '@stockwise/contract';
import { fetchOpenDay } from '../../api/forecasting.ts';
import { shopToday } from '../../api/shop-day.ts';
import { DayField } from '../../components/day-field/DayField.tsx';
import { useShopStore } from '../../stores/shop.ts';
import { useViewerDates } from '../../components/viewer-dates.ts';

export type OrderField = 'quantity' | 'expectedDate';
export type OrderProblems = Partial<Record<OrderField, string>>;
export const ORDER_FIELDS: readonly OrderField[] = ['quantity', 'expectedDate'];

/**
 * The shop's today, the person's date order, the day an order of a lead time is proposed to arrive
 * (in that order), and what an order's typed fields are: its day, or each field's problem.
 */
export function useOrderFields() {
  const { t } = useTranslation();
  const dates = useViewerDates();
  const today = shopToday(useShopStore((state) => state.timeZoneInEffect));
  /** The server's open day after the lead time (the list's `arrivalDate`); without one, the lead time's day. */
  const proposedArrival = ({ arrivalDate, leadTimeDays }: { arrivalDate?: string; leadTimeDays: number }) => dayInPattern(arrivalDate ?? orderArrivalDay(today, leadTimeDays), dates.pattern);
  /** The day typed, or why it is none an order can arrive on (the shop's today at the earliest). */
  const arrivalDay = (arrival: string): { day: string } | { problem: string } => {
    if (!arrival.trim()) return { problem: t('forecasting.recordOrder.arrivalRequired') };
    const read = readTypedDay(arrival, dates.order);
    if ('problem' in read) return { problem: read.problem === 'noSuchDay' ? typedFilterProblemText(read, dates.order) : t('forecasting.recordOrder.notADate', { pattern: dates.pattern, example: dayInPattern(today, dates.pattern) }) };
    const problem = orderArrivalProblem(read.day, today);
    return problem ? { problem } : read;
  };
  /** An order as typed: the request's quantity (the figure as typed: the server reads it in the product's unit, "250 g", "1,5") and day, or each field's problem. */
  const checkedOrder = (quantity: string, arrival: string): { quantity: string; expectedDate: string } | { problems: OrderProblems } => {
    const day = arrivalDay(arrival);
    if (quantity.trim() && !('problem' in day)) return { quantity: quantity.trim(), expectedDate: day.day };
    return { problems: { ...(quantity.trim() ? {} : { quantity: t('forecasting.recordOrder.quantityRequired') }), ...('problem' in day ? { expectedDate: day.problem } : {}) } };
  };
  return { dates, today, proposedArrival, arrivalDay, checkedOrder };
}

/** The server's refusals of an order's fields, found under `prefix` ("orders.3." in a batch), each field's words joined. */
export const orderFieldErrors = (fieldErrors: Record<string, string[]>, prefix = ''): OrderProblems =>
  Object.fromEntries(ORDER_FIELDS.flatMap((field) => (fieldErrors[`${prefix}${field}`] ? [[field, fieldErrors[`${prefix}${field}`]!.join(' ')]] : [])));

type QuantityProps = Omit<ComponentProps<typeof TextInput>, 'value' | 'onChange' | 'rightSection'> & { unit: string | null; value: string; onChange: (text: string) => void };

/** The quantity ordered, the product's unit beside it (pieces: "units"); the whole figure selected on focus, to be typed over. */
export function OrderQuantityInput({ unit, value, onChange, ...input }: QuantityProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      required
      value={value}
      onFocus={(event) => event.currentTarget.select()}
      onChange={(event) => onChange(event.currentTarget.value)}
      rightSection={
        <Text size="sm" c="gray.7" aria-hidden>
          {unit ?? t('forecasting.recordOrder.pieces')}
        </Text>
      }
      rightSectionWidth={unit && unit.length > 3 ? 72 : 48}
      rightSectionPointerEvents="none"
      {...input}
    />
  );
}

type ArrivalProps = Omit<ComponentProps<typeof DayField>, 'order' | 'pattern' | 'today'>;

/** The day the supplier delivers, in the person's date order, the calendar opening on the shop's today. */
export function OrderArrivalInput(props: ArrivalProps) {
  const { dates, today } = useOrderFields();
  return <DayField order={dates.order} pattern={dates.pattern} today={today} required {...props} />;
}

/** How long typing rests before the typed day is looked up (a day typed digit by digit is asked about once). */
const CLOSED_DAY_PAUSE_MS = 300;
const weekdayName = new Intl.DateTimeFormat('en', { weekday: 'long', timeZone: 'UTC' });
/** A day as the note says it: "Sunday 13 Dec 2026". */
const dayWithWeekday = (day: string) => `${weekdayName.format(new Date(`${day}T00:00:00Z`))} ${formatDay(day)}`;

/** How a note asks whether the shop is open on a day. */
export type OpenDayLookup = (day: string) => Promise<OpenDayAnswer>;

/**
 * The open-day lookup of a dialog of many arrival fields (a supplier's orders at once, up to 500
 * rows): each day asked about once while the dialog is open, so rows proposing the same day, or a
 * day typed into several rows, make one request. A failed lookup is forgotten, to be asked again.
 */
export function useSharedOpenDayLookup(): OpenDayLookup {
  const [lookup] = useState(() => {
    const asked = new Map<string, Promise<OpenDayAnswer>>();
    return (day: string) => {
      const known = asked.get(day);
      if (known) return known;
      const answer = fetchOpenDay(day);
      asked.set(day, answer);
      answer.catch(() => asked.delete(day));
      return answer;
    };
  });
  return lookup;
}

/**
 * A note under the arrival day when the day typed (or picked) is one the shop is closed on — a
 * closed weekday or holiday learnt from its sales, or a day set in Settings → Shop (ADR 0171) — with
 * its note and the next day it is open (ADR 0182, amendment 2026-12-06). Never a refusal: a delivery
 * on a closed day may be what was agreed. Nothing while the day does not read, or the lookup fails.
 * `lookup`: a dialog's shared one (`useSharedOpenDayLookup`), else one request per day typed.
 */
export function ClosedDayNote({ arrival, lookup = fetchOpenDay, size = 'sm' }: { arrival: string; lookup?: OpenDayLookup; size?: MantineSize }) {
  const { t } = useTranslation();
  const { arrivalDay } = useOrderFields();
  const read = arrivalDay(arrival);
  const day = 'day' in read ? read.day : null;
  const [answer, setAnswer] = useState<{ date: string; note: string | null; nextOpen: string } | null>(null);
  useEffect(() => {
    if (!day) return;
    let current = true;
    const timer = setTimeout(() => {
      lookup(day).then(
        (found) => {
          if (current) setAnswer(found.closed ? { date: found.date, note: found.note, nextOpen: found.next_open } : null);
        },
        () => {
          if (current) setAnswer(null);
        },
      );
    }, CLOSED_DAY_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [day, lookup]);
  // Only the answer about the day now in the field is shown.
  const shown = answer && answer.date === day ? answer : null;
  return (
    // A live region there from the start, so the note is read out when it appears.
    <Text size={size} fw={500} role="status" data-testid="arrival-closed-note">
      {shown
        ? t(shown.nextOpen === shown.date ? 'forecasting.recordOrder.closedDayNoNext' : 'forecasting.recordOrder.closedDay', {
            day: dayWithWeekday(shown.date),
            note: shown.note ? ` (${shown.note})` : '',
            next: dayWithWeekday(shown.nextOpen),
          })
        : null}
    </Text>
  );
}
