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

// Words a question or change request may hold without asking for anything the generator would have to express.
const FILLER_WORDS = new Set(
  ('a about add again all also am an and any are as at be been but by can change could did do does each every for from get give have has ' +
    'had how i in instead into is it its just list make me much many my need needs now of on only or our overall per please product ' +
    'products item items report same see shall should show so switch tell that the their them then there these this those to total totals ' +
    'turn us use want was we were what which will with would you')
    .split(' '),
);

/**
 * The question's text and which of its characters the reading used: every match of a pattern that
 * decided something is marked, so the words left over are what the built-in generator ignored.
 */
class Reading {
  readonly text: string;
  readonly #used: Uint8Array;

  constructor(text: string, used?: Uint8Array) {
    this.text = text;
    this.#used = used ?? new Uint8Array(text.length);
  }

  /** The first match of `pattern`; when there is one, every match of it counts as used. */
  exec(pattern: RegExp): RegExpExecArray | null {
    const match = pattern.exec(this.text);
    if (match) {
      for (const each of this.text.matchAll(new RegExp(pattern.source, 'g'))) this.#used.fill(1, each.index, each.index + each[0].length);
    }
    return match;
  }

  test(pattern: RegExp): boolean {
    return this.exec(pattern) !== null;
  }

  /** The same question with the matches of `pattern` blanked out (positions kept), sharing what is used. */
  without(pattern: RegExp): Reading {
    return new Reading(this.text.replace(pattern, (found) => ' '.repeat(found.length)), this.#used);
  }

  /** The words no pattern used, in order, filler words left out. */
  unusedWords(): string[] {
    const words: string[] = [];
    for (const word of this.text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'.-]*/gu)) {
      const unused = !this.#used.subarray(word.index, word.index + word[0].length).includes(1);
      const text = word[0].replace(/[.'-]+$/, '');
      if (unused && !FILLER_WORDS.has(text)) words.push(text);
    }
    return words;
  }
}

function readPeriod(reading: Reading): Period | null {
  let match = reading.exec(new RegExp(`(?:last|past|previous|over the last|in the last) ${NUM} (day|week|month|year)s?`));
  if (match) {
    const n = numberIn(match[1]) as number;
    const unit = match[2] as string;
    if (unit === 'day') return { kind: 'last_days', days: n };
    if (unit === 'week') return { kind: 'last_days', days: n * 7 };
    return { kind: 'last_months', months: unit === 'month' ? n : n * 12 };
  }
  if (reading.test(/\b(today)\b/)) return { kind: 'today' };
  if (reading.test(/\byesterday\b/)) return { kind: 'yesterday' };
  match = reading.exec(/\b(this|current) (week|month|year)\b/);
  if (match) return { kind: 'this', unit: match[2] as 'week' | 'month' | 'year' };
  if (reading.test(/\b(year to date|ytd)\b/)) return { kind: 'this', unit: 'year' };
  match = reading.exec(/\b(last|previous) (week|month|year)\b/);
  if (match) return { kind: 'previous', unit: match[2] as 'week' | 'month' | 'year' };
  match = reading.exec(new RegExp(`\\b(${MONTHS.join('|')}) (\\d{4})\\b`));
  if (match) return { kind: 'month_of_year', month: MONTHS.indexOf(match[1] as string) + 1, year: Number(match[2]) };
  match = reading.exec(/\bsince (\d{4}-\d{2}-\d{2})\b/);
  if (match) return { kind: 'since', date: match[1] as string };
  match = reading.exec(/\b(?:in|for|during|of) (\d{4})\b/) ?? reading.exec(/^ ?(\d{4})\b/);
  if (match) return { kind: 'year', year: Number(match[1]) };
  return null;
}

function readSpecial(reading: Reading): Special | null {
  if (reading.test(/\b(run|runs|running) out\b|\bstock ?outs?\b|\bout of stock (in|within|by)\b|\bwill (be|go) out of stock\b/)) return 'runs_out';
  if (reading.test(/\bre-?order|\brestock|\breplenish|\bwhat (should|to|do) (i|we) (order|buy)\b|\bneeds? (to be )?order/)) return 'reorder';
  if (reading.test(/\bout of stock\b|\bzero stock\b|\bno stock\b|\bsold out\b/)) return 'out_of_stock';
  if (reading.test(/\blow stock\b|\brunning low\b|\blow on stock\b|\bstock (below|under|less than)\b|\b(below|under|less than|fewer than) \d+ (units|in stock)\b/)) return 'low_stock';
  if (reading.test(/\bno sales\b|\bnot sold\b|\bhave ?n[o']t sold\b|\bwithout (any )?sales\b|\bdid ?n[o']t sell\b|\bdead stock\b|\bzero sales\b|\bnever sold\b|\bnot selling\b/)) return 'no_sales';
  if (reading.test(/\bdays? of (stock )?(cover|stock|supply)\b|\bhow long (will|does|do) .*last\b|\bstock cover\b/)) return 'days_of_cover';
  if (reading.test(/\b((scheduled|planned|expected|upcoming) )?deliver|\bincoming\b|\bon order\b|\bpurchase orders?\b|\barriving\b/)) return 'deliveries';
  if (reading.test(/\bforecast|\bexpected (demand|sales)\b|\bpredicted\b|\bprojected (demand|sales)\b/)) return 'forecast_demand';
  return null;
}

const UNITS_WORDS = /\bunits?\b|\bsold\b|\bsales\b|\bquantity\b|\bdemand\b|\bselling\b|\bsell\b|\bsellers?\b/;

function readMeasure(reading: Reading): Measure | null {
  if (reading.test(/\b(stock|inventory) value\b|\bvalue of (the )?(stock|inventory)\b|\b(stock|inventory) (is )?worth\b|\bvalue on hand\b/)) return 'stock_value';
  if (reading.test(/\brevenue\b|\bturnover\b|\bsales value\b|\bvalue of (the )?sales\b|\bvalue sold\b|\bcost of (goods )?sold\b/)) return 'sales_value';
  if (reading.test(/\bhow many products\b|\bnumber of products\b|\bcount (of )?products\b|\bproduct count\b/)) return 'product_count';
  if (reading.test(/\bnumber of sales\b|\bsales rows\b|\btransactions\b|\bsales lines\b/)) return 'sales_rows';
  if (reading.test(/\baverage daily\b|\bavg daily\b|\bdaily average\b|\bper day on average\b/)) {
    reading.test(UNITS_WORDS);
    return 'avg_daily_units';
  }
  if (reading.test(UNITS_WORDS)) return 'units';
  if (reading.test(/\bstock\b|\binventory\b|\bon hand\b/)) return 'stock';
  return null;
}

function readDimension(reading: Reading): Dimension | null {
  if (reading.test(/\bday of (the )?week\b|\bweekdays?\b/)) return 'weekday';
  if (reading.test(/\b(by|per|each|every) (product|item|sku)s?\b|\bproducts? by\b|\bwhich products\b|\b(top|bottom|best|worst|slowest|fastest)[- ]?(\d+ )?(selling )?(products|items|sellers)\b|\bbest[- ]sell|\bworst[- ]sell/)) {
    if (!/\b(by|per|each) (category|week|month|day|year)\b|\b(weekly|monthly|daily|yearly)\b|\bcategories\b/.test(reading.text)) return 'product';
  }
  if (reading.test(/\b(by|per|each|every) categor(y|ies)\b|\bcategories\b|\bcategory breakdown\b/)) return 'category';
  if (reading.test(/\b(by|per|each|every) week\b|\bweekly\b|\bweek by week\b/)) return 'week';
  if (reading.test(/\b(by|per|each|every) month\b|\bmonthly\b|\bmonth by month\b/)) return 'month';
  if (reading.test(/\b(by|per|each|every) day\b|\bdaily\b|\bday by day\b/)) return 'day';
  if (reading.test(/\b(by|per|each|every) year\b|\byearly\b|\bannual\b/)) return 'year';
  if (reading.test(/\btrend\b|\bover time\b/)) return 'month';
  return null;
}

function readRank(reading: Reading): Intent['rank'] {
  let match = reading.exec(new RegExp(`\\b(top|best|highest|most|largest|biggest) ${NUM}\\b`));
  if (match) return { direction: 'desc', limit: numberIn(match[2]) as number };
  match = reading.exec(new RegExp(`\\b(bottom|worst|lowest|least|slowest|smallest) ${NUM}\\b`));
  if (match) return { direction: 'asc', limit: numberIn(match[2]) as number };
  if (reading.test(/\b(top|best[- ]selling|best sellers?|highest|most sold|biggest|fastest)\b/)) return { direction: 'desc', limit: DEFAULT_RANK };
  if (reading.test(/\b(bottom|worst[- ]selling|lowest|least sold|slowest|smallest)\b/)) return { direction: 'asc', limit: DEFAULT_RANK };
  return null;
}

function readChartType(reading: Reading): ChartType | null {
  if (reading.test(/\bbar(s| chart| graph)?\b|\bcolumn chart\b|\bhistogram\b/)) return 'bar';
  if (reading.test(/\bline( chart| graph)?\b/)) return 'line';
  if (reading.test(/\barea( chart)?\b/)) return 'area';
  if (reading.test(/\bpie( chart)?\b|\bdonut\b|\bshare of\b/)) return 'pie';
  if (reading.test(/\bscatter( plot| chart)?\b/)) return 'scatter';
  if (reading.test(/\bas a table\b|\btable only\b|\bno chart\b/)) return 'table';
  return null;
}

function readHorizon(reading: Reading): number | null {
  const match = reading.exec(new RegExp(`\\b(?:next|coming|within|in|over the next) ${NUM} (day|week|month)s?\\b`));
  if (!match) return null;
  const n = numberIn(match[1]) as number;
  return match[2] === 'day' ? n : match[2] === 'week' ? n * 7 : n * 30;
}

/** The intent of a question, and the words of it that the intent does not use (filler words aside). */
export function readQuestion(question: string, vocabulary: Vocabulary): { intent: Intent; unusedWords: string[] } {
  const reading = new Reading(` ${question.toLowerCase().replace(/[’']/g, "'").replace(/\s+/g, ' ').trim()} `);
  const special = readSpecial(reading);
  const thresholdMatch = reading.exec(/\b(?:below|under|less than|fewer than) (\d+)\b/);
  const category = vocabulary.categories.find((name) => reading.test(new RegExp(`\\b${escapeRegExp(name.toLowerCase())}\\b`))) ?? null;
  const productCode = vocabulary.productCodes.find((code) => reading.test(new RegExp(`(^|[^a-z0-9-])${escapeRegExp(code.toLowerCase())}([^a-z0-9-]|$)`))) ?? null;
  // A future window ("in the next 30 days") is a horizon, not a past period.
  const horizonDays = readHorizon(reading);
  const pastReading = horizonDays === null ? reading : reading.without(/\b(next|coming|within|over the next) \S+ (day|week|month)s?\b/);
  const measure = readMeasure(reading);
  let dimension = readDimension(reading);
  // "average daily units" is a measure, not a breakdown by day.
  if (measure === 'avg_daily_units' && dimension === 'day' && !/\b(by|per|each|every) day\b|\bday by day\b/.test(reading.text)) dimension = null;
  const intent: Intent = {
    special,
    measure,
    dimension,
    rank: readRank(reading),
    period: readPeriod(pastReading),
    category,
    productCode,
    threshold: thresholdMatch ? Number(thresholdMatch[1]) : null,
    horizonDays: horizonDays ?? (special === 'runs_out' || special === 'forecast_demand' ? DEFAULT_HORIZON_DAYS : null),
    chartType: readChartType(reading),
  };
  return { intent, unusedWords: reading.unusedWords() };
}

export const readIntent = (question: string, vocabulary: Vocabulary): Intent => readQuestion(question, vocabulary).intent;

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
