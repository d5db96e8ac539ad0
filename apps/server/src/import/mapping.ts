// Mapping configurations: which entity mapping applies, and reading a dotted source path.
import { mappingConfig as mappingConfigSchema, readMappedPath } from '@stockwise/contract';

export type FieldMappings = Record<string, string>;

export type MappingResolution = { ok: true; fieldMappings: FieldMappings } | { ok: false; message: string };

/**
 * The field mappings of `entityType` in a mapping config: `{entities: {type: {field_mappings}}}`,
 * or a bare `{field_mappings}` that applies to the entity being imported.
 */
export function resolveEntityMapping(config: unknown, entityType: string): MappingResolution {
  if (config && typeof config === 'object' && 'field_mappings' in config) {
    const bare = mappingConfigSchema.shape.entities.valueType.safeParse(config);
    return bare.success ? { ok: true, fieldMappings: bare.data.field_mappings } : { ok: false, message: 'The mapping configuration is not valid.' };
  }
  const parsed = mappingConfigSchema.safeParse(config);
  if (!parsed.success) return { ok: false, message: 'The mapping configuration is not valid.' };
  const entity = parsed.data.entities[entityType];
  return entity ? { ok: true, fieldMappings: entity.field_mappings } : { ok: false, message: `No mapping found for entity type: ${entityType}` };
}

export function applyMapping(source: unknown, fieldMappings: FieldMappings): Record<string, unknown> {
  const mapped: Record<string, unknown> = {};
  for (const [target, path] of Object.entries(fieldMappings)) {
    const value = readMappedPath(source, path);
    if (value !== undefined) mapped[target] = value;
  }
  return mapped;
}

/**
 * applyMapping for the records of a CSV file, compiled once from its header: a CSV record is flat,
 * so a path names a column (the last of that name, as when the record was an object) or nothing.
 */
export function csvMapper(header: string[], fieldMappings: FieldMappings): (fields: string[]) => Record<string, unknown> {
  const columnOf = new Map(header.map((name, at) => [name, at]));
  const reads = Object.entries(fieldMappings).flatMap(([target, path]) => {
    const at = columnOf.get(path);
    return at === undefined ? [] : [{ target, at }];
  });
  return (fields) => {
    const mapped: Record<string, unknown> = {};
    for (const { target, at } of reads) mapped[target] = fields[at];
    return mapped;
  };
}
