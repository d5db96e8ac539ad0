// The product configuration: the shipped YAML file (tables, mappings, queries, inventory entities)
// overlaid with entity configs updated through the API, which live in the database so every
// instance sees an update at once and concurrent updates never overwrite each other's entities.
import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { parse as parseYaml } from 'yaml';
import { entityConfig, productConfig, type EntityConfig, type ProductConfig } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { validationError } from '../http/errors.ts';
import * as repo from './repo.ts';

export type ConfigContext = { db: Kysely<Database>; configFile: string };

export type ConfigReading =
  | { status: 'ok'; config: ProductConfig }
  | { status: 'missing' }
  | { status: 'invalid'; reason: string };

const EMPTY_CONFIG: ProductConfig = { tables: {}, mappings: {}, queries: {}, inventory: { entities: [] } };

async function readConfigFile(configFile: string): Promise<ConfigReading> {
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

export async function readProductConfig(ctx: ConfigContext): Promise<ConfigReading> {
  const reading = await readConfigFile(ctx.configFile);
  if (reading.status !== 'ok') return reading;
  const overrides = await repo.listEntityOverrides(ctx.db);
  const entities = [...reading.config.inventory.entities];
  for (const override of overrides) {
    const entity = { ...(override.config as EntityConfig), name: override.name };
    const index = entities.findIndex((e) => e.name === override.name);
    if (index >= 0) entities[index] = entity;
    else entities.push(entity);
  }
  return { status: 'ok', config: { ...reading.config, inventory: { entities } } };
}

/** The configuration features run with; an unreadable file leaves them with none (GET /api/yaml/config/ says why). */
export async function currentProductConfig(ctx: ConfigContext): Promise<ProductConfig> {
  const reading = await readProductConfig(ctx);
  return reading.status === 'ok' ? reading.config : EMPTY_CONFIG;
}

export type TableColumnsLookup = (tableName: string) => Promise<string[] | null>;

export async function updateEntityConfig(
  ctx: ConfigContext,
  options: { entityName: string; config: Record<string, unknown>; columnsOf: TableColumnsLookup },
): Promise<EntityConfig & { name: string }> {
  const invalid = (reason: string) => validationError(`Invalid configuration: ${reason}`);
  const parsed = entityConfig.safeParse(options.config);
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
  await repo.upsertEntityOverride(ctx.db, options.entityName, stored);
  return stored;
}
