// Reading a plain-words inventory question into an intent: what to measure, broken down by what,
// over which period, filtered how, ranked how and drawn how. Deterministic: the same words always
// give the same intent. The vocabulary (categories, product codes) comes from the real data.
import type { ChartType } from '@stockwise/contract';
import { AHEAD_WORDS, dueWindowOf, dueWords, HORIZON_WORDS, NOT_SOLD, readBestPeriod, readBreakdown, readComparison, readHorizon, readPeriod, readQuietSpan, readSalesAhead, readWindow, type AheadSpan, type BestPeriod, type Comparison, type Period } from '../../plain-words/period.ts';
import { DEAD_STOCK, OVERSTOCK, readCategory, readCoverDays, readNameWord, readRank } from '../../plain-words/catalogue.ts';
import { escapeRegExp, looksLikeProductCode, Reading } from '../../plain-words/reading.ts';
import { DEFAULT_DATE_ORDER, type DateOrder } from '@stockwise/contract';
import { orGerman, SALES_VALUE_WORDS, STOCK_VALUE_WORDS, STOCK_WORDS, UNITS_WORDS } from '../../plain-words/measure.ts';

export type { AheadSpan, Comparison, Period };

export type Measure = 'units' | 'returns' | 'sales_value' | 'sales_rows' | 'avg_daily_units' | 'stock' | 'stock_value' | 'product_count';
export type Dimension = 'product' | 'category' | 'day' | 'week' | 'month' | 'quarter' | 'year' | 'weekday';
export type Special = 'overstock' | 'dead_stock' | 'low_stock' | 'out_of_stock' | 'runs_out' | 'reorder' | 'no_sales' | 'deliveries' | 'forecast_demand' | 'days_of_cover';
export type Intent = {
  special: Special | null;
  measure: Measure | null;
  dimension: Dimension | null;
  /**
   * A second grouping beside a time breakdown: one row per period and category ("per month by
   * category"), or per period and product ("per month by product", ranked: the top N products).
   */
  split: 'category' | 'product' | null;
  rank: { direction: 'desc' | 'asc'; limit: number } | null;
  /** "The best month last year": the time breakdown ordered by the measure, best (desc) or worst (asc) first. */
  best: BestPeriod['direction'] | null;
  period: Period | null;
  /** "This month vs last month": a row per period (per period and product "by product"), instead of `period`. */
  compare: Comparison | null;
  category: string | null;
  productCode: string | null;
  /** A word of products' names ("radiators" → "Radiator"): the products whose name holds it, when no product or category is named. */
  nameWord: string | null;
  threshold: number | null;
  /** Days of the forecast's demand beyond which stock is overstock ("more than 6 months of stock"; ADR 0155). */
  coverDays: number | null;
  /** The days ahead a stock-out, reorder, delivery or forecast question looks at: the next N days, next week, this month, through a date… */
  ahead: AheadSpan | null;
  chartType: ChartType | null;
};

/** `namePhrases`: two words side by side in product names ("Snow Shovel"), read before one word (QA6 #6). */
export type Vocabulary = { categories: string[]; productCodes: string[]; nameWords: readonly string[]; namePhrases?: readonly string[] };

const DEFAULT_RANK = 10;
export const DEFAULT_LOW_STOCK = 100; // spec §9: low stock (high risk) is current stock below 100
const DEFAULT_HORIZON_DAYS = 30;
const SALES_MEASURES: ReadonlySet<Measure> = new Set(['units', 'sales_value', 'sales_rows', 'avg_daily_units']);

function readSpecial(reading: Reading): Special | null {
  if (reading.test(OVERSTOCK)) return 'overstock';
  if (reading.test(DEAD_STOCK)) return 'dead_stock';
  if (reading.test(/\b(run|runs|running) out\b|\bstock ?outs?\b|\bout of stock (in|within|by)\b|\bwill (be|go) out of stock\b/)) return 'runs_out';
  if (reading.test(/\bre-?order|\brestock|\breplenish|\bwhat (should|to|do|must) (i|we) (?:(?:need|have) to )?(order|buy)\b|\bneeds? (to be )?order|\b(must|should|needs? to|ha(s|ve) to) be ordered\b|\border(s)? (are )?due\b/)) return 'reorder';
  if (reading.test(/\bout of stock\b|\bzero stock\b|\bno stock\b|\bsold out\b/)) return 'out_of_stock';
  if (reading.test(/\blow stock\b|\brunning low\b|\blow on stock\b|\bstock (below|under|less than)\b|\b(below|under|less than|fewer than) \d+ (units|in stock)\b/)) return 'low_stock';
  if (reading.test(NOT_SOLD)) return 'no_sales';
  if (reading.test(/\bdays? of (stock )?(cover|stock|supply)\b|\bhow long (will|does|do) .*last\b|\bstock cover\b/)) return 'days_of_cover';
  if (reading.test(/\b((scheduled|planned|expected|upcoming) )?deliver|\bincoming\b|\bon order\b|\bpurchase orders?\b|\barriving\b/)) return 'deliveries';
  if (reading.test(/\bforecast|\bexpected (demand|sales)\b|\bpredicted\b|\bprojected (demand|sales)\b/)) return 'forecast_demand';
  return null;
}

const PRODUCT_COUNT_WORDS = orGerman(/\bhow many products\b|\bnumber of products\b|\bcount (of )?products\b|\bproduct count\b/, 'anzahl (?:der )?(?:produkte|artikel)|wie viele (?:produkte|artikel)');
const SALES_ROWS_WORDS = orGerman(/\bnumber of sales\b|\bsales rows\b|\btransactions\b|\bsales lines\b/, 'anzahl (?:der )?verkäufe|verkaufszeilen');

/**
 * Returns: a return is a sales row with a negative quantity (ADR 0011: the till's refunds come in
 * as sales of -1); there is no table of returns to suppliers. Read before units: "units returned".
 */
const RETURNS_WORDS = orGerman(/\breturn(s|ed)\b|\brefund(s|ed)?\b|\bbrought back\b/, 'retoure|retouren|rücksendung|rücksendungen|zurückgegeben');

function readMeasure(reading: Reading): Measure | null {
  if (reading.test(RETURNS_WORDS)) {
    reading.test(UNITS_WORDS);
    return 'returns';
  }
  if (reading.test(STOCK_VALUE_WORDS)) return 'stock_value';
  if (reading.test(SALES_VALUE_WORDS)) return 'sales_value';
  if (reading.test(PRODUCT_COUNT_WORDS)) return 'product_count';
  if (reading.test(SALES_ROWS_WORDS)) return 'sales_rows';
  if (reading.test(/\baverage daily\b|\bavg daily\b|\bdaily average\b|\bper day on average\b/)) {
    reading.test(UNITS_WORDS);
    return 'avg_daily_units';
  }
  if (reading.test(UNITS_WORDS)) return 'units';
  if (reading.test(STOCK_WORDS)) return 'stock';
  return null;
}

/**
 * A product or category breakdown in words. "Products by" ranks products by what follows ("top
 * products by revenue"), not when a time or category breakdown follows: "garden products by week"
 * is the Garden category, week by week.
 */
const BY_PRODUCT = orGerman(
  /\b(by|per|each|every|and) (product|item|sku)s?\b|\bproducts? by\b(?! (the )?(day|week|month|quarter|year|weekday|categor))|\bwhich products\b|\b(top|bottom|best|worst|slowest|fastest)[- ]?(\d+ )?(selling )?(products|items|sellers|produkte|artikel)\b|\bbest[- ]sell|\bworst[- ]sell/,
  '(?:nach|pro|je) (?:produkt|produkten|artikel|artikeln)',
);
// A shop's own word for its categories is often "group" (a till's Groep, Warengruppe): "per month by product group".
const BY_CATEGORY = /\b(by|per|each|every|and) (product )?(categor(y|ies)|groups?)\b|\bcategories\b|\bproduct groups\b|\bcategory breakdown\b|\b(nach|pro|je) (kategorien?|warengruppen?)\b|\bkategorien\b/;

/**
 * The breakdown, and a category or product beside a time one ("units sold per month by category",
 * "by month and category", "per month by product", "monthly sales by product").
 */
function readDimension(reading: Reading): Pick<Intent, 'dimension' | 'split'> {
  if (reading.test(/\bday of (the )?week\b|\bweekdays?\b|\b(nach|pro|je) wochentag(en)?\b/)) return { dimension: 'weekday', split: null };
  const byProduct = reading.test(BY_PRODUCT);
  if (byProduct && readBreakdown(reading.trial()) === null && !BY_CATEGORY.test(reading.text)) return { dimension: 'product', split: null };
  const byCategory = reading.test(BY_CATEGORY);
  const time = readBreakdown(reading);
  if (time && (byCategory || byProduct)) return { dimension: time, split: byCategory ? 'category' : 'product' };
  return { dimension: byCategory ? 'category' : time, split: null };
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

export const todayIso = () => new Date().toISOString().slice(0, 10);

/** The parts of an intent whose words are marked apart (Reading.for), so a part the SQL leaves out can be said. */
const PART: Partial<Record<keyof Intent, number>> = {
  special: 1 << 1,
  measure: 1 << 2,
  dimension: 1 << 3,
  rank: 1 << 4,
  best: 1 << 5,
  period: 1 << 6,
  compare: 1 << 7,
  category: 1 << 8,
  productCode: 1 << 9,
  nameWord: 1 << 10,
  threshold: 1 << 11,
  coverDays: 1 << 12,
  ahead: 1 << 13,
  split: 1 << 14,
};
const partOf = (key: keyof Intent) => PART[key] as number;

/**
 * The intent as a report builder sees it, and afterwards the parts it never looked at (bits for
 * `unusedWords`): a builder that writes no period into its SQL never reads `period`, so the words
 * "last month" are said as not used instead of silently dropped. What the SQL uses decides the note.
 */
export function watchedIntent(intent: Intent): { intent: Intent; leftOut: (setAside?: (keyof Intent)[]) => number } {
  const looked = new Set<string | symbol>();
  const watched = new Proxy(intent, {
    get(target, key, receiver) {
      looked.add(key);
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  // A stock question's report measures what it is about: "forecast demand", "quantity to reorder" are its words, not a measure dropped.
  if (intent.special !== null) looked.add('measure');
  // `setAside`: parts the builder looked at and then left out of its SQL (a stock report's weeks).
  return { intent: watched, leftOut: (setAside = []) => Object.entries(PART).reduce((bits, [key, bit]) => (looked.has(key) && !setAside.includes(key as keyof Intent) ? bits : bits | bit), 0) };
}

/**
 * The intent of a question, the words of it that the intent does not use (filler words aside), and
 * of those the ones written like a product code that no product has.
 */
export function readQuestion(
  question: string,
  vocabulary: Vocabulary,
  today = todayIso(),
  dateOrder: DateOrder = DEFAULT_DATE_ORDER,
  timeZone?: string,
): {
  intent: Intent;
  unusedWords: string[];
  unknownProducts: string[];
  salesAhead: string | null;
  windowOver: string | null;
  unusedWordsLeaving: (leftOut: number) => string[];
  /** No measure word was read: a ranking, best period or comparison measures units sold. */
  measureAssumed: boolean;
} {
  const reading = Reading.of(question, dateOrder, timeZone);
  const special = reading.for(partOf('special'), () => readSpecial(reading));
  const thresholdMatch = reading.for(partOf('threshold'), () => reading.exec(/\b(?:below|under|less than|fewer than) (\d+)\b/));
  const category = reading.for(partOf('category'), () => readCategory(reading, vocabulary.categories));
  // A cheap substring test first: the catalogue may hold tens of thousands of codes.
  const productCode = reading.for(
    partOf('productCode'),
    () => vocabulary.productCodes.find((code) => reading.text.includes(code.toLowerCase()) && reading.test(new RegExp(`(^|[^a-z0-9-])${escapeRegExp(code.toLowerCase())}([^a-z0-9-]|$)`))) ?? null,
  );
  // A future window ("in the next 30 days", and for questions that look ahead "next week", "by 24/12",
  // "this month") is a horizon, not a past period; read as the assistant reads it (ADR 0148).
  const looksAhead = special === 'runs_out' || special === 'reorder' || special === 'deliveries' || special === 'forecast_demand';
  const window = looksAhead ? reading.for(partOf('ahead'), () => readWindow(reading, today)) : null;
  // "Not sold in 60 days" looks back over the last 60 (the assistant reads it so too), not ahead.
  const quiet = special === 'no_sales' || special === 'dead_stock' ? reading.for(partOf('period'), () => readQuietSpan(reading)) : null;
  const horizonDays = window || quiet ? null : reading.for(partOf('ahead'), () => readHorizon(reading));
  const pastReading = window ? reading.without(AHEAD_WORDS) : horizonDays === null ? reading : reading.without(HORIZON_WORDS);
  // "The best selling month": months ranked, not products (read before "best selling" is taken for a product ranking).
  const best = special === null ? reading.for(partOf('best'), () => readBestPeriod(reading)) : null;
  const rank = best ? null : reading.for(partOf('rank'), () => readRank(reading, DEFAULT_RANK));
  const compare = special === null ? reading.for(partOf('compare'), () => readComparison(pastReading, today)) : null;
  // "Top 10 products last quarter", "the best month", "December 2025 against December 2024" rank or compare what a shop does: units sold.
  const measureSaid = reading.for(partOf('measure'), () => readMeasure(reading));
  const measure = measureSaid ?? ((rank !== null || best !== null || compare !== null) && special === null ? 'units' : null);
  const said = best ? { dimension: best.unit, split: null } : reading.for(partOf('dimension'), () => readDimension(reading));
  const split = said.split;
  // The category or product beside a time breakdown is a part of its own: a report without the time breakdown still uses it.
  if (split) reading.for(partOf('split'), () => reading.test(split === 'category' ? BY_CATEGORY : BY_PRODUCT));
  // "What sells best in Heating": the products, ranked.
  const dimension = rank !== null && said.dimension === null && special === null ? 'product' : said.dimension;
  // A line per product of sales over time: a whole catalogue's would not be read, so the top ones by the measure, as "top products" without a number (ADR 0148, amendment).
  // Stock per month by product is a table of every product's month-end stock: only "top N" words limit it.
  const ranking = split === 'product' && rank === null && measure !== null && SALES_MEASURES.has(measure) ? { direction: 'desc' as const, limit: DEFAULT_RANK } : rank;
  const intent: Intent = {
    special,
    measure,
    dimension,
    split,
    rank: ranking,
    best: best?.direction ?? null,
    period: compare ? null : (quiet ?? reading.for(partOf('period'), () => readPeriod(pastReading, today))),
    compare,
    category,
    productCode,
    nameWord: null,
    threshold: thresholdMatch ? Number(thresholdMatch[1]) : null,
    coverDays: special === 'overstock' ? reading.for(partOf('coverDays'), () => readCoverDays(reading)) : null,
    ahead: window?.span ?? (horizonDays !== null ? { days: horizonDays } : special === 'runs_out' || special === 'forecast_demand' ? { days: DEFAULT_HORIZON_DAYS } : null),
    chartType: readChartType(reading),
  };
  // Sales asked for days still to come: none are recorded yet (the assistant says the same).
  const salesAhead = special === null && measure !== null && SALES_MEASURES.has(measure) ? readSalesAhead(reading, today) : null;
  // An order or stock-out window that ended before today: the forecasts look ahead from today (the assistant says the same).
  const windowOver = window && window.by < today && (special === 'runs_out' || special === 'reorder') ? dueWords(dueWindowOf(window, today)) : null;
  // Read last, among the words nothing else used: "how many radiators did we sell", and within a category "how many christmas trees" (the assistant reads them so too).
  if (!productCode) intent.nameWord = reading.for(partOf('nameWord'), () => readNameWord(reading, vocabulary.nameWords, vocabulary.namePhrases));
  const unused = reading.unusedWords();
  const unusedWordsLeaving = (leftOut: number) => reading.unusedWords(leftOut).filter((word) => !looksLikeProductCode(word));
  return { intent, unusedWords: unused.filter((word) => !looksLikeProductCode(word)), unknownProducts: unused.filter(looksLikeProductCode), salesAhead, windowOver, unusedWordsLeaving, measureAssumed: measureSaid === null && measure !== null };
}

/** `timeZone`: the editor's, whose hemisphere a season in the words is of. */
export const readIntent = (question: string, vocabulary: Vocabulary, timeZone?: string): Intent => readQuestion(question, vocabulary, todayIso(), DEFAULT_DATE_ORDER, timeZone).intent;

/** True when the words say what to report (a measure or a special question), not only how. */
export const hasSubject = (intent: Intent) => intent.special !== null || intent.measure !== null;

/** A change request on top of the current report's intent: what the request says wins. */
export function mergeIntents(base: Intent, change: Intent): Intent {
  const pick = <K extends keyof Intent>(key: K): Intent[K] => (change[key] ?? base[key]) as Intent[K];
  return {
    special: pick('special'),
    measure: pick('measure'),
    dimension: pick('dimension'),
    split: pick('split'),
    rank: pick('rank'),
    best: pick('best'),
    // A period said in the change replaces a comparison, and a comparison a period.
    period: change.compare ? null : pick('period'),
    compare: change.period ? null : pick('compare'),
    category: pick('category'),
    productCode: pick('productCode'),
    nameWord: pick('nameWord'),
    threshold: pick('threshold'),
    coverDays: pick('coverDays'),
    ahead: pick('ahead'),
    chartType: pick('chartType'),
  };
}
