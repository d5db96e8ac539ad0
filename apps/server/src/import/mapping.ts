// Mapping configurations: which entity mapping applies, and reading a dotted source path.
import { entityMapping, joinedValue, mappingConfig as mappingConfigSchema, readMappedPath, type EntityMapping } from '@stockwise/contract';

/** target -> the source path it reads, or the paths whose values are joined (a mapping's joined_columns, ADR 0193). */
export type FieldMappings = Record<string, string | readonly string[]>;

export type MappingResolution = { ok: true; mapping: EntityMapping } | { ok: false; message: string };

/**
 * The entity mapping of `entityType` in a mapping config: `{entities: {type: {field_mappings}}}`,
 * or a bare `{field_mappings}` that applies to the entity being imported.
 */
export function resolveEntityMapping(config: unknown, entityType: string): MappingResolution {
  const problem = (error: { issues: { path: PropertyKey[]; message: string }[] }) => {
    const issue = error.issues[0];
    return `The mapping configuration is not valid${issue ? ` (${issue.path.map(String).join('.') || 'mapping'}: ${issue.message})` : ''}.`;
  };
  if (config && typeof config === 'object' && !Array.isArray(config) && !Object.keys(config).length) {
    return { ok: false, message: "The mapping maps no columns: choose the file's column for each field to import." };
  }
  if (config && typeof config === 'object' && 'field_mappings' in config) {
    const bare = entityMapping.safeParse(config);
    return bare.success ? { ok: true, mapping: bare.data } : { ok: false, message: problem(bare.error) };
  }
  const parsed = mappingConfigSchema.safeParse(config);
  if (!parsed.success) return { ok: false, message: problem(parsed.error) };
  const entity = parsed.data.entities[entityType];
  return entity ? { ok: true, mapping: entity } : { ok: false, message: `No mapping found for entity type: ${entityType}` };
}

export function applyMapping(source: unknown, fieldMappings: FieldMappings): Record<string, unknown> {
  const mapped: Record<string, unknown> = {};
  for (const [target, path] of Object.entries(fieldMappings)) {
    const value = typeof path === 'string' ? readMappedPath(source, path) : joinedValue(path.map((part) => readMappedPath(source, part)));
    if (value !== undefined) mapped[target] = value;
  }
  return mapped;
}

/**
 * applyMapping for the rows of a CSV file or sheet, compiled once from its header: a row is flat,
 * so a path names a column (the last of that name, as when the record was an object) or nothing.
 */
export function csvMapper(header: string[], fieldMappings: FieldMappings): (fields: unknown[]) => Record<string, unknown> {
  const columnOf = new Map(header.map((name, at) => [name, at]));
  type Read = { target: string; at: number; joined: (number | undefined)[] | null };
  const reads = Object.entries(fieldMappings).flatMap(([target, path]): Read[] => {
    if (typeof path !== 'string') {
      // Joined columns: the first must be in the header, as a single column must; a missing later one reads blank.
      const [first, ...rest] = path.map((part) => columnOf.get(part));
      return first === undefined ? [] : [{ target, at: first, joined: rest }];
    }
    const at = columnOf.get(path);
    return at === undefined ? [] : [{ target, at, joined: null }];
  });
  return (fields) => {
    const mapped: Record<string, unknown> = {};
    for (const { target, at, joined } of reads) mapped[target] = joined ? joinedValue([fields[at], ...joined.map((part) => (part === undefined ? undefined : fields[part]))]) : fields[at];
    return mapped;
  };
}
