// Reversible mapping between a table's display name (any Unicode, spaces, '#') and the identifier of
// its PostgreSQL table. Lower-case ASCII letters, digits and '_' stay as they are, so 'products'
// encodes to 'products'; every other code point becomes '$' + hex + '$'. The result contains no
// quote, dot or space, so it is safe in URLs and (always quoted anyway) in SQL.
const PLAIN = /[a-z0-9_]/;
const MAX_IDENTIFIER_BYTES = 63;

export class TableNameEncodingError extends Error {}

export function encodeTableName(displayName: string): string {
  if (displayName.length === 0) throw new TableNameEncodingError('Table name is required.');
  let encoded = '';
  for (const char of displayName) {
    encoded += PLAIN.test(char) ? char : `$${(char.codePointAt(0) as number).toString(16)}$`;
  }
  if (encoded.length > MAX_IDENTIFIER_BYTES) {
    throw new TableNameEncodingError(`The name '${displayName}' is too long for a table: use fewer or simpler characters.`);
  }
  return encoded;
}

export function decodeTableName(encoded: string): string {
  if (encoded.length === 0 || encoded.length > MAX_IDENTIFIER_BYTES || !/^(?:[a-z0-9_]|\$[0-9a-f]{1,6}\$)+$/.test(encoded)) {
    throw new TableNameEncodingError(`'${encoded}' is not an encoded table name.`);
  }
  const decoded = encoded.replace(/\$([0-9a-f]{1,6})\$/g, (_match, hex: string) => {
    const codePoint = Number.parseInt(hex, 16);
    if (codePoint > 0x10ffff || PLAIN.test(String.fromCodePoint(codePoint))) throw new TableNameEncodingError(`'${encoded}' is not an encoded table name.`);
    return String.fromCodePoint(codePoint);
  });
  // Only the canonical form decodes: one display name, one identifier.
  if (encodeTableName(decoded) !== encoded) throw new TableNameEncodingError(`'${encoded}' is not an encoded table name.`);
  return decoded;
}

/** 'Sales #3' -> { baseName: 'Sales', copyNumber: 3 } (spec §3 Table name info). */
export function parseCopyName(displayName: string): { baseName: string; isCopy: boolean; copyNumber: number | null } {
  const match = /^(.*) #(\d+)$/.exec(displayName);
  return match ? { baseName: match[1] as string, isCopy: true, copyNumber: Number(match[2]) } : { baseName: displayName, isCopy: false, copyNumber: null };
}
