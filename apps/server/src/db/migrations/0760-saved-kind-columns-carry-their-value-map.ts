// A kind column for not_stocked reads through a value map (ADR 0200's amendment): the products'
// not_stocked no longer reads Service or Storable Product itself, so a mapping saved before, which
// maps a column (Odoo's Product Type) to not_stocked with no value map of it, is given the map of
// every kind word the column used to read (product-kind.ts savedKindMap), and imports and
// integration runs through it read as they did. A mapping already at the bound of value maps' fields
// is left as it is (none is known; it would no longer be a valid mapping).
import { MAX_VALUE_MAP_FIELDS } from '@stockwise/contract';
import { sql, type Kysely } from 'kysely';
import { NOT_STOCKED_KEY, savedKindMap } from '../../tables/product-kind.ts';

type EntityMapping = { field_mappings?: Record<string, unknown>; value_maps?: Record<string, unknown> };
type SavedMapping = { name: string; config: { entities?: Record<string, EntityMapping> } };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Rewrites each saved mapping's entities through `change` (answering the entity changed, or null), storing those that changed. */
async function changeEntities(db: Kysely<unknown>, change: (entity: EntityMapping) => EntityMapping | null): Promise<void> {
  const saved = (await sql<SavedMapping>`select name, config from config_mappings`.execute(db)).rows;
  for (const { name, config } of saved) {
    if (!isRecord(config.entities)) continue;
    let changed = false;
    const entities = Object.fromEntries(
      Object.entries(config.entities).map(([entityType, entity]) => {
        const next = isRecord(entity) ? change(entity) : null;
        changed ||= next !== null;
        return [entityType, next ?? entity];
      }),
    );
    if (changed) await sql`update config_mappings set config = ${JSON.stringify({ ...config, entities })}::jsonb where name = ${name}`.execute(db);
  }
}

export const up = (db: Kysely<unknown>): Promise<void> =>
  changeEntities(db, (entity) => {
    const maps = isRecord(entity.value_maps) ? entity.value_maps : {};
    if (!isRecord(entity.field_mappings) || !(NOT_STOCKED_KEY in entity.field_mappings) || NOT_STOCKED_KEY in maps || Object.keys(maps).length >= MAX_VALUE_MAP_FIELDS) return null;
    return { ...entity, value_maps: { ...maps, [NOT_STOCKED_KEY]: savedKindMap() } };
  });

/** Back: a server before 0760 refuses a value map of a yes-or-no column, so every not_stocked map goes (the map added here, and one a user gave since). */
export const down = (db: Kysely<unknown>): Promise<void> =>
  changeEntities(db, (entity) => {
    if (!isRecord(entity.value_maps) || !(NOT_STOCKED_KEY in entity.value_maps)) return null;
    const { [NOT_STOCKED_KEY]: _dropped, ...others } = entity.value_maps;
    const { value_maps: _all, ...rest } = entity;
    return Object.keys(others).length ? { ...rest, value_maps: others } : rest;
  });
