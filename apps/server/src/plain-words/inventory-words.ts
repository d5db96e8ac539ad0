// The words of the everyday inventory questions a buyer asks first (ADR 0189): what is out of stock,
// the slow movers, figures by category, an average per day or week, what arrives. Read by the
// assistant; in English and as a German or Dutch shop types them where that is cheap.
import { NUM, numberIn } from './period.ts';
import { orGerman } from './measure.ts';
import type { Reading } from './reading.ts';

/**
 * Nothing on hand: "out of stock", "out-of-stock items", "sold out", "no stock", "zero stock", "nothing
 * in stock", "not in stock"; "ausverkauft", "nicht (mehr) vorrätig / auf Lager", "vergriffen", "kein
 * Bestand"; "uitverkocht", "niet (meer) op voorraad", "geen voorraad". Now, unless words say later
 * (`TO_COME`): "which products will be out of stock next week" asks what runs out.
 */
export const OUT_OF_STOCK = orGerman(
  /\bout[- ]of[- ]stock\b|\bsold[- ]out\b|\b(?:no|zero) stock\b(?! counts?\b)|\bnothing (?:left )?(?:in stock|on hand)\b|\b(?:not|no longer) in stock\b/,
  'ausverkauft|vergriffen|nicht (?:mehr )?(?:vorrätig|auf lager)|kein(?:en)? (?:lager)?bestand',
  'uitverkocht|niet (?:meer )?op voorraad|geen voorraad',
);
/** "Run out of stock", "go out of stock", "stock-outs": what the forecast says runs out, never what is out now. */
const RUNS_OUT_WORDS = /\b(?:run|runs|running|ran|go|goes|going|gone) out\b|\bstock ?-?outs?\b|\bsell out\b/;
/** Words that put "out of stock" later: "will", "soon", "next", "wann", "bald", "wanneer", "binnenkort". */
const TO_COME = orGerman(/\b(?:will|won't|going to|gonna|soon|next|about to|within|shall|when)\b/, 'wann|bald|wird|werden|demnächst|nächste[mnrs]?', 'wanneer|binnenkort|zal|zullen|gaat|gaan|volgende|komende');

/** Words asking when what is out comes back: "when will they be back", "expected", "due in", "restocked", "wieder da", "weer binnen". */
export const BACK_IN = orGerman(/\b(?:back|(?:in stock )?again|expected|due|arriv\w*|deliver\w*|restock\w*|replenish\w*)\b/, 'wieder|erwartet|geliefert', 'weer|verwacht|geleverd');

/**
 * A question about what is out of stock now: its words, none that ask what runs out, and none that
 * look ahead — unless they ask when it is back ("what is out of stock and when will it be back?").
 */
export const asksOutOfStockNow = (text: string) => OUT_OF_STOCK.test(text) && !RUNS_OUT_WORDS.test(text) && (!TO_COME.test(text) || BACK_IN.test(text));
/** The words of "when will it be back", used by the out-of-stock answer, whose table says when. */
export const WHEN_BACK = orGerman(new RegExp(`${BACK_IN.source}|\\b(?:when|will|they|be|come|comes|coming)\\b`, 'u'), 'wann|kommt|kommen|sie', 'wanneer|komt|komen|ze|zij');

/**
 * Stock that moves slowly: "slow movers", "slow moving items", "slow-moving stock", "slow sellers",
 * "slowest selling products", "Langsamdreher", "winkeldochters" (ADR 0189).
 */
export const SLOW_MOVERS = orGerman(/\bslow(?:est)?[- ]?(?:mov(?:ing|ers?)|sell(?:ing|ers?))\b/, 'langsamdreher[n]?', 'winkeldochters?|langzame lopers|langzaam (?:lopende|verkopende)');

/** "20 slow movers", "top 20 slowest sellers", "the slowest 20": how many to list; null when no number is said. */
export function readSlowMoversCount(reading: Reading): number | null {
  const match = reading.exec(new RegExp(`\\b(?:(?:top|bottom|the) )?${NUM} (?=slow)|\\b(?:slowest|bottom|top) ${NUM}\\b`));
  return match ? numberIn(match[1] ?? match[2]) : null;
}

/** The word "category" (German "Kategorie", Dutch "categorie") in either number. */
export const CATEGORY_WORD = orGerman(/\bcategor(?:y|ies)\b/, 'kategorie|kategorien', 'categorie|categorieën|categorieen');
/** The words that ask for figures per category: "by category", "per category", "each category", "which category", "category breakdown". */
export const BY_CATEGORY = orGerman(
  /\b(?:by|per|for each|in each|each|every|across|which|what|breakdown by|split by|broken down by)(?: (?:the|our|all))? categor(?:y|ies)\b|\bcategor(?:y|ies)(?: breakdown)?\b/,
  '(?:nach|pro|je|welche|jede) kategorien?|kategorien?',
  '(?:per|welke|elke) categorie|categorie|categorieën|categorieen',
);

/**
 * An average per day or week (ADR 0189): "average daily sales", "daily average", "average sales per
 * day", "average per week", "weekly average", "how many a day on average"; "durchschnittlich pro Tag",
 * "Tagesdurchschnitt", "gemiddeld per dag". Null when none is asked.
 */
const AVERAGE_WORDS = orGerman(
  /\b(?:average|avg\.?|mean)(?: (?:sales|units sold|units|demand|sold|sale|number sold))? (?:(?:a|per|each) )?(day|daily|week|weekly)\b|\b(daily|weekly) (?:average|avg|mean)\b|\b(?:a|per|each) (day|week) on average\b|\bon average (?:a|per|each) (day|week)\b/,
  '(?:durchschnittlich(?:e[nrs]?)?|im schnitt|im durchschnitt) (?:pro|je) (tag|woche)|(tages|wochen)durchschnitt',
  'gemiddeld(?:e)? (?:per|elke|iedere) (dag|week)|(dag|week)gemiddelde',
);
export type AveragePer = 'day' | 'week';
export function readAverage(reading: Reading): AveragePer | null {
  const match = reading.exec(AVERAGE_WORDS);
  if (!match) return null;
  const said = match.slice(1).find(Boolean) ?? '';
  return /^(day|daily|tag|tages|dag)$/.test(said) ? 'day' : 'week';
}

/** What arrives: "what arrives tomorrow", "what's arriving this week", "arrivals on Friday" (the delivery question's other words). */
export const ARRIVALS = /\barriv(?:e|es|ing|als?)\b/;

/** The words above, which name no products: a question's scope never reads them as a word of product names. */
export const INVENTORY_QUESTION_WORDS = [OUT_OF_STOCK, SLOW_MOVERS, BY_CATEGORY, AVERAGE_WORDS, ARRIVALS];
