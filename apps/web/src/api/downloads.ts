// Files the server sends for saving (table exports, report workbooks), fetched as bytes.

/**
 * An answer's body: the file's bytes, or — when the server refused and said why in JSON — that
 * JSON, so the error normaliser reads the refusal as it reads any other.
 */
export function fileOrRefusal(data: ArrayBuffer, headers: { [name: string]: unknown }): unknown {
  return String(headers['content-type']).startsWith('application/json') ? JSON.parse(new TextDecoder().decode(data)) : data;
}
