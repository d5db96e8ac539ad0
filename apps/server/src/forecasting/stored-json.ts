// The members of a stored forecast's JSON text, found without parsing it (docs/adr/0083): a forecast
// read splices the engine's text of its daily rows into the answer as it is stored.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** Index of the quote that closes the string opened at `open`. */
function stringEnd(json: string, open: number): number {
  let at = open + 1;
  for (;;) {
    const close = json.indexOf('"', at);
    if (close < 0) throw new Error('stored JSON: unterminated string');
    let backslashes = 0;
    while (json.charCodeAt(close - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return close;
    at = close + 1;
  }
}

/**
 * The text of each member of a JSON object, by key: valid JSON as written by JSON.stringify or by
 * PostgreSQL (spaces after `:` and `,`). One pass that follows strings and nesting only; no value
 * is parsed, so each member's text is exactly as stored.
 */
export function jsonObjectMembers(json: string): Map<string, string> {
  const members = new Map<string, string>();
  let depth = 0;
  let key: string | undefined;
  let valueStart = -1;
  const endMember = (end: number) => {
    if (key !== undefined && valueStart >= 0) members.set(key, json.slice(valueStart, end).trim());
    key = undefined;
    valueStart = -1;
  };
  for (let at = 0; at < json.length; at++) {
    switch (json.charCodeAt(at)) {
      case QUOTE: {
        const close = stringEnd(json, at);
        if (depth === 1 && valueStart < 0) key = JSON.parse(json.slice(at, close + 1)) as string;
        at = close;
        break;
      }
      case COLON:
        if (depth === 1 && valueStart < 0) valueStart = at + 1;
        break;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        depth++;
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        depth--;
        if (depth === 0) endMember(at);
        break;
      case COMMA:
        if (depth === 1) endMember(at);
        break;
    }
  }
  if (depth !== 0) throw new Error('stored JSON: unbalanced brackets');
  return members;
}
