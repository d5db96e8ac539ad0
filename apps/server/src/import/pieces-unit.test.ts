// A unit that means pieces is stored as none (ADR 0198 F15): Odoo's "Units", "pcs", "Stück" in a
// products file's unit column, the unit a sales line gives a product it creates and a mapping's one
// unit for every line are read as no unit — the product counted in plain units, so the screens write
// "1", not "1 Units" — while kg and Dozens are kept as written.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import type { PreviewFileResponse } from '@stockwise/contract';
import { importFile, postMultipart, type UploadPart } from '../testing/uploads.ts';
import { productsCsv } from '../../../../e2e/fixtures/odoo-wholesaler.ts';

describe.each(backends)('a unit that means pieces, imported on %s', (backend) => {
  const editor = useServerWithUser(backend, 'editor');
  const unitsOf = async (codes: string[]) =>
    Object.fromEntries((await sql<{ code: string; unit: string | null }>`select product_code as code, unit from data.products where product_code = any(${codes}) order by 1`.execute(editor.server().database.db)).rows.map((row) => [row.code, row.unit]));
  const importAs = async (content: string, entityType: string, mapping: unknown) => {
    const result = await importFile(editor.server(), editor.user().access, { fileName: `${entityType}.csv`, content, entityType, mapping });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
  };

  it('stores Units, pcs, Stück and Unit(s) as no unit, and keeps kg and Dozens', async () => {
    const file = ['Code,Name,Unit of Measure', 'PU-1,Stapler,Units', 'PU-2,Hinge,pcs', 'PU-5,Coffee,kg', 'PU-6,Pens,Dozens', 'PU-3,Schraube,Stück', 'PU-4,Folder,Unit(s)', 'PU-7,Tape,'].join('\n');
    const mapping = { field_mappings: { product_code: 'Code', name: 'Name', unit: 'Unit of Measure' } };
    const parts: UploadPart[] = [{ name: 'entity_type', value: 'products' }, { name: 'mapping_config', value: JSON.stringify(mapping) }, { name: 'file', fileName: 'products.csv', content: file }];
    const preview = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, parts);
    expect(preview.status, JSON.stringify(preview.json)).toBe(200);
    // The preview's first rows show the units the import will store.
    expect((preview.json as PreviewFileResponse).rows.map((row) => row.values['unit'] ?? null)).toEqual([null, null, 'kg', 'Dozens', null]);
    await importAs(file, 'products', mapping);
    expect(await unitsOf(['PU-1', 'PU-2', 'PU-3', 'PU-4', 'PU-5', 'PU-6', 'PU-7'])).toEqual({ 'PU-1': null, 'PU-2': null, 'PU-3': null, 'PU-4': null, 'PU-5': 'kg', 'PU-6': 'Dozens', 'PU-7': null });
  });

  it("clears a product's stored \"Units\" when its products file is imported again", async () => {
    // As an import stored it before ADR 0198 F15: the existing data is not migrated, a new import of the list sets it right.
    await editor.server().database.db.insertInto('data.products').values({ product_code: 'PU-OLD', name: 'Old Stapler', current_stock: 0, unit_cost: 1, lead_time_days: 7, unit: 'Units' }).execute();
    await importAs('Code,Name,Unit of Measure\nPU-OLD,Old Stapler,Units\n', 'products', { field_mappings: { product_code: 'Code', name: 'Name', unit: 'Unit of Measure' } });
    expect(await unitsOf(['PU-OLD'])).toEqual({ 'PU-OLD': null });
  });

  it('reads the Odoo product list’s "Units" as none, and its kg and Dozens as the products’ own units', async () => {
    await importAs(productsCsv(), 'products', { field_mappings: { product_code: 'Internal Reference', name: 'Name', unit: 'Unit of Measure' }, skip_rows_without_code: true });
    expect(await unitsOf(['FURN_7800', 'PAP_A4_80', 'PAP_KRAFT', 'PAP_NOTE'])).toEqual({ FURN_7800: null, PAP_A4_80: null, PAP_KRAFT: 'kg', PAP_NOTE: 'Dozens' });
  });

  it('gives a product a sales line creates no unit for "pcs", and kg for "kg"; a mapping’s one unit "each" is none too', async () => {
    await importAs('Date,Item,Description,Qty,Unit\n2026-11-20,PU-NEW-1,Clip,3,pcs\n2026-11-20,PU-NEW-2,Tea,0.5,kg\n', 'sales', {
      field_mappings: { date: 'Date', product_id: 'Item', quantity: 'Qty' },
      create_missing_products: true,
      new_products: { name: 'Description', unit: 'Unit' },
    });
    await importAs('Code,Name\nPU-EACH,Eraser\n', 'products', { field_mappings: { product_code: 'Code', name: 'Name' }, field_values: { unit: 'each' } });
    expect(await unitsOf(['PU-NEW-1', 'PU-NEW-2', 'PU-EACH'])).toEqual({ 'PU-EACH': null, 'PU-NEW-1': null, 'PU-NEW-2': 'kg' });
  });
});
