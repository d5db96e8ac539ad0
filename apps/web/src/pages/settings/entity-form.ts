// What the Import entities panel edits of one entity (ADR 0179): how rows of one file sharing a key
// are taken, the description, and the default field mappings as rows. The table and key are shown,
// not edited, and go back as they were read. And what setting it back to the configuration file's
// version would change (ADR 0181).
import type { ConfigEntity, EntityConfig, RepeatedKeyMode } from '@stockwise/contract';

/** One default mapping: the table's column it fills and the file's column (or dotted path) it is read from; `id` keys the row while it moves. */
export type MappingRow = { id: number; target: string | null; source: string };
export type EntityForm = { repeatedKeys: RepeatedKeyMode; description: string; rows: MappingRow[] };
/** Why a row cannot be saved yet, per field: the message keys the panel shows under it. */
export type RowProblems = Record<number, { target?: 'entities.chooseField'; source?: 'entities.typeSource' }>;

let nextRowId = 0;
export const newMappingRow = (): MappingRow => ({ id: nextRowId++, target: null, source: '' });

/** The form of an entity as read: an entity with no repeated_keys imports as `last` (config/stockwise.yaml). */
export const entityForm = (entity: ConfigEntity): EntityForm => ({
  repeatedKeys: entity.repeated_keys ?? 'last',
  description: entity.description ?? '',
  rows: Object.entries(entity.field_mappings ?? {}).map(([target, source]) => ({ ...newMappingRow(), target, source })),
});

/**
 * The rows in the order of the table's columns (`columnKeys`), a field the table does not have
 * last: the database keeps an entity's mappings in an order of its own (shorter names first), so
 * a reload would otherwise shuffle the rows just saved.
 */
export function inColumnOrder(rows: MappingRow[], columnKeys: string[]): MappingRow[] {
  const place = (row: MappingRow) => {
    const index = row.target === null ? -1 : columnKeys.indexOf(row.target);
    return index < 0 ? columnKeys.length : index;
  };
  return [...rows].sort((a, b) => place(a) - place(b));
}

/** The rows missing a field or a file column: nothing is sent while there are any. */
export function rowProblems(form: EntityForm): RowProblems {
  const problems: RowProblems = {};
  for (const row of form.rows) {
    const problem = { ...(row.target ? {} : { target: 'entities.chooseField' as const }), ...(row.source.trim() ? {} : { source: 'entities.typeSource' as const }) };
    if (problem.target || problem.source) problems[row.id] = problem;
  }
  return problems;
}

/** The configuration a save sends: the entity's table and key as read, the rest from the form; a blank description is left out. */
export function entityConfigOf(entity: ConfigEntity, form: EntityForm): EntityConfig {
  const description = form.description.trim();
  return {
    table: entity.table,
    key: entity.key,
    repeated_keys: form.repeatedKeys,
    ...(description ? { description } : {}),
    field_mappings: Object.fromEntries(form.rows.flatMap((row) => (row.target ? [[row.target, row.source.trim()]] : []))),
  };
}

/** A setting a reset to the configuration file's version changes (ADR 0181): as it is now and as the file has it; null: none. */
export type FileChange = { setting: 'table' | 'key' | 'repeatedKeys' | 'description'; now: string; file: string } | { setting: 'mapping'; field: string; now: string | null; file: string | null };

/**
 * What setting `entity` back to the file's version changes, compared as the import reads them (no
 * repeated_keys is `last`, no description is blank, mappings whatever their order); none when the
 * file has no version of it, or it is already as in the file. The file's mappings first, in its
 * order, then the fields it does not map.
 */
export function changesFromFile(entity: ConfigEntity): FileChange[] {
  const file = entity.file_config;
  if (!file) return [];
  const settings = [
    { setting: 'table', now: entity.table, file: file.table },
    { setting: 'key', now: entity.key.join(', '), file: file.key.join(', ') },
    { setting: 'repeatedKeys', now: entity.repeated_keys ?? 'last', file: file.repeated_keys ?? 'last' },
    { setting: 'description', now: entity.description ?? '', file: file.description ?? '' },
  ] as const;
  const mappedNow = entity.field_mappings ?? {};
  const mappedInFile = file.field_mappings ?? {};
  const fields = [...new Set([...Object.keys(mappedInFile), ...Object.keys(mappedNow)])];
  return [
    ...settings.filter((change) => change.now !== change.file),
    ...fields.flatMap((field) => (mappedNow[field] === mappedInFile[field] ? [] : [{ setting: 'mapping' as const, field, now: mappedNow[field] ?? null, file: mappedInFile[field] ?? null }])),
  ];
}

const INVALID_CONFIGURATION = 'Invalid configuration: ';
/** A refusal of the configuration as spec §5 words it: "Invalid configuration: " and the server's message (which usually starts so already). */
export const invalidConfigurationText = (message: string) => (message.startsWith(INVALID_CONFIGURATION) ? message : `${INVALID_CONFIGURATION}${message}`);
