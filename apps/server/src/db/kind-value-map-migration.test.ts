// Migration 0760 (ADR 0200's amendment) on a running server's database, run down to 0750 and up again: a mapping saved before, which
// maps Odoo's Product Type to not_stocked with no value map (the column read kind words itself then),
// is given the map of every kind word and still imports the product list as it did; a mapping of no
// not_stocked, and one with a map of its own, are left as they were; going back takes the maps away.
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { MAX_VALUE_MAP_ENTRIES, type EntityMapping } from '@stockwise/contract';
import { migrations } from './migrations/index.ts';
import { KIND_VALUE_MAP } from './migrations/0760-saved-kind-columns-carry-their-value-map.ts';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { importFile } from '../testing/uploads.ts';

const odoo = { product_code: 'Internal Reference', name: 'Name', not_stocked: 'Product Type' };
const sales = { product_id: 'Product', date: 'Date', quantity: 'Qty' };
const own = { field_mappings: odoo, value_maps: { not_stocked: { Leistung: 'true' } } };

describe.each(backends)('migration 0760 on %s', (backend) => {
  const admin = useServerWithUser(backend, 'admin');
  const saved = async () => Object.fromEntries((await sql<{ name: string; config: { entities: Record<string, EntityMapping> } }>`select name, config from config_mappings where name like 'm0760 %'`.execute(admin.server().database.db)).rows.map((row) => [row.name, row.config.entities]));

  it("gives a saved kind column the map of every kind word, and the product list imports through it as before; other mappings are left as they were; down takes the maps away", async () => {
    const server = admin.server();
    const token = admin.user().access;
    const { db } = server.database;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('0750-products-not-stocked')).error).toBeUndefined();
    // As a server before 0760 saved them.
    const mappings = { 'm0760 odoo': { products: { field_mappings: odoo }, sales: { field_mappings: sales } }, 'm0760 own': { products: own } };
    for (const [name, entities] of Object.entries(mappings)) await sql`insert into config_mappings (name, config) values (${name}, ${JSON.stringify({ entities })}::jsonb)`.execute(db);
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const after = await saved();
    // Exactly the frozen map: the 109 words the column read before 0760, whatever the kind list says since.
    expect(after['m0760 odoo']?.['products']).toEqual({ field_mappings: odoo, value_maps: { not_stocked: KIND_VALUE_MAP } });
    expect(after['m0760 odoo']?.['sales']).toEqual({ field_mappings: sales });
    expect(after['m0760 own']?.['products']).toEqual(own);
    const kinds = after['m0760 odoo']?.['products']?.value_maps?.['not_stocked'] ?? {};
    expect(Object.keys(kinds)).toHaveLength(109);
    expect(Object.values(kinds).filter((notStocked) => notStocked === 'true')).toHaveLength(58);
    expect(Object.keys(kinds).length).toBeLessThanOrEqual(MAX_VALUE_MAP_ENTRIES);
    expect(kinds).toMatchObject({ Service: 'true', 'Storable Product': 'false', Consumable: 'false', 'Non-inventory': 'true', 'Non inventory': 'true', Gebühr: 'true', Gebuhr: 'true', 'simple, downloadable, virtual': 'true' });

    // The saved mapping, as the Import screen sends it: every kind the column read before still reads.
    const file = ['Internal Reference,Name,Product Type', 'M0760_DEL,Delivery Charge,Service', 'M0760_PAP,Copier Paper,Storable Product', 'M0760_PEN,Pen,consumable', 'M0760_FEE,Setup fee,NON-INVENTORY', 'M0760_GC,Gift card,"simple, virtual"', 'M0760_KIT,Kit,yes', ''].join('\n');
    const imported = await importFile(server, token, { fileName: 'product.template.csv', content: file, mapping: { entities: { products: after['m0760 odoo']?.['products'] } }, entityType: 'products' });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const stored = await db.selectFrom('data.products').select(['product_code', 'not_stocked']).where('product_code', 'like', 'M0760_%').orderBy('product_code').execute();
    expect(stored.map((row) => [row.product_code, row.not_stocked])).toEqual([
      ['M0760_DEL', true],
      ['M0760_FEE', true],
      ['M0760_GC', true],
      ['M0760_KIT', true],
      ['M0760_PAP', false],
      ['M0760_PEN', false],
    ]);
    // Saved again through the API, the map is one the server takes.
    const resaved = await server.request('/api/yaml/save-mapping/', { body: { name: 'm0760 resaved', config: { entities: { products: after['m0760 odoo']?.['products'] } } }, token });
    expect(resaved.status, resaved.text).toBe(200);

    expect((await migrator.migrateTo('0750-products-not-stocked')).error).toBeUndefined();
    const back = await saved();
    expect(back['m0760 odoo']).toEqual(mappings['m0760 odoo']);
    expect(back['m0760 own']?.['products']).toEqual({ field_mappings: odoo });
    expect(back['m0760 resaved']?.['products']).toEqual({ field_mappings: odoo });
  });
});
