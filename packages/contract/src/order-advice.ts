// An order a buyer placed, recorded from the row of the order list that advised it (docs/api.md
// "Order advice", ADR 0182): `POST /api/order-advice/orders/` writes it as a scheduled delivery and
// forecasts the product again, so its advice counts the order at once.
import { z } from 'zod';
import { isoDayProblem } from './calendar.ts';
import { formatDay } from './dates.ts';
import { dateRuleProblem } from './date-rules.ts';
import { storableText } from './text.ts';

/** Places a delivery's quantity keeps (numeric(14, 3), ADR 0176), and the largest it holds. */
export const ORDER_QUANTITY_PLACES = 3;
export const MAX_ORDER_QUANTITY = 99_999_999_999.999;
/** How long a quantity typed with its unit may be ("1.234,5 kg"): a figure, not a sentence. */
const MAX_QUANTITY_TEXT = 40;

/**
 * Why `day` (YYYY-MM-DD) cannot be when an order placed on the shop's `today` arrives, or null: a
 * day gone by (an order placed now arrives today at the earliest), a year mistyped (more than five
 * years ahead, `dateRuleProblem`'s rule for a delivery), or no day of the calendar.
 */
export function orderArrivalProblem(day: string, today: string, now = new Date()): string | null {
  const notADay = isoDayProblem(day);
  if (notADay) return notADay;
  if (day < today) return `${formatDay(day)} is in the past: an order placed now arrives today (${formatDay(today)}) at the earliest.`;
  return dateRuleProblem('planned', day, now);
}

/**
 * `GET /api/forecasting/open-day/?date=`: whether the shop is closed on a day (its closed weekdays and
 * holidays learnt from its sales, and the days set in Settings → Shop, ADR 0171), the note given with
 * a day set there, and the first day from it that the shop is open (the day itself when open; within
 * a fortnight, else the day itself). A note under a typed arrival day, never a refusal (ADR 0182).
 */
export const openDayQuery = z.object({
  // In words, not zod's "expected string, received undefined/array": no date, or `date` twice.
  date: z
    .string({ error: (issue) => (issue.input === undefined ? 'A day to look up is required, as YYYY-MM-DD.' : 'Give one day only, as YYYY-MM-DD.') })
    .trim()
    .check((context) => {
      const problem = isoDayProblem(context.value) ?? dateRuleProblem('planned', context.value);
      if (problem) context.issues.push({ code: 'custom', message: problem, input: context.value });
    }),
});
export const openDayAnswer = z.object({ date: z.string(), closed: z.boolean(), note: z.string().nullable(), next_open: z.string() });
export type OpenDayAnswer = z.infer<typeof openDayAnswer>;

/** The day an order placed on `today` arrives after `leadTimeDays`, as the dialog proposes it. */
export const orderArrivalDay = (today: string, leadTimeDays: number): string => new Date(Date.parse(`${today}T00:00:00Z`) + leadTimeDays * 86_400_000).toISOString().slice(0, 10);

export const recordOrderRequest = z.strictObject({
  styleCode: storableText().trim().min(1, 'Product style code is required.').max(64),
  /**
   * In the product's unit: a number, or a figure as typed — a decimal comma ("1,5"), or with a unit
   * after it ("250 g" of a product in kg), read as the Data screen reads one (ADR 0178's amendment).
   */
  quantity: z.union([z.number(), storableText().trim().min(1, 'Enter the quantity ordered.').max(MAX_QUANTITY_TEXT)], { error: 'Enter the quantity ordered as a number.' }),
  /** The day the delivery is expected (YYYY-MM-DD): the shop's today or later, at most five years ahead. */
  expectedDate: z.string({ error: 'Enter the day the delivery is expected.' }).trim().max(10, 'Expected a date as YYYY-MM-DD.'),
});
export type RecordOrderRequest = z.infer<typeof recordOrderRequest>;

export const recordedOrder = z.object({
  styleCode: z.string(),
  name: z.string(),
  /** The product's unit (null: pieces), which `ordered` and `delivery.quantity` count. */
  unit: z.string().nullable(),
  /** The quantity of this order, as read in the product's unit. */
  ordered: z.number(),
  expectedDate: z.string(),
  /** The scheduled delivery now expected that day: this order, added to one already expected then (`quantity` above `ordered`). */
  delivery: z.object({ id: z.number(), quantity: z.number() }),
  /** The product's forecast run that counts the order (its status: GET /api/forecasting/status/{id}/); null when it could not be queued. */
  taskId: z.string().nullable(),
});
export type RecordedOrder = z.infer<typeof recordedOrder>;

/** The most orders one batch records: a supplier's purchase order, not the whole catalogue's list (ADR 0185). */
export const MAX_BATCH_ORDERS = 500;

/** Several orders recorded at once, all or none (ADR 0185): a buyer's purchase order to one supplier. */
export const recordOrdersRequest = z.strictObject({
  orders: z
    .array(recordOrderRequest, { error: 'Expected a list of orders.' })
    .min(1, 'Choose at least one order to record.')
    .max(MAX_BATCH_ORDERS, `At most ${MAX_BATCH_ORDERS} orders at once.`),
});
export type RecordOrdersRequest = z.infer<typeof recordOrdersRequest>;

export const recordedOrders = z.object({
  /** The one forecast run that counts every order of the batch (GET /api/forecasting/status/{id}/); null when it could not be queued. */
  taskId: z.string().nullable(),
  /** How many orders were recorded: all of the request's. */
  recorded: z.number(),
  /** Each order as the single route answers it, in the request's order (without its own task). */
  deliveries: z.array(recordedOrder.omit({ taskId: true })),
});
export type RecordedOrders = z.infer<typeof recordedOrders>;
