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

/** Two writes' quantities read as written as one (a scheduled run's batches): the cells added, each unit once. */
export function addUnitsAsWritten(run: UnitsAsWrittenCount | undefined, batch: UnitsAsWrittenCount | undefined): UnitsAsWrittenCount | undefined {
  if (!run?.cells) return batch?.cells ? { cells: batch.cells, units: [...batch.units] } : run;
  if (!batch?.cells) return run;
  const units = [...run.units];
  for (const unit of batch.units) if (!units.some((seen) => seen.toLowerCase() === unit.toLowerCase())) units.push(unit);
  return { cells: run.cells + batch.cells, units };
}

/** " 2 quantities of products without a unit were read in the unit their cells wrote (kg): …" as an import's message says it; none: empty. */
export const unitsAsWrittenMessage = (noted: UnitsAsWrittenCount | undefined): string =>
  noted?.cells
    ? ` ${noted.cells} ${noted.cells === 1 ? 'quantity of a product' : 'quantities of products'} without a unit ${noted.cells === 1 ? 'was' : 'were'} read in the unit ${noted.cells === 1 ? 'its cell' : 'their cells'} wrote (${noted.units.join(', ')}): set the products' Unit on the Data screen so that files in other units are converted.`
    : '';
