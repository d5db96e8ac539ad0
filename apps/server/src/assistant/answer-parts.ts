// The parts the assistant's answers are made of, shared by the intent engine (answers.ts) and the
// everyday answers (everyday-answers.ts): the answer and its blocks, figures and quantities in words,
// the sales periods and the products an answer counts, and a products' stock answer. It imports
// neither, so their imports go one way: answers.ts → everyday-answers.ts → here.
import type { Kysely } from 'kysely';
import { moneyFormat, productUnit, quantitiesByUnit, shortCategoryNames, type AssistantBlock, type AssistantColumnKind, type UnitQuantity } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { readCurrency } from '../shop/repo.ts';
import { closedDatesBetween } from '@stockwise/forecast';
import { shopCalendar, stockOnHand } from '../forecasting/service.ts';
import { addDays, formatDay, rangeOf, spokenPeriod, type Period, type PeriodUnit } from '../plain-words/period.ts';
import { readSupplierNames } from '../suppliers/service.ts';
import * as repo from './repo.ts';

type Db = Kysely<Database>;
export type Answer = { blocks: AssistantBlock[] };
export const REPORT_ROWS = 500;
export const round2 = (value: number) => Math.round(value * 100) / 100;
// Up to the 3 places a quantity is stored with (0.125 kg on hand, ADR 0176); counts print whole.
export const number = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
/**
 * Money as the shop reads it on its screens (ADR 0166): "$40,003.80" in the currency an administrator
 * chose, "40,003.80" before one is. Read with the answer, so a change shows in the next one.
 */
export const shopMoney = async (db: Db): Promise<Intl.NumberFormat> => moneyFormat(await readCurrency(db));

export const text = (value: string): AssistantBlock => ({ type: 'text', text: value });
export const forecastLink = (code: string, name: string): AssistantBlock => ({ type: 'link', label: `Forecast for ${name}`, href: `/app/forecasting?product=${encodeURIComponent(code)}` });
export const dataLink = (table: string, label: string): AssistantBlock => ({ type: 'link', label, href: `/app/datatab?table=${encodeURIComponent(table)}` });
export type Cell = string | number | null;
export type TableColumn = [key: string, label: string, kind?: AssistantColumnKind];
/** A table's category column: the cells keep the stored category (a path an ERP writes), the screen shows its short name. */
export const CATEGORY_COLUMN: TableColumn = ['category', 'Category', 'category'];
export const table = (columns: TableColumn[], rows: Record<string, Cell>[], totals: Record<string, Cell> | null = null, download: string | null = null): AssistantBlock => ({
  type: 'table',
  columns: columns.map(([key, label, kind]) => ({ key, label, ...(kind ? { kind } : {}) })),
  rows,
  totals,
  download,
});

/**
 * An "On hand now" cell, as the lists show the product header's figure (ADR 0030, amendment
 * 2026-12-04): below empty is 0 (more sold than counted), never counted is said, not 0.
 */
export const onHandCell = (units: number | null | undefined): Cell => (units === null || units === undefined ? NOT_COUNTED : Math.max(0, units));
const NOT_COUNTED = 'Not counted yet';

/** A past period as an answer uses it: its days and how the answer says them. */
export type SalesWindow = { from: string; to: string; words: string };
/** A period's days as of today and its words; all time runs from the first sale, so its dates are the data's own. */
export async function salesWindow(db: Db, period: Period, today: string): Promise<SalesWindow> {
  const first = period.kind === 'all_time' ? await repo.firstSalesDay(db) : null;
  const range = period.kind === 'all_time' ? { from: first !== null && first < today ? first : today, to: today } : rangeOf(period, today);
  return { ...range, words: spokenPeriod(period, today, range) };
}
/** The period of a sales question that names none. */
export const LAST_30_DAYS: Period = { kind: 'last_days', days: 30 };
/** The period "the best month" looks over when the question names none. */
export const LAST_12_MONTHS: Period = { kind: 'last_months', months: 12 };
/** Every sale up to today: the period of a breakdown by week, month, quarter or year that names none, as the report writer's. */
const ALL_TIME: Period = { kind: 'all_time' };
/** The period of a breakdown that names none: by day the last 30 days, by week, month, quarter or year every sale. */
export const breakdownPeriod = (unit: PeriodUnit): Period => (unit === 'day' ? LAST_30_DAYS : ALL_TIME);
/** Said when a period has no sales because the data ends before it starts (an old import), so its zero is not read as a quiet spell. */
export async function dataEndsBefore(db: Db, window: SalesWindow): Promise<string> {
  const last = await repo.lastSalesDay(db);
  if (!last) return ' There are no sales yet: import sales first.';
  return last < window.from ? ` No sales are recorded after ${formatDay(last)}.` : '';
}

const DAY_MS = 86_400_000;
/** Days from `from` to `to`, both counted. */
export const daysIn = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
/**
 * " The shop was closed on 24 of those 31 days." (ADR 0203 F6): how many of a sales period's days the
 * shop was closed — its closed weekdays, the closures the catalogue calendar learned and the days
 * typed in Settings → Shop (`shopCalendar`, ADR 0171) — so a month of congés is not read as a slump.
 * Said only when a closure other than the weekly ones falls in the period: a shop shut on Mondays is
 * not told so in every answer. "" otherwise.
 */
export async function closedDaysWords(db: Db, window: SalesWindow): Promise<string> {
  const calendar = await shopCalendar(db);
  const days = daysIn(window.from, window.to);
  const dated = new Set(closedDatesBetween(calendar, window.from, days));
  if (!dated.size) return '';
  const weekly = new Set(calendar.closedWeekdays ?? []);
  const closed = Array.from({ length: days }, (_, i) => addDays(window.from, i)).filter((day) => dated.has(day) || weekly.has(new Date(`${day}T00:00:00Z`).getUTCDay())).length;
  return days === 1 ? ' The shop was closed that day.' : ` The shop was closed on ${number.format(closed)} of those ${number.format(days)} days.`;
}

/**
 * The products a sales answer counts, with the words that say so: " in the Heating category", " of 3
 * products named Radiator…", or "" for all. `wordsBesideCategories`: the words without the categories
 * the products are in, for an answer whose rows are those categories (ADR 0189, amendment
 * 2026-12-06 (3)); none: `words`.
 */
export type Scope = repo.Scope & { words: string; wordsBesideCategories?: string };
/** The words a by-category answer says of its products: their categories are its rows, said once. */
export const wordsBesideCategories = (scope: Scope) => scope.wordsBesideCategories ?? scope.words;
export const EVERY_PRODUCT: Scope = { ...repo.ALL_PRODUCTS, words: '' };
/**
 * A category as an answer names it: a path by its last part, or as many as tell it apart from the
 * catalogue's other `categories` ("Office Furniture" for "All / Saleable / Office Furniture"), as the
 * screens label it (ADR 0198, amendment "F14 fixed").
 */
export const spokenCategory = (category: string, categories: readonly string[]) => shortCategoryNames([...categories, category]).get(category) ?? category;
export const categoryScope = (category: string, categories: readonly string[]): Scope => ({ category, productIds: null, words: ` in the ${spokenCategory(category, categories)} category` });
export const productScope = (products: repo.ProductRow[]): Scope => ({ category: null, productIds: products.map((p) => p.id), words: ` of ${products.map((p) => `${p.name} (${p.product_code})`).join(', ')}` });
/**
 * The products a word of their names selected (`products`, by code), those of a category (`word`
 * null), or those of a category whose name holds the word ("christmas trees": the Christmas category's
 * products named Tree), the scope that counts them and `heading`, what they are in words.
 */
export type NameWordScope = Scope & { word: string | null; products: repo.ProductRow[]; heading: string };

/**
 * One product's quantity in a sentence, in its unit when it has one ("12.5 kg", ADR 0177), else in
 * `pieces` ("12 units", "1 unit"; '' for a bare figure where the sentence says it already).
 */
export const amountOf = (value: number, stored: string | null, pieces = value === 1 ? 'unit' : 'units') => {
  const unit = productUnit(stored);
  const figure = number.format(value);
  return unit ? `${figure} ${unit}` : pieces ? `${figure} ${pieces}` : figure;
};
/** Quantities of several products, one total per unit (ADR 0177, amendment 2026-12-06): "12 units, 3.5 kg"; none: "0 units". */
export const amountsOf = (totals: readonly UnitQuantity[]) => (totals.length ? totals.map((total) => amountOf(total.quantity, total.unit)).join(', ') : amountOf(0, null));
export const andList = new Intl.ListFormat('en', { type: 'conjunction' });
/** Quantities of several products in a sentence, one total per unit: "12 units and 3.5 kg were sold"; none: "0 units". */
export const amountsListed = (totals: readonly UnitQuantity[]) => (totals.length ? andList.format(totals.map((total) => amountOf(total.quantity, total.unit))) : amountOf(0, null));
/**
 * A by-period table's columns of one unit (ADR 0177, amendment 2026-12-06 (2)): kilos and pieces are
 * not one column. Pieces keep the keys and headers they had ("units", "Units sold"); a unit's carry it
 * ("units_kg", "Sold (kg)").
 */
export const unitKey = (key: string, unit: string | null) => (unit === null ? key : `${key}_${unit.toLowerCase()}`);
export const unitLabel = (pieces: string, measured: string, unit: string | null) => (unit === null ? pieces : `${measured} (${unit})`);
export const soldColumn = (unit: string | null): [string, string] => [unitKey('units', unit), unitLabel('Units sold', 'Sold', unit)];
/**
 * What a product's stock on hand is worth at unit cost; stock whose cost is 0 (left blank) has no
 * value rather than a value of 0, as the stock value's total says (`withoutCostWords`).
 */
export const worthWords = (units: number, unitCost: number, money: Intl.NumberFormat) =>
  units > 0 && unitCost === 0 ? 'no unit cost, so no value: add its cost on the Data screen.' : `worth ${money.format(Math.max(0, units) * unitCost)} at unit cost.`;
/** Products between the seasons they sell in are left out of "no sales" and "dead stock" (as the dashboard's task leaves them out): the answer says how many. */
export const outOfSeasonWords = (count: number) =>
  count === 0 ? '' : ` ${number.format(count)} ${count === 1 ? 'product that sells in its season only is out of season and left out' : 'products that sell in their season only are out of season and left out'}.`;
/**
 * " 1 product not stocked (a service or fee) is not on the order list: no stock is kept of it." (ADR
 * 0200): what an answer of stock leaves out; `where`: "on the order list", "on this list", "in it".
 */
export const notStockedWords = (count: number, where: string) =>
  count ? ` ${number.format(count)} ${count === 1 ? 'product not stocked (a service or fee) is' : 'products not stocked (services or fees) are'} not ${where}: no stock is kept of ${count === 1 ? 'it' : 'them'}.` : '';
/** Stock whose cost is unknown (0: left blank) is not in a stock value: the answer says how much is left out, not that it is free. */
export const withoutCostWords = (count: number) =>
  count === 0 ? '' : ` ${number.format(count)} ${count === 1 ? 'product on hand has' : 'products on hand have'} no unit cost (0 or left blank), so ${count === 1 ? 'its stock is' : 'their stock is'} not in that value: add the cost on the Data screen.`;

/** How revenue is counted: no selling prices are kept, so sales are valued at unit cost, as the report writer's "revenue" (ADR 0148). */
export const AT_UNIT_COST = 'at unit cost (no selling prices are kept, so revenue is counted at unit cost)';
export const capitalised = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/** The products bought from one supplier, any of its spellings (null: those without one), as a stock-out answer narrows to them. */
export const supplierScope = async (db: Db, supplier: string | null): Promise<Scope> => ({
  category: null,
  productIds: await repo.productIdsOfSupplier(db, (await readSupplierNames(db)).holds(supplier)),
  words: supplier === null ? ' among the products without a supplier' : ` among the products from ${supplier}`,
});

/** How many products an answer links to their forecasts. */
export const LINKED_PRODUCTS = 5;

/**
 * A product's stock as the Forecasting screen says it (QA F4): what is on hand now — its count less the
 * sales since, by its stored forecast — with the count beside it when they differ or the count is
 * older than the last day of history; "not counted yet" for a product without a count row, whatever
 * figure it has stored (a 0, or a legacy row's stock typed before counts were kept: ADR 0030,
 * amendment 2026-12-04). `units`: the figure the worth is of; null when there is none.
 */
function stockWords(stock: Awaited<ReturnType<typeof stockOnHand>>, unit: string | null): { words: string; units: number | null; estimate: boolean } {
  const { onHand, lastCount, forecastStart } = stock;
  if (onHand && onHand.units !== onHand.countedUnits) {
    const counted = `counted ${amountOf(onHand.countedUnits, unit, '')} on ${formatDay(onHand.countedOn)}`;
    if (onHand.units <= 0) return { words: `is out of stock now (${counted}, sold since)`, units: 0, estimate: true };
    return { words: `has about ${amountOf(onHand.units, unit)} on hand now (${counted})`, units: onHand.units, estimate: true };
  }
  const count = onHand ? { units: onHand.countedUnits, date: onHand.countedOn } : lastCount;
  if (!count) return { words: 'has not been counted yet: add a stock count on the Data screen or import one.', units: null, estimate: false };
  const old = forecastStart === null || count.date < forecastStart;
  return { words: `has ${amountOf(count.units, unit)} on hand${old ? ` (counted on ${formatDay(count.date)})` : ''}`, units: count.units, estimate: false };
}

/** Each product's stock, the first `listed` of them line by line, and "Together" of them all. */
export async function stockOf(db: Db, products: repo.ProductRow[], listed = products.length): Promise<Answer> {
  const [stocks, money] = await Promise.all([Promise.all(products.map(async (p) => ({ product: p, ...stockWords(await stockOnHand(db, p.id), p.unit) }))), shopMoney(db)]);
  const lines = stocks.slice(0, listed).map(({ product: p, words, units }) => `${p.name} (${p.product_code}) ${words}${units === null ? '' : `, ${worthWords(units, p.unit_cost, money)}`}`);
  if (products.length > 1) {
    const counted = stocks.filter((s) => s.units !== null);
    const onHand = quantitiesByUnit(counted.map((s) => ({ unit: s.product.unit, quantity: Math.max(0, s.units ?? 0) })));
    const worth = round2(counted.reduce((sum, s) => sum + Math.max(0, s.units ?? 0) * s.product.unit_cost, 0));
    const withoutCost = counted.filter((s) => (s.units ?? 0) > 0 && s.product.unit_cost === 0).length;
    const leftOut = withoutCost ? `; ${number.format(withoutCost)} of them ${withoutCost === 1 ? 'has no unit cost, so its stock is' : 'have no unit cost, so their stock is'} not in that value` : '';
    lines.push(`Together: ${stocks.some((s) => s.estimate) ? 'about ' : ''}${amountsOf(onHand)} on hand, worth ${money.format(worth)}${leftOut}.`);
  }
  return { blocks: [text(lines.join('\n')), ...products.slice(0, LINKED_PRODUCTS).map((p) => forecastLink(p.product_code, p.name))] };
}
