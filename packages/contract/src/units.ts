// A product's unit (ADR 0177): what its quantities count, as the shop wrote it on the products table
// ("kg", "m", "box"); none is pieces. The server sends it trimmed with every figure of one product,
// the screens and the assistant write it after the figure, and a unit of measure makes the forecast
// forecast the product in fractions, as decimal sales already do (ADR 0176), and order it to a step a
// buyer orders in: a tenth of a kg, a whole gram (ADR 0203 F3).

/** The products table's column, and its length: a unit is a short word, not a description. */
export const PRODUCT_UNIT_MAX_LENGTH = 12;

/**
 * Units of weight, length and volume: a product counted in one of these is sold by measure (orders
 * to 3 places) before any decimal sale shows it. Compared ignoring case ("KG", "Kg"). The one list:
 * pieces, boxes, packs and anything else keep what the sales say.
 */
export const MEASURE_UNITS: readonly string[] = ['kg', 'g', 'mg', 't', 'lb', 'lbs', 'oz', 'l', 'ml', 'cl', 'dl', 'm', 'cm', 'mm', 'in', 'ft', 'yd'];

/**
 * Words for pieces, as a till writes them after a count ("3 Stk.") and as a shop's products file or
 * its ERP names its unit ("Stk", "pcs", "each"; Odoo's "Units", "Unité(s)", "Unidades"): a product
 * counted in one of these is counted in pieces, as one with no unit is, and an import stores none for
 * it (ADR 0198 F15). Compared ignoring case and a final dot. `pcs` (the second) is the one the app suggests.
 */
export const PIECES_WORDS: readonly string[] = [
  'pc', 'pcs', 'piece', 'pieces', 'stk', 'stück', 'st', 'stck', 'stuk', 'stuks', 'ea', 'each', 'pce', 'pces', 'pz', 'unit', 'units', 'unit(s)',
  'pièce', 'pièces', 'pièce(s)', 'unité', 'unités', 'unité(s)', 'unidad', 'unidades', 'unidad(es)', 'pieza', 'piezas', 'pezzo', 'pezzi', 'unità',
];

export const isPiecesWord = (word: string) => PIECES_WORDS.includes(word.trim().toLowerCase().replace(/\.$/, ''));

/** The unit as stored, trimmed; blank or none: null (pieces). */
export const productUnit = (stored: string | null | undefined): string | null => {
  const unit = stored?.trim() ?? '';
  return unit === '' ? null : unit;
};

/** Whether a product counted in `unit` is sold by weight, length or volume. */
export const isMeasureUnit = (unit: string | null | undefined): boolean => {
  const trimmed = productUnit(unit);
  return trimmed !== null && MEASURE_UNITS.includes(trimmed.toLowerCase());
};

/**
 * The large units of weight, volume and length: a buyer orders them to a tenth (a Comté's 63.9 kg, not
 * 63.817); every other unit of measure (g, ml, cl, oz, cm…) in whole units (ADR 0203 F3).
 */
const ORDERED_IN_TENTHS: readonly string[] = ['kg', 't', 'lb', 'lbs', 'l', 'm', 'yd', 'ft'];

/**
 * The step an order of a product counted in `unit` is rounded up to where the supplier has no case
 * size: 0.1 of a kg, l, lb or m, 1 of a g or ml; null for pieces and other counted units, which the
 * sales decide (whole units, or thousandths where sold in fractions).
 */
export const orderStep = (unit: string | null | undefined): number | null => {
  if (!isMeasureUnit(unit)) return null;
  return ORDERED_IN_TENTHS.includes(productUnit(unit)!.toLowerCase()) ? 0.1 : 1;
};

/** A total of the quantities counted in one unit (null: pieces). */
export type UnitQuantity = { unit: string | null; quantity: number };

/**
 * Items of several products grouped by unit (ADR 0177, amendment 2026-12-06): pieces first, then the
 * units in alphabetical order. Units are the same ignoring case and spaces around ("kg", " KG"),
 * written as the first item listed wrote it; a word for pieces ("Stk", "pcs") is pieces, so a shop
 * whose file says "Stk" for some products and nothing for others reads one total of units. What
 * every total, chart and table per unit is made of.
 */
export function groupByUnit<T>(items: Iterable<T>, unitOf: (item: T) => string | null | undefined): { unit: string | null; items: T[] }[] {
  const groups = new Map<string, { unit: string | null; items: T[] }>();
  for (const item of items) {
    const written = productUnit(unitOf(item));
    const unit = written !== null && isPiecesWord(written) ? null : written;
    const key = unit?.toLowerCase() ?? '';
    const group = groups.get(key);
    if (group) group.items.push(item);
    else groups.set(key, { unit, items: [item] });
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}

/** A total to a thousandth, the places quantities have. */
export const roundQuantity = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * A total of quantities of several products, one per unit (groupByUnit): a sum of kilos and pieces
 * means nothing, so "12 units, 3.5 kg". A unit whose quantities add to 0 is left out. Each total to a
 * thousandth.
 */
export function quantitiesByUnit(items: Iterable<{ unit: string | null | undefined; quantity: number }>): UnitQuantity[] {
  return groupByUnit(items, (item) => item.unit)
    .map((group) => ({ unit: group.unit, quantity: roundQuantity(group.items.reduce((sum, item) => sum + item.quantity, 0)) }))
    .filter((total) => total.quantity !== 0);
}
