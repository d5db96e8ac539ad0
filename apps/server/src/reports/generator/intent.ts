// Reading a plain-words inventory question into an intent: what to measure, broken down by what,
// over which period, filtered how, ranked how and drawn how. Deterministic: the same words always
// give the same intent. The vocabulary (categories, product codes) comes from the real data.
import type { ChartType } from '@stockwise/contract';

export type Measure = 'units' | 'sales_value' | 'sales_rows' | 'avg_daily_units' | 'stock' | 'stock_value' | 'product_count';
export type Dimension = 'product' | 'category' | 'day' | 'week' | 'month' | 'year' | 'weekday';
export type Special = 'low_stock' | 'out_of_stock' | 'runs_out' | 'reorder' | 'no_sales' | 'deliveries' | 'forecast_demand' | 'days_of_cover';
export type Period =
  | { kind: 'last_days'; days: number }
  | { kind: 'last_months'; months: number }
  | { kind: 'this'; unit: 'week' | 'month' | 'year' }
  | { kind: 'previous'; unit: 'week' | 'month' | 'year' }
  | { kind: 'year'; year: number }
  | { kind: 'month_of_year'; year: number; month: number }
  | { kind: 'today' }
  | { kind: 'yesterday' }
  | { kind: 'since'; date: string };

export type Intent = {
  special: Special | null;
  measure: Measure | null;
  dimension: Dimension | null;
  rank: { direction: 'desc' | 'asc'; limit: number } | null;
  period: Period | null;
  category: string | null;
  productCode: string | null;
  threshold: number | null;
  horizonDays: number | null;
  chartType: ChartType | null;
};

export type Vocabulary = { categories: string[]; productCodes: string[] };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, fifty: 50, hundred: 100 };
const DEFAULT_RANK = 10;
export const DEFAULT_LOW_STOCK = 100; // spec §9: low stock (high risk) is current stock below 100
const DEFAULT_HORIZON_DAYS = 30;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const numberIn = (text: string | undefined) => (text === undefined ? null : /^\d+$/.test(text) ? Number(text) : (NUMBER_WORDS[text] ?? null));
const NUM = '(\\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty|thirty|fifty|hundred)';

function readPeriod(text: string): Period | null {
  let match = new RegExp(`(?:last|past|previous|over the last|in the last) ${NUM} (day|week|month|year)s?`).exec(text);
  if (match) {
    const n = numberIn(match[1]) as number;
    const unit = match[2] as string;
    if (unit === 'day') return { kind: 'last_days', days: n };
    if (unit === 'week') return { kind: 'last_days', days: n * 7 };
    return { kind: 'last_months', months: unit === 'month' ? n : n * 12 };
  }
  if (/\b(today)\b/.test(text)) return { kind: 'today' };
  if (/\byesterday\b/.test(text)) return { kind: 'yesterday' };
  match = /\b(this|current) (week|month|year)\b/.exec(text);
  if (match) return { kind: 'this', unit: match[2] as 'week' | 'month' | 'year' };
  if (/\b(year to date|ytd)\b/.test(text)) return { kind: 'this', unit: 'year' };
  match = /\b(last|previous) (week|month|year)\b/.exec(text);
  if (match) return { kind: 'previous', unit: match[2] as 'week' | 'month' | 'year' };
  match = new RegExp(`\\b(${MONTHS.join('|')}) (\\d{4})\\b`).exec(text);
  if (match) return { kind: 'month_of_year', month: MONTHS.indexOf(match[1] as string) + 1, year: Number(match[2]) };
  match = /\bsince (\d{4}-\d{2}-\d{2})\b/.exec(text);
  if (match) return { kind: 'since', date: match[1] as string };
  match = /\b(?:in|for|during|of) (\d{4})\b/.exec(text) ?? /^(\d{4})\b/.exec(text);
  if (match) return { kind: 'year', year: Number(match[1]) };
  return null;
}

function readSpecial(text: string): Special | null {
  if (/\b(run|runs|running) out\b|\bstock ?outs?\b|\bout of stock (in|within|by)\b|\bwill (be|go) out of stock\b/.test(text)) return 'runs_out';
  if (/\bre-?order|\brestock|\breplenish|\bwhat (should|to|do) (i|we) (order|buy)\b|\bneeds? (to be )?order/.test(text)) return 'reorder';
  if (/\bout of stock\b|\bzero stock\b|\bno stock\b|\bsold out\b/.test(text)) return 'out_of_stock';
  if (/\blow stock\b|\brunning low\b|\blow on stock\b|\bstock (below|under|less than)\b|\b(below|under|less than|fewer than) \d+ (units|in stock)\b/.test(text)) return 'low_stock';
  if (/\bno sales\b|\bnot sold\b|\bhave ?n[o']t sold\b|\bwithout (any )?sales\b|\bdid ?n[o']t sell\b|\bdead stock\b|\bzero sales\b|\bnever sold\b|\bnot selling\b/.test(text)) return 'no_sales';
  if (/\bdays? of (cover|stock|supply)\b|\bhow long (will|does|do) .*last\b|\bstock cover\b/.test(text)) return 'days_of_cover';
  if (/\bdeliver|\bincoming\b|\bon order\b|\bpurchase orders?\b|\barriving\b/.test(text)) return 'deliveries';
  if (/\bforecast|\bexpected (demand|sales)\b|\bpredicted\b|\bprojected (demand|sales)\b/.test(text)) return 'forecast_demand';
  return null;
}

function readMeasure(text: string): Measure | null {
  if (/\b(stock|inventory) value\b|\bvalue of (the )?(stock|inventory)\b|\b(stock|inventory) (is )?worth\b|\bvalue on hand\b/.test(text)) return 'stock_value';
  if (/\brevenue\b|\bturnover\b|\bsales value\b|\bvalue of (the )?sales\b|\bvalue sold\b|\bcost of (goods )?sold\b/.test(text)) return 'sales_value';
  if (/\bhow many products\b|\bnumber of products\b|\bcount (of )?products\b|\bproduct count\b/.test(text)) return 'product_count';
  if (/\bnumber of sales\b|\bsales rows\b|\btransactions\b|\bsales lines\b/.test(text)) return 'sales_rows';
  if (/\baverage daily\b|\bavg daily\b|\bdaily average\b|\bper day on average\b/.test(text)) return 'avg_daily_units';
  if (/\bunits?\b|\bsold\b|\bsales\b|\bquantity\b|\bdemand\b|\bselling\b|\bsell\b|\bsellers?\b/.test(text)) return 'units';
  if (/\bstock\b|\binventory\b|\bon hand\b/.test(text)) return 'stock';
  return null;
}

function readDimension(text: string): Dimension | null {
  if (/\bday of (the )?week\b|\bweekdays?\b/.test(text)) return 'weekday';
  if (/\b(by|per|each|every) (product|item|sku)s?\b|\bproducts? by\b|\bwhich products\b|\b(top|bottom|best|worst|slowest|fastest)[- ]?(\d+ )?(selling )?(products|items|sellers)\b|\bbest[- ]sell|\bworst[- ]sell/.test(text)) {
    if (!/\b(by|per|each) (category|week|month|day|year)\b|\b(weekly|monthly|daily|yearly)\b|\bcategories\b/.test(text)) return 'product';
  }
  if (/\b(by|per|each|every) categor(y|ies)\b|\bcategories\b|\bcategory breakdown\b/.test(text)) return 'category';
  if (/\b(by|per|each|every) week\b|\bweekly\b|\bweek by week\b/.test(text)) return 'week';
  if (/\b(by|per|each|every) month\b|\bmonthly\b|\bmonth by month\b/.test(text)) return 'month';
  if (/\b(by|per|each|every) day\b|\bdaily\b|\bday by day\b/.test(text)) return 'day';
  if (/\b(by|per|each|every) year\b|\byearly\b|\bannual\b/.test(text)) return 'year';
  if (/\btrend\b|\bover time\b/.test(text)) return 'month';
  return null;
}

function readRank(text: string): Intent['rank'] {
  let match = new RegExp(`\\b(top|best|highest|most|largest|biggest) ${NUM}\\b`).exec(text);
  if (match) return { direction: 'desc', limit: numberIn(match[2]) as number };
  match = new RegExp(`\\b(bottom|worst|lowest|least|slowest|smallest) ${NUM}\\b`).exec(text);
  if (match) return { direction: 'asc', limit: numberIn(match[2]) as number };
  if (/\b(top|best[- ]selling|best sellers?|highest|most sold|biggest|fastest)\b/.test(text)) return { direction: 'desc', limit: DEFAULT_RANK };
  if (/\b(bottom|worst[- ]selling|lowest|least sold|slowest|smallest)\b/.test(text)) return { direction: 'asc', limit: DEFAULT_RANK };
  return null;
}

function readChartType(text: string): ChartType | null {
  if (/\bbar(s| chart| graph)?\b|\bcolumn chart\b|\bhistogram\b/.test(text)) return 'bar';
  if (/\bline( chart| graph)?\b/.test(text)) return 'line';
  if (/\barea( chart)?\b/.test(text)) return 'area';
  if (/\bpie( chart)?\b|\bdonut\b|\bshare of\b/.test(text)) return 'pie';
  if (/\bscatter( plot| chart)?\b/.test(text)) return 'scatter';
  if (/\bas a table\b|\btable only\b|\bno chart\b/.test(text)) return 'table';
  return null;
}

function readHorizon(text: string): number | null {
  const match = new RegExp(`\\b(?:next|coming|within|in|over the next) ${NUM} (day|week|month)s?\\b`).exec(text);
  if (!match) return null;
  const n = numberIn(match[1]) as number;
  return match[2] === 'day' ? n : match[2] === 'week' ? n * 7 : n * 30;
}

export function readIntent(question: string, vocabulary: Vocabulary): Intent {
  const text = ` ${question.toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, ' ').trim()} `;
  const special = readSpecial(text);
  const thresholdMatch = /\b(?:below|under|less than|fewer than) (\d+)\b/.exec(text);
  const category = vocabulary.categories.find((name) => new RegExp(`\\b${escapeRegExp(name.toLowerCase())}\\b`).test(text)) ?? null;
  const productCode = vocabulary.productCodes.find((code) => new RegExp(`(^|[^a-z0-9-])${escapeRegExp(code.toLowerCase())}([^a-z0-9-]|$)`).test(text)) ?? null;
  // A future window ("in the next 30 days") is a horizon, not a past period.
  const horizonDays = readHorizon(text);
  const withoutHorizon = horizonDays === null ? text : text.replace(/\b(next|coming|within|over the next) \S+ (day|week|month)s?\b/, ' ');
  const measure = readMeasure(text);
  let dimension = readDimension(text);
  // "average daily units" is a measure, not a breakdown by day.
  if (measure === 'avg_daily_units' && dimension === 'day' && !/\b(by|per|each|every) day\b|\bday by day\b/.test(text)) dimension = null;
  return {
    special,
    measure,
    dimension,
    rank: readRank(text),
    period: readPeriod(withoutHorizon),
    category,
    productCode,
    threshold: thresholdMatch ? Number(thresholdMatch[1]) : null,
    horizonDays: horizonDays ?? (special === 'runs_out' || special === 'forecast_demand' ? DEFAULT_HORIZON_DAYS : null),
    chartType: readChartType(text),
  };
}

/** True when the words say what to report (a measure or a special question), not only how. */
export const hasSubject = (intent: Intent) => intent.special !== null || intent.measure !== null;

/** A change request on top of the current report's intent: what the request says wins. */
export function mergeIntents(base: Intent, change: Intent): Intent {
  const pick = <K extends keyof Intent>(key: K): Intent[K] => (change[key] ?? base[key]) as Intent[K];
  return {
    special: pick('special'),
    measure: pick('measure'),
    dimension: pick('dimension'),
    rank: pick('rank'),
    period: pick('period'),
    category: pick('category'),
    productCode: pick('productCode'),
    threshold: pick('threshold'),
    horizonDays: pick('horizonDays'),
    chartType: pick('chartType'),
  };
}
