// From an intent to a report: the SQL over the readable tables and forecast views, its title, a
// one-line description (which the generator can read back when asked to change the report) and
// pseudocode in plain steps.
import { DEFAULT_INACTIVE_DAYS, type ChartType } from '@stockwise/contract';
import { datedPeriod, describePeriod, dueWindowOf, dueWords, formatDay, fullRangeOf, isRelative, MONTH_NAMES, NO_SALES_PERIOD, orderWindowOf, TOP_SELLERS_PERIOD, windowOf, type CalendarUnit } from '../../plain-words/period.ts';
import { nameWordSqlPattern, OVERSTOCK_DAYS } from '../../plain-words/catalogue.ts';
import { DEFAULT_LOW_STOCK, todayIso, type AheadSpan, type Dimension, type Intent, type Measure, type Period } from './intent.ts';

export type BuiltReport = {
  title: string;
  description: string;
  sql: string;
  pseudocode: string;
  chartType: ChartType | null;
  /** Parts of the intent the builder read and its SQL leaves out: their words are said as not used. */
  setAside?: (keyof Intent)[];
};

const ALL_TIME: Period = { kind: 'all_time' };

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** One calendar unit as an interval: PostgreSQL truncates to a quarter but has no quarter interval. */
const oneUnit = (unit: CalendarUnit | 'day') => (unit === 'quarter' ? '3 months' : `1 ${unit}`);

/** A calendar period's first day and the day after its last, as SQL dates (relative to the day the report runs); null for single days and open spans. */
function periodBounds(period: Period): { from: string; to: string } | null {
  const bounds = (from: string, to: string) => ({ from, to });
  switch (period.kind) {
    case 'last_days':
      return bounds(`current_date - ${period.days}`, 'current_date');
    case 'last_months':
      return bounds(`(current_date - interval '${period.months} months')::date`, 'current_date');
    case 'this':
      return bounds(`date_trunc('${period.unit}', current_date)::date`, `(date_trunc('${period.unit}', current_date) + interval '${oneUnit(period.unit)}')::date`);
    case 'previous':
      return bounds(`(date_trunc('${period.unit}', current_date) - interval '${oneUnit(period.unit)}')::date`, `date_trunc('${period.unit}', current_date)::date`);
    case 'year':
      return bounds(`date '${period.year}-01-01'`, `date '${period.year + 1}-01-01'`);
    case 'month_of_year': {
      const next = period.month === 12 ? `${period.year + 1}-01-01` : `${period.year}-${String(period.month + 1).padStart(2, '0')}-01`;
      return bounds(`date '${period.year}-${String(period.month).padStart(2, '0')}-01'`, `date '${next}'`);
    }
    case 'month': {
      // A month named without a year: this year's when it has started, else last year's.
      const start = `make_date(extract(year from current_date)::int - (extract(month from current_date)::int < ${period.month})::int, ${period.month}, 1)`;
      return bounds(start, `(${start} + interval '1 month')::date`);
    }
    case 'quarter_of_year':
      return bounds(`date '${period.year}-${String(3 * period.quarter - 2).padStart(2, '0')}-01'`, `(date '${period.year}-${String(3 * period.quarter - 2).padStart(2, '0')}-01' + interval '3 months')::date`);
    case 'quarter': {
      // A quarter named without a year, as a month is: this year's when it has started, else last year's.
      const start = `make_date(extract(year from current_date)::int - (extract(month from current_date)::int < ${3 * period.quarter - 2})::int, ${3 * period.quarter - 2}, 1)`;
      return bounds(start, `(${start} + interval '3 months')::date`);
    }
    case 'season':
    case 'christmas':
    case 'easter':
    case 'financial_year': {
      const { from, to } = fullRangeOf(period, todayIso());
      return bounds(`date ${literal(from)}`, `date ${literal(to)} + 1`);
    }
    case 'weekend': {
      // Saturday and Sunday of the week `weeks` from the current one (Monday first, as date_trunc has weeks).
      const saturday = `(date_trunc('week', current_date)::date + ${5 + 7 * period.weeks})`;
      return bounds(saturday, `(${saturday} + 2)`);
    }
    default:
      return null;
  }
}

function periodCondition(period: Period, column: string): string {
  const bounds = periodBounds(period);
  if (bounds) return `${column} >= ${bounds.from} and ${column} < ${bounds.to}`;
  switch (period.kind) {
    case 'day':
      return `${column} = date ${literal(period.date)}`;
    case 'between':
      return `${column} between date ${literal(period.from)} and date ${literal(period.to)}`;
    case 'today':
      return `${column} = current_date`;
    case 'yesterday':
      return `${column} = current_date - 1`;
    case 'since':
      return `${column} >= date ${literal(period.date)}`;
    case 'until':
      return `${column} between date ${literal(`${period.date.slice(0, 4)}-01-01`)} and date ${literal(period.date)}`;
    case 'all_time':
      return `${column} <= current_date`;
  }
  throw new Error(`A ${period.kind} period has bounds.`);
}

/**
 * The first day of a month named ahead (of a quarter, its first month), `months` long: the year said,
 * else its next occurrence as of the day the report runs (this year's until it has ended).
 */
function namedStart(first: number, months: number, year: number | null): string {
  if (year !== null) return `date '${year}-${String(first).padStart(2, '0')}-01'`;
  return `make_date(extract(year from current_date)::int + (extract(month from current_date)::int > ${first + months - 1})::int, ${first}, 1)`;
}

/**
 * The last day of a window ahead as a condition on `column` (what falls on or before it), relative to
 * the day the report runs except a date or year said.
 */
function aheadEnd(ahead: AheadSpan, column: string): string {
  if ('days' in ahead) return `${column} < current_date + ${ahead.days}`;
  if ('through' in ahead) return `${column} <= date ${literal(ahead.through)}`;
  if ('this' in ahead) return `${column} < (date_trunc('${ahead.this}', current_date) + interval '${ahead.this === 'day' ? '1 day' : oneUnit(ahead.this)}')::date`;
  if ('dates' in ahead) return `${column} <= date ${literal(ahead.dates.to)}`;
  if ('next' in ahead) return `${column} < (date_trunc('${ahead.next}', current_date) + interval '${oneUnit(ahead.next)}' + interval '${oneUnit(ahead.next)}')::date`;
  const [first, unit] = 'month' in ahead ? [ahead.month, 'month' as const] : [3 * ahead.quarter - 2, 'quarter' as const];
  return `${column} < (${namedStart(first, unit === 'month' ? 1 : 3, ahead.year)} + interval '${oneUnit(unit)}')::date`;
}

/** The first day of a window ahead as a condition on `column`: from today on, and from the window's first day when it starts later. */
function aheadStart(ahead: AheadSpan, column: string): string {
  const fromToday = `${column} >= current_date`;
  if ('dates' in ahead) return `${fromToday} and ${column} >= date ${literal(ahead.dates.from)}`;
  if ('next' in ahead) return `${column} >= (date_trunc('${ahead.next}', current_date) + interval '${oneUnit(ahead.next)}')::date`;
  if ('month' in ahead || 'quarter' in ahead) {
    const [first, months] = 'month' in ahead ? [ahead.month, 1] : [3 * ahead.quarter - 2, 3];
    return `${fromToday} and ${column} >= ${namedStart(first, months, ahead.year)}`;
  }
  return fromToday;
}

/**
 * The days of a window ahead: a stock-out, delivery or forecast counts within it, from today on;
 * with `overdue` (an advised order) everything due by its last day counts, overdue included: an order
 * due yesterday, or before a window that starts later, must still be placed by then (ADR 0148).
 */
const aheadCondition = (ahead: AheadSpan, column: string, overdue = false): string => (overdue ? aheadEnd(ahead, column) : `${aheadStart(ahead, column)} and ${aheadEnd(ahead, column)}`);

/** A window ahead as a title says it, and as the writer reads it back: "in the next 30 days", "next week", "by 24 Dec 2026", "in January", "in Q1 2027", "this month", "today". */
function aheadWords(ahead: AheadSpan): string {
  if ('days' in ahead) return `in the next ${ahead.days} days`;
  if ('next' in ahead) return `next ${ahead.next}`;
  if ('through' in ahead) return `by ${formatDay(ahead.through)}`;
  if ('this' in ahead) return ahead.this === 'day' ? 'today' : `this ${ahead.this}`;
  if ('dates' in ahead) return ahead.dates.from === ahead.dates.to ? `on ${ahead.dates.from}` : `from ${ahead.dates.from} to ${ahead.dates.to}`;
  const named = 'month' in ahead ? MONTH_NAMES[ahead.month - 1] : `Q${ahead.quarter}`;
  return `in ${named}${ahead.year === null ? '' : ` ${ahead.year}`}`;
}

/** A window with its days as the assistant names it: "next week (7–13 Dec 2026)", "by 31 Dec 2026 (this month)", "in January 2027". */
const aheadDates = (ahead: AheadSpan, today: string) => dueWords(dueWindowOf(windowOf(ahead, today), today));

/** Said after a period's or window's days when the SQL is relative to the day it runs: the days are those of the day the report was written. */
const writtenOnWords = (today: string) => ` The days are those of ${formatDay(today)}, when this was written: the SQL counts from the day it runs.`;

function writtenOn(ahead: AheadSpan, today: string): string {
  const fixed = 'through' in ahead || 'dates' in ahead || (('month' in ahead || 'quarter' in ahead) && ahead.year !== null);
  return fixed ? '' : writtenOnWords(today);
}

/** Which orders a window keeps, in words: those due by its end, earlier and overdue ones too. */
function overdueWords(ahead: AheadSpan): string {
  const fromToday = 'days' in ahead || 'this' in ahead || 'through' in ahead;
  return `${fromToday ? '' : ' or earlier'}, overdue ones included`;
}

/**
 * What each product has on hand now, as the Forecasting screen's header, its lists, the assistant and
 * the dashboard's stock total say it (ADR 0030, amendment 2026-12-04; ADR 0154, amendment 2026-12-04):
 * for a product with a stored forecast, the figure its run stored — its latest count up to the
 * forecast's first day, less the units sold and plus the deliveries not cancelled after that count
 * and before that day, a count being the stock at the end of its day; null when never counted. A
 * product not forecast yet has its latest count, `current_stock`. Report SQL cannot read the stored
 * figure itself (forecast_results is not readable), so it walks the same rows.
 */
const ON_HAND = [
  'on_hand as (',
  '  select p.id as product_id,',
  '    case when ra.product_id is null then p.current_stock',
  '      else counted.stock_level',
  '        - coalesce((select sum(sold.quantity) from sales sold where sold.product_id = p.id and sold.date > counted.date and sold.date < ra.forecast_start), 0)',
  "        + coalesce((select sum(came.quantity) from deliveries came where came.product_id = p.id and came.status <> 'cancelled' and came.expected_date > counted.date and came.expected_date < ra.forecast_start), 0)",
  '    end as on_hand',
  '  from products p',
  '  left join reorder_advice ra on ra.product_id = p.id',
  '  left join lateral (select k.date, k.stock_level from stock_snapshots k where k.product_id = p.id and k.date <= ra.forecast_start order by k.date desc limit 1) counted on true',
  ')',
];
/**
 * A product not stocked (a service or fee, ADR 0200) is left out, as the Forecasting screen's lists and
 * the dashboard's totals leave it: of every figure and list of stock on the shelf (ADR 0200, its amendments
 * of 2026-12-07), never of sales, forecast demand or deliveries.
 */
const NOT_STOCKED_LEFT_OUT = 'not coalesce(p.not_stocked, false)';
const ON_HAND_STEP = 'Take what each product has on hand now, as the Forecasting screen says it: its latest stock count less the units sold since, plus the deliveries since (a product never counted has no figure and is not listed); leave out the products not stocked (a service or fee): no stock is kept of them.';
const ON_HAND_NOTE = 'Stock is what each product has on hand now, as the Forecasting screen and the dashboard count it: its latest stock count less the units sold since, plus the deliveries since; a product sold below its count adds 0; one never counted has no figure and is left out; so is a product not stocked (a service or fee): no stock is kept of it.';

/** `note`: what the measure counts, when its name alone does not say (a step of the pseudocode). */
const MEASURES: Record<Measure, { expression: string; alias: string; words: string; needsProducts: boolean; fromSales: boolean; note?: string }> = {
  units: { expression: 'sum(s.quantity)', alias: 'units_sold', words: 'Units sold', needsProducts: false, fromSales: true },
  // A return is a sales row with a negative quantity (ADR 0011); a period with none counts 0, not a missing row.
  returns: {
    expression: 'coalesce(sum(-s.quantity) filter (where s.quantity < 0), 0)',
    alias: 'units_returned',
    words: 'Units returned',
    needsProducts: false,
    fromSales: true,
    note: 'A return is a sales row with a negative quantity (a refund at the till); a period with none counts 0.',
  },
  sales_value: { expression: 'round(sum(s.quantity * p.unit_cost), 2)', alias: 'sales_value', words: 'Sales value (at unit cost)', needsProducts: true, fromSales: true },
  sales_rows: { expression: 'count(*)', alias: 'sales_rows', words: 'Number of sales rows', needsProducts: false, fromSales: true },
  avg_daily_units: { expression: 'round(sum(s.quantity)::numeric / count(distinct s.date), 2)', alias: 'avg_daily_units', words: 'Average daily units sold', needsProducts: false, fromSales: true },
  // What is on hand now, as the Forecasting screen and the dashboard's totals count it (ON_HAND): one sold below its count adds 0, one never counted nothing.
  stock: { expression: 'sum(greatest(o.on_hand, 0))', alias: 'on_hand', words: 'Current stock', needsProducts: true, fromSales: false, note: ON_HAND_NOTE },
  stock_value: { expression: 'round(sum(greatest(o.on_hand, 0) * p.unit_cost), 2)', alias: 'stock_value', words: 'Stock value', needsProducts: true, fromSales: false, note: ON_HAND_NOTE },
  product_count: { expression: 'count(*)', alias: 'products', words: 'Number of products', needsProducts: true, fromSales: false },
};

const CATEGORY = "coalesce(p.category, 'Uncategorised')";

const DIMENSIONS: Record<Dimension, { select: (dateColumn: string) => string[]; group: (dateColumn: string) => string[]; order: string; words: string; time: boolean }> = {
  product: { select: () => ['p.product_code', 'p.name'], group: () => ['p.product_code', 'p.name'], order: '', words: 'by product', time: false },
  category: { select: () => [`${CATEGORY} as category`], group: () => ['1'], order: 'category', words: 'by category', time: false },
  day: { select: (d) => [`${d} as day`], group: () => ['1'], order: 'day', words: 'by day', time: true },
  week: { select: (d) => [`date_trunc('week', ${d})::date as week`], group: () => ['1'], order: 'week', words: 'by week', time: true },
  month: { select: (d) => [`date_trunc('month', ${d})::date as month`], group: () => ['1'], order: 'month', words: 'by month', time: true },
  quarter: { select: (d) => [`date_trunc('quarter', ${d})::date as quarter`], group: () => ['1'], order: 'quarter', words: 'by quarter', time: true },
  year: { select: (d) => [`extract(year from ${d})::int as year`], group: () => ['1'], order: 'year', words: 'by year', time: true },
  weekday: { select: (d) => [`extract(isodow from ${d})::int as weekday_number`, `trim(to_char(${d}, 'Day')) as weekday`], group: () => ['1', '2'], order: 'weekday_number', words: 'by day of the week', time: false },
};

/**
 * A second grouping beside a time breakdown: each category asked for ("per month by category"), or
 * the top N products (or categories) ranked first. `key` is what ranking keeps, as `ranked.<keyName>`.
 */
type Beside = { select: string; order: string; words: string; plural: string; key: string; keyName: string };
const BESIDE_TIME: Record<'product' | 'category', Beside> = {
  product: { select: 'p.product_code', order: 'p.product_code', words: 'product', plural: 'products', key: 's.product_id', keyName: 'product_id' },
  category: { select: `${CATEGORY} as category`, order: 'category', words: 'category', plural: 'categories', key: CATEGORY, keyName: 'category' },
};

const lines = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join('\n');
const where = (conditions: string[]) => (conditions.length ? `where ${conditions.join('\n  and ')}` : null);
const steps = (...items: (string | false | null)[]) => items.filter(Boolean).map((item, index) => `${index + 1}. ${item}`).join('\n');

/**
 * The conditions of the intent's filters, their words as a title says them, and as the steps say them:
 * a period with its days as of `today` ("last month (November 2026)") and, as its SQL counts from the
 * day it runs, that those are the days of the day it was written.
 */
function filters(intent: Intent, options: { period: boolean; dateColumn: string; today: string }): { conditions: string[]; words: string[]; stepWords: string[]; relative: string } {
  const conditions: string[] = [];
  const words: string[] = [];
  const stepWords: string[] = [];
  const counted = options.period ? intent.period : null;
  if (counted) {
    conditions.push(periodCondition(counted, options.dateColumn));
    words.push(describePeriod(counted));
    stepWords.push(datedPeriod(counted, options.today));
  }
  if (intent.category) {
    conditions.push(`p.category = ${literal(intent.category)}`);
    words.push(`category ${intent.category}`);
  }
  if (intent.productCode) {
    conditions.push(`p.product_code = ${literal(intent.productCode)}`);
    words.push(`product ${intent.productCode}`);
  }
  if (intent.nameWord) {
    // A whole word of the name (\m, \M: word edges), case aside; a phrase's words apart by spaces or hyphens.
    conditions.push(`lower(p.name) ~ ${literal(nameWordSqlPattern(intent.nameWord))}`);
    words.push(`products named ${intent.nameWord}`);
  }
  return { conditions, words, stepWords: [...stepWords, ...words.slice(stepWords.length)], relative: counted && isRelative(counted) ? writtenOnWords(options.today) : '' };
}

const titled = (base: string, qualifiers: string[]) => (qualifiers.length ? `${base} (${qualifiers.join(', ')})` : base);

type TimeUnit = CalendarUnit | 'day';
/** The rows of whole days, weeks, months… within the period that have ended before today. */
function wholeUnits(unit: TimeUnit, period: Period | null, column: string): string[] {
  const start = `date_trunc('${unit}', ${column})`;
  const last = `(${start} + interval '${oneUnit(unit)}' - interval '1 day')::date`;
  return [`${last} < current_date`, ...(period ? [periodCondition(period, `${start}::date`), periodCondition(period, last)] : [])];
}

function measureReport(said: Intent, measureName: Measure, today: string): BuiltReport {
  const measure = MEASURES[measureName];
  if (said.compare && measure.fromSales) return comparisonReport(said, measureName);
  // "Stock per month by product": each product's stock at each month's end, from its counts.
  if ((measureName === 'stock' || measureName === 'stock_value') && said.split === 'product' && said.dimension !== null && said.dimension !== 'weekday' && DIMENSIONS[said.dimension].time && !said.compare) {
    return stockOverTimeReport(said, measureName, said.dimension as TimeUnit, today);
  }
  // Stock is only known as it is on hand now (ON_HAND): a stock measure has no days, weeks or
  // weekdays, nor two periods to compare; the category or product beside the time breakdown is still its breakdown.
  const untimed = !measure.fromSales && said.dimension !== null && said.dimension !== 'product' && said.dimension !== 'category';
  const setAside: (keyof Intent)[] = [...(untimed ? ['dimension' as const] : []), ...(!measure.fromSales && said.compare ? ['compare' as const] : [])];
  const asked = untimed ? said.split : said.dimension;
  const dimension = measureName === 'product_count' && asked === 'product' ? null : asked;
  // Top sellers that name no period are those of the last 30 days, as the assistant's; the title says so (ADR 0148, amendment "one default for top sellers").
  // Other sales that name none are of all time, and the title says that too: a saved report is not taken for this month's.
  const topSellers = measure.fromSales && said.rank !== null && (dimension === 'product' || dimension === 'category');
  const intent = measure.fromSales && !said.period ? { ...said, period: topSellers ? TOP_SELLERS_PERIOD : ALL_TIME } : said;
  const dim = dimension ? DIMENSIONS[dimension] : null;
  const fromSales = measure.fromSales;
  const dateColumn = 's.date';
  // A time breakdown of sales for the top N products (categories, when split by them): rank those first, then break them down.
  const rankedOverTime = fromSales && dim?.time === true && intent.rank !== null;
  const beside = dim?.time && (intent.split || rankedOverTime) ? BESIDE_TIME[intent.split ?? 'product'] : null;
  const { conditions, words, stepWords, relative } = filters(intent, { period: fromSales, dateColumn, today });
  // "The best month": only whole months of the period that have ended count (a cut or current one would always look worst), as the assistant has it.
  const best = dim?.time && !(intent.split || rankedOverTime) ? intent.best : null;
  if (best && dimension) conditions.push(...wholeUnits(dimension as TimeUnit, intent.period, dateColumn));
  const needsProducts = measure.needsProducts || dimension === 'product' || dimension === 'category' || intent.category !== null || intent.productCode !== null || intent.nameWord !== null || beside !== null;
  const onHand = measureName === 'stock' || measureName === 'stock_value';
  // The dashboard's total leaves a service or fee out (ADR 0200, amendment 2026-12-07): so does a report of the same stock.
  if (onHand) conditions.push(NOT_STOCKED_LEFT_OUT);
  const from = fromSales ? (needsProducts ? 'from sales s\njoin products p on p.id = s.product_id' : 'from sales s') : onHand ? 'from products p\njoin on_hand o on o.product_id = p.id and o.on_hand is not null' : 'from products p';
  const keys = [...(dim ? dim.select(dateColumn) : []), ...(beside ? [beside.select] : [])];
  const selected = [...keys, `${measure.expression} as ${measure.alias}`];
  const grouped = dim ? (dimension === 'product' ? dim.group(dateColumn) : keys.map((_, i) => String(i + 1))) : [];
  const rank = intent.rank && (dimension === 'product' || dimension === 'category') ? intent.rank : null;
  const order = rank
    ? `${measure.alias} ${rank.direction}${dimension === 'product' ? ', p.product_code' : ', 1'}`
    : best
      ? `${measure.alias} ${best}, 1`
      : dim
        ? (dim.order || `${measure.alias} desc, p.product_code`) + (beside ? `, ${beside.order}` : '')
        : null;
  let sql = lines(onHand ? 'with' : null, ...(onHand ? ON_HAND : []), `select ${selected.join(', ')}`, from, where(conditions), grouped.length ? `group by ${grouped.join(', ')}` : null, order ? `order by ${order}` : null, rank ? `limit ${rank.limit}` : null);
  if (rankedOverTime && beside && intent.rank) {
    sql = lines(
      'with ranked as (',
      `  select ${beside.key} as ${beside.keyName} from sales s join products p on p.id = s.product_id`,
      conditions.length ? `  where ${conditions.join(' and ')}` : null,
      `  group by 1 order by ${measure.expression} ${intent.rank.direction}, 1 limit ${intent.rank.limit}`,
      ')',
      `select ${selected.join(', ')}`,
      from,
      where([...conditions, `${beside.key} in (select ${beside.keyName} from ranked)`]),
      `group by ${grouped.join(', ')}`,
      `order by ${order}`,
    );
  }
  // Sales by day, week, month or quarter: every one of the period, 0 where nothing sold, so a chart's axis does not jump a quiet season (QA5 #12).
  const filled = fromSales && dim?.time === true && dimension !== 'year' && !beside && !best && !rank;
  if (filled) sql = withEmptyPeriods(sql, dimension as Exclude<TimeUnit, 'year'>, measure.alias, intent.period);
  const rankWords = rankedOverTime && beside ? `${intent.rank?.direction === 'asc' ? 'bottom' : 'top'} ${intent.rank?.limit} ${beside.plural}` : null;
  const titleBase = [
    measure.words,
    dim && !rank ? dim.words : null,
    best ? `, ${best === 'desc' ? 'best' : 'worst'} ${dimension} first` : null,
    rank ? `: ${rank.direction === 'asc' ? 'bottom' : 'top'} ${rank.limit} ${dimension === 'category' ? 'categories' : 'products'}` : null,
    rankWords ? `for the ${rankWords}` : beside ? `and ${beside.words}` : null,
  ]
    .filter(Boolean)
    .join(' ')
    .replace(' :', ':')
    .replace(' ,', ',');
  const title = titled(titleBase, words);
  // Said in words, so that a reader sees why a product is missing (ADR 0148, amendment "a period and product at once").
  const description =
    rankWords && dim
      ? `${title}: the ${rankWords} by ${measure.words.toLowerCase()} over the whole period, each ${dim.words}.`
      : best
        ? `${title}: the whole ${dimension}s of the period that have ended.`
        : `${title}.`;
  const pseudocode = steps(
    fromSales ? `Read the sales${needsProducts ? ' with each row’s product' : ''}.` : 'Read the products.',
    stepWords.length ? `Keep ${stepWords.join(' and ')}.${relative}` : null,
    rankWords ? `Find the ${rankWords} by ${measure.words.toLowerCase()}, and keep only their sales.` : null,
    dim ? `Group the rows ${dim.words}${beside ? ` and ${beside.words}` : ''}.` : 'Take all rows together.',
    `Compute ${measure.words.toLowerCase()} (${measure.expression.replace(/\b[spo]\./g, '')}).`,
    filled ? `Show every ${dimension} ${shownDays(intent.period) ? 'of the period up to today' : 'from the first to the last with sales'}, 0 where nothing sold.` : null,
    measure.note ?? null,
    rank
      ? `Sort from ${rank.direction === 'desc' ? 'highest' : 'lowest'} and keep the first ${rank.limit}.`
      : best
        ? `Sort from the ${best === 'desc' ? 'highest' : 'lowest'} ${measure.words.toLowerCase()}.`
        : dim
          ? `Sort ${dim.time ? `by date${beside ? `, then by ${beside.words}` : ''}` : 'by the result'}.`
          : null,
  );
  // Months ordered best first are bars to compare, not a line through time.
  return { title, description, sql, pseudocode, chartType: intent.chartType ?? (best ? 'bar' : dim?.time ? 'line' : dim ? 'bar' : 'table'), setAside };
}

/**
 * The first and last day a breakdown over `period` shows, as SQL (up to today: a period still under
 * way has no rows yet for its days to come); null for no period or all time, which run from the first
 * to the last period with sales.
 */
function shownDays(period: Period | null): { from: string; to: string } | null {
  if (!period || period.kind === 'all_time') return null;
  const bounds = periodBounds(period);
  if (bounds) return { from: bounds.from, to: `least(${bounds.to} - 1, current_date)` };
  switch (period.kind) {
    case 'day':
      return { from: `date ${literal(period.date)}`, to: `date ${literal(period.date)}` };
    case 'between':
      return { from: `date ${literal(period.from)}`, to: `least(date ${literal(period.to)}, current_date)` };
    case 'today':
      return { from: 'current_date', to: 'current_date' };
    case 'yesterday':
      return { from: 'current_date - 1', to: 'current_date - 1' };
    case 'since':
      return { from: `date ${literal(period.date)}`, to: 'current_date' };
    case 'until':
      return { from: `date ${literal(`${period.date.slice(0, 4)}-01-01`)}`, to: `least(date ${literal(period.date)}, current_date)` };
    default:
      return null;
  }
}

/**
 * A time breakdown's SQL with a row for every day, week, month or quarter of its period, the measure
 * 0 where nothing sold (generate_series): "sales by month" of a seasonal range shows its quiet months.
 */
function withEmptyPeriods(measured: string, unit: Exclude<TimeUnit, 'year'>, alias: string, period: Period | null): string {
  const days = shownDays(period);
  const [first, last] = days ? [days.from, days.to] : [`(select min(${unit}) from measured)`, `(select max(${unit}) from measured)`];
  return lines(
    'with measured as (',
    measured.replace(/\norder by .*$/, ''),
    '),',
    // Made of the period's days, its own condition on them: where its rows start and stop is read from that (report-end.ts), so a first or last period the days cut is named.
    'calendar as (',
    `  select distinct date_trunc('${unit}', g)::date as ${unit}`,
    `  from generate_series((${first})::timestamp, (${last})::timestamp, interval '1 day') g`,
    period && period.kind !== 'all_time' ? `  where ${periodCondition(period, 'g::date')}` : null,
    ')',
    `select c.${unit}, coalesce(m.${alias}, 0) as ${alias}`,
    'from calendar c',
    `left join measured m on m.${unit} = c.${unit}`,
    `order by c.${unit}`,
  );
}

/**
 * "Stock per month by product": each product's stock at the end of each day, week, month, quarter or
 * year — the current one today — as the stock line has it (ADR 0030): its latest count by then, less
 * the units sold since, plus the deliveries since that were not cancelled, never below 0. A product
 * not counted by then has no row for it, not a 0. Every product, within the report's row limit; only
 * "top N" keeps the N with the most (least) stock at the latest period's end. The periods are those
 * since the first count, or those whose end falls in the period said.
 */
function stockOverTimeReport(intent: Intent, measureName: 'stock' | 'stock_value', unit: TimeUnit, today: string): BuiltReport {
  const dim = DIMENSIONS[unit];
  const { conditions, words, stepWords, relative } = filters(intent, { period: false, dateColumn: '', today });
  const period = intent.period;
  const alias = measureName === 'stock' ? 'stock_on_hand' : 'stock_value';
  const level = 'greatest(e.level, 0)';
  const value = measureName === 'stock' ? level : `round((${level} * p.unit_cost)::numeric, 2)`;
  const rank = intent.rank;
  const truncated = (column: string) => `date_trunc('${unit}', ${column}::timestamp)::date`;
  // One pass over the sales and deliveries, summed per product and period, the few days after each
  // count read by the (product, date) indexes, and windows over the sums: a join of every period to
  // every movement since its count grew with the history squared (ADR 0154, amendment 2026-12-04).
  const sql = lines(
    'with periods as (',
    `  select g::date as period_start, least((g + interval '${oneUnit(unit)}')::date - 1, current_date) as period_end`,
    `  from generate_series(date_trunc('${unit}', (select min(date) from stock_snapshots)::timestamp), current_date::timestamp, interval '${oneUnit(unit)}') g`,
    '),',
    // A product's latest count in each period (a count is the stock at the end of its day), carried to the period's end.
    'counted as (',
    '  select k.product_id, k.period_start, k.stock_level',
    '    - coalesce((select sum(s.quantity) from sales s where s.product_id = k.product_id and s.date > k.counted_on and s.date < k.next_period and s.date <= current_date), 0)',
    "    + coalesce((select sum(d.quantity) from deliveries d where d.product_id = k.product_id and d.status <> 'cancelled' and d.expected_date > k.counted_on and d.expected_date < k.next_period and d.expected_date <= current_date), 0) as level",
    '  from (',
    `    select distinct on (product_id, ${truncated('date')}) product_id, ${truncated('date')} as period_start,`,
    `      (${truncated('date')} + interval '${oneUnit(unit)}')::date as next_period, date as counted_on, stock_level`,
    '    from stock_snapshots where date <= current_date',
    `    order by product_id, ${truncated('date')}, date desc`,
    '  ) k',
    '),',
    // What went out (sales) and came in (deliveries not cancelled) per product and period.
    'moved as (',
    '  select product_id, period_start, sum(units) as units from (',
    `    select product_id, ${truncated('date')} as period_start, -sum(quantity) as units from sales where date <= current_date group by 1, 2`,
    '    union all',
    `    select product_id, ${truncated('expected_date')}, sum(quantity) from deliveries where status <> 'cancelled' and expected_date <= current_date group by 1, 2`,
    '  ) m',
    '  group by 1, 2',
    '),',
    // Every period of each product from its first count on; `since_count` numbers the periods that hold a count.
    'grid as (',
    '  select f.product_id, pe.period_start, pe.period_end, c.level as counted_level, coalesce(mv.units, 0) as units,',
    '    count(c.product_id) over (partition by f.product_id order by pe.period_start) as since_count',
    '  from (select product_id, min(period_start) as first_period from counted group by 1) f',
    '  join periods pe on pe.period_start >= f.first_period',
    '  left join counted c on c.product_id = f.product_id and c.period_start = pe.period_start',
    '  left join moved mv on mv.product_id = f.product_id and mv.period_start = pe.period_start',
    '),',
    // The stock at each period's end: the latest count carried to its period's end, plus all that moved in the periods since.
    'at_end as (',
    '  select product_id, period_start, period_end,',
    '    (sum(coalesce(counted_level, units)) over (partition by product_id, since_count order by period_start))::numeric as level',
    '  from grid',
    '),',
    'levels as (',
    `  select ${dim.select('e.period_start').join(', ')}, p.product_code, ${value} as ${alias}`,
    '  from at_end e',
    '  join products p on p.id = e.product_id',
    where([...(period ? [periodCondition(period, 'e.period_end')] : []), ...conditions, NOT_STOCKED_LEFT_OUT])?.replace(/\n/g, '\n  ').replace(/^/, '  '),
    ')',
    'select * from levels',
    rank ? `where product_code in (select product_code from levels where ${dim.order} = (select max(${dim.order}) from levels) order by ${alias} ${rank.direction}, product_code limit ${rank.limit})` : null,
    `order by ${dim.order}, product_code`,
  );
  const measureWords = measureName === 'stock' ? 'Stock on hand' : 'Stock value';
  const ranked = rank ? ` for the ${rank.direction === 'asc' ? 'bottom' : 'top'} ${rank.limit} products` : ' by product';
  const periodWords = period ? [describePeriod(period), ...words] : words;
  const title = titled(`${measureWords} at each ${unit}'s end${ranked}`, periodWords);
  return {
    title,
    // Read back when the report is changed: no words of sales, deliveries or days here, or they would be read as its measure, a delivery list or its period.
    description: `${title}: a row per product and ${unit} with its stock at the ${unit}'s end, from its latest stock count by then, less what went out since and plus what came in; a product not counted by then has no row.`,
    sql,
    pseudocode: steps(
      `Take each ${unit} since the first stock count${period ? `, keeping those that end in ${datedPeriod(period, today)}` : ''}, the current one ending today.${period && isRelative(period) ? writtenOnWords(today) : ''}`,
      `For each product but those not stocked (a service or fee: no stock is kept of them), take its latest stock count on or before each ${unit}'s end.`,
      'Take off the units sold after that count, add the deliveries since that were not cancelled, and never go below 0.',
      measureName === 'stock_value' ? 'Multiply by the unit cost.' : null,
      stepWords.length ? `Keep ${stepWords.join(' and ')}.${relative}` : null,
      rank ? `Keep the ${rank.limit} products with the ${rank.direction === 'desc' ? 'most' : 'least'} at the latest ${unit}'s end.` : null,
      `Sort by ${unit}, then by product code.`,
    ),
    chartType: intent.chartType ?? 'line',
  };
}

/**
 * "This month vs last month": one row per period (per period and product "by product"), the earlier
 * first, with the change from it in the measure and in percent. A product sold in one period only
 * gets a row for the other too, with 0.
 */
function comparisonReport(intent: Intent, measureName: Measure): BuiltReport {
  const measure = MEASURES[measureName];
  const { earlier, later } = intent.compare as NonNullable<Intent['compare']>;
  const byProduct = intent.dimension === 'product';
  const { conditions, words } = filters(intent, { period: false, dateColumn: 's.date', today: todayIso() });
  const [earlierBounds, laterBounds] = [periodBounds(earlier), periodBounds(later)];
  // While the later period is under way, it runs to the last day with sales and the earlier counts as many days from its start (ADR 0148).
  const through = laterBounds && `least(current_date, greatest((select max(date) from sales), ${laterBounds.from}))`;
  const sameDays = earlierBounds && laterBounds ? `(current_date + 1 >= ${laterBounds.to} or s.date <= ${earlierBounds.from} + (${through} - ${laterBounds.from}))` : null;
  const periods = [earlier, later].map((period, index) => ({
    n: index + 1,
    words: describePeriod(period),
    condition: [periodCondition(period, 's.date'), ...(index === 0 && sameDays ? [sameDays] : [])].join(' and '),
  }));
  const alias = measure.alias;
  const value = `coalesce(m.${alias}, 0)`;
  const previous = `lag(${value}) over (${byProduct ? 'partition by k.product_code ' : ''}order by periods.n)`;
  const sql = lines(
    'with periods(n, period) as (',
    `  values ${periods.map((p) => `(${p.n}, ${literal(p.words)})`).join(', ')}`,
    '),',
    'measured as (',
    periods
      .map((p) =>
        lines(
          `  select ${p.n} as n${byProduct ? ', p.product_code' : ''}, ${measure.expression} as ${alias}`,
          '  from sales s join products p on p.id = s.product_id',
          `  where ${[p.condition, ...conditions].join(' and ')}`,
          byProduct ? '  group by p.product_code' : null,
        ),
      )
      .join('\n  union all\n'),
    ')',
    `select ${byProduct ? 'k.product_code, ' : ''}periods.period, ${value} as ${alias},`,
    `  ${value} - ${previous} as change,`,
    `  round(100.0 * (${value} - ${previous}) / nullif(${previous}, 0), 1) as change_pct`,
    byProduct ? 'from (select distinct product_code from measured) k cross join periods' : 'from periods',
    `left join measured m on m.n = periods.n${byProduct ? ' and m.product_code = k.product_code' : ''}`,
    `order by ${byProduct ? 'k.product_code, ' : ''}periods.n`,
  );
  const title = titled(`${measure.words}: ${periods[1]?.words} vs ${periods[0]?.words}${byProduct ? ' by product' : ''}`, words);
  return {
    title,
    description: `${title}: one row per period${byProduct ? ' and product' : ''}, the earlier first, with the change from it.`,
    sql,
    pseudocode: steps(
      `Read the sales${words.length ? ` (${words.join(', ')})` : ''}.`,
      `Compute ${measure.words.toLowerCase()} in ${periods[0]?.words} and in ${periods[1]?.words}${byProduct ? ', per product' : ''}${sameDays ? `; while ${periods[1]?.words} is under way, ${periods[0]?.words} counts only as many days from its start as ${periods[1]?.words} has sales for` : ''}.`,
      `Show one row per period${byProduct ? ' and product' : ''}, the earlier first, with the change from it (and in percent).`,
    ),
    chartType: intent.chartType ?? 'bar',
  };
}

function specialReport(intent: Intent, today: string): BuiltReport | null {
  const { conditions, words } = filters(intent, { period: false, dateColumn: '', today });
  const and = (extra: string[]) => where([...extra, ...conditions]);
  const qualifiers = words.length ? ` (${words.join(', ')})` : '';
  switch (intent.special) {
    case 'low_stock': {
      const threshold = intent.threshold ?? DEFAULT_LOW_STOCK;
      return {
        title: `Low stock: products below ${threshold} units${qualifiers}`,
        description: `Products with fewer than ${threshold} units on hand now${qualifiers}, lowest first.`,
        sql: lines('with', ...ON_HAND, 'select p.product_code, p.name, p.category, o.on_hand', 'from products p', 'join on_hand o on o.product_id = p.id', and([`o.on_hand < ${threshold}`, NOT_STOCKED_LEFT_OUT]), 'order by o.on_hand, p.product_code'),
        pseudocode: steps(ON_HAND_STEP, `Keep those with less than ${threshold} on hand.`, 'Sort from the lowest stock.'),
        chartType: intent.chartType ?? 'bar',
      };
    }
    case 'out_of_stock':
      return {
        title: `Out of stock products${qualifiers}`,
        description: `Products with no stock left (on hand now zero or below)${qualifiers}.`,
        sql: lines('with', ...ON_HAND, 'select p.product_code, p.name, p.category, o.on_hand', 'from products p', 'join on_hand o on o.product_id = p.id', and(['o.on_hand <= 0', NOT_STOCKED_LEFT_OUT]), 'order by p.product_code'),
        pseudocode: steps(ON_HAND_STEP, 'Keep those with nothing on hand (zero or below).', 'Sort by product code.'),
        chartType: intent.chartType ?? 'table',
      };
    case 'runs_out': {
      const ahead = intent.ahead as AheadSpan;
      const within = aheadWords(ahead);
      return {
        title: `Products that run out ${within}${qualifiers}`,
        description: `Products whose projected stock (from their latest forecast) first reaches zero ${within}${qualifiers}, soonest first.`,
        sql: lines(
          'select sp.product_code, sp.product_name, p.current_stock, min(sp.date) as runs_out_on, min(sp.date) - current_date as days_left',
          'from stock_projections sp',
          'join products p on p.id = sp.product_id',
          and(['sp.projected_stock <= 0', 'sp.date >= current_date', NOT_STOCKED_LEFT_OUT]),
          'group by sp.product_code, sp.product_name, p.current_stock',
          // The first day out from today must fall in the window: one out already runs out no later.
          `having ${aheadCondition(ahead, 'min(sp.date)')}`,
          'order by runs_out_on, sp.product_code',
        ),
        pseudocode: steps(
          'Read the daily stock projection of every product but those not stocked (a service or fee): no stock is kept of them.',
          'Take the first day from today on where projected stock is zero or below.',
          `Keep the products whose first such day is ${aheadDates(ahead, today)}.${writtenOn(ahead, today)}`,
          'Sort by that day, soonest first.',
        ),
        chartType: intent.chartType ?? 'table',
      };
    }
    case 'reorder': {
      // The order advice's list (order-advice/: a quantity to order and an order-by day, demand in the last
      // N days), cut to the orders due by the window's end, overdue included, as the assistant and the dashboard count them (ADR 0148).
      const ahead = intent.ahead;
      const within = ahead ? ` ${aheadWords(ahead)}` : '';
      return {
        title: `What to reorder${within}${qualifiers}`,
        description: `Products whose latest forecast advises an order, with the advised order quantity and the day to order by; as on the Forecasting screen, none without recent sales, none made here and none not stocked${ahead ? `; only the orders due${within}${overdueWords(ahead)}` : ''}${qualifiers}.`,
        sql: lines(
          'select ra.product_code, ra.product_name, ra.current_stock, round(ra.reorder_point::numeric, 1) as reorder_point, ra.order_quantity, ra.order_by, ra.stockout_date',
          'from reorder_advice ra',
          // The products' columns a later change filters by ("only Garden products").
          'join products p on p.id = ra.product_id',
          and([
            'ra.order_quantity > 0',
            'ra.order_by is not null',
            // Made here (ADR 0194): nothing is bought for it; the view says which (migration 0740).
            'not ra.made_here',
            // Not stocked (ADR 0200): a service or fee; the product says which.
            NOT_STOCKED_LEFT_OUT,
            `exists (select 1 from sales s where s.product_id = ra.product_id and s.quantity > 0 and s.date >= ra.forecast_start - ${DEFAULT_INACTIVE_DAYS})`,
            ...(ahead ? [aheadCondition(ahead, 'ra.order_by', true)] : []),
          ]),
          'order by ra.order_by, ra.product_code',
        ),
        pseudocode: steps(
          'Read the reorder advice of every product’s latest forecast.',
          'Keep the products it advises to order: a quantity to order and a day to order by.',
          `Leave out those with no sales in the ${DEFAULT_INACTIVE_DAYS} days before their forecast's first day, those made here (nothing is bought for them) and those not stocked (a service or fee: no stock is kept), as the Forecasting screen's lists do.`,
          ahead ? `Keep the orders due ${dueWords(orderWindowOf(windowOf(ahead, today)))}, overdue ones included.${writtenOn(ahead, today)}` : null,
          'Show the advised order quantity and the day to order by, most urgent first.',
        ),
        chartType: intent.chartType ?? 'table',
      };
    }
    case 'overstock': {
      // Stock beyond what the latest forecast needs for `days` days (ADR 0155): the products with the most money tied up first.
      const days = intent.coverDays ?? OVERSTOCK_DAYS;
      return {
        title: `Overstocked: more than ${days} days of stock at the forecast demand${qualifiers}`,
        description: `Products whose stock on hand covers more than ${days} days of their latest forecast's average daily demand from today${qualifiers}, with the value tied up at unit cost, the most first.`,
        sql: lines(
          'with demand as (',
          '  select pf.product_id, avg(pf.demand) as daily',
          '  from product_forecasts pf where pf.date >= current_date',
          '  group by pf.product_id',
          '),',
          ...ON_HAND,
          'select p.product_code, p.name, o.on_hand, round(d.daily::numeric, 2) as forecast_daily_demand,',
          '  round((o.on_hand / nullif(d.daily, 0))::numeric) as days_of_cover,',
          `  round(greatest(o.on_hand - ${days} * d.daily, 0)::numeric) as excess_units,`,
          '  round((o.on_hand * p.unit_cost)::numeric, 2) as stock_value',
          'from products p',
          'join demand d on d.product_id = p.id',
          'join on_hand o on o.product_id = p.id',
          and(['o.on_hand > 0', `o.on_hand > ${days} * d.daily`, NOT_STOCKED_LEFT_OUT]),
          'order by stock_value desc, p.product_code',
        ),
        pseudocode: steps(
          ON_HAND_STEP,
          'Average each product’s daily demand in its latest forecast, from today on.',
          `Keep the products in stock whose stock on hand lasts more than ${days} days at that demand (no demand: any stock).`,
          'Show the days of cover, the units beyond those days and the stock’s value at unit cost, the most value first.',
        ),
        chartType: intent.chartType ?? 'table',
      };
    }
    case 'dead_stock': {
      // Stock on hand that has not sold in the period (ADR 0155): the value tied up, the most first.
      const period = intent.period ?? NO_SALES_PERIOD;
      const said = describePeriod(period).replace(/^in /, '');
      return {
        title: `Dead stock: products in stock with no sales in ${said}${qualifiers}`,
        description: `Products with stock on hand and no sale in ${said}${qualifiers}, with the value tied up at unit cost, the most first.`,
        sql: lines(
          'with',
          ...ON_HAND,
          'select p.product_code, p.name, o.on_hand, round((o.on_hand * p.unit_cost)::numeric, 2) as stock_value',
          'from products p',
          'join on_hand o on o.product_id = p.id',
          and(['o.on_hand > 0', `not exists (select 1 from sales s where s.product_id = p.id and ${periodCondition(period, 's.date')})`, NOT_STOCKED_LEFT_OUT]),
          'order by stock_value desc, p.product_code',
        ),
        pseudocode: steps(ON_HAND_STEP, `Keep those in stock with no sales row in ${said}.`, 'Show the value of their stock at unit cost, the most first.'),
        chartType: intent.chartType ?? 'table',
      };
    }
    case 'no_sales': {
      const period = intent.period ?? NO_SALES_PERIOD;
      return {
        title: `Products with no sales in ${describePeriod(period).replace(/^in /, '')}${qualifiers}`,
        description: `Products without a single sale in ${describePeriod(period).replace(/^in /, '')}${qualifiers}.`,
        sql: lines('select p.product_code, p.name, p.category, p.current_stock', 'from products p', and([`not exists (select 1 from sales s where s.product_id = p.id and ${periodCondition(period, 's.date')})`]), 'order by p.product_code'),
        pseudocode: steps('Read the products.', `Keep those with no sales row in ${describePeriod(period).replace(/^in /, '')}.`, 'Sort by product code.'),
        chartType: intent.chartType ?? 'table',
      };
    }
    case 'deliveries': {
      const within = intent.ahead ? ` ${aheadWords(intent.ahead)}` : '';
      return {
        title: `Scheduled deliveries${within}${qualifiers}`,
        description: `Deliveries still scheduled${within ? ` to arrive${within}` : ''}${qualifiers}, soonest first.`,
        sql: lines(
          'select p.product_code, p.name, d.expected_date, d.quantity',
          'from deliveries d',
          'join products p on p.id = d.product_id',
          and(["d.status = 'scheduled'", ...(intent.ahead ? [aheadCondition(intent.ahead, 'd.expected_date')] : [])]),
          'order by d.expected_date, p.product_code',
        ),
        pseudocode: steps('Read the deliveries with their products.', `Keep the scheduled ones${within ? ` arriving${within}` : ''}.`, 'Sort by expected date.'),
        chartType: intent.chartType ?? 'table',
      };
    }
    case 'forecast_demand': {
      const ahead = intent.ahead as AheadSpan;
      const within = aheadWords(ahead);
      const byProduct = intent.dimension === 'product' || intent.rank !== null;
      const rank = intent.rank ?? { direction: 'desc' as const, limit: 0 };
      return {
        title: `Forecast demand ${within.replace(/^in /, 'for ')}${byProduct ? ' by product' : ''}${qualifiers}`,
        description: `Units the forecasts expect to sell ${within}${byProduct ? ', per product' : ''}${qualifiers}.`,
        sql: lines(
          `select ${byProduct ? 'pf.product_code, ' : ''}round(sum(pf.demand)::numeric, 1) as forecast_units`,
          'from product_forecasts pf',
          'join products p on p.id = pf.product_id',
          and([aheadCondition(ahead, 'pf.date')]),
          byProduct ? 'group by pf.product_code' : null,
          byProduct ? `order by forecast_units ${rank.direction}, pf.product_code` : null,
          byProduct && rank.limit ? `limit ${rank.limit}` : null,
        ),
        pseudocode: steps('Read the daily demand forecasts.', `Keep the days ${within}.`, byProduct ? 'Add up the forecast per product.' : 'Add up the forecast.', byProduct ? 'Sort from the largest.' : null),
        chartType: intent.chartType ?? (byProduct ? 'bar' : 'table'),
      };
    }
    case 'days_of_cover':
      return {
        title: `Days of stock cover${qualifiers}`,
        description: `How many days current stock lasts at the average daily sales of the last 30 days${qualifiers}, shortest first.`,
        sql: lines(
          'with recent as (',
          '  select s.product_id, sum(s.quantity) / 30.0 as daily',
          '  from sales s where s.date >= current_date - 30 and s.date < current_date',
          '  group by s.product_id',
          ')',
          'select p.product_code, p.name, p.current_stock, round(r.daily, 2) as avg_daily_units, round(p.current_stock / nullif(r.daily, 0), 1) as days_of_cover',
          'from products p',
          'left join recent r on r.product_id = p.id',
          and([NOT_STOCKED_LEFT_OUT]),
          'order by days_of_cover nulls last, p.product_code',
        ),
        pseudocode: steps(
          'Add up each product’s sales of the last 30 days and divide by 30.',
          'Divide current stock by that daily rate, leaving out the products not stocked (a service or fee): no stock is kept of them.',
          'Sort from the shortest cover.',
        ),
        chartType: intent.chartType ?? 'bar',
      };
    default:
      return null;
  }
}

/** The report an intent asks for, or null when it names nothing to report. */
export function buildReport(intent: Intent, today = todayIso()): BuiltReport | null {
  if (intent.special) return specialReport(intent, today);
  if (intent.measure) return measureReport(intent, intent.measure, today);
  return null;
}
