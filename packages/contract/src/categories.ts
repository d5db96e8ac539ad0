// A category an ERP stores as a path (Odoo's "All / Saleable / Office Furniture", Shopify's taxonomy
// "Home & Garden > Plants"): a shop calls it by its last part, and a screen that labels products by
// category shows it so — with as many parts as tell it apart from the other categories it is shown
// beside (ADR 0198, amendment "F14 fixed"). Stored data, filters, groups and downloads keep the path.

/** What separates a path's parts: a slash or a greater-than sign with spaces around it. */
const PATH_SEPARATOR = /(\s+[/>]\s+)/;

/** A category's parts: "All / Saleable / Paper" → All, Saleable, Paper; a name without a separator is its one part. */
export function categoryPathParts(category: string): string[] {
  return category
    .trim()
    .split(PATH_SEPARATOR)
    .filter((_, index) => index % 2 === 0);
}

/** The last `count` parts of a path, with the separators it was written with. */
function lastParts(category: string, count: number): string {
  const pieces = category.trim().split(PATH_SEPARATOR);
  return pieces.slice(Math.max(0, pieces.length - (2 * count - 1))).join('');
}

const partsKey = (parts: readonly string[], count: number) =>
  parts
    .slice(-count)
    .map((part) => part.toLowerCase())
    .join('\u0000');

/**
 * The label of each category shown together: a path by its last part, or by its last two (three…)
 * parts where another category shown beside it ends the same way ("All / Office / Chairs" and "All /
 * Garden / Chairs" → "Office / Chairs" and "Garden / Chairs"; beside a plain "Chairs", "All / Chairs"
 * keeps its whole path). A name without a separator is shown as written; blanks and nulls get no label.
 */
export function shortCategoryNames(categories: readonly (string | null | undefined)[]): Map<string, string> {
  const named = [...new Set(categories.filter((category): category is string => typeof category === 'string' && category.trim() !== ''))];
  const partsOf = new Map(named.map((category) => [category, categoryPathParts(category)]));
  const deepest = Math.max(0, ...[...partsOf.values()].map((parts) => parts.length));
  // How many categories end in each run of `count` parts (a shorter category counted whole).
  const endings = Array.from({ length: deepest + 1 }, (_, count) => {
    const counts = new Map<string, number>();
    for (const parts of partsOf.values()) counts.set(partsKey(parts, count), (counts.get(partsKey(parts, count)) ?? 0) + 1);
    return counts;
  });
  const labels = new Map<string, string>();
  for (const [category, parts] of partsOf) {
    let count = 1;
    while (count < parts.length && (endings[count]?.get(partsKey(parts, count)) ?? 0) > 1) count += 1;
    labels.set(category, count < parts.length ? lastParts(category, count) : category);
  }
  return labels;
}
