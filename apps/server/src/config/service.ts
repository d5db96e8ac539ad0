// The product configuration: the shipped YAML file (tables, mappings, queries, inventory entities)
// overlaid with entity configs updated and import mappings saved through the API, which live in
// the database so every instance sees an update at once and concurrent updates never overwrite
// each other's entries.
import { readFile, stat } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { parse as parseYaml } from 'yaml';
import { ENTITY_READ_ONLY_KEYS, entityConfig, mappingConfig, productConfig, type ConfigEntity, type EntityConfig, type EntityMapping, type MappingConfig, type ProductConfig, type Role } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError, conflictError, notFoundError, validationError } from '../http/errors.ts';
import { editConflictError, type VersionedWrite } from '../http/versions.ts';
import type { ProductConfigCache } from './cache.ts';
import * as repo from './repo.ts';

/** Without a cache every read goes to the file and the database (tests, tools). */
export type ConfigContext = { db: Kysely<Database>; configFile: string; cache?: ProductConfigCache<ConfigReading> };

type FileReading = { status: 'ok'; config: ProductConfig } | { status: 'missing' } | { status: 'invalid'; reason: string };

/**
 * The file with the database's overlay; `entityVersions`: each entity saved through the API, its
 * version (ADR 0168's amendment); `fileEntities`: the file's entities by name, as shipped (ADR 0181).
 */
export type ConfigReading = Exclude<FileReading, { status: 'ok' }> | { status: 'ok'; config: ProductConfig; entityVersions: Record<string, string>; fileEntities: Record<string, EntityConfig> };

const EMPTY_CONFIG: ProductConfig = { tables: {}, mappings: {}, queries: {}, inventory: { entities: [] } };

// Pages of tables with references read the configuration on every request: the file is parsed
// again only when its modification time or size changes (a stat instead of YAML and zod each time).
// Callers get their own copy, as before.
const parsedFiles = new Map<string, { mtimeMs: number; size: number; reading: FileReading }>();

async function readConfigFile(configFile: string): Promise<FileReading> {
  let file: { mtimeMs: number; size: number };
  try {
    file = await stat(configFile);
  } catch {
    return { status: 'missing' };
  }
  const known = parsedFiles.get(configFile);
  if (known && known.mtimeMs === file.mtimeMs && known.size === file.size) return structuredClone(known.reading);
  const reading = await parseConfigFile(configFile);
  parsedFiles.set(configFile, { mtimeMs: file.mtimeMs, size: file.size, reading });
  return structuredClone(reading);
}

async function parseConfigFile(configFile: string): Promise<FileReading> {
  let text: string;
  try {
    text = await readFile(configFile, 'utf8');
  } catch {
    return { status: 'missing' };
  }
  try {
    const parsed = productConfig.safeParse(parseYaml(text) ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { status: 'invalid', reason: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` };
    }
    return { status: 'ok', config: parsed.data };
  } catch (error) {
    return { status: 'invalid', reason: error instanceof Error ? error.message : String(error) };
  }
}

async function loadProductConfig(ctx: ConfigContext): Promise<ConfigReading> {
  const reading = await readConfigFile(ctx.configFile);
  if (reading.status !== 'ok') return reading;
  const [overrides, saved] = await Promise.all([repo.listEntityOverrides(ctx.db), repo.listSavedMappings(ctx.db)]);
  const mappings = { ...reading.config.mappings };
  for (const mapping of saved) {
    const parsed = mappingConfig.safeParse(mapping.config);
    if (parsed.success) mappings[mapping.name] = parsed.data;
  }
  const entities = [...reading.config.inventory.entities];
  const fileEntities = Object.fromEntries(entities.map(({ name, ...entity }) => [name, entity]));
  const entityVersions: Record<string, string> = {};
  for (const override of overrides) {
    entityVersions[override.name] = override.version;
    // Set back to the file's version (reset-entity): the version counts on, the file's entity stands.
    if (override.config === null) continue;
    const entity = { ...(override.config as EntityConfig), name: override.name };
    const index = entities.findIndex((e) => e.name === override.name);
    if (index >= 0) entities[index] = entity;
    else entities.push(entity);
  }
  return { status: 'ok', config: { ...reading.config, mappings, inventory: { entities } }, entityVersions, fileEntities };
}

/** Through the cache when there is one: then shared and frozen. */
const currentReading = (ctx: ConfigContext): Promise<ConfigReading> => (ctx.cache ? ctx.cache.read(ctx.configFile, () => loadProductConfig(ctx)) : loadProductConfig(ctx));

type LoadedConfig = Extract<ConfigReading, { status: 'ok' }>;

/**
 * The configuration as GET /api/yaml/config/ answers it: each entity with its version ("0": never
 * saved through the API), the one to send back as If-Match, and the file's version of it.
 */
export const configWithVersions = ({ config, entityVersions, fileEntities }: LoadedConfig) => ({
  ...config,
  inventory: { entities: config.inventory.entities.map((entity): ConfigEntity => ({ ...entity, version: entityVersions[entity.name] ?? '0', file_config: fileEntities[entity.name] ?? null })) },
});

/** The configuration as the file and the database give it now; the caller's own copy. */
export async function readProductConfig(ctx: ConfigContext): Promise<ConfigReading> {
  return ctx.cache ? structuredClone(await currentReading(ctx)) : currentReading(ctx);
}

/** The configuration features run with; an unreadable file leaves them with none (GET /api/yaml/config/ says why). */
export async function currentProductConfig(ctx: ConfigContext): Promise<ProductConfig> {
  const reading = await readProductConfig(ctx);
  return reading.status === 'ok' ? reading.config : EMPTY_CONFIG;
}

/**
 * The same, without a copy: shared by every caller and frozen, for read-only use on hot paths
 * (a page of a table with references reads it on every request).
 */
export async function sharedProductConfig(ctx: ConfigContext): Promise<ProductConfig> {
  const reading = await currentReading(ctx);
  return reading.status === 'ok' ? reading.config : EMPTY_CONFIG;
}

export type TableColumnsLookup = (tableName: string) => Promise<string[] | null>;
/** Refuses (a 400 naming the field and value) what an entity's table cannot take in a mapping being saved: its value maps. */
export type EntityMappingCheck = (config: ProductConfig, entityType: string, mapping: EntityMapping) => Promise<void>;

/** Entity `name` as GET shows it now, read past the cache (another instance's save may not have reached it yet); undefined: no such entity. */
async function currentEntity(ctx: ConfigContext, name: string): Promise<ConfigEntity | undefined> {
  const reading = await readProductConfig({ db: ctx.db, configFile: ctx.configFile });
  return reading.status === 'ok' ? configWithVersions(reading).inventory.entities.find((entity) => entity.name === name) : undefined;
}

/**
 * The refusal of a save or reset of entity `name` on a version no longer stored: the entity as GET
 * shows it now, who saved it last and when. A version of an entity that does not exist is no
 * version of it: a 400.
 */
async function refusedEntityWrite(ctx: ConfigContext, name: string, write: VersionedWrite, action: 'edit' | 'reset'): Promise<AppError> {
  const [current, stored] = await Promise.all([currentEntity(ctx, name), repo.readEntityVersion(ctx.db, name)]);
  if (!current) throw validationError(`If-Match: there is no entity '${name}'; its version is "${stored.version}" (or send no If-Match).`, { 'If-Match': ['Not a version of this entity.'] });
  return editConflictError({ thing: 'entity', action, current, lastSave: stored.at ? { by: stored.by, at: stored.at } : null, timeZone: write.timeZone });
}

/** The file's version of entity `name` (without its name); null when the file has none, undefined when the file cannot be read. */
async function fileEntity(configFile: string, name: string): Promise<EntityConfig | null | undefined> {
  const reading = await readConfigFile(configFile);
  if (reading.status !== 'ok') return undefined;
  const found = reading.config.inventory.entities.find((candidate) => candidate.name === name);
  if (!found) return null;
  const { name: _name, ...entity } = found;
  return entity;
}

/**
 * Validates and saves one entity's configuration at the version the caller read (If-Match; none:
 * whatever the version). A stale version is refused before the configuration is checked, as an
 * integration's save is; the save itself is checked again in its one statement.
 */
export async function updateEntityConfig(
  ctx: ConfigContext,
  options: { entityName: string; config: Record<string, unknown>; columnsOf: TableColumnsLookup },
  write: VersionedWrite,
): Promise<ConfigEntity> {
  if (write.expected !== undefined && (await repo.readEntityVersion(ctx.db, options.entityName)).version !== write.expected) throw await refusedEntityWrite(ctx, options.entityName, write, 'edit');
  const invalid = (reason: string) => validationError(`Invalid configuration: ${reason}`);
  // An entity read from GET and sent back whole carries its version and the file's: read-only, never part of the configuration.
  const parsed = entityConfig.safeParse(Object.fromEntries(Object.entries(options.config).filter(([key]) => !ENTITY_READ_ONLY_KEYS.includes(key))));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`${issue?.path.join('.') || 'config'}: ${issue?.message ?? 'invalid'}`);
  }
  const entity = parsed.data;
  if (entity.name !== undefined && entity.name !== options.entityName) throw invalid(`name '${entity.name}' does not match entity_name '${options.entityName}'.`);
  const columns = await options.columnsOf(entity.table);
  if (!columns) throw invalid(`table '${entity.table}' does not exist.`);
  const unknownKey = entity.key.find((key) => !columns.includes(key));
  if (unknownKey) throw invalid(`key column '${unknownKey}' is not a column of '${entity.table}'.`);
  const unknownTarget = Object.keys(entity.field_mappings ?? {}).find((field) => !columns.includes(field));
  if (unknownTarget) throw invalid(`field_mappings target '${unknownTarget}' is not a column of '${entity.table}'.`);
  const stored = { ...entity, name: options.entityName };
  const saved = await repo.saveEntityOverride(ctx.db, options.entityName, stored, write);
  if (saved === 'stale') throw await refusedEntityWrite(ctx, options.entityName, write, 'edit');
  // Other instances drop theirs when the trigger's notification arrives; this one answers from the new state at once.
  ctx.cache?.forget();
  return { ...stored, version: saved.version, file_config: (await fileEntity(ctx.configFile, options.entityName)) ?? null };
}

/**
 * Sets entity `name` back to the configuration file's version (POST /api/yaml/reset-entity/, ADR
 * 0181) at the version the caller read (If-Match; none: whatever the version). The entity's saved
 * configuration is cleared, not replaced by a copy of the file's: it follows the file again, a
 * later edit of the file included. Its version counts on (were the row deleted, a form opened at
 * version 1 before the reset would match the next save's 1 after it), and the reset is recorded as
 * a save by its admin. An entity with no saved configuration (never saved, or reset already) is
 * left as it is. The entity as GET shows it now.
 */
export async function resetEntityConfig(ctx: ConfigContext, name: string, write: VersionedWrite): Promise<ConfigEntity> {
  if (write.expected !== undefined && (await repo.readEntityVersion(ctx.db, name)).version !== write.expected) throw await refusedEntityWrite(ctx, name, write, 'reset');
  const inFile = await fileEntity(ctx.configFile, name);
  if (inFile === undefined) throw conflictError(`The configuration file cannot be read, so '${name}' has no file version to go back to; GET /api/yaml/config/ says why.`);
  if (inFile === null) {
    if (await currentEntity(ctx, name)) throw validationError(`The entity '${name}' is not in the configuration file (it was added through the API): there is no file version to go back to.`, { entity_name: ['Not an entity of the configuration file.'] });
    throw notFoundError(`No entity named '${name}'.`);
  }
  const cleared = await repo.clearEntityOverride(ctx.db, name, write);
  if (cleared) {
    ctx.cache?.forget();
    return { name, ...inFile, version: cleared.version, file_config: inFile };
  }
  // Nothing cleared: already as in the file, or saved by someone else since the check above.
  const current = await currentEntity(ctx, name);
  if (!current || (write.expected !== undefined && current.version !== write.expected)) throw await refusedEntityWrite(ctx, name, write, 'reset');
  return current;
}

/**
 * Saves a named import mapping (POST /api/yaml/save-mapping/). Editors import, so they may save
 * mappings: a new name, or one they saved before. Replacing a mapping of the configuration file or
 * another user's needs an admin (docs/security.md). A save names the entities it maps: the
 * mapping's others stay (the screen saves the entity it shows, under the chosen mapping's name).
 */
export async function saveMapping(ctx: ConfigContext, options: { name: string; config: MappingConfig; user: { userId: number; role: Role }; checkEntityMapping: EntityMappingCheck }): Promise<MappingConfig> {
  const reading = await readConfigFile(ctx.configFile);
  const shipped = reading.status === 'ok' && options.name in reading.config.mappings;
  const saved = await repo.findSavedMapping(ctx.db, options.name);
  const ownsIt = saved ? saved.created_by === options.user.userId : !shipped;
  if (!ownsIt && options.user.role !== 'admin') {
    throw new AppError('forbidden', `The mapping '${options.name}' belongs to ${shipped && !saved ? 'the configuration file' : 'another user'}; save it under a new name, or ask an administrator.`);
  }
  const current = await currentProductConfig(ctx);
  for (const [entityType, mapping] of Object.entries(options.config.entities)) await options.checkEntityMapping(current, entityType, mapping);
  // The file's mapping is the base of its first save; a saved one is merged with by the database.
  const base = !saved && reading.status === 'ok' ? reading.config.mappings[options.name] : undefined;
  const config = base ? { ...base, ...options.config, entities: { ...base.entities, ...options.config.entities } } : options.config;
  const stored = mappingConfig.parse(await repo.mergeSavedMapping(ctx.db, options.name, config, options.user.userId));
  ctx.cache?.forget();
  return stored;
}
