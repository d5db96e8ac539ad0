// The import proposes an entity's default field mappings (Settings → Import entities, ADR 0179) before
// what shops in general call a field, over HTTP on PGlite and PostgreSQL: a German till's "Artikel"
// holds the item's name and "Bestellnummer" its code. By name alone the product is "Artikel" (a
// synonym of a product code); once an administrator maps the sales entity's product to
// "Bestellnummer", the preview proposes that column — and proposes "Artikel" again once the entity
// is set back to the configuration file's version (ADR 0181).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewFileResponse } from '@stockwise/contract';
import { backends, signUpUser, startTestServer, type TestServer } from '../testing/test-server.ts';
import { postMultipart } from '../testing/uploads.ts';

const TILL_FILE = 'Datum;Artikel;Bestellnummer;Menge\n30.11.2026;Gießkanne 10 l;GK-10;2\n30.11.2026;Pflanzkübel;PK-40;1\n';

describe.each(backends)("the import's proposal from an entity's default mappings on %s", (backend) => {
  let server: TestServer;
  let admin: Awaited<ReturnType<typeof signUpUser>>;
  let editor: Awaited<ReturnType<typeof signUpUser>>;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await signUpUser(server, { role: 'admin' });
    editor = await signUpUser(server, { role: 'editor' });
  });
  afterAll(() => server?.stop());

  const proposed = async (content: string) => {
    const answer = await postMultipart(server, '/api/records/preview-file/', editor.access, [{ name: 'file', fileName: 'kasse.csv', content }, { name: 'entity_type', value: 'sales' }]);
    expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    return (answer.json as PreviewFileResponse).proposed_mapping;
  };
  const salesDefaults = async (fieldMappings: Record<string, string>) => {
    const answer = await server.request('/api/yaml/update-entity/', { token: admin.access, body: { entity_name: 'sales', config: { table: 'sales', key: ['product_id', 'date'], repeated_keys: 'sum', field_mappings: fieldMappings } } });
    expect(answer.status, answer.text).toBe(200);
  };

  it('proposes by name alone with the shipped defaults', async () => {
    expect(await proposed(TILL_FILE)).toEqual({ product_id: 'Artikel', date: 'Datum', quantity: 'Menge' });
  });

  it("proposes the administrator's column for the product, matched ignoring case and spacing, the other fields still by name", async () => {
    await salesDefaults({ product_id: 'Bestellnummer', date: 'date', quantity: 'quantity' });
    expect(await proposed(TILL_FILE)).toEqual({ product_id: 'Bestellnummer', date: 'Datum', quantity: 'Menge' });
    expect(await proposed(TILL_FILE.replace('Bestellnummer', 'BESTELL NUMMER'))).toEqual({ product_id: 'BESTELL NUMMER', date: 'Datum', quantity: 'Menge' });
    // A file without that column: the proposal by name, as before.
    expect(await proposed('Datum;Artikel;Menge\n30.11.2026;GK-10;2\n')).toEqual({ product_id: 'Artikel', date: 'Datum', quantity: 'Menge' });
  });

  it("proposes by name again once the entity is set back to the file's version", async () => {
    const reset = await server.request('/api/yaml/reset-entity/', { token: admin.access, body: { entity_name: 'sales' } });
    expect(reset.status, reset.text).toBe(200);
    expect(await proposed(TILL_FILE)).toEqual({ product_id: 'Artikel', date: 'Datum', quantity: 'Menge' });
  });
});
