// SQL of the configuration feature: entity configs updated through the API.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const listEntityOverrides = (db: Kysely<Database>) => db.selectFrom('config_entities').select(['name', 'config']).orderBy('name').execute();

/** One statement: durable on commit, and a concurrent update of another entity cannot be lost. */
export const upsertEntityOverride = (db: Kysely<Database>, name: string, config: object) =>
  db
    .insertInto('config_entities')
    .values({ name, config: JSON.stringify(config) })
    .onConflict((oc) => oc.column('name').doUpdateSet({ config: JSON.stringify(config), updated_at: sql`now()` }))
    .execute();

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
