// The words a plain question is read by that both the intent engine (answers.ts) and the everyday
// answers (everyday-answers.ts) match: a ranking by sales, what runs out, low stock, the reorder
// report, deliveries, value, sales, the words that only frame a question, and "without a supplier".
// English first; German and Dutch shop words beside them (orGerman).
import { DUTCH_SOLD, GERMAN_SOLD, orGerman } from '../plain-words/measure.ts';
import { NUM } from '../plain-words/period.ts';

/** A ranking of products by units sold: "top sellers", "top 5", "what sold best", "bestsellers", "best-selling", "most sold", "which products sell most", "meistverkauft", "meest verkocht". */
export const TOP_SELLERS = orGerman(
  new RegExp(String.raw`\b(top|best|worst)[- ]?(${NUM} )?(sell|seller|product|produkt|artikel|moving)\w*|\b(top|bottom) ${NUM}\b|\b(sold|sells?|selling) (the )?(most|least|best|worst)\b|\b(most|least) sold\b|\bbest sellers?\b|\bmost popular\b`),
  `meistverkaufte?[mnrs]?|(?:am )?(?:meisten|wenigsten|besten) (?:verkauft|verkaufte[mnrs]?)|renner|ladenhüter`,
  '(?:het )?(?:meest|minst|best|slechtst) verkochte?|bestverkochte?',
);

/**
 * "Runs out"; in Dutch "raakt op", "is op" — "op" closing the question, as German's "aus", for the
 * words between may name the product ("wanneer is KS-00004 op?", "wanneer raakt de koffie op?").
 */
export const RUNS_OUT = orGerman(
  /\brun(s|ning)? out\b|\bstock ?outs?\b|\bsell out\b/,
  'ausverkauft|leer|auslaufen|ausgehen|aus(?= *[?.!]* *$)',
  'uitverkocht|opraken|opgeraakt|ra(?:akt|ken)\\s+op|op(?= *[?.!]* *$)',
);

/**
 * Low stock, as the "Show low stock" button: also a clerk's "what's low", "what is low", "anything
 * low?", "low on what", "what are we low on" (QA6 #12) — "low" asked for as such, never inside
 * "slow sellers" or "lowest price".
 */
export const LOW_STOCK = /\blow stock\b|\bbelow 100\b|\brunning low\b|\bneeds? (an )?order(ing)?\b|\bwhat(?:'s|s| is| are)(?: we| you)?(?: getting| running)? low\b|\b(?:is |are )?anything (?:getting |running )?low\b|\blow on (?:what|anything)\b/;

export const REORDER = orGerman(
  /\breorder\w*|\brecommended orders?\b|\bwhat (should|do|must) (i|we) (?:(?:need|have) to )?(re)?order\b|\border(s)? (are )?due\b|\b(?:(?:must|should|needs? to|ha(?:s|ve) to) )?be ordered\b/,
  '(?:nach)?bestellen|(?:nach)?bestellt|bestellung(?:en)?|nachbestellung(?:en)?',
  '(?:na)?bestellen|(?:na)?besteld|bestelling(?:en)?|nabestelling(?:en)?|bestel',
);

/**
 * Deliveries; "due in", "on order", "coming in" are what the orders placed bring ("what's due in this
 * week"), as German's "was kommt … an" and Dutch's "wat komt er … binnen" (the particle closes the question).
 */
export const DELIVERIES = orGerman(
  /\bdeliver\w*|\bdue in\b|\bon order\b|\bcoming in\b/,
  'lieferung(?:en)?|geliefert|(?:kommt|kommen)(?=.* an *[?.!]* *$)',
  'levering(?:en)?|leveren|geleverd|(?:komt|komen)(?=.* binnen *[?.!]* *$)',
);

export const VALUE = orGerman(/\b(value|worth)\b/, 'wert', 'waarde|waard');

// "How much did we shift" is how a British shop says sold (QA8 F13).
export const SALES = orGerman(/\b(sales|sold|sell|sells|selling|demand|shift|shifted)\b/, GERMAN_SOLD, DUTCH_SOLD);

// Words that only frame a question the branch answers (used, so they are not reported as ignored).
export const FRAMING = orGerman(
  /\b(first|soonest|earliest|next|when|units?|how many|how much|left|in stock|levels?|coming|upcoming|expected|scheduled|late|arriving|incoming|recommended|advised|orders?|products?|sellers?|most)\b/,
  'wann|stück|einheiten|auf lager|noch da|insgesamt|gesamt|top|seller|bestseller|am meisten',
  'wanneer|stuks|eenheden|op voorraad|in voorraad|totaal|bestsellers?|meest',
);

/**
 * The products without a supplier: "without a supplier", "no supplier", "ohne Lieferant", "keinen
 * Lieferanten", "zonder leverancier", "geen leverancier". Asked alone, a list of them; with an order
 * or stock-out question, that answer narrowed to them (ADR 0184, amendment 2026-12-06 (2)).
 */
export const WITHOUT_SUPPLIER = /\b(?:without|with no|no|lacking|missing)(?: an?y?)? (?:suppliers?|vendors?)\b|\b(?:suppliers?|vendors?) (?:is |are )?missing\b|\bohne(?: einen| den)? lieferant(?:en)?\b|\bkeinen? lieferant(?:en)?\b|\bzonder(?: een| de)? leveranciers?\b|\bgeen leveranciers?\b/;
