// The words and phrases of product names, kept between questions while the names stand: read again
// after a product is renamed, added or deleted — through this instance, by plain SQL, or (on
// PostgreSQL) through another instance's connection — and never served for other names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase, type AppDatabase } from '../db/database.ts';
import { createScratchDatabase, type ScratchDatabase } from '../testing/scratch-database.ts';
import { backends } from '../testing/test-server.ts';
import { productNames } from './vocabulary.ts';

describe.each(backends)('product-name words and phrases on %s', (backend) => {
  let scratch: ScratchDatabase;
  let database: AppDatabase;
  /** Another instance's connection to the same database (PGlite: the same one, as it has no other). */
  let other: AppDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase(backend === 'postgres' ? 'postgres' : 'pglite-memory', { namePrefix: 'vocabulary' });
    database = await openDatabase(scratch.target);
    await migrateToLatest(database.db);
    other = backend === 'postgres' ? await openDatabase(scratch.target) : database;
    await database.db
      .insertInto('data.products')
      .values([
        { product_code: 'SS-18', name: 'Snow Shovel 18in', current_stock: 0, unit_cost: 1, lead_time_days: 7 },
        { product_code: 'PT-24', name: 'Pressure Treated Lumber 2x4', current_stock: 0, unit_cost: 1, lead_time_days: 7 },
      ])
      .execute();
  });
  afterAll(async () => {
    if (other !== database) await other.close();
    await database.close();
    await scratch.drop();
  });

  it('keeps them while the names stand, and reads them again once a name changes, whoever changed it', async () => {
    const first = await productNames(database.db);
    expect(first.phrases).toEqual(['Pressure Treated', 'Snow Shovel', 'Treated Lumber', 'Pressure Treated Lumber']);
    expect(first.words).toEqual(['Lumber', 'Pressure', 'Shovel', 'Snow', 'Treated']);
    // The names unchanged (stock and cost are no names): the same words, not read again.
    await database.db.updateTable('data.products').set({ current_stock: 12 }).execute();
    expect(await productNames(database.db)).toBe(first);

    await other.db.updateTable('data.products').set({ name: 'Snow Brush Deluxe' }).where('product_code', '=', 'SS-18').execute();
    const renamed = await productNames(database.db);
    expect(renamed.phrases).toEqual(['Brush Deluxe', 'Pressure Treated', 'Snow Brush', 'Treated Lumber', 'Pressure Treated Lumber', 'Snow Brush Deluxe']);
    expect(renamed.words).not.toContain('Shovel');

    await sql`insert into data.products (product_code, name, current_stock, unit_cost, lead_time_days) values ('IM-20', 'Ice Melt 20lb', 0, 1, 7)`.execute(other.db);
    expect((await productNames(database.db)).phrases).toContain('Ice Melt');
    await other.db.deleteFrom('data.products').where('product_code', '=', 'IM-20').execute();
    const deleted = await productNames(database.db);
    expect(deleted.phrases).toEqual(renamed.phrases);
    expect(deleted).not.toBe(renamed);
    // Two products swapping names hold the same words: nothing to read again.
    await sql`update data.products set name = case product_code when 'SS-18' then 'Pressure Treated Lumber 2x4' else 'Snow Brush Deluxe' end`.execute(other.db);
    expect(await productNames(database.db)).toBe(deleted);
  });

  it('reads a word joined by hyphens or an apostrophe whole and by its parts of 3 or more letters, a single letter never (ADR 0189, amendment 2026-12-06 (5))', async () => {
    await database.db
      .insertInto('data.products')
      .values([
        { product_code: 'TS-M', name: 'T-Shirt Crew M', current_stock: 0, unit_cost: 1, lead_time_days: 7 },
        { product_code: 'LS-XS', name: 'linen-shirt XS', current_stock: 0, unit_cost: 1, lead_time_days: 7 },
        { product_code: 'MS-1', name: 'Men’s Socks', current_stock: 0, unit_cost: 1, lead_time_days: 7 },
      ])
      .execute();
    const { words, phrases } = await productNames(database.db);
    expect(words).toEqual(expect.arrayContaining(['T-Shirt', 'Shirt', 'Crew', 'linen-shirt', 'linen', "Men's", 'Men', 'Socks']));
    expect(words).not.toEqual(expect.arrayContaining(['T']));
    expect(words.filter((word) => word.length < 3)).toEqual([]);
    expect(phrases).toEqual(expect.arrayContaining(['T-Shirt Crew', 'Shirt Crew', 'linen shirt', "Men's Socks"]));
    expect(phrases.filter((phrase) => phrase.split(' ').some((word) => word.length < 3))).toEqual([]);
  });
});
