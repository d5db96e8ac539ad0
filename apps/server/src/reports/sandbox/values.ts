// Report results the same on both drivers: every value arrives as PostgreSQL's text and is turned
// into JSON here by its type, and every column gets a coarse kind for the chart editor.
import type { ColumnKind, ResultCell, ResultColumn, ResultRow } from '@stockwise/contract';

type TypeInfo = { name: string; kind: ColumnKind; parse: (text: string) => ResultCell };

const asNumber = (text: string): ResultCell => {
  const value = Number(text);
  // NaN and ±Infinity have no JSON form: keep PostgreSQL's spelling.
  return Number.isFinite(value) ? value : text;
};
const asText = (text: string): ResultCell => text;
const asJson = (text: string): ResultCell => JSON.parse(text) as ResultCell;

const types = new Map<number, TypeInfo>([
  [16, { name: 'bool', kind: 'boolean', parse: (text) => text === 't' }],
  [20, { name: 'int8', kind: 'number', parse: asNumber }],
  [21, { name: 'int2', kind: 'number', parse: asNumber }],
  [23, { name: 'int4', kind: 'number', parse: asNumber }],
  [26, { name: 'oid', kind: 'number', parse: asNumber }],
  [700, { name: 'float4', kind: 'number', parse: asNumber }],
  [701, { name: 'float8', kind: 'number', parse: asNumber }],
  [1700, { name: 'numeric', kind: 'number', parse: asNumber }],
  [25, { name: 'text', kind: 'text', parse: asText }],
  [1043, { name: 'varchar', kind: 'text', parse: asText }],
  [1042, { name: 'bpchar', kind: 'text', parse: asText }],
  [18, { name: 'char', kind: 'text', parse: asText }],
  [19, { name: 'name', kind: 'text', parse: asText }],
  [2950, { name: 'uuid', kind: 'text', parse: asText }],
  [1082, { name: 'date', kind: 'date', parse: asText }],
  [1114, { name: 'timestamp', kind: 'datetime', parse: asText }],
  [1184, { name: 'timestamptz', kind: 'datetime', parse: asText }],
  [1083, { name: 'time', kind: 'text', parse: asText }],
  [1266, { name: 'timetz', kind: 'text', parse: asText }],
  [1186, { name: 'interval', kind: 'text', parse: asText }],
  [114, { name: 'json', kind: 'json', parse: asJson }],
  [3802, { name: 'jsonb', kind: 'json', parse: asJson }],
]);

export type ResultField = { name: string; dataTypeID: number };

/** Columns of a result; a repeated name gets a suffix (`total`, `total_2`) so every row key is unique. */
export function describeColumns(fields: ResultField[]): ResultColumn[] {
  const seen = new Map<string, number>();
  return fields.map((field) => {
    const count = (seen.get(field.name) ?? 0) + 1;
    seen.set(field.name, count);
    const type = types.get(field.dataTypeID);
    return { name: count === 1 ? field.name : `${field.name}_${count}`, type: type?.kind ?? 'other', db_type: type?.name ?? `oid ${field.dataTypeID}` };
  });
}

export function toResultRows(fields: ResultField[], columns: ResultColumn[], rows: (string | null)[][]): ResultRow[] {
  const parsers = fields.map((field) => types.get(field.dataTypeID)?.parse ?? asText);
  return rows.map((row) => {
    const record: ResultRow = {};
    columns.forEach((column, index) => {
      const text = row[index];
      record[column.name] = text === null || text === undefined ? null : (parsers[index] as TypeInfo['parse'])(text);
    });
    return record;
  });
}
