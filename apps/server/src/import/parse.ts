// Streams the records of an uploaded file, mapped: CSV through papaparse (csv.ts), JSON (an
// array of objects, or an object holding one) through stream-json. Nothing is read whole into
// memory. Records come in batches (one per chunk of the file), which keeps the per-record cost of
// async iteration out of million-row files.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parser as jsonParser } from 'stream-json';
import { pick } from 'stream-json/filters/pick.js';
import { streamArray } from 'stream-json/streamers/stream-array.js';
import { chain } from 'stream-chain';
import { CsvReader } from './csv.ts';
import { applyMapping, csvMapper, type FieldMappings } from './mapping.ts';

export type FileKind = 'csv' | 'json';
/** A record's mapped fields, or null when the record is not an object (a JSON array of numbers). */
export type MappedRecord = { row: number; fields: Record<string, unknown> | null };

export class FileFormatError extends Error {}

const MAX_JSON_DEPTH = 64;
const JSON_BATCH = 1000;

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

async function* csvRecords(input: Readable, fieldMappings: FieldMappings): AsyncGenerator<MappedRecord[]> {
  const reader = new CsvReader();
  const decoder = new StringDecoder('utf8');
  let mapper: ((fields: string[]) => Record<string, unknown>) | null = null;
  let row = 0;
  const mapped = (records: string[][]): MappedRecord[] => {
    if (!records.length) return [];
    const map = (mapper ??= csvMapper(reader.header ?? [], fieldMappings));
    return records.map((fields) => ({ row: (row += 1), fields: map(fields) }));
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      const batch = mapped(reader.push(decoder.write(chunk)));
      if (batch.length) yield batch;
    }
    const last = mapped([...reader.push(decoder.end()), ...reader.end()]);
    if (last.length) yield last;
  } catch (error) {
    throw asFormatError(error, 'CSV');
  }
}

async function* jsonRecords(input: Readable, fieldMappings: FieldMappings): AsyncGenerator<MappedRecord[]> {
  // The first array at the top level, or as a value of the top-level object, holds the records.
  const firstArray = (stack: unknown[], token: { name: string }) => stack.length <= 1 && token.name === 'startArray';
  const pipeline = chain([input, jsonParser(), pick({ filter: firstArray, once: true, maxDepth: MAX_JSON_DEPTH }), streamArray()]);
  let batch: MappedRecord[] = [];
  try {
    for await (const { key, value } of pipeline as AsyncIterable<{ key: number; value: unknown }>) {
      const isRecord = typeof value === 'object' && value !== null && !Array.isArray(value);
      batch.push({ row: key + 1, fields: isRecord ? applyMapping(value, fieldMappings) : null });
      if (batch.length >= JSON_BATCH) {
        yield batch;
        batch = [];
      }
    }
  } catch (error) {
    throw asFormatError(error, 'JSON');
  }
  if (batch.length) yield batch;
}

export const readMappedRecords = (input: Readable, kind: FileKind, fieldMappings: FieldMappings): AsyncGenerator<MappedRecord[]> =>
  kind === 'csv' ? csvRecords(input, fieldMappings) : jsonRecords(input, fieldMappings);
