// Mapping configurations: which entity mapping applies, and reading a dotted source path.
import { mappingConfig as mappingConfigSchema } from '@stockwise/contract';

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

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `a.b.0.c` through objects and arrays. A flat record whose key is the whole path (a CSV header `a.b`) wins. */
export function readPath(source: unknown, path: string): unknown {
  if (isRecord(source) && Object.hasOwn(source, path)) return source[path];
  let current: unknown = source;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isRecord(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

export function applyMapping(source: unknown, fieldMappings: FieldMappings): Record<string, unknown> {
  const mapped: Record<string, unknown> = {};
  for (const [target, path] of Object.entries(fieldMappings)) {
    const value = readPath(source, path);
    if (value !== undefined) mapped[target] = value;
  }
  return mapped;
}
