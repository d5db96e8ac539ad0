import type { ClosedWeekdayInMonths } from './calendar.ts';
import type { NthWeekday } from './moving-holidays.ts';

export type DailyPoint = { ds: string; y: number };
export type StockPoint = { ds: string; stock_level: number };
export type Delivery = { ds: string; quantity: number };

/** A known event (holiday, promotion) on the listed days, past and future. Its effect is learnt from the past days. */
export type EventRegressor = { name: string; dates: string[] };

/**
 * Sales as columns instead of rows: `units[i]` sold on day `firstDay + days[i]` (firstDay a day
 * number, days since 1970-01-01; dayNumber). For a caller that has its history by day, as the
 * server's catalogue run reads it: no date to write and parse back, no object per row. The same
 * forecast as the rows { ds, y } of those days.
 */
export type SalesColumns = { firstDay: number; days: ArrayLike<number>; units: ArrayLike<number> };

export type ProductForecastInput = {
  sales: DailyPoint[] | SalesColumns;
  stock?: StockPoint[];
  deliveries?: Delivery[];
  /** Days to forecast; default 90. */
  horizon?: number;
  /** Days between placing an order and receiving it; default 14. */
  leadTimeDays?: number;
  /** Probability of not running out during the lead time; default 0.95. */
  serviceLevel?: number;
  /** Days an order should last beyond the lead time; default 30. */
  reviewPeriodDays?: number;
  regressors?: { events?: EventRegressor[] };
  /** The first forecast day: days before it without sales rows count as zero sales. Default, or when sales rows reach `today` or later: the day after the last sales row. */
  today?: string;
  /**
   * Dates the business is closed (public holidays, its yearly closures: from the catalogue's history): past ones are not
   * demand (neither fitted nor scored), future ones are forecast zero with a zero band.
   */
  closedDates?: string[];
  /**
   * The dates the shop itself said it is closed on (Settings → Shop, CatalogueCalendar.closedOn), each
   * with its note where it gave one ("Stock-take"). Closed like `closedDates` (which may hold them
   * too); the description names those in the horizon as the shop's, with their notes (pattern
   * `shop_closed`), rather than as public holidays, also a date the history learned as well.
   */
  shopClosedDates?: ShopClosedDay[];
  /**
   * Weekdays the whole business is closed on (0 = Sunday … 6 = Saturday; CatalogueCalendar.closedWeekdays):
   * forecast zero like the product's own closed weekdays, also for a product whose own sales are too
   * few to show them (a slow seller, a new product). Given (even empty), the other weekdays trade: the
   * product's own closure on one of them needs the chance of an empty weekday under e^-20 (ADR 0123).
   * Absent: the catalogue's calendar is unknown, and the product's own sales decide alone.
   */
  closedWeekdays?: number[];
  /**
   * Weekdays the whole business is closed on in some months only (CatalogueCalendar.closedWeekdaysInMonths;
   * their dates are among `closedDates`): the forecast's description names them ("Closed on Sundays in Jan–Feb.").
   */
  closedWeekdaysInMonths?: ClosedWeekdayInMonths[];
  /**
   * Weekday-of-month public holidays the whole business is closed on (CatalogueCalendar.closedNthWeekdays;
   * their dates are among `closedDates`): the description names those in the horizon ("Closed on the
   * last Monday of August (summer bank holiday).").
   */
  closedNthWeekdays?: NthWeekday[];
  /**
   * The yearly pattern of the product's category or catalogue (CatalogueCalendar.yearlyProfiles: 366
   * values by day of a leap year, mean 1): a candidate follows it at the product's own level.
   */
  yearlyProfile?: number[];
  /**
   * The weekday pattern of the product's category or catalogue (CatalogueCalendar.weekdayProfiles:
   * 7 values from Sunday, mean 1): an item that sells on some days only, whose own pattern is too
   * noisy, has its forecast spread over the weekdays by it where validation says that helps.
   */
  weekdayProfile?: number[];
  /**
   * For a product without history: the daily demand of new products in their first weeks
   * (CatalogueCalendar.newItemRates, ascending) of its category, or of the whole catalogue.
   */
  newItemPrior?: NewItemPrior;
  /**
   * The dates its category sells in, when the category sells in one season only
   * (CatalogueCalendar.categorySeasons). A product with too little history for a season of its own
   * (new, or under four weeks) is forecast zero outside them.
   */
  categorySeason?: CategorySeason;
  /**
   * For a product without sales rows: the first day it was for sale. NEW_ITEM_DAYS or more before
   * `today`, it is a product that has not sold in those days (a zero forecast), not a new one; without
   * it, or later, a new product (newItemPrior).
   */
  listedSince?: string;
  /**
   * Sold by weight, length or volume (the product's unit says kg, m, l…): continuous bands and orders
   * to a thousandth (or to `orderStep`), as sales with decimals make them, also before any decimal sale (ADR 0177).
   * Absent or false: the sales decide (whole numbers on every day: whole units).
   */
  soldByMeasure?: boolean;
  /**
   * The supplier's case or pack size: orders come in whole multiples of it (24 bottles to a carton;
   * 2.5 kg to a wheel of cheese). Above 0. Absent: any quantity (ADR 0183).
   */
  orderMultiple?: number;
  /** The least the supplier accepts in one order. Above 0. Absent: no minimum (ADR 0183). */
  minOrderQuantity?: number;
  /**
   * The step a buyer orders the product in: 0.1 for a kg, 1 for a gram (ADR 0203 F3). The order (before
   * a case size), the reorder point and the safety stock are rounded up to it. Above 0. Absent: whole
   * units, or thousandths where sold by measure.
   */
  orderStep?: number;
};

/** A day the shop said it is closed on (YYYY-MM-DD), and why, if it said: plain text, never markup. */
export type ShopClosedDay = { date: string; note?: string | null };

/** Month-days 'MM-DD' of the season's first and last selling days ('to' before 'from': across the new year). */
/** `shape`: the category's sales through its season, by day from `from`, mean 1 (CategorySeasonDates). */
export type CategorySeason = { category: string; from: string; to: string; shape?: number[] };

export type NewItemPrior = { rates: number[]; scope: 'category' | 'catalogue' };

export type DemandClass = 'smooth' | 'erratic' | 'intermittent' | 'lumpy';

export type ForecastRow = { ds: string; yhat: number; yhat_lower: number; yhat_upper: number; yhat_lower_80: number; yhat_upper_80: number };
export type BacktestRow = { ds: string; yhat: number; yhat_lower: number; yhat_upper: number };
export type StockRow = { ds: string; stock_level: number; stock_upper: number; stock_lower: number };
export type Stockout = { date: string; type: 'stockForecast' | 'stockLowerBound' };

/** none: no sales rows (a new product); short: fewer than 28 days, too few to compare models. */
export type HistoryLength = 'none' | 'short' | 'full';

/** What the chosen model found, for a buyer: the screen words each one. */
export type DemandPattern = 'closed_days' | 'holidays' | 'shop_closed' | 'weekly' | 'yearly' | 'season_only' | 'trend' | 'intermittent';

export type ModelSummary = {
  name: string;
  description: string;
  /** none: not one sale in the history (a new or an unsold product). */
  demandClass: DemandClass | 'none';
  history: HistoryLength;
  patterns: DemandPattern[];
  /**
   * Accuracy over the rolling-origin validation windows (the last weeks of history),
   * on days with real demand observations. Null when the history was too short to
   * validate (coverage95 is then absent) or a figure is undefined (MASE of a flat history).
   */
  backtest: { mase: number | null; smape: number | null; mae: number | null; coverage95?: number | null };
};

export type ReorderAdvice = {
  reorderPoint: number;
  safetyStock: number;
  orderQuantity: number;
  orderBy: string | null;
  leadTimeDays: number;
  serviceLevel: number;
  /**
   * No order advised though the expected path runs out: the delivery already on its way that ends
   * it arrives on this day, after the stockout (hurry it; an order placed now comes later still).
   * Absent from forecasts stored before it (2026-12-04).
   */
  onOrderArrives?: string | null;
  /**
   * A season-only item whose order, placed by the order-by date, would arrive after its season: no
   * order (its demand from the arrival on is nothing), and when next season's buying starts. Absent
   * otherwise (ADR 0126, amendment 2026-12-04).
   */
  tooLateForSeason?: SeasonTooLate;
  /** The input's `orderMultiple`, as the order was rounded to it; absent without one (ADR 0183). */
  orderMultiple?: number;
  /** The input's `minOrderQuantity`, as the order was raised to it; absent without one (ADR 0183). */
  minOrderQuantity?: number;
  /**
   * An order due by `orderBy` that the supplier's case size or minimum made larger: what the stock
   * needs, rounded to whole units (a thousandth, or the input's `orderStep`) only. Absent when the supplier's terms changed
   * nothing, or there is no order (ADR 0183).
   */
  orderQuantityNeeded?: number;
  /**
   * A season-only item whose order the supplier's terms made larger than the rest of its season
   * takes: about this much of the order is expected to be left when the season ends (beside the
   * safety stock, which is kept whatever the terms). Absent otherwise (ADR 0183).
   */
  leftAfterSeason?: number;
};

/**
 * Dates as YYYY-MM-DD: the order's arrival; the season's first and last selling days, as the last 365
 * days of sales place them (this year's, once it has begun); next season's first day less the lead time.
 */
export type SeasonTooLate = { arrives: string; seasonFrom: string; seasonTo: string; nextOrderFrom: string };

export type ProductForecast = {
  forecast: ForecastRow[];
  backtest: BacktestRow[];
  stock: StockRow[];
  stockouts: Stockout[];
  model: ModelSummary;
  reorder: ReorderAdvice;
};

export type ForecastErrorCode = 'invalid_input' | 'no_data' | 'internal';
export type ForecastError = { error: string; code: ForecastErrorCode };

export function isForecastError<T extends object>(result: T | ForecastError): result is ForecastError {
  return 'error' in result;
}
