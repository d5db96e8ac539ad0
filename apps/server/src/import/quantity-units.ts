// Quantities of products without a unit that an import read in the unit their cells wrote (ADR
// 0178): counted for the import's message. Reading the cells themselves is the contract's
// quantity-units.ts, shared with the Data screen.
/** Quantities of products without a unit, read in the measure unit their cells wrote: how many, and the units (as first written). */
export class UnitsAsWritten {
  cells = 0;
  readonly units: string[] = [];
  note(unit: string) {
    this.cells += 1;
    if (!this.units.some((seen) => seen.toLowerCase() === unit.toLowerCase())) this.units.push(unit);
  }
}

/** " 2 quantities of products without a unit were read in the unit their cells wrote (kg): …" as an import's message says it; none: empty. */
export const unitsAsWrittenMessage = (noted: { cells: number; units: readonly string[] } | undefined): string =>
  noted?.cells
    ? ` ${noted.cells} ${noted.cells === 1 ? 'quantity of a product' : 'quantities of products'} without a unit ${noted.cells === 1 ? 'was' : 'were'} read in the unit ${noted.cells === 1 ? 'its cell' : 'their cells'} wrote (${noted.units.join(', ')}): set the products' Unit on the Data screen so that files in other units are converted.`
    : '';
