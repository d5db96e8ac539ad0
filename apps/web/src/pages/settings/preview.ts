// The mapping builder's logic (spec §2, §9; issue 13): which entity mapping a saved mapping holds,
// the draft the user edits (one file column per target field, and how the file writes its
// values), and what keeps Import disabled. The server reads the file and types the first rows
// (POST /api/records/preview-file/); this only decides what to ask it and what to show.
import type { EntityMapping, ImportTarget, MappingConfig, PreviewFileResponse } from '@stockwise/contract';

/** The import's entity select: where the integration editor sends someone who needs a mapping built. */
export const IMPORT_ENTITY_ID = 'import-entity';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The field mappings of the entity type in a mapping config, or null when it has none. */
export function entityFieldMappings(config: MappingConfig | null | undefined, entityType: string): Record<string, string> | null {
  const entity = config?.entities?.[entityType];
  return entity && isRecord(entity.field_mappings) ? entity.field_mappings : null;
}

/** The entity mapping a saved mapping holds for the entity, as a draft to edit, or null (the builder proposes one). */
export function draftFrom(config: MappingConfig | null | undefined, entityType: string): EntityMapping | null {
  const entity = config?.entities?.[entityType];
  return entity && isRecord(entity.field_mappings) ? { ...entity, field_mappings: { ...entity.field_mappings } } : null;
}

/** The server's proposal (names matched ignoring case, spaces, underscores and synonyms) as a draft. */
export function draftFromProposal(preview: Pick<PreviewFileResponse, 'proposed_mapping' | 'decimal_separator'>): EntityMapping {
  return {
    field_mappings: Object.fromEntries(Object.entries(preview.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null)),
    // The proposal's rows were read the way the file writes its numbers: the draft imports them so.
    ...(preview.decimal_separator.used === ',' ? { decimal_separator: ',' as const } : {}),
  };
}

/** The draft with one target fed from `column`, or from no column. */
export function withColumn(draft: EntityMapping, field: string, column: string | null): EntityMapping {
  const { [field]: _previous, ...rest } = draft.field_mappings;
  return { ...draft, field_mappings: column ? { ...rest, [field]: column } : rest };
}

export type MappingOptions = Omit<EntityMapping, 'field_mappings'>;

/** The draft with options changed; an option set to undefined is dropped (the default applies). */
export function withOptions(draft: EntityMapping, options: MappingOptions): EntityMapping {
  const next: Record<string, unknown> = { ...draft, ...options };
  for (const [key, value] of Object.entries(options)) if (value === undefined) delete next[key];
  return next as EntityMapping;
}

/** Required targets that no file column feeds: Import stays disabled while there is one. */
export function unmappedRequired(targets: ImportTarget[], draft: EntityMapping | null): ImportTarget[] {
  return targets.filter((target) => target.required && !draft?.field_mappings[target.field]);
}

/**
 * The draft's columns that the file's header lacks, and whether a required field reads one of
 * them (the server refuses such a file: the draft cannot import it).
 */
export function columnsMissingFromFile(preview: PreviewFileResponse, draft: EntityMapping | null): { columns: string[]; required: boolean } {
  const inFile = new Set(preview.header);
  const missing = Object.entries(draft?.field_mappings ?? {}).filter(([, column]) => !inFile.has(column));
  const requiredFields = new Set(preview.targets.filter((target) => target.required).map((target) => target.field));
  return { columns: missing.map(([, column]) => column), required: missing.some(([field]) => requiredFields.has(field)) };
}

/** How many previewed cells the server will refuse. */
export function problemCount(rows: PreviewFileResponse['rows']): number {
  return rows.reduce((total, row) => total + Object.keys(row.problems).length, 0);
}
