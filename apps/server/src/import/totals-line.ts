/**
 * The words a till or spreadsheet writes on its totals line, in the first column (`Summe;;25`),
 * maybe with a colon: a regular expression read alike by JavaScript (flag i) and PostgreSQL (`~*`).
 */
export const TOTALS_LINE_PATTERN = '^(total|totals|grand total|subtotal|sum|summe|gesamt|gesamtsumme|zwischensumme|endsumme|totaal)\\s*:?$';
const totalsWord = new RegExp(TOTALS_LINE_PATTERN, 'i');
/** Whether a cell reads as a totals line's word rather than a product's code. */
export const isTotalsWord = (cell: string) => totalsWord.test(cell.trim());
