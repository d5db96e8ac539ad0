// One product's supplier named from its own spellings only (ADR 0186, amendment 2026-12-06), on
// both databases: `supplierNameOf` reads the stored values that may be the supplier's — not the
// catalogue's other suppliers — and answers the name the whole catalogue's SupplierNames gives,
// for twins told apart by case, white space (tabs, no-break spaces) and Unicode form or case
// mapping (a decomposed "ü", the Kelvin sign), for a tie, and for none.
import { beforeAll, describe, expect, it } from 'vitest';
import { supplierKey } from '@stockwise/contract';
import { backends, useMigratedDatabase } from '../testing/test-server.ts';
import { storedSpellingsOf } from './repo.ts';
import { readSupplierNames, supplierNameOf } from './service.ts';

/** Stored in this order (ids ascending), one product each. */
const STORED: (string | null)[] = [
  'Acme',
  'ACME',
  'ACME',
  ' acme  ',
  'ACME\u00A0',
  'acme\tLtd',
  'ACME\u00A0LTD',
  'Acme Ltd',
  'AcmeLtd',
  'Mu\u0308ller',
  'Müller',
  'MÜLLER',
  'MÜLLER',
  '\u212Aiwi Farm',
  'kiwi farm',
  'kiwi farm',
  'Nova',
  'NOVA',
  null,
  '   ',
  '\u00A0',
  ...Array.from({ length: 50 }, (_, at) => `Other ${at + 1}`),
  // LIKE's wildcards, written as names.
  'a_b',
  'AXB',
  '100%',
  '1000',
];

describe.each(backends)("one product's supplier named from its own spellings on %s", (backend) => {
  const database = useMigratedDatabase(backend, 'stockwise_supplier_name');
  const db = () => database().db;

  beforeAll(async () => {
    await db()
      .insertInto('data.products')
      .values(STORED.map((supplier, at) => ({ product_code: `P-${at + 1}`, name: `Product ${at + 1}`, supplier, current_stock: 1, unit_cost: 1, lead_time_days: 7 })))
      .execute();
  });

  it('names each supplier as the whole catalogue does: the spelling most products hold, of as many the earliest, none for null or blank', async () => {
    const whole = await readSupplierNames(db());
    const asked = [...new Set([...STORED, 'Zeta  Co', 'acmeltd'])];
    const alone = await Promise.all(asked.map((stored) => supplierNameOf(db(), stored)));
    expect(alone).toEqual(asked.map((stored) => whole.nameOf(stored)));
    const named = Object.fromEntries(asked.slice(0, 21).map((stored, at) => [JSON.stringify(stored), alone[at]]));
    expect(named).toEqual({
      '"Acme"': 'ACME',
      '"ACME"': 'ACME',
      '" acme  "': 'ACME',
      '"ACME\u00A0"': 'ACME',
      // One product each: the spelling of the earliest.
      '"acme\\tLtd"': 'acme Ltd',
      '"ACME\u00A0LTD"': 'acme Ltd',
      '"Acme Ltd"': 'acme Ltd',
      // Not "Acme Ltd": no guessing.
      '"AcmeLtd"': 'AcmeLtd',
      '"Mu\u0308ller"': 'MÜLLER',
      '"Müller"': 'MÜLLER',
      '"MÜLLER"': 'MÜLLER',
      '"\u212Aiwi Farm"': 'kiwi farm',
      '"kiwi farm"': 'kiwi farm',
      '"Nova"': 'Nova',
      '"NOVA"': 'Nova',
      null: null,
      '"   "': null,
      '"\u00A0"': null,
      '"Other 1"': 'Other 1',
      '"Other 2"': 'Other 2',
      '"Other 3"': 'Other 3',
    });
    expect(alone.slice(-2)).toEqual(['Zeta Co', 'AcmeLtd']);
  });

  it("reads ACME's stored spellings and a few more, those holding other than ASCII, none of the other suppliers'", async () => {
    const read = async (name: string) => (await storedSpellingsOf(supplierKey(name)).execute(db())).rows;
    const ascii = (rows: { stored: string | null }[]) => rows.map((row) => row.stored).filter((stored) => stored !== null && /^[\t -~]*$/.test(stored)).sort();
    const acme = await read('ACME');
    // Holding "acme": the rule sets "Acme Ltd" apart; no "Other 1", "Nova" or "kiwi farm".
    expect(ascii(acme)).toEqual(['Acme', 'ACME', ' acme  ', 'acme\tLtd', 'Acme Ltd', 'AcmeLtd'].sort());
    expect(acme.map((row) => row.stored).filter((stored) => !ascii(acme).includes(stored)).sort()).toEqual(['ACME\u00A0', 'ACME\u00A0LTD', 'Mu\u0308ller', 'Müller', 'MÜLLER', '\u212Aiwi Farm', '\u00A0'].sort());
    expect(acme.find((row) => row.stored === 'ACME')).toEqual({ stored: 'ACME', products: 2, first_id: expect.any(Number) });
    expect(ascii(await read('acme  ltd'))).toEqual(['acme\tLtd', 'Acme Ltd', 'AcmeLtd'].sort());
    // A name's "_" and "%" are themselves, not LIKE's wildcards.
    expect(ascii(await read('A_B'))).toEqual(['a_b']);
    expect(ascii(await read('100%'))).toEqual(['100%']);
  });
});
