import { describe, expect, it } from 'vitest';
import { blankCodeByNameWithoutName, entityMapping, joinedColumnsRead, joinedLeaveOutRead, joinedValue, MAX_JOINED_LEAVE_OUT, MAX_NEW_PRODUCT_FIELDS, MAX_ROW_FILTER_VALUES, MAX_ROW_FILTERS, MAX_VALUE_MAP_ENTRIES, MAX_VALUE_MAP_FIELDS, productNameForm, saveMappingRequest, valueMapTargets } from './config.ts';

const firstIssue = (input: unknown) => {
  const parsed = entityMapping.safeParse(input);
  return parsed.success ? null : { path: parsed.error.issues[0]?.path.join('.'), message: parsed.error.issues[0]?.message };
};

describe('entityMapping value_maps', () => {
  it('keeps what a file value means in a column, and a saved mapping keeps it', () => {
    const mapping = { field_mappings: { status: 'Status' }, value_maps: { status: { geplant: 'scheduled', Erhalten: 'received' } } };
    expect(entityMapping.parse(mapping)).toEqual(mapping);
    const saved = saveMappingRequest.parse({ name: 'kasse', config: { entities: { deliveries: mapping } } });
    expect(saved.config.entities['deliveries']?.value_maps).toEqual({ status: { geplant: 'scheduled', Erhalten: 'received' } });
  });

  it("keeps a yes-or-no column's map of a file's words to true or false; such a column takes true and false, one of choices its choices, another none", () => {
    const mapping = { field_mappings: { not_stocked: 'Product Type' }, value_maps: { not_stocked: { Service: 'true', 'Storable Product': 'false' } } };
    expect(entityMapping.parse(mapping)).toEqual(mapping);
    expect(saveMappingRequest.parse({ name: 'odoo', config: { entities: { products: mapping } } }).config.entities['products']?.value_maps).toEqual(mapping.value_maps);
    expect(valueMapTargets({ type: 'BooleanField' })).toEqual(['true', 'false']);
    expect(valueMapTargets({ type: 'CharField', choices: ['scheduled', 'received'] })).toEqual(['scheduled', 'received']);
    expect(valueMapTargets({ type: 'IntegerField' })).toBeUndefined();
  });

  it('refuses blank or unstorable file values, empty or unstorable stored values, and unknown keys, naming where', () => {
    expect(firstIssue({ field_mappings: {}, value_maps: { status: { '  ': 'scheduled' } } })).toEqual({ path: 'value_maps.status.  ', message: 'A value to map cannot be blank.' });
    expect(firstIssue({ field_mappings: {}, value_maps: { status: { geplant: '' } } })?.path).toBe('value_maps.status.geplant');
    expect(firstIssue({ field_mappings: {}, value_maps: { status: { 'ge\u0000plant': 'scheduled' } } })?.message).toBe('Text may not contain NUL (\\u0000) characters.');
    expect(firstIssue({ field_mappings: {}, value_maps: { status: { geplant: 'sched\u0000uled' } } })?.path).toBe('value_maps.status.geplant');
    expect(firstIssue({ field_mappings: {}, value_maps: { status: 'scheduled' } })?.path).toBe('value_maps.status');
    expect(firstIssue({ field_mappings: {}, value_map: {} })?.message).toContain('value_map');
  });

  it('refuses reserved names as fields or file values (an own __proto__ key of JSON.parse is not dropped silently)', () => {
    expect(firstIssue(JSON.parse('{"field_mappings": {}, "value_maps": {"status": {"__proto__": "scheduled"}}}'))?.path).toBe('value_maps.status');
    expect(firstIssue(JSON.parse('{"field_mappings": {}, "value_maps": {"__proto__": {"a": "b"}}}'))?.path).toBe('value_maps');
  });

  it('bounds the number of fields and of values per field', () => {
    const values = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, at) => [`v${at}`, 'scheduled']));
    expect(firstIssue({ field_mappings: {}, value_maps: { status: values(MAX_VALUE_MAP_ENTRIES) } })).toBeNull();
    expect(firstIssue({ field_mappings: {}, value_maps: { status: values(MAX_VALUE_MAP_ENTRIES + 1) } })).toEqual({ path: 'value_maps.status', message: `At most ${MAX_VALUE_MAP_ENTRIES} values per field.` });
    const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, at) => [`f${at}`, { a: 'b' }]));
    expect(firstIssue({ field_mappings: {}, value_maps: fields(MAX_VALUE_MAP_FIELDS) })).toBeNull();
    expect(firstIssue({ field_mappings: {}, value_maps: fields(MAX_VALUE_MAP_FIELDS + 1) })).toEqual({ path: 'value_maps', message: `At most ${MAX_VALUE_MAP_FIELDS} fields.` });
    expect(firstIssue({ field_mappings: {}, value_maps: { status: { ['x'.repeat(201)]: 'scheduled' } } })?.path).toBe(`value_maps.status.${'x'.repeat(201)}`);
  });
});

describe('entityMapping new_products', () => {
  it('keeps the columns new products take their fields from, and a saved mapping keeps them', () => {
    const mapping = { field_mappings: { product_id: 'Lineitem sku' }, create_missing_products: true, new_products: { name: 'Lineitem name', category: 'Product type' } };
    expect(entityMapping.parse(mapping)).toEqual(mapping);
    const saved = saveMappingRequest.parse({ name: 'shopify', config: { entities: { sales: mapping } } });
    expect(saved.config.entities['sales']?.new_products).toEqual({ name: 'Lineitem name', category: 'Product type' });
  });

  it('refuses empty, too long or unstorable columns and fields, naming where', () => {
    expect(firstIssue({ field_mappings: {}, new_products: { name: '' } })?.path).toBe('new_products.name');
    expect(firstIssue({ field_mappings: {}, new_products: { name: 'x'.repeat(501) } })?.path).toBe('new_products.name');
    expect(firstIssue({ field_mappings: {}, new_products: { name: 'Line\u0000item name' } })).toEqual({ path: 'new_products.name', message: 'Text may not contain NUL (\\u0000) characters.' });
    expect(firstIssue({ field_mappings: {}, new_products: { ['n\u0000ame']: 'Lineitem name' } })?.path).toBe('new_products.n\u0000ame');
    expect(firstIssue({ field_mappings: {}, new_products: { ['x'.repeat(64)]: 'Lineitem name' } })?.path).toBe(`new_products.${'x'.repeat(64)}`);
    expect(firstIssue({ field_mappings: {}, new_products: 'Lineitem name' })?.path).toBe('new_products');
    expect(firstIssue({ field_mappings: {}, new_products: { name: 3 } })?.path).toBe('new_products.name');
    expect(firstIssue(JSON.parse('{"field_mappings": {}, "new_products": {"__proto__": "Lineitem name"}}'))?.path).toBe('new_products');
  });

  it('bounds the number of fields', () => {
    const fields = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, at) => [`f${at}`, `Column ${at}`]));
    expect(firstIssue({ field_mappings: {}, new_products: fields(MAX_NEW_PRODUCT_FIELDS) })).toBeNull();
    expect(firstIssue({ field_mappings: {}, new_products: fields(MAX_NEW_PRODUCT_FIELDS + 1) })).toEqual({ path: 'new_products', message: `At most ${MAX_NEW_PRODUCT_FIELDS} fields.` });
  });
});

describe('entityMapping fill_down_by', () => {
  it('keeps the column blank cells are filled down by (a saved mapping too), and refuses a blank or NUL one', () => {
    const mapping = { field_mappings: { product_code: 'Variant SKU', name: 'Title' }, fill_down_by: 'Handle' };
    expect(saveMappingRequest.parse({ name: 'shopify products', config: { entities: { products: mapping } } }).config.entities['products']?.fill_down_by).toBe('Handle');
    expect(firstIssue({ ...mapping, fill_down_by: '' })?.path).toBe('fill_down_by');
    expect(firstIssue({ ...mapping, fill_down_by: 'Han\u0000dle' })?.path).toBe('fill_down_by');
    expect(firstIssue({ ...mapping, fill_down_by: 'x'.repeat(501) })?.path).toBe('fill_down_by');
  });
});

describe('entityMapping blank_code_by_name', () => {
  it('keeps the option where a name is read (a products file, or new_products.name), a saved mapping too', () => {
    const products = { field_mappings: { product_code: 'Variant SKU', name: 'Title' }, blank_code_by_name: true };
    expect(saveMappingRequest.parse({ name: 'shopify products', config: { entities: { products } } }).config.entities['products']?.blank_code_by_name).toBe(true);
    const sales = { field_mappings: { product_id: 'Lineitem sku', date: 'Created at', quantity: 'Lineitem quantity' }, new_products: { name: 'Lineitem name' }, blank_code_by_name: true };
    expect(entityMapping.parse(sales)).toEqual(sales);
    expect(firstIssue({ field_mappings: { product_id: 'Lineitem sku' }, blank_code_by_name: false })).toBeNull();
  });

  it('refuses the option where no name column is mapped, and a value that is not true or false', () => {
    expect(firstIssue({ field_mappings: { product_id: 'Lineitem sku' }, blank_code_by_name: true })).toEqual({ path: 'blank_code_by_name', message: blankCodeByNameWithoutName });
    expect(firstIssue({ field_mappings: { product_id: 'Lineitem sku' }, new_products: { category: 'Product type' }, blank_code_by_name: true })?.path).toBe('blank_code_by_name');
    expect(firstIssue({ field_mappings: { name: 'Title' }, blank_code_by_name: 'yes' })?.path).toBe('blank_code_by_name');
  });
});

describe('entityMapping joined_columns of a new product field', () => {
  const sales = { field_mappings: { product_id: 'SKU', date: 'Date', quantity: 'Qty' }, new_products: { name: 'Item' }, blank_code_by_name: true };

  it("keeps a line name's joined columns where new_products names its column, a saved mapping too (ADR 0201 F6)", () => {
    const joined = { ...sales, joined_columns: { 'new_products.name': ['Price Point Name'] } };
    expect(entityMapping.parse(joined)).toEqual(joined);
    expect(saveMappingRequest.parse({ name: 'square sales', config: { entities: { sales: joined } } }).config.entities['sales']?.joined_columns).toEqual({ 'new_products.name': ['Price Point Name'] });
  });

  it('refuses them where new_products names no column for the field, and a mapped field joined without its column as before', () => {
    const { new_products: _none, blank_code_by_name: _off, ...unnamed } = sales;
    expect(firstIssue({ ...unnamed, joined_columns: { 'new_products.name': ['Price Point Name'] } })).toEqual({
      path: 'joined_columns.new_products.name',
      message: 'new_products.name joins columns to the column new products take their name from, but new_products names no column for name; set new_products.name first.',
    });
    expect(firstIssue({ ...sales, joined_columns: { 'new_products.category': ['Price Point Name'] } })?.path).toBe('joined_columns.new_products.category');
    expect(firstIssue({ ...sales, joined_columns: { name: ['Price Point Name'] } })?.message).toBe('name joins columns to its mapped column, but no column is mapped to name; map one first.');
  });

  it('drops from a draft the joined columns of a new product field it reads from no column', () => {
    const proposed = { product_id: ['Price Point Name'], 'new_products.name': ['Price Point Name'] };
    expect(joinedColumnsRead(proposed, { name: 'Item' })).toEqual(proposed);
    expect(joinedColumnsRead(proposed, undefined)).toEqual({ product_id: ['Price Point Name'] });
    expect(joinedColumnsRead({ 'new_products.name': ['Price Point Name'] }, { category: 'Category' })).toBeUndefined();
  });
});

describe('entityMapping joined_leave_out (ADR 0201 F8)', () => {
  const library = { field_mappings: { product_code: 'SKU', name: 'Item Name' }, joined_columns: { name: ['Variation Name'] } };
  const sales = { field_mappings: { product_id: 'SKU' }, new_products: { name: 'Item' }, blank_code_by_name: true, joined_columns: { 'new_products.name': ['Price Point Name'] } };

  it("keeps the values left out of a field's or a line name's joined columns, a saved mapping too", () => {
    const leaving = { ...library, joined_leave_out: { name: ['Regular'] } };
    expect(entityMapping.parse(leaving)).toEqual(leaving);
    const saved = saveMappingRequest.parse({ name: 'square', config: { entities: { products: leaving, sales: { ...sales, joined_leave_out: { 'new_products.name': ['Regular'] } } } } });
    expect(saved.config.entities['products']?.joined_leave_out).toEqual({ name: ['Regular'] });
    expect(saved.config.entities['sales']?.joined_leave_out).toEqual({ 'new_products.name': ['Regular'] });
    // A mapping saved before reads no such field: nothing is left out of it.
    expect(entityMapping.parse(library).joined_leave_out).toBeUndefined();
  });

  it('refuses values left out of a key nothing is joined to, and blank, long or too many values, naming the field', () => {
    expect(firstIssue({ ...library, joined_leave_out: { product_code: ['Regular'] } })).toEqual({
      path: 'joined_leave_out.product_code',
      message: 'joined_leave_out.product_code leaves values out of the columns joined to product_code, but joined_columns joins none to product_code; join a column first or drop it.',
    });
    expect(firstIssue({ ...sales, joined_columns: undefined, joined_leave_out: { 'new_products.name': ['Regular'] } })?.path).toBe('joined_leave_out.new_products.name');
    expect(firstIssue({ ...library, joined_leave_out: { name: [' '] } })).toEqual({ path: 'joined_leave_out.name.0', message: 'A value to leave out of a joined name cannot be blank.' });
    expect(firstIssue({ ...library, joined_leave_out: { name: ['x'.repeat(101)] } })).toEqual({ path: 'joined_leave_out.name.0', message: 'A value to leave out of a joined name has at most 100 characters.' });
    expect(firstIssue({ ...library, joined_leave_out: { name: [] } })?.message).toBe('List at least one value to leave out.');
    const many = Array.from({ length: MAX_JOINED_LEAVE_OUT + 1 }, (_, at) => `Value ${at}`);
    expect(firstIssue({ ...library, joined_leave_out: { name: many } })?.message).toBe(`At most ${MAX_JOINED_LEAVE_OUT} values left out of one joined name.`);
    expect(firstIssue({ ...library, joined_leave_out: { name: 'Regular' } })?.path).toBe('joined_leave_out.name');
  });

  it('drops from a draft the values left out of keys it joins nothing to', () => {
    expect(joinedLeaveOutRead({ name: ['Regular'], 'new_products.name': ['Regular'] }, { name: ['Variation Name'] })).toEqual({ name: ['Regular'] });
    expect(joinedLeaveOutRead({ 'new_products.name': ['Regular'] }, undefined)).toBeUndefined();
  });
});

describe('productNameForm', () => {
  it("reads a web shop's line item name as the product's name: case, spaces and punctuation aside", () => {
    expect(productNameForm('Chunky Cable Cardigan - M')).toBe(productNameForm('Chunky Cable Cardigan M'));
    expect(productNameForm('Merino Crew Jumper - M / Oatmeal')).toBe(productNameForm('merino crew jumper M oatmeal'));
    expect(productNameForm('Gift Card - £50')).toBe('giftcard50');
    expect(productNameForm('Café Crème')).not.toBe(productNameForm('Cafe Creme'));
    expect(productNameForm('Tea Dress 10')).not.toBe(productNameForm('Tea Dress 1'));
    expect(productNameForm('Jumper 1 / 2')).toBe(productNameForm('Jumper 1-2'));
    expect(productNameForm('Jumper 1 / 2')).not.toBe(productNameForm('Jumper 12'));
    expect(productNameForm('Shelf 10 x 12')).toBe('shelf10x12');
    expect(productNameForm('Shelf 10 12')).toBe('shelf10 12');
  });
});

describe('entityMapping skip_rows_where', () => {
  const refunds = { column: 'Financial Status', values: ['refunded', 'voided'], blank_means_same_as: 'Name' };
  it('keeps a row filter, and a saved mapping keeps it', () => {
    const mapping = { field_mappings: { product_id: 'Lineitem sku' }, skip_rows_where: [refunds] };
    expect(entityMapping.parse(mapping)).toEqual(mapping);
    const saved = saveMappingRequest.parse({ name: 'shopify', config: { entities: { sales: mapping } } });
    expect(saved.config.entities['sales']?.skip_rows_where).toEqual([refunds]);
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ column: 'Status', values: ['storniert'] }] })).toBeNull();
  });

  it('refuses a filter without values, with a blank or NUL value, or without a column, naming the field path', () => {
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ ...refunds, values: [] }] })).toEqual({ path: 'skip_rows_where.0.values', message: 'List at least one value to leave out.' });
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ ...refunds, values: ['refunded', ' '] }] })).toEqual({ path: 'skip_rows_where.0.values.1', message: 'A value to leave out cannot be blank.' });
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ ...refunds, values: ['re\u0000funded'] }] })).toEqual({ path: 'skip_rows_where.0.values.0', message: 'Text may not contain NUL (\\u0000) characters.' });
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ ...refunds, column: 'Financial\u0000Status' }] })?.path).toBe('skip_rows_where.0.column');
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ ...refunds, blank_means_same_as: '' }] })?.path).toBe('skip_rows_where.0.blank_means_same_as');
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ values: ['refunded'] }] })?.path).toBe('skip_rows_where.0.column');
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ ...refunds, where: 'x' }] })?.path).toBe('skip_rows_where.0');
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ ...refunds, values: ['x'.repeat(201)] }] })).toEqual({ path: 'skip_rows_where.0.values.0', message: 'A value to leave out has at most 200 characters.' });
  });

  it('refuses too many filters or values', () => {
    const values = (n: number) => Array.from({ length: n }, (_, at) => `status ${at}`);
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ column: 'Status', values: values(MAX_ROW_FILTER_VALUES) }] })).toBeNull();
    expect(firstIssue({ field_mappings: {}, skip_rows_where: [{ column: 'Status', values: values(MAX_ROW_FILTER_VALUES + 1) }] })).toEqual({ path: 'skip_rows_where.0.values', message: `At most ${MAX_ROW_FILTER_VALUES} values per filter.` });
    const filters = (n: number) => Array.from({ length: n }, () => refunds);
    expect(firstIssue({ field_mappings: {}, skip_rows_where: filters(MAX_ROW_FILTERS) })).toBeNull();
    expect(firstIssue({ field_mappings: {}, skip_rows_where: filters(MAX_ROW_FILTERS + 1) })).toEqual({ path: 'skip_rows_where', message: `At most ${MAX_ROW_FILTERS} filters.` });
  });
});

describe('joinedValue', () => {
  it('joins the parts that are not blank, one space apart, and keeps a blank first part when all are blank', () => {
    expect(joinedValue(['Linen Shirt', ' M ', '', undefined, 'Blue'])).toBe('Linen Shirt M Blue');
    expect(joinedValue(['Flat White', 12])).toBe('Flat White 12');
    expect(joinedValue(['', undefined])).toBe('');
  });

  it("leaves out a joined part that is Shopify's Default Title (a product without options), not a first part", () => {
    expect(joinedValue(['Gift Card', 'Default Title'])).toBe('Gift Card');
    expect(joinedValue(['Tote Bag', 'default title', 'Natural'])).toBe('Tote Bag Natural');
    expect(joinedValue(['Default Title', 'M'])).toBe('Default Title M');
  });

  it("leaves out a joined part its mapping leaves out (Square's Regular), ignoring case, never the first, and only where asked", () => {
    expect(joinedValue(['Advent Calendar', 'Regular'], ['Regular'])).toBe('Advent Calendar');
    expect(joinedValue(['Advent Calendar', ' REGULAR '], ['regular'])).toBe('Advent Calendar');
    expect(joinedValue(['Tea Towel', 'Large'], ['Regular'])).toBe('Tea Towel Large');
    expect(joinedValue(['Regular', 'Large'], ['Regular'])).toBe('Regular Large');
    expect(joinedValue(['Flat White', 'Regular'])).toBe('Flat White Regular');
  });
});
