// SQL of the configuration feature: entity configs updated through the API.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

/** The entities updated through the API, each with its version (the count of its saves); `config` null: set back to the file's (ADR 0181). */
export const listEntityOverrides = (db: Kysely<Database>) =>
  db.selectFrom('config_entities').select(['name', 'config', sql<string>`version::text`.as('version')]).orderBy('name').execute();

/** An entity's version now stored ("0": only in the file, or never saved), who saved it last (null: unknown, or an account deleted since) and when. */
export type EntityVersion = { version: string; by: string | null; at: Date | null };

export async function readEntityVersion(db: Kysely<Database>, name: string): Promise<EntityVersion> {
  const row = await db
    .selectFrom('config_entities as e')
    .leftJoin('users as editor', 'editor.id', 'e.updated_by')
    .select([sql<string>`e.version::text`.as('version'), 'editor.username as by', 'e.updated_at'])
    .where('e.name', '=', name)
    .executeTakeFirst();
  return row ? { version: row.version, by: row.by, at: new Date(row.updated_at) } : { version: '0', by: null, at: null };
}

/**
 * Saves an entity's configuration by user `by`, at version `expected` ("0": not saved through the API
 * yet) or at any version when undefined; the version saved, or 'stale' (nothing written). One statement each way: of two saves on one version, the
 * second finds the version moved on (PostgreSQL re-reads the row it waited for) and writes nothing.
 */
export async function saveEntityOverride(db: Kysely<Database>, name: string, config: object, save: { by: number; expected?: string | undefined }): Promise<{ version: string } | 'stale'> {
  const values = { config: JSON.stringify(config), updated_by: save.by };
  const saved = { ...values, version: sql`config_entities.version + 1`, updated_at: sql<string>`now()` };
  const written =
    save.expected === undefined
      ? await db.insertInto('config_entities').values({ name, ...values }).onConflict((oc) => oc.column('name').doUpdateSet(saved)).returning(sql<string>`version::text`.as('version')).executeTakeFirst()
      : save.expected === '0'
        ? await db.insertInto('config_entities').values({ name, ...values }).onConflict((oc) => oc.column('name').doNothing()).returning(sql<string>`version::text`.as('version')).executeTakeFirst()
        : await db.updateTable('config_entities').set(saved).where('name', '=', name).where(sql`version::text`, '=', save.expected).returning(sql<string>`version::text`.as('version')).executeTakeFirst();
  return written ?? 'stale';
}

/**
 * Clears entity `name`'s saved configuration (it follows the file again) by user `by`, at version
 * `expected` or any when undefined: the version it now has, or undefined when nothing was cleared
 * (none saved, or the version moved on). One statement, as a save.
 */
export const clearEntityOverride = async (db: Kysely<Database>, name: string, reset: { by: number; expected?: string | undefined }): Promise<{ version: string } | undefined> =>
  db
    .updateTable('config_entities')
    .set({ config: null, updated_by: reset.by, version: sql`config_entities.version + 1`, updated_at: sql<string>`now()` })
    .where('name', '=', name)
    .where('config', 'is not', null)
    .$if(reset.expected !== undefined, (query) => query.where(sql`version::text`, '=', reset.expected))
    .returning(sql<string>`version::text`.as('version'))
    .executeTakeFirst();

export const listSavedMappings = (db: Kysely<Database>) => db.selectFrom('config_mappings').select(['name', 'config', 'created_by']).orderBy('name').execute();

export const findSavedMapping = (db: Kysely<Database>, name: string) => db.selectFrom('config_mappings').select(['name', 'created_by']).where('name', '=', name).executeTakeFirst();

/**
 * Saves a mapping; over a saved one, the entities given replace theirs and its other entities stay
 * (as its description does when none is given). One statement: two users saving different entities
 * of one mapping at once both keep theirs. The mapping as stored.
 */
export const mergeSavedMapping = async (db: Kysely<Database>, name: string, config: { entities: object }, createdBy: number): Promise<unknown> =>
  (
    await db
      .insertInto('config_mappings')
      .values({ name, config: JSON.stringify(config), created_by: createdBy })
      .onConflict((oc) =>
        oc.column('name').doUpdateSet({
          config: sql`config_mappings.config || excluded.config || jsonb_build_object('entities', coalesce(config_mappings.config -> 'entities', '{}') || (excluded.config -> 'entities'))`,
          updated_at: sql`now()`,
        }),
      )
      .returning('config')
      .executeTakeFirstOrThrow()
  ).config;
