// A Melbourne café-bakery's Square files (QA pass "an Australian café's first day", ADR 0193): an
// Item Sales export whose SKU is blank on every line but the bags of beans, so a product is its
// Item and Price Point Name ("Flat White" "Large"); refunds as Event Type Refund with a negative
// Qty and money; day-first dates in one export, ISO in another. The product list is Square's
// library: Item Name and Variation Name, SKU mostly blank.
import { sql, type RawBuilder } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { PreviewFileResponse } from '@stockwise/contract';
import { backends, useServerWithUser } from '../testing/test-server.ts';
import { importFile as importFileAs, postMultipart } from '../testing/uploads.ts';

const header = 'Date,Time,Time Zone,Category,Item,Qty,Price Point Name,SKU,Modifiers Applied,Gross Sales,Discounts,Net Sales,Tax,Transaction ID,Payment ID,Device Name,Notes,Details,Event Type,Location';
const line = (date: string, item: string, qty: number, pricePoint: string, sku: string, money: string, event = 'Payment') =>
  `${date},07:14:02,(UTC+11:00) Melbourne,Coffee,${item},${qty},${pricePoint},${sku},Oat Milk,${money},$0.00,${money},$0.45,TX${date}${item.length},P1,Front Counter,,,${event},Oakleigh Café`;
const itemSales = [
  header,
  line('28/11/2026', 'Flat White', 1, 'Regular', '', '$5.00'),
  line('28/11/2026', 'Flat White', 1, 'Regular', '', '$5.00'),
  line('28/11/2026', 'Flat White', 1, 'Large', '', '$5.80'),
  line('28/11/2026', 'Croissant', 1, 'Regular', '', '$5.50'),
  line('28/11/2026', 'Croissant', 1, 'Regular', '', '$5.50'),
  line('28/11/2026', 'Croissant', -1, 'Regular', '', '-$5.50', 'Refund'),
  line('29/11/2026', 'House Blend Beans', 1, '250g', 'BEAN-HB-250', '$18.00'),
  line('29/11/2026', 'Croissant', 1, 'Regular', '', '$5.50'),
].join('\n');

describe.each(backends)("a Melbourne café's Square files on %s", (backend) => {
  const editor = useServerWithUser(backend, 'editor');
  const importFile = (options: Omit<Parameters<typeof importFileAs>[2], 'fileName'> & { fileName?: string }) => importFileAs(editor.server(), editor.user().access, { fileName: 'items.csv', ...options });
  const stored = async <Row>(query: RawBuilder<Row>) => (await query.execute(editor.server().database.db)).rows;

  const preview = async (fileName: string, content: string, entityType: string) => {
    const result = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [{ name: 'entity_type', value: entityType }, { name: 'time_zone', value: 'Australia/Melbourne' }, { name: 'file', fileName, content }]);
    expect(result.status, JSON.stringify(result.json)).toBe(200);
    return result.json as PreviewFileResponse;
  };

  it('proposes the product as Item + Price Point Name where the SKU is blank on most lines, and shows the rows so', async () => {
    const previewed = await preview('items-2026-11-28-2026-11-29.csv', itemSales, 'sales');
    expect(previewed.proposed_mapping).toMatchObject({ product_id: 'Item', date: 'Date', quantity: 'Qty' });
    expect(previewed.proposed_joined_columns).toEqual({ product_id: ['Price Point Name'] });
    // No line is skipped as "without a product code": the beans keep their SKU-less name too.
    expect(previewed.blank_code_lines).toBeUndefined();
    expect(previewed.proposed_skip_rows_without_code).toBeUndefined();
    expect(previewed.rows.map((row) => [row.values.product_id, row.values.quantity, row.skipped ?? false])).toEqual([
      ['Flat White Regular', 1, false],
      ['Flat White Regular', 1, false],
      ['Flat White Large', 1, false],
      ['Croissant Regular', 1, false],
      ['Croissant Regular', 1, false],
    ]);
  });

  it('keeps a SKU that most lines fill: a shop with codes is not proposed names', async () => {
    const coded = [header, line('2026-11-28', 'Flat White', 1, 'Regular', 'FW-R', '$5.00'), line('2026-11-28', 'Gift card', 1, 'Regular', '', '$50.00'), line('2026-11-28', 'Flat White', 1, 'Large', 'FW-L', '$5.80')].join('\n');
    const previewed = await preview('items.csv', coded, 'sales');
    expect(previewed.proposed_mapping.product_id).toBe('SKU');
    // The code is not joined; only the name a line without one is known by reads its price point (ADR 0201 F6), "Regular" left out (F8).
    expect(previewed.proposed_joined_columns).toEqual({ 'new_products.name': ['Price Point Name'] });
    expect(previewed.proposed_joined_leave_out).toEqual({ 'new_products.name': ['Regular'] });
  });

  it("imports the library's Item Name + Variation Name as the code and name, then the sales under those codes, refunds netted", async () => {
    const library = ['Token,Item Name,Variation Name,SKU,Category,Price', 'T1,Flat White,Regular,,Coffee,$5.00', 'T2,Flat White,Large,,Coffee,$5.80', 'T3,Croissant,Regular,,Bakery,$5.50', 'T4,House Blend Beans,250g,BEAN-HB-250,Retail,$18.00'].join('\n');
    const proposal = await preview('library.csv', library, 'products');
    expect(proposal.proposed_mapping).toMatchObject({ product_code: 'Item Name', name: 'Item Name', category: 'Category' });
    expect(proposal.proposed_joined_columns).toEqual({ product_code: ['Variation Name'], name: ['Variation Name'] });
    // A café's "Regular" is a size beside Large, and its code the joined text: nothing is left out of it (ADR 0201 F8).
    expect(proposal.proposed_joined_leave_out).toBeUndefined();
    expect(proposal.rows.map((row) => [row.values.product_code, row.values.name])).toContainEqual(['Flat White Regular', 'Flat White Regular']);
    const joined = { product_code: ['Variation Name'], name: ['Variation Name'] };
    const products = await importFile({ fileName: 'library.csv', content: library, entityType: 'products', mapping: { entities: { products: { field_mappings: { product_code: 'Item Name', name: 'Item Name', category: 'Category' }, joined_columns: joined } } } });
    expect(products.status, JSON.stringify(products.json)).toBe(200);
    expect(await stored(sql<{ code: string; name: string }>`select product_code as code, name from data.products order by 1`)).toEqual([
      { code: 'Croissant Regular', name: 'Croissant Regular' },
      { code: 'Flat White Large', name: 'Flat White Large' },
      { code: 'Flat White Regular', name: 'Flat White Regular' },
      { code: 'House Blend Beans 250g', name: 'House Blend Beans 250g' },
    ]);

    const sales = await importFile({ content: itemSales, entityType: 'sales', mapping: { entities: { sales: { field_mappings: { product_id: 'Item', date: 'Date', quantity: 'Qty' }, joined_columns: { product_id: ['Price Point Name'] } } } } });
    expect(sales.status, JSON.stringify(sales.json)).toBe(200);
    const sold = await stored(sql<{ code: string; date: string; quantity: string }>`
      select p.product_code as code, s.date::text as date, s.quantity::text as quantity from data.sales s join data.products p on p.id = s.product_id order by 1, 2`);
    expect(sold.map((row) => [row.code, row.date, Number(row.quantity)])).toEqual([
      ['Croissant Regular', '2026-11-28', 1],
      ['Croissant Regular', '2026-11-29', 1],
      ['Flat White Large', '2026-11-28', 1],
      ['Flat White Regular', '2026-11-28', 2],
      ['House Blend Beans 250g', '2026-11-29', 1],
    ]);
  });

  it('reads a saved mapping without joined_leave_out as before: its codes and names keep "Regular"; with it, a name leaves it out, its code as saved (ADR 0201 F8)', async () => {
    const library = ['Token,Item Name,Variation Name,SKU,Category', 'T1,Flat White,Regular,,Coffee', 'T2,Flat White,Large,,Coffee', 'T3,Tea Towel,Regular,TT-1,Gifts'].join('\n');
    // As saved before ADR 0201 F8: a SKU kept, the name joined with its variation, the SKU-less coded by their name.
    const saved = { field_mappings: { product_code: 'SKU', name: 'Item Name', category: 'Category' }, joined_columns: { name: ['Variation Name'] }, blank_code_by_name: true };
    expect((await importFile({ fileName: 'library.csv', content: library, entityType: 'products', mapping: { entities: { products: saved } } })).status).toBe(200);
    const products = () => stored(sql<{ code: string; name: string }>`select product_code as code, name from data.products where category in ('Coffee', 'Gifts') order by 1`);
    expect(await products()).toEqual([
      { code: 'Flat White Large', name: 'Flat White Large' },
      { code: 'Flat White Regular', name: 'Flat White Regular' },
      { code: 'TT-1', name: 'Tea Towel Regular' },
    ]);
    // The café's own mapping, its code Item Name + Variation Name, "Regular" left out of the name alone: the codes stay, the names read as Square's.
    const cafe = { field_mappings: { product_code: 'Item Name', name: 'Item Name', category: 'Category' }, joined_columns: { product_code: ['Variation Name'], name: ['Variation Name'] }, joined_leave_out: { name: ['regular'] } };
    expect((await importFile({ fileName: 'library.csv', content: library.split('\n').slice(0, 3).join('\n'), entityType: 'products', mapping: { entities: { products: cafe } } })).status).toBe(200);
    expect(await products()).toEqual([
      { code: 'Flat White Large', name: 'Flat White Large' },
      { code: 'Flat White Regular', name: 'Flat White' },
      { code: 'TT-1', name: 'Tea Towel Regular' },
    ]);
  });

  it("calls a day-first export's head undecided, not refused, where its first lines all fall on 2/12, and the import reads it day-first (F3)", async () => {
    // The web sends the head of a large file (`file_part: head`): its lines are all on 2 December, day ≤ 12 (its last, which may be cut, is not read: 1,081 are).
    const head = [header, ...Array.from({ length: 1082 }, (_, at) => line('2/12/2025', at % 2 ? 'Flat White' : 'Croissant', 1, 'Regular', '', '$5.00'))];
    const whole = [...head, line('13/12/2025', 'Croissant', 2, 'Regular', '', '$11.00'), line('12/12/2025', 'Flat White', 3, 'Regular', '', '$15.00')].join('\n');
    const mapping = { field_mappings: { product_id: 'Item', date: 'Date', quantity: 'Qty' }, joined_columns: { product_id: ['Price Point Name'] }, create_missing_products: true };
    const previewed = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, [
      { name: 'entity_type', value: 'sales' },
      { name: 'time_zone', value: 'Australia/Melbourne' },
      { name: 'locale', value: 'en-AU' },
      { name: 'mapping_config', value: JSON.stringify(mapping) },
      { name: 'file_part', value: 'head' },
      { name: 'file', fileName: 'items-2025-12-01-2026-12-05.csv', content: head.join('\n') },
    ]);
    expect(previewed.status, JSON.stringify(previewed.json)).toBe(200);
    const { date_format: dates, rows } = previewed.json as PreviewFileResponse;
    // Nothing shown is what the import refuses: the rows carry no problem, the date format says the order is undecided in the lines read and which is shown.
    expect(rows.map((row) => [row.values.date, row.problems])).toEqual(Array.from({ length: 5 }, () => ['2025-12-02', {}]));
    expect(dates).toMatchObject({ detected: null, ambiguous: true });
    expect(dates.undecided_in_lines_read).toContain('every day in the 1,081 lines read is 12 or less. The import reads the whole file and takes the order from its first day past the 12th; shown here day-first');

    const imported = await importFile({ fileName: 'items-2025-12-01-2026-12-05.csv', content: whole, entityType: 'sales', mapping: { entities: { sales: mapping } } });
    expect(imported.status, JSON.stringify(imported.json)).toBe(200);
    const days = await stored(sql<{ date: string; quantity: string }>`select date::text as date, sum(quantity)::text as quantity from data.sales where date between '2025-01-01' and '2025-12-31' group by 1 order by 1`);
    expect(days.map((row) => [row.date, Number(row.quantity)])).toEqual([
      ['2025-12-02', 1082],
      ['2025-12-12', 3],
      ['2025-12-13', 2],
    ]);
    // The same file read whole is not undecided: no words about it.
    const read = await preview('items.csv', whole, 'sales');
    expect(read.date_format).toEqual({ detected: 'dd/mm/yyyy', ambiguous: false, candidates: ['dd/mm/yyyy'] });
  });

  it('refuses joined columns without the field mapped, and a joined column the file lacks, each with a 400 naming it', async () => {
    const unmapped = await importFile({ content: itemSales, entityType: 'sales', mapping: { entities: { sales: { field_mappings: { date: 'Date', quantity: 'Qty' }, joined_columns: { product_id: ['Price Point Name'] } } } } });
    expect(unmapped.status).toBe(400);
    expect(JSON.stringify(unmapped.json)).toContain('no column is mapped to product_id');
    const absent = await importFile({ content: itemSales, entityType: 'sales', mapping: { entities: { sales: { field_mappings: { product_id: 'Item', date: 'Date', quantity: 'Qty' }, joined_columns: { product_id: ['Variation'] } } } } });
    expect(absent.status).toBe(400);
    expect(JSON.stringify(absent.json)).toContain("no column 'Variation' for product_id");
    const leftOutOfNothing = await importFile({ content: itemSales, entityType: 'sales', mapping: { entities: { sales: { field_mappings: { product_id: 'Item', date: 'Date', quantity: 'Qty' }, joined_leave_out: { product_id: ['Regular'] } } } } });
    expect(leftOutOfNothing.status).toBe(400);
    expect(JSON.stringify(leftOutOfNothing.json)).toContain('joined_leave_out.product_id leaves values out of the columns joined to product_id, but joined_columns joins none to product_id');
  });
});
