// A mapping's value maps (`value_maps: {status: {geplant: scheduled}}`) on the real database: a
// German shop's deliveries imported with its own words, matched ignoring case; a value the map
// does not name still refused, saying the way out and listed once in the answer; a map the table
// cannot take refused with a 400 naming field and value wherever the mapping is saved or used;
// the preview and an integration's run typing through the same map.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { PreviewFileResponse } from '@stockwise/contract';
import { useImportServer } from '../testing/import-server.ts';
import { backends } from '../testing/test-server.ts';
import { importFile, postMultipart } from '../testing/uploads.ts';

const fieldMappings = { product_id: 'Artikel', expected_date: 'Liefertermin', quantity: 'Menge', status: 'Status' };
const deliveriesMapping = (valueMaps?: Record<string, Record<string, string>>, extra: Record<string, unknown> = {}) => ({
  entities: { deliveries: { field_mappings: fieldMappings, ...extra, ...(valueMaps ? { value_maps: valueMaps } : {}) } },
});
const german = { status: { geplant: 'scheduled', erhalten: 'received' } };

describe.each(backends)('value maps on %s', (backend) => {
  const shop = useImportServer(backend, { csv: 'code,name\nVM-1,Gießkanne\nVM-2,Spaten\nVM-3,Rechen\n', fieldMappings: { product_code: 'code', name: 'name' } });

  const deliveriesOf = async (prefix: string) =>
    (
      await sql<{ code: string; expected_date: string; quantity: number; status: string }>`
        select p.product_code as code, d.expected_date, d.quantity, d.status from data.deliveries d join data.products p on p.id = d.product_id
        where p.product_code like ${`${prefix}%`} order by 1, 2`.execute(shop.server.database.db)
    ).rows;
  const deliveriesCount = async () => Number((await sql<{ n: number }>`select count(*)::int as n from data.deliveries`.execute(shop.server.database.db)).rows[0]?.n);

  it("imports a German shop's statuses through the map, ignoring case and spaces; values the map does not name pass unchanged", async () => {
    const csv = 'Artikel;Liefertermin;Menge;Status\nVM-1;01.06.2026;10;geplant\nVM-2;02.06.2026;5; Erhalten \nVM-3;03.06.2026;2;GEPLANT\nVM-3;04.06.2026;1;cancelled\n';
    const result = await importFile(shop.server, shop.editor, { fileName: 'lieferungen.csv', content: csv, mapping: deliveriesMapping(german, { date_format: 'dd.mm.yyyy' }), entityType: 'deliveries' });
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    expect(await deliveriesOf('VM-')).toEqual([
      { code: 'VM-1', expected_date: '2026-06-01', quantity: 10, status: 'scheduled' },
      { code: 'VM-2', expected_date: '2026-06-02', quantity: 5, status: 'received' },
      { code: 'VM-3', expected_date: '2026-06-03', quantity: 2, status: 'scheduled' },
      { code: 'VM-3', expected_date: '2026-06-04', quantity: 1, status: 'cancelled' },
    ]);
  });

  it('still refuses a value the map does not name, saying the way out, and lists each refused value once', async () => {
    const before = await deliveriesCount();
    const csv = 'Artikel;Liefertermin;Menge;Status\nVM-1;10.06.2026;1;geplant\nVM-1;11.06.2026;1;storniert\nVM-2;11.06.2026;1;Storniert\nVM-2;12.06.2026;1;verloren\n';
    const refused = await importFile(shop.server, shop.editor, { fileName: 'lieferungen.csv', content: csv, mapping: deliveriesMapping(german, { date_format: 'dd.mm.yyyy' }), entityType: 'deliveries' });
    expect(refused.status).toBe(400);
    expect(refused.json.row_error_count).toBe(3);
    expect(refused.json.row_errors).toEqual([
      {
        row: 3,
        field: 'status',
        column: 'Status',
        reason:
          'storniert is not one of the allowed values: scheduled, received, cancelled. Change the values in the file, say in the mapping what storniert means (storniert → one of those values), or leave Status unmapped: every row then gets scheduled (the default).',
      },
      { row: 4, field: 'status', column: 'Status', reason: expect.stringContaining('say in the mapping what Storniert means (Storniert → one of those values)') },
      { row: 5, field: 'status', column: 'Status', reason: expect.stringContaining('verloren is not one of the allowed values') },
    ]);
    expect(refused.json.refused_choices).toEqual([{ field: 'status', values: ['storniert', 'verloren'], choices: ['scheduled', 'received', 'cancelled'] }]);
    expect(await deliveriesCount()).toBe(before);
    // The import's log keeps what the answer said (declared in the log's schema).
    const log = await shop.server.request(`/api/records/imports/${String(refused.json.import_id)}/`, { token: shop.editor });
    expect(log.status, log.text).toBe(200);
    expect(log.json.details).toMatchObject({ row_error_count: 3, refused_choices: refused.json.refused_choices });
  });

  it('refuses a map the table cannot take with a 400 naming the field and value, when used and when saved; nothing is written or saved', async () => {
    const before = await deliveriesCount();
    const csv = 'Artikel;Liefertermin;Menge;Status\nVM-1;20.06.2026;1;geplant\n';
    const bad: [Record<string, unknown>, string][] = [
      [deliveriesMapping({ status: { geplant: 'planned' } }), 'Invalid configuration: value_maps.status.geplant: planned is not one of the allowed values of Status: scheduled, received, cancelled.'],
      [deliveriesMapping({ quantity: { zehn: '10' } }), 'Invalid configuration: value_maps.quantity: Quantity is neither a column with a set of allowed values nor a yes-or-no column; only those take a value map.'],
      [
        { entities: { deliveries: { field_mappings: { product_id: 'Artikel', expected_date: 'Liefertermin', quantity: 'Menge' }, value_maps: german } } },
        'Invalid configuration: value_maps.status: Status is not mapped to a column of the file, so there are no values of it to map.',
      ],
      [deliveriesMapping({ status: { geplant: 'scheduled', Geplant: 'received' } }), 'Invalid configuration: value_maps.status: geplant and Geplant are the same value (case is ignored) but are mapped to scheduled and received.'],
    ];
    for (const [mapping, detail] of bad) {
      const used = await importFile(shop.server, shop.editor, { fileName: 'l.csv', content: csv, mapping, entityType: 'deliveries' });
      expect(used.status, JSON.stringify(used.json)).toBe(400);
      expect(used.json.detail).toBe(detail);
      const previewed = await postMultipart(shop.server, '/api/records/preview-file/', shop.editor, [
        { name: 'file', fileName: 'l.csv', content: csv },
        { name: 'entity_type', value: 'deliveries' },
        { name: 'mapping_config', value: JSON.stringify(mapping) },
      ]);
      expect(previewed.status).toBe(400);
      expect(previewed.json.detail).toBe(detail);
      const saved = await shop.server.request('/api/yaml/save-mapping/', { body: { name: 'vm_bad', config: mapping }, token: shop.editor });
      expect(saved.status, saved.text).toBe(400);
      expect(saved.json.detail).toBe(detail);
    }
    const unknownEntity = await shop.server.request('/api/yaml/save-mapping/', { body: { name: 'vm_bad', config: { entities: { orders: { field_mappings: { status: 'S' }, value_maps: german } } } }, token: shop.editor });
    expect(unknownEntity.json.detail).toBe("Invalid configuration: value_maps of 'orders' cannot be checked: there is no entity 'orders'.");
    expect(await deliveriesCount()).toBe(before);
    const config = await shop.server.request('/api/yaml/config/', { token: shop.editor });
    expect(Object.keys((config.json.content as { mappings: object }).mappings)).not.toContain('vm_bad');
  });

  it("takes a yes-or-no column's map to true or false, and refuses any other stored value with a 400 naming the field and value, when used and when saved", async () => {
    const products = (valueMap: Record<string, string>) => ({ entities: { products: { field_mappings: { product_code: 'code', name: 'name', not_stocked: 'Art' }, value_maps: { not_stocked: valueMap } } } });
    const csv = 'code,name,Art\nVM-S1,Lieferung,Leistung\nVM-S2,Schaufel,Ware\nVM-S3,Gutschein,ja\n';
    const detail = 'Invalid configuration: value_maps.not_stocked.ja: yes is not one of the allowed values of Not stocked (a service or fee): true, false.';
    const bad = products({ Leistung: 'true', Ware: 'false', ja: 'yes' });
    const used = await importFile(shop.server, shop.editor, { fileName: 'artikel.csv', content: csv, mapping: bad, entityType: 'products' });
    expect(used.status, JSON.stringify(used.json)).toBe(400);
    expect(used.json.detail).toBe(detail);
    const saved = await shop.server.request('/api/yaml/save-mapping/', { body: { name: 'vm_bad_yes_no', config: bad }, token: shop.editor });
    expect(saved.status, saved.text).toBe(400);
    expect(saved.json.detail).toBe(detail);

    const imported = await importFile(shop.server, shop.editor, { fileName: 'artikel.csv', content: csv, mapping: products({ Leistung: 'true', Ware: 'false', JA: 'true' }), entityType: 'products' });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const stored = await shop.server.database.db.selectFrom('data.products').select(['product_code', 'not_stocked']).where('product_code', 'like', 'VM-S%').orderBy('product_code').execute();
    expect(stored).toEqual([
      { product_code: 'VM-S1', not_stocked: true },
      { product_code: 'VM-S2', not_stocked: false },
      { product_code: 'VM-S3', not_stocked: true },
    ]);
  });

  it('previews through the map, and lists the values it leaves refused over every record read, not only the rows shown', async () => {
    const lines = Array.from({ length: 8 }, (_, at) => `VM-1;${String(at + 1).padStart(2, '0')}.07.2026;1;${at < 6 ? 'geplant' : at === 6 ? 'storniert' : 'Unterwegs'}`);
    const { status, json } = await postMultipart(shop.server, '/api/records/preview-file/', shop.editor, [
      { name: 'file', fileName: 'l.csv', content: `Artikel;Liefertermin;Menge;Status\n${lines.join('\n')}\n` },
      { name: 'entity_type', value: 'deliveries' },
      { name: 'mapping_config', value: JSON.stringify(deliveriesMapping(german)) },
    ]);
    expect(status, JSON.stringify(json)).toBe(200);
    const preview = json as PreviewFileResponse;
    expect(preview.rows.map((row) => row.values['status'])).toEqual(['scheduled', 'scheduled', 'scheduled', 'scheduled', 'scheduled']);
    expect(preview.rows.every((row) => Object.keys(row.problems).length === 0)).toBe(true);
    expect(preview.refused_choices).toEqual([{ field: 'status', values: ['storniert', 'Unterwegs'], choices: ['scheduled', 'received', 'cancelled'] }]);
  });

  it('saves a mapping with its value maps, and an integration run through it stores the meant values', async () => {
    const mapping = { entities: { deliveries: { field_mappings: { product_id: 'artikel', expected_date: 'termin', quantity: 'menge', status: 'status' }, value_maps: { status: { Geplant: 'scheduled', storniert: 'cancelled' } } } } };
    const saved = await shop.server.request('/api/yaml/save-mapping/', { body: { name: 'vm_lieferungen', config: mapping }, token: shop.editor });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json.mapping).toEqual(mapping);
    const config = await shop.server.request('/api/yaml/config/', { token: shop.editor });
    expect((config.json.content as { mappings: Record<string, unknown> }).mappings['vm_lieferungen']).toEqual(mapping);

    const { id, outcome } = await shop.runIntegrationOn(
      '/lieferungen',
      [
        { artikel: 'VM-2', termin: '2026-08-01', menge: 3, status: 'geplant' },
        { artikel: 'VM-2', termin: '2026-08-02', menge: 4, status: 'STORNIERT' },
        { artikel: 'VM-2', termin: '2026-08-03', menge: 5, status: 'verschollen' },
      ],
      { mapping_selection: 'vm_lieferungen', target_entity: 'deliveries' },
    );
    expect(outcome).toMatchObject({ status: 'success', counts: { inserted: 2, rejected: 1 } });
    expect((await deliveriesOf('VM-2')).filter((row) => row.expected_date.startsWith('2026-08'))).toEqual([
      { code: 'VM-2', expected_date: '2026-08-01', quantity: 3, status: 'scheduled' },
      { code: 'VM-2', expected_date: '2026-08-02', quantity: 4, status: 'cancelled' },
    ]);
    const logs = await shop.server.request(`/api/integrations/scheduled/${id}/logs/`, { token: shop.admin });
    expect((logs.json.results as { rejections: unknown }[])[0]?.rejections).toEqual([{ page: 1, record: 3, field: 'status', reason: expect.stringContaining('say in the mapping what verschollen means') }]);
  });
});
