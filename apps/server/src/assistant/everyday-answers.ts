// The everyday inventory questions a buyer asks first (ADR 0189): what is out of stock now, the slow
// movers, sales and stock by category, an average per day or week. Read from a plain question by
// `everydayAnswer` (the intent engine asks it before its sales and stock rules) and answered by
// `everydayAnswers`, which the model's tools call too; blocks as every other answer's (answers.ts).
import type { Kysely } from 'kysely';
import { groupByUnit, roundQuantity, shortCategoryNames, type AssistantBlock, type UnitQuantity } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { addDays, formatDay, formatRange, NO_SALES_PERIOD, readComparison, TOP_SELLERS_PERIOD, type Period } from '../plain-words/period.ts';
import { readRank, type NamedSupplier, type Rank } from '../plain-words/catalogue.ts';
import { asksOutOfStockNow, BY_CATEGORY, CATEGORY_WORD, OUT_OF_STOCK, readAverage, readSlowMoversCount, SLOW_MOVERS, WHEN_BACK, type AveragePer } from '../plain-words/inventory-words.ts';
import { SALES_VALUE_WORDS, STOCK_VALUE_WORDS, STOCK_WORDS } from '../plain-words/measure.ts';
import type { Reading } from '../plain-words/reading.ts';
import * as repo from './repo.ts';
import { readSupplierNames } from '../suppliers/service.ts';
import { amountOf, amountsListed, AT_UNIT_COST, capitalised, CATEGORY_COLUMN, dataEndsBefore, dataLink, daysIn, EVERY_PRODUCT, forecastLink, LAST_30_DAYS, notStockedWords, number, onHandCell, outOfSeasonWords, REPORT_ROWS, round2, shopMoney, soldColumn, stockOf, supplierScope, table, text, unitKey, unitLabel, withoutCostWords, wordsBesideCategories, type Answer, type NameWordScope, type SalesWindow, type Scope, type TableColumn } from './answer-parts.ts';
import { DELIVERIES, FRAMING, LOW_STOCK, REORDER, RUNS_OUT, SALES, TOP_SELLERS, VALUE, WITHOUT_SUPPLIER } from './question-words.ts';

type Db = Kysely<Database>;

/** How many slow movers an answer lists of each unit when the question says no number, and the most it lists. */
export const SLOW_MOVERS_LIMIT = { min: 1, max: 50, fallback: 10 };
/** A category's row for the products without one. */
export const NO_CATEGORY = '(no category)';

const plural = (count: number, one: string, many: string) => `${number.format(count)} ${count === 1 ? one : many}`;

/**
 * The products a scoped answer counts, said before its count ("In the Kitchen category, 2 are …",
 * "Of products whose name holds "Mug" (…), none is …"), or for every product ("2 products are …",
 * `none` when there are none).
 */
function counted(scope: Scope, count: number, none: string): string {
  if (scope.words) return `${capitalised(scope.words.trim())}, ${count ? number.format(count) : 'none'} ${count > 1 ? 'are' : 'is'}`;
  return count ? plural(count, 'product is', 'products are') : none;
}

/**
 * Quantities of several rows a category each, one total per unit (ADR 0177, amendment 2026-12-06):
 * `units` the units with any quantity, pieces first; per category (null: none, last) its quantity of
 * each of them, its products and value.
 */
function perCategory(rows: readonly repo.CategoryUnitRow[]) {
  const groups = groupByUnit(rows, (row) => row.unit)
    .map((group) => ({ unit: group.unit, items: group.items, quantity: roundQuantity(group.items.reduce((sum, row) => sum + row.units, 0)) }))
    .filter((group) => group.quantity !== 0);
  const names = [...new Set(rows.map((row) => row.category))];
  const labels = shortCategoryNames(names);
  const categories = names.map((category) => {
    const own = rows.filter((row) => row.category === category);
    return {
      category,
      /** How a sentence names it: a path by its short name, as the table shows it. */
      label: category === null ? null : (labels.get(category) ?? category),
      products: own.reduce((sum, row) => sum + row.products, 0),
      value: round2(own.reduce((sum, row) => sum + row.value, 0)),
      quantities: groups.map((group) => roundQuantity(group.items.filter((row) => row.category === category).reduce((sum, row) => sum + row.units, 0))),
    };
  });
  const units: UnitQuantity[] = groups.map((group) => ({ unit: group.unit, quantity: group.quantity }));
  return { units, categories };
}
type CategoryFigures = ReturnType<typeof perCategory>['categories'][number];

/**
 * Categories ranked by value at unit cost, or — when every quantity is of one unit and value was not
 * asked for — by that quantity (kilos and pieces do not add up); best first unless `direction` is
 * asc, the products without a category last whatever their figures.
 */
function rankedCategories(figures: ReturnType<typeof perCategory>, direction: Rank['direction'], byValue: boolean) {
  const measuredByValue = byValue || figures.units.length > 1;
  const measure = (row: CategoryFigures) => (measuredByValue ? row.value : (row.quantities[0] ?? 0));
  const named = figures.categories.filter((row) => row.category !== null).sort((a, b) => (direction === 'asc' ? measure(a) - measure(b) : measure(b) - measure(a)) || (a.category as string).localeCompare(b.category as string));
  return { measuredByValue, named, none: figures.categories.find((row) => row.category === null) ?? null };
}

/** A category table's columns of quantities, one per unit: pieces keep `key` and `pieces`, a unit's `key_kg` and "`measured` (kg)". */
const quantityColumns = (units: readonly UnitQuantity[], key: string, pieces: string, measured: string): [string, string][] => units.map((total) => [unitKey(key, total.unit), unitLabel(pieces, measured, total.unit)]);
const quantityCells = (units: readonly UnitQuantity[], key: string, quantities: readonly number[]) => Object.fromEntries(units.map((total, i) => [unitKey(key, total.unit), quantities[i] ?? 0]));
/** A category's quantities in words: "1,234 units and 12.5 kg"; none: "0 units". */
const quantitiesOf = (units: readonly UnitQuantity[], quantities: readonly number[]) => amountsListed(units.map((total, i) => ({ unit: total.unit, quantity: quantities[i] ?? 0 })).filter((total) => total.quantity !== 0));

const NO_CATEGORIES = "No product has a category yet: set each product's Category on the Data screen, or import it with the products.";
const withoutCategory = (none: CategoryFigures | null) => (none ? ` ${plural(none.products, 'product has', 'products have')} no category (the "${NO_CATEGORY}" row).` : '');

/** Average figures as a buyer reads them: whole from 10 up ("81 units a day"), two significant digits below ("5.4", "0.33"). */
const averageFigure = (value: number) => (Math.abs(value) >= 10 ? Math.round(value) : Number(value.toPrecision(2)));

/**
 * The days an average counts (ADR 0189): every calendar day of the period — a shop's closed days too,
 * as stock runs out over them — from the product's first sale when that falls inside it; a period
 * running to today ends yesterday while today has no sales yet (today's are still to come in).
 */
function averagedDays(window: SalesWindow, today: string, lastSale: string | null, firstSale: string | null = null) {
  const from = firstSale !== null && firstSale > window.from ? firstSale : window.from;
  const to = window.to >= today && lastSale !== today ? addDays(today, -1) : window.to;
  return { from, to, days: to >= from ? daysIn(from, to) : 0 };
}
/** "over 30 days", and the days when they are not the period's: "over 5 days (1–5 Dec 2026)". */
const overDays = (window: SalesWindow, span: { from: string; to: string; days: number }) =>
  `over ${plural(span.days, 'day', 'days')}${span.from === window.from && span.to === window.to ? '' : ` (${formatRange(span)})`}`;
const perWord = (per: AveragePer) => (per === 'day' ? 'a day' : 'a week');
const averageOver = (units: number, days: number, per: AveragePer) => averageFigure((units / days) * (per === 'day' ? 1 : 7));

export const everydayAnswers = {
  /**
   * "Which products are out of stock?": the products counted with nothing on hand now, by code, each
   * with its next scheduled delivery ("Expected back"), how many have none, and the products never
   * counted said apart (their stock is not known, not 0); products not stocked (a service or fee at
   * 0) are left out and counted (ADR 0200, amendment 2026-12-07).
   */
  async outOfStock(db: Db, today: string, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const [{ total, uncounted, withoutDelivery, notStocked, rows }, suppliers] = await Promise.all([repo.outOfStock(db, REPORT_ROWS, scope), readSupplierNames(db)]);
    const leftOut = `${uncounted ? ` ${plural(uncounted, 'product has', 'products have')} never been counted, so whether ${uncounted === 1 ? 'it is' : 'they are'} in stock is not known.` : ''}${notStockedWords(notStocked, 'on this list')}`;
    const link: AssistantBlock = { type: 'link', label: 'Open the Forecasting screen', href: '/app/forecasting' };
    if (!total) return { blocks: [text(`${counted(scope, 0, 'Nothing is')} out of stock: every product counted has stock on hand.${leftOut}`), link] };
    const deliveries = total === 1 ? (withoutDelivery ? 'it has no delivery scheduled' : 'a delivery is scheduled') : withoutDelivery === total ? 'none of them has a delivery scheduled' : withoutDelivery ? `${number.format(withoutDelivery)} of them ${withoutDelivery === 1 ? 'has' : 'have'} no delivery scheduled` : 'each has a delivery scheduled';
    const listed = total > rows.length ? ` The first ${number.format(rows.length)} by code are listed.` : '';
    const expected = (row: (typeof rows)[number]) => {
      if (row.expected_date === null) return 'No delivery scheduled';
      const when = `${formatDay(row.expected_date)} (${amountOf(row.quantity ?? 0, row.unit)})`;
      return row.expected_date < today ? `Late: expected ${when}` : when;
    };
    const listedRows = rows.map((row) => ({ styleCode: row.product_code, name: row.name, category: row.category, supplier: suppliers.nameOf(row.supplier), onHand: onHandCell(row.on_hand), expected: expected(row) }));
    const optional = (key: 'category' | 'supplier', column: TableColumn): TableColumn[] => (listedRows.some((row) => row[key] !== null) ? [column] : []);
    return {
      blocks: [
        text(`${counted(scope, total, '')} out of stock now (nothing on hand); ${deliveries}.${listed}${leftOut}`),
        table(
          [['styleCode', 'Product code'], ['name', 'Name'], ...optional('category', CATEGORY_COLUMN), ...optional('supplier', ['supplier', 'Supplier']), ['onHand', 'On hand now'], ['expected', 'Expected back']],
          listedRows,
          null,
          'out-of-stock.csv',
        ),
        link,
      ],
    };
  },

  /**
   * "Slow movers": the products in stock that sold least in the period (the dead stock's 90 days
   * unless one is said), none sold counted — each unit ranked on its own — with their stock on hand,
   * days of cover at the period's rate of sales and the value tied up; `direction` desc ranks the most
   * sold first (the model's tool). Out-of-season products are left out, as dead stock leaves them, and
   * products not stocked (ADR 0200), counted.
   */
  async slowMovers(db: Db, window: SalesWindow, rank: Rank, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const { inStock, outOfSeason, notStocked, rows } = await repo.inStockBySales(db, window.from, window.to, rank, scope);
    const leftOut = `${outOfSeasonWords(outOfSeason)}${notStockedWords(notStocked, 'on this list')}`;
    if (!rows.length) return { blocks: [text(`${counted(scope, 0, 'No product is')} in stock, so none is a slow mover.${leftOut}`)] };
    const days = daysIn(window.from, window.to);
    const cover = (row: (typeof rows)[number]) => (row.units > 0 ? Math.round(row.on_hand / (row.units / days)) : 'No sales');
    const unsold = rows.filter((row) => row.units <= 0).length;
    const nothingSold = !unsold ? '' : unsold < rows.length ? ` ${number.format(unsold)} of them sold nothing (dead stock).` : rows.length === 1 ? ' It sold nothing (dead stock).' : ' None of them sold anything (dead stock).';
    const slow = rank.direction === 'asc';
    const eachUnit = groupByUnit(rows, (row) => row.unit).length > 1 ? ', each unit ranked on its own' : '';
    const first = rows[0] as (typeof rows)[number];
    return {
      blocks: [
        text(
          `${slow ? 'Slow movers' : 'Fast movers'}${scope.words} ${window.words}: the ${plural(rows.length, 'product', 'products')} of the ${number.format(inStock)} in stock that sold ${slow ? 'least' : 'most'}${eachUnit}, ${slow ? 'least' : 'most'} first.${nothingSold} Days of cover: the stock on hand at the period's rate of sales.${leftOut}${await dataEndsBefore(db, window)}`,
        ),
        table(
          [['styleCode', 'Product code'], ['name', 'Name'], ['units', 'Sold'], ['unit', 'Unit'], ['onHand', 'On hand now'], ['cover', 'Days of cover'], ['value', 'Value', 'money']],
          rows.map((row) => ({ styleCode: row.product_code, name: row.name, units: row.units, unit: row.unit, onHand: row.on_hand, cover: cover(row), value: row.value })),
          null,
          slow ? 'slow-movers.csv' : 'fast-movers.csv',
        ),
        forecastLink(first.product_code, first.name),
      ],
    };
  },

  /** "Average daily sales of Radiator Large": each product's units a day (a week) over the period's days (`averagedDays`), with the units and days said. */
  async averageOf(db: Db, today: string, window: SalesWindow, per: AveragePer, products: repo.ProductRow[]): Promise<Answer> {
    const lastSale = await repo.lastSalesDay(db);
    const sold = await Promise.all(products.map(async (p) => ({ product: p, ...(await repo.unitsSold(db, p.id, window.from, window.to)) })));
    const averaged = sold.map((row) => {
      const span = averagedDays(window, today, lastSale, row.firstSale);
      return { ...row, span, average: span.days ? averageOver(row.units, span.days, per) : null };
    });
    const lines = averaged.map(({ product: p, units, firstSale, span, average }) => {
      if (average === null) return `${p.name} (${p.product_code}) has no day with sales to average over ${window.words}: its sales start on ${formatDay(firstSale as string)}.`;
      const since = firstSale !== null && firstSale > window.from ? `, from its first sale on ${formatDay(firstSale)}` : '';
      return `${p.name} (${p.product_code}) sold ${amountOf(average, p.unit)} ${perWord(per)} on average ${window.words}: ${amountOf(units, p.unit)} ${overDays(window, span)}${since}.${firstSale === null ? ' It has no sales recorded.' : ''}`;
    });
    const blocks: AssistantBlock[] = [text(`${lines.join('\n')}${await dataEndsBefore(db, window)}`)];
    if (products.length > 1) {
      blocks.push(
        table(
          [['styleCode', 'Product code'], ['name', 'Name'], ['units', 'Sold'], ['unit', 'Unit'], ['days', 'Days'], ['average', per === 'day' ? 'Per day' : 'Per week']],
          averaged.map(({ product: p, units, span, average }) => ({ styleCode: p.product_code, name: p.name, units, unit: p.unit, days: span.days, average })),
        ),
      );
    }
    return { blocks: [...blocks, ...products.slice(0, 5).map((p) => forecastLink(p.product_code, p.name))] };
  },

  /** "Average daily sales last month": what the products in scope sold a day (a week) over the period's days, one figure per unit. */
  async averageSales(db: Db, today: string, window: SalesWindow, per: AveragePer, scope: Scope = EVERY_PRODUCT): Promise<Answer> {
    const [{ byUnit }, lastSale] = await Promise.all([repo.totalUnitsSold(db, window.from, window.to, scope), repo.lastSalesDay(db)]);
    const span = averagedDays(window, today, lastSale);
    const link = dataLink('sales', 'Open the sales table');
    if (!span.days) return { blocks: [text(`No day ${window.words} has sales to average over yet.`), link] };
    const averages = byUnit.map((total) => ({ unit: total.unit, quantity: averageOver(total.quantity, span.days, per) }));
    return {
      blocks: [text(`On average ${amountsListed(averages)} ${averages.length === 1 && averages[0]?.quantity === 1 ? 'was' : 'were'} sold ${perWord(per)}${scope.words} ${window.words}: ${amountsListed(byUnit)} ${overDays(window, span)}.${await dataEndsBefore(db, window)}`), link],
    };
  },

  /**
   * "Sales by category", "what's our best selling category": each category's units sold (one column
   * per unit) and their value at unit cost, best first (worst with `direction` asc); the first
   * `limit` when one is said. Ranked by units, or by value when asked or when the units differ.
   */
  async salesByCategory(db: Db, window: SalesWindow, rank: { direction: Rank['direction']; limit: number | null }, scope: Scope = EVERY_PRODUCT, byValue = false): Promise<Answer> {
    const [rows, money] = await Promise.all([repo.salesPerCategory(db, window.from, window.to, scope), shopMoney(db)]);
    const figures = perCategory(rows);
    const link = dataLink('sales', 'Open the sales table');
    if (!figures.categories.some((row) => row.category !== null)) return { blocks: [text(NO_CATEGORIES), dataLink('products', 'Open the products table')] };
    if (!figures.units.length) return { blocks: [text(`Nothing sold${scope.words} ${window.words}.${await dataEndsBefore(db, window)}`), link] };
    const { measuredByValue, named, none } = rankedCategories(figures, rank.direction, byValue);
    const listed = rank.limit ? named.slice(0, rank.limit) : [...named, ...(none ? [none] : [])];
    const first = named[0] as CategoryFigures;
    const measure = measuredByValue ? `by sales value ${AT_UNIT_COST}${byValue ? '' : ', as their units do not add up'}` : 'by units sold';
    const totalValue = round2(figures.categories.reduce((sum, row) => sum + row.value, 0));
    return {
      blocks: [
        text(
          `Sales by category${wordsBesideCategories(scope)} ${window.words}, ranked ${measure}: ${first.label} sold the ${rank.direction === 'asc' ? 'least' : 'most'}, ${quantitiesOf(figures.units, first.quantities)}, worth ${money.format(first.value)} at unit cost. ${plural(named.length, 'category', 'categories')}${rank.limit && rank.limit < named.length ? `, the ${rank.direction === 'asc' ? 'bottom' : 'top'} ${number.format(rank.limit)} listed` : ''}.${withoutCategory(none)}`,
        ),
        table(
          [CATEGORY_COLUMN, ...figures.units.map((total) => soldColumn(total.unit)), ['value', 'Sales value (at unit cost)', 'money'], ['products', 'Products']],
          listed.map((row) => ({ category: row.category ?? NO_CATEGORY, ...quantityCells(figures.units, 'units', row.quantities), value: row.value, products: row.products })),
          rank.limit ? null : { category: 'Total', ...quantityCells(figures.units, 'units', figures.units.map((total) => total.quantity)), value: totalValue, products: figures.categories.reduce((sum, row) => sum + row.products, 0) },
          'sales-by-category.csv',
        ),
        link,
      ],
    };
  },

  /**
   * "Stock value by category", "stock by category": each category's units on hand now (one column per
   * unit) and their worth at unit cost, as the stock value counts them; the most first.
   */
  async stockByCategory(db: Db, scope: Scope = EVERY_PRODUCT, byValue = false): Promise<Answer> {
    const [rows, money] = await Promise.all([repo.stockPerCategory(db, scope), shopMoney(db)]);
    const figures = perCategory(rows);
    const link = dataLink('products', 'Open the products table');
    if (!figures.categories.some((row) => row.category !== null)) return { blocks: [text(NO_CATEGORIES), link] };
    const { measuredByValue, named, none } = rankedCategories(figures, 'desc', byValue);
    const first = named[0] as CategoryFigures;
    const totalValue = round2(figures.categories.reduce((sum, row) => sum + row.value, 0));
    const withoutCost = withoutCostWords(rows.reduce((sum, row) => sum + row.withoutCost, 0));
    return {
      blocks: [
        text(
          `Stock on hand by category${wordsBesideCategories(scope)}, ranked ${measuredByValue ? 'by value at unit cost' : 'by units on hand'}: ${money.format(totalValue)} at unit cost in all, ${amountsListed(figures.units)}. ${first.label} holds the most: ${quantitiesOf(figures.units, first.quantities)}, worth ${money.format(first.value)}. ${plural(named.length, 'category', 'categories')}.${withoutCategory(none)}${withoutCost}`,
        ),
        table(
          [CATEGORY_COLUMN, ['products', 'Products'], ...quantityColumns(figures.units, 'onHand', 'On hand', 'On hand'), ['value', 'Value (at unit cost)', 'money']],
          [...named, ...(none ? [none] : [])].map((row) => ({ category: row.category ?? NO_CATEGORY, products: row.products, ...quantityCells(figures.units, 'onHand', row.quantities), value: row.value })),
          { category: 'Total', products: figures.categories.reduce((sum, row) => sum + row.products, 0), ...quantityCells(figures.units, 'onHand', figures.units.map((total) => total.quantity)), value: totalValue },
          'stock-by-category.csv',
        ),
        link,
      ],
    };
  },
};

/** What the intent engine read of a plain question when it asks the everyday answers. */
export type EverydayQuestion = {
  db: Db;
  /** The question, a supplier's words blanked; `asked`: with them. */
  reading: Reading;
  asked: Reading;
  products: repo.ProductRow[];
  today: string;
  /** The products the question names by a category or a word of their names (answers.ts `scopeOf`). */
  scope: { use: () => Scope; nameWord: NameWordScope | null; group: NameWordScope | null };
  supplier: NamedSupplier | null;
  /** A sales answer for the question's past period, `fallback` when it names none; a period still to come is said so. */
  sales: (fallback: Period, answer: (window: SalesWindow) => Promise<Answer>) => Promise<Answer>;
};

/** Questions about what the forecast expects, orders and deliveries: they are answered by their own rules, whatever category they name. */
const asksAnotherList = (text: string) => [RUNS_OUT, LOW_STOCK, REORDER, DELIVERIES].some((pattern) => pattern.test(text));

/**
 * The everyday question the words ask and its answer; null when they ask none. Out of stock now
 * (named products: their stock), slow movers, an average per day or week, figures by category when
 * no category is named.
 */
export async function everydayAnswer(question: EverydayQuestion): Promise<Answer | null> {
  const { db, reading, products, today } = question;
  const q = reading.text;
  const claim = (...patterns: RegExp[]) => patterns.forEach((pattern) => reading.test(pattern));
  if (asksOutOfStockNow(q)) {
    claim(OUT_OF_STOCK, STOCK_WORDS, FRAMING, WHEN_BACK, /\b(?:currently|right now|at the moment|today)\b/);
    if (products.length) return stockOf(db, products);
    if (question.supplier) {
      question.asked.test(question.supplier.pattern);
      return everydayAnswers.outOfStock(db, today, await supplierScope(db, question.supplier.supplier));
    }
    if (reading.test(WITHOUT_SUPPLIER)) return everydayAnswers.outOfStock(db, today, await supplierScope(db, null));
    return everydayAnswers.outOfStock(db, today, question.scope.use());
  }
  if (SLOW_MOVERS.test(q)) {
    claim(SLOW_MOVERS, STOCK_WORDS, FRAMING);
    const limit = Math.min(SLOW_MOVERS_LIMIT.max, Math.max(SLOW_MOVERS_LIMIT.min, readSlowMoversCount(reading) ?? SLOW_MOVERS_LIMIT.fallback));
    return question.sales(NO_SALES_PERIOD, (window) => everydayAnswers.slowMovers(db, window, { direction: 'asc', limit }, question.scope.use()));
  }
  const comparing = readComparison(reading.trial(), today) !== null;
  const per = comparing ? null : readAverage(reading.trial());
  if (per && (SALES.test(q) || !STOCK_WORDS.test(q))) {
    readAverage(reading);
    claim(SALES, FRAMING);
    return question.sales(LAST_30_DAYS, (window) => (products.length ? everydayAnswers.averageOf(db, today, window, per, products) : everydayAnswers.averageSales(db, today, window, per, question.scope.use())));
  }
  const categoryNamed = question.scope.group !== null || question.scope.nameWord?.category != null;
  if (CATEGORY_WORD.test(q) && !products.length && !categoryNamed && !comparing && !asksAnotherList(q)) {
    claim(BY_CATEGORY, FRAMING);
    const rank = readRank(reading.trial(), 0);
    if (SALES.test(q) || SALES_VALUE_WORDS.test(q) || TOP_SELLERS.test(q) || rank) {
      readRank(reading, 0);
      claim(SALES, TOP_SELLERS);
      const byValue = reading.test(SALES_VALUE_WORDS);
      return question.sales(TOP_SELLERS_PERIOD, (window) => everydayAnswers.salesByCategory(db, window, { direction: rank?.direction ?? 'desc', limit: rank?.limit || null }, question.scope.use(), byValue));
    }
    const byValue = reading.test(STOCK_VALUE_WORDS) || reading.test(VALUE);
    claim(STOCK_WORDS);
    return everydayAnswers.stockByCategory(db, question.scope.use(), byValue);
  }
  return null;
}
