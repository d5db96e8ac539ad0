// Money columns as tills and shops export them: `£24.00`, `24.00 £`, `€ 2,00`, `$3`, `GBP 24.00`.
// Excel reads such a cell as a number, so an import does too: one currency sign (and the space by
// it) is taken off a decimal column's cell before the number is read (ADR 0145's amendment of
// 2026-12-04). A column whose cells name two currencies is refused: their figures cannot be added
// up or compared, and which one the shop meant cannot be told.

const currencyOf: Record<string, string> = { '£': 'GBP', gbp: 'GBP', '€': 'EUR', eur: 'EUR', $: 'USD', usd: 'USD' };
const leadingSign = /^([+-]?)\s*([£€$]|gbp|eur|usd)\s*(?=[+-]?[\d.,])/i;
const trailingSign = /(?<=[\d.,])\s*([£€$]|gbp|eur|usd)$/i;

/** A cell's number without its currency sign, and the sign as written; null when it has none. */
export function withoutCurrencySign(text: string): { number: string; sign: string } | null {
  const trimmed = text.trim();
  const leading = leadingSign.exec(trimmed);
  if (leading) return { number: `${leading[1]}${trimmed.slice(leading[0].length)}`, sign: leading[2] as string };
  const trailing = trailingSign.exec(trimmed);
  if (trailing) return { number: trimmed.slice(0, trailing.index), sign: trailing[1] as string };
  return null;
}

const mayHaveSign = (text: string) => {
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  // Most cells are plain figures: a digit at both ends has no sign to take off.
  return !(first >= 48 && first <= 57 && last >= 48 && last <= 57);
};

/**
 * The currency signs of one file's (or one integration run's) decimal columns: the first sign
 * seen in each column, so a later cell of another currency is refused naming both.
 */
export class CurrencySigns {
  #first = new Map<string, { sign: string; currency: string }>();

  /** The cell's text to read as a number (its sign taken off), or the reason it is refused. */
  read(column: string, text: string): { number: string } | { refusal: string } {
    if (!mayHaveSign(text)) return { number: text };
    const signed = withoutCurrencySign(text);
    if (!signed) return { number: text };
    const currency = currencyOf[signed.sign.toLowerCase()] as string;
    const first = this.#first.get(column);
    if (!first) this.#first.set(column, { sign: signed.sign, currency });
    else if (first.currency !== currency) {
      return { refusal: `Expected a number, not ${text.trim()}: it has a currency sign, ${signed.sign} where the column's earlier figures have ${first.sign}: save the column as plain numbers, without the sign.` };
    }
    return { number: signed.number };
  }
}
