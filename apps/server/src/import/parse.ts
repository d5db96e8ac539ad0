// Streams the records of an uploaded file: CSV (header row, empty lines skipped, quoted fields with
// commas and newlines, BOM, CRLF) through csv-parse, JSON (an array of objects, or an object
// holding one) through stream-json. Nothing is read whole into memory.
import type { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import { parser as jsonParser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { chain } from 'stream-chain';

export type FileKind = 'csv' | 'json';
export type SourceRecord = { row: number; value: unknown };

export class FileFormatError extends Error {}

const MAX_JSON_DEPTH = 64;

// Upload errors (the size limit, a dropped connection) pass through as they are; parser errors become format errors.
function asFormatError(error: unknown, format: string): unknown {
  if (typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('FST_')) return error;
  return new FileFormatError(`The ${format} file cannot be read: ${error instanceof Error ? error.message : String(error)}`);
}

export function fileKindOf(fileName: string, mimeType: string): FileKind | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.csv') || mimeType === 'text/csv') return 'csv';
  if (lower.endsWith('.json') || mimeType === 'application/json') return 'json';
  return null;
}

async function* csvRecords(input: Readable): AsyncGenerator<SourceRecord> {
  const records = input.pipe(parseCsv({ columns: true, bom: true, skip_empty_lines: true }));
  let row = 0;
  try {
    for await (const record of records as AsyncIterable<Record<string, string>>) {
      row += 1;
      yield { row, value: record };
    }
  } catch (error) {
    throw asFormatError(error, 'CSV');
  }
}

async function* jsonRecords(input: Readable): AsyncGenerator<SourceRecord> {
  // The first array at the top level, or as a value of the top-level object, holds the records.
  const firstArray = (stack: unknown[], token: { name: string }) => stack.length <= 1 && token.name === 'startArray';
  const pipeline = chain([input, jsonParser(), pick({ filter: firstArray, once: true, maxDepth: MAX_JSON_DEPTH }), streamArray()]);
  try {
    for await (const item of pipeline as AsyncIterable<{ key: number; value: unknown }>) {
      yield { row: item.key + 1, value: item.value };
    }
  } catch (error) {
    throw asFormatError(error, 'JSON');
  }
}

export const readRecords = (input: Readable, kind: FileKind): AsyncGenerator<SourceRecord> => (kind === 'csv' ? csvRecords(input) : jsonRecords(input));
