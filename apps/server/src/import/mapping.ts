// Mapping configurations: which entity mapping applies, and reading a dotted source path.
import { entityMapping, joinedValue, mappingConfig as mappingConfigSchema, readMappedPath, type EntityMapping, type JoinedLeaveOut } from '@stockwise/contract';
import { FillDown, isBlank, type FillDownSpec } from './fill-down.ts';
import { readBracketed, type BracketedFields } from './bracketed-code.ts';

/** target -> the source path it reads, or the paths whose values are joined (a mapping's joined_columns, ADR 0193). */
export type FieldMappings = Record<string, string | readonly string[]>;

/**
 * How the mappers read a mapping's records beyond its columns, for its target: blank cells filled
 * down (`fill_down_by`, ADR 0195 F3), the product code field read from its brackets, a new
 * product's name without them (`code_in_brackets`, ADR 0198), and the values a joined field's
 * later parts are left out for (`joined_leave_out`: Square's "Regular", ADR 0201 F8). Built by
 * target.ts's mapperReading.
 */
export type MapperReading = { fill: FillDownSpec | null; bracketed: BracketedFields | null; leftOut?: JoinedLeaveOut | undefined };

export const asWritten: MapperReading = { fill: null, bracketed: null };

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

export function applyMapping(source: unknown, fieldMappings: FieldMappings, read: (target: string, path: string) => unknown = (_, path) => readMappedPath(source, path), leftOut: JoinedLeaveOut = {}): Record<string, unknown> {
  const mapped: Record<string, unknown> = {};
  for (const [target, path] of Object.entries(fieldMappings)) {
    const value = typeof path === 'string' ? read(target, path) : joinedValue(path.map((part) => read(target, part)), leftOut[target]);
    if (value !== undefined) mapped[target] = value;
  }
  return mapped;
}

/**
 * applyMapping for the records of one source read in order, as `reading` says: blank values filled
 * down (fill-down.ts; `state` is kept across an integration run's batches), the code read from its
 * brackets and a new product's name without them.
 */
export function recordMapper(fieldMappings: FieldMappings, reading: MapperReading, state = new FillDown()): (source: unknown) => Record<string, unknown> {
  const { fill, bracketed, leftOut } = reading;
  const fillDown = fill
    ? (source: unknown) => {
        const group = readMappedPath(source, fill.by);
        return applyMapping(
          source,
          fieldMappings,
          (target, path) => {
            const value = readMappedPath(source, path);
            return fill.kept.has(target) ? value : state.fill(group, path, value);
          },
          leftOut,
        );
      }
    : (source: unknown) => applyMapping(source, fieldMappings, undefined, leftOut);
  return bracketed ? (source) => readBracketed(fillDown(source), bracketed) : fillDown;
}

/**
 * applyMapping for the rows of a CSV file or sheet, compiled once from its header: a row is flat,
 * so a path names a column (the last of that name, as when the record was an object) or nothing.
 * Read as `reading` says, as recordMapper does.
 */
export function csvMapper(header: string[], fieldMappings: FieldMappings, reading: MapperReading = asWritten): (fields: unknown[]) => Record<string, unknown> {
  const { fill, bracketed, leftOut } = reading;
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
  const groupAt = fill ? columnOf.get(fill.by) : undefined;
  const state = new FillDown();
  return (fields) => {
    const mapped: Record<string, unknown> = {};
    const group = groupAt === undefined ? undefined : fields[groupAt];
    for (const { target, at, joined } of reads) {
      // A blank cell of a field filled down takes its group's value above (ADR 0195 F3); a key's never.
      const cell = groupAt === undefined || fill?.kept.has(target) ? (part: number | undefined) => (part === undefined ? undefined : fields[part]) : (part: number | undefined) => (part === undefined ? undefined : state.fill(group, part, fields[part]));
      mapped[target] = joined ? joinedValue([cell(at), ...joined.map(cell)], leftOut?.[target]) : cell(at);
    }
    return bracketed ? readBracketed(mapped, bracketed) : mapped;
  };
}

/**
 * Whether a line of cells has nothing in any column the mapping reads (its own cells, before a
 * fill-down): Shopify's image-only lines, a Handle and an Image Src. Counted apart from the lines
 * with data but no product code (ADR 0195 F5); a grouping column (fill_down_by) is no field's.
 */
export function cellsWithNothingMapped(header: string[], fieldMappings: FieldMappings): (fields: unknown[]) => boolean {
  const columnOf = new Map(header.map((name, at) => [name, at]));
  const places = [...new Set(Object.values(fieldMappings).flat().flatMap((column) => columnOf.get(column) ?? []))];
  return (fields) => places.every((at) => isBlank(fields[at]));
}

/** cellsWithNothingMapped for a JSON record: every path the mapping reads absent or blank. */
export function recordWithNothingMapped(fieldMappings: FieldMappings): (source: unknown) => boolean {
  const paths = [...new Set(Object.values(fieldMappings).flat())];
  return (source) => paths.every((path) => isBlank(readMappedPath(source, path)));
}
