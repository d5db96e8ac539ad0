// Quantities of products without a unit that an import read in the unit their cells wrote (ADR
// 0178): counted for the import's message. Reading the cells themselves is the contract's
// quantity-units.ts, shared with the Data screen.
/** How many quantities were read in the unit their cells wrote, and which units. */
export type UnitsAsWrittenCount = { cells: number; units: readonly string[] };

/** Quantities of products without a unit, read in the measure unit their cells wrote: how many, and the units (as first written). */
export class UnitsAsWritten implements UnitsAsWrittenCount {
  cells = 0;
  readonly units: string[] = [];
  note(unit: string) {
    this.cells += 1;
    if (!this.units.some((seen) => seen.toLowerCase() === unit.toLowerCase())) this.units.push(unit);
  }
}

/**
 * The measure unit first written for each product without a unit, over one file or all batches of
 * one integration run: the product's later cells are read in it, so `0.125 kg` then `250 g` are
 * 0.125 and 0.25, not 0.125 and 250. Kept with the line that wrote it, as a refusal names it
 * ("row 3", "page 1, record 3").
 */
export class UnitsFirstWritten {
  readonly #first = new Map<string, { unit: string; line: string }>();
  /** The unit first written for the product of `code` (in lower case), and where; undefined before any. */
  of(code: string) {
    return this.#first.get(code);
  }
  note(code: string, unit: string, line: string) {
    if (!this.#first.has(code)) this.#first.set(code, { unit, line });
  }
}

/** Two writes' quantities read as written as one (a scheduled run's batches): the cells added, each unit once. */
export function addUnitsAsWritten(run: UnitsAsWrittenCount | undefined, batch: UnitsAsWrittenCount | undefined): UnitsAsWrittenCount | undefined {
  if (!run?.cells) return batch?.cells ? { cells: batch.cells, units: [...batch.units] } : run;
  if (!batch?.cells) return run;
  const units = [...run.units];
  for (const unit of batch.units) if (!units.some((seen) => seen.toLowerCase() === unit.toLowerCase())) units.push(unit);
  return { cells: run.cells + batch.cells, units };
}

/**
 * "2 quantities of products without a unit were read in the unit their cells wrote (kg): …" as an
 * import's message says it once done (`past`), and the preview before it (`future`: "will be read");
 * none: empty.
 */
export function unitsAsWrittenSentence(noted: UnitsAsWrittenCount | undefined, tense: 'past' | 'future'): string {
  if (!noted?.cells) return '';
  const one = noted.cells === 1;
  const read = tense === 'past' ? (one ? 'was read' : 'were read') : 'will be read';
  return `${noted.cells} ${one ? 'quantity of a product' : 'quantities of products'} without a unit ${read} in the unit ${one ? 'its cell' : 'their cells'} wrote (${noted.units.join(', ')}): set the products' Unit on the Data screen so that files in other units are converted.`;
}

/** " 2 quantities of products without a unit were read in the unit their cells wrote (kg): …" as an import's message says it; none: empty. */
export const unitsAsWrittenMessage = (noted: UnitsAsWrittenCount | undefined): string => {
  const sentence = unitsAsWrittenSentence(noted, 'past');
  return sentence && ` ${sentence}`;
};
