// A Lyon épicerie fine's caisse exports (QA pass "a Lyon épicerie's first day", ADR 0203): the
// articles file in Windows-1252, semicolons and decimal commas, "Prix de vente TTC" beside "Prix
// d'achat HT"; the ventes file in UTF-8 with a BOM, one line per ticket line, day-first dates,
// weighed goods in fractional kilograms ("0,350"), returns as negative lines. Both imported with the
// preview's proposals alone, as the Import screen sends them.
import { mappingFromProposal } from '@stockwise/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { importScreen } from '../testing/proposed-mapping.ts';
import { ARTICLES, articlesFile, inAugustClosure, venteLines, ventesFile } from '../../../../e2e/fixtures/lyon-epicerie.ts';

describe.each(backends)("a Lyon épicerie's caisse exports on %s", (backend) => {
  const editor = useServerWithUser(backend, 'editor');
  const db = () => editor.server().database.db;
  const { preview, importAs } = importScreen(editor, 'caisse');

  it("proposes the articles' purchase price before VAT as the unit cost, not the selling price (F1), and keeps the weighed stock to the gram", async () => {
    const proposal = await preview(articlesFile(), 'products');
    expect(proposal.proposed_mapping).toMatchObject({
      product_code: 'Code article',
      name: 'Désignation',
      category: 'Famille',
      current_stock: 'Stock',
      unit: 'Unité',
      unit_cost: "Prix d'achat HT",
      supplier: 'Fournisseur',
      lead_time_days: 'Délai (jours)',
    });
    expect(proposal.decimal_separator.detected).toBe(',');
    expect(proposal.rows[0]?.values).toMatchObject({ product_code: 'FRO001', name: 'Comté AOP 18 mois', unit: 'kg', unit_cost: 17.15 });

    const imported = await importAs(articlesFile(), 'products', mappingFromProposal(proposal));
    expect(imported.counts).toMatchObject({ inserted: ARTICLES.length });
    const stored = await sql<{ code: string; name: string; unit: string | null; cost: string; stock: string }>`
      select product_code as code, name, unit, unit_cost::text as cost, current_stock::text as stock from data.products order by 1`.execute(db());
    const byCode = new Map(stored.rows.map((row) => [row.code, row]));
    for (const article of ARTICLES) {
      const row = byCode.get(article.code);
      // Windows-1252 read as such: the accents and the typographic apostrophe.
      expect([row?.name, Number(row?.cost)], article.code).toEqual([article.name, Math.round(article.cost * 100) / 100]);
      // "pièce" is a count (no measure unit), "kg" a weight.
      expect(row?.unit ?? null, article.code).toBe(article.unit === 'kg' ? 'kg' : null);
    }
    // A weighed article's stock, "2,391" kg, to the gram.
    expect(Number(byCode.get('FRO001')?.stock)).toBe(2.391);
  });

  it('imports every ventes line: day-first dates, fractional kilograms to the gram, returns netted, nothing on a closed day', async () => {
    await importAs(articlesFile(), 'products', mappingFromProposal(await preview(articlesFile(), 'products')));
    const proposal = await preview(ventesFile(), 'sales');
    expect(proposal.proposed_mapping).toMatchObject({ product_id: 'Code article', date: 'Date', quantity: 'Quantité' });
    expect(proposal.decimal_separator.detected).toBe(',');
    expect(proposal.rows[0]?.values).toMatchObject({ product_id: 'FRO023', date: '2024-12-03', quantity: 0.128 });

    const lines = venteLines();
    const imported = await importAs(ventesFile(), 'sales', mappingFromProposal(proposal));
    expect(imported.counts.rows).toBe(lines.length);
    expect(imported.counts.skipped ?? 0).toBe(0);
    expect(imported.message).toContain('Dates were read day-first (dd/mm/yyyy).');

    // The file's grams per product and day, added up as integers: the stored sums must be these exactly.
    const inFile = new Map<string, number>();
    for (const line of lines) inFile.set(`${line.code} ${line.iso}`, (inFile.get(`${line.code} ${line.iso}`) ?? 0) + line.thousandths);
    const stored = await sql<{ code: string; day: string; quantity: string }>`
      select p.product_code as code, s.date::text as day, s.quantity::text as quantity from data.sales s join data.products p on p.id = s.product_id`.execute(db());
    expect(stored.rows.length).toBe(inFile.size);
    const mismatched = stored.rows.filter((row) => Math.round(Number(row.quantity) * 1000) !== inFile.get(`${row.code} ${row.day}`));
    expect(mismatched).toEqual([]);
    // Weighed lines are kept to the gram, not rounded: Comté sold in 0,xxx kg portions.
    expect(stored.rows.filter((row) => row.code === 'FRO001').some((row) => !Number.isInteger(Number(row.quantity) * 100))).toBe(true);
    // A return on its own ticket nets the day's sale; none lands on a Monday or in the August closure.
    expect(lines.some((line) => line.thousandths < 0)).toBe(true);
    expect(stored.rows.filter((row) => new Date(`${row.day}T00:00:00Z`).getUTCDay() === 1 || inAugustClosure(row.day))).toEqual([]);
  }, 120_000);
});
