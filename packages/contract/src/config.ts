// The product configuration: tables, import mappings and inventory entities (spec §3, §7 /api/yaml/*).
import { z } from 'zod';
import { columnDefinition, type ColumnDefinition } from './tables.ts';
import { nameRecord, storableName, storableText, storableTextProblem } from './text.ts';

/** target field -> dotted source path (`a.b.c`, `items.0.sku`). */
export const fieldMappings = z.record(storableName().min(1).max(63), storableText().min(1).max(500));

/** The value of `field_values` that means the shop's day when the file is imported or the integration runs. */
export const TODAY_VALUE = 'today';
/** target field -> the value every line gets (a date YYYY-MM-DD, or `today`). */
export const fieldValues = z.record(storableName().min(1).max(63), storableText().trim().min(1, 'A value is required.').max(500));

/**
 * What an import does with rows of one file (or one integration batch) that share a key: add up
 * their numeric columns (transaction lines into daily sales), keep the last one, or refuse the file.
 * Whichever it is, the answer's counts say how many source rows became how many rows.
 */
export const repeatedKeyModes = ['sum', 'last', 'refuse'] as const;
export type RepeatedKeyMode = (typeof repeatedKeyModes)[number];

export const entityConfig = z.strictObject({
  name: storableName().min(1).max(100).optional(),
  table: storableText().min(1).max(200),
  /** Columns that identify a row: imports upsert on them. */
  key: z.array(storableName().min(1).max(63)).min(1).max(10),
  field_mappings: fieldMappings.optional(),
  description: storableText().max(1000).optional(),
  /** Rows of one file sharing a key (default: last). */
  repeated_keys: z.enum(repeatedKeyModes).optional(),
});
export type EntityConfig = z.infer<typeof entityConfig>;

/** How dates are written in a file: `auto` detects and refuses to guess when day and month could swap. */
export const decimalSeparator = z.enum(['.', ',']);

export const dateFormats = ['auto', 'iso', 'dd/mm/yyyy', 'mm/dd/yyyy', 'dd.mm.yyyy'] as const;
export type DateFormat = (typeof dateFormats)[number];

/**
 * The furthest row a mapping may name as holding the column names: title lines above a header are
 * a few, never pages (a larger number is a typo, or another file).
 */
export const MAX_HEADER_ROW = 50;
export const headerRowProblem = `header_row must be a whole number from 1 to ${MAX_HEADER_ROW} (the row holding the column names).`;

/** Bounds of a mapping's value maps: fields mapped, and file values per field. */
export const MAX_VALUE_MAP_FIELDS = 20;
export const MAX_VALUE_MAP_ENTRIES = 200;

/**
 * A file's value as a value map matches it: trimmed, ignoring case, and in one Unicode form (a
 * Mac's decomposed `ü` is the same word). Case is ignored because tills write one status
 * `Geplant` in one export and `geplant` in another; no column of choices tells two values apart by
 * case alone.
 */
export const valueMapForm = (text: string) => text.normalize('NFC').trim().toLowerCase();

/** Why a file's value (`geplant`) cannot be a value map's key, or null: matched trimmed and ignoring case, so never blank. */
function fileValueProblem(value: string): string | null {
  if (value.trim() === '') return 'A value to map cannot be blank.';
  if (value.length > 200) return 'A value to map has at most 200 characters.';
  return storableTextProblem(value);
}

/** One field's map: file value -> the value stored. */
const fileValueMap = nameRecord(storableText().min(1).max(200), z.string()).check((context) => {
  const fileValues = Object.keys(context.value);
  if (fileValues.length > MAX_VALUE_MAP_ENTRIES) context.issues.push({ code: 'custom', message: `At most ${MAX_VALUE_MAP_ENTRIES} values per field.`, input: context.value });
  for (const value of fileValues) {
    const problem = fileValueProblem(value);
    if (problem) context.issues.push({ code: 'custom', message: problem, input: value, path: [value] });
  }
});

/** What a value map may say a file's word means in a yes-or-no column: the stored value as text. */
export const YES_NO_MAP_VALUES: readonly string[] = ['true', 'false'];

/**
 * The values a value map may give a column: its choices, or true and false for a yes-or-no column
 * (an Odoo product list's Service → true in not_stocked); undefined for a column no map can feed.
 */
export const valueMapTargets = (column: Pick<ColumnDefinition, 'type' | 'choices'>): readonly string[] | undefined =>
  column.choices ?? (column.type === 'BooleanField' ? YES_NO_MAP_VALUES : undefined);

/**
 * target field -> file value -> the value stored (`{status: {geplant: scheduled}}`, `{not_stocked:
 * {Service: 'true'}}`): what a file's own words mean in a column of choices or a yes-or-no column.
 * Applied before the column's check; values not listed pass unchanged. Each target must be one of
 * the column's choices, or `true` or `false` (valueMapTargets; checked against the table).
 */
export const valueMaps = nameRecord(fileValueMap, storableName().min(1).max(63)).refine((fields) => Object.keys(fields).length <= MAX_VALUE_MAP_FIELDS, { message: `At most ${MAX_VALUE_MAP_FIELDS} fields.` });

/** Fields of new products a mapping fills from the file, at most. */
export const MAX_NEW_PRODUCT_FIELDS = 10;

/**
 * products field -> the file's column (or a record's dotted path) that products created for unknown
 * codes take it from (`{name: 'Lineitem name', category: 'Product type'}`): with
 * `create_missing_products`, new products are named from the file instead of by their code. Only
 * text or choice fields that are not the key (checked against the table where the mapping is saved
 * and where it is used); existing products are never changed.
 */
export const newProducts = nameRecord(storableText().min(1).max(500), storableName().min(1).max(63)).refine((fields) => Object.keys(fields).length <= MAX_NEW_PRODUCT_FIELDS, {
  message: `At most ${MAX_NEW_PRODUCT_FIELDS} fields.`,
});
export type NewProducts = z.infer<typeof newProducts>;
/** Columns joined to one field's mapped column, at most. */
export const MAX_JOINED_COLUMNS = 3;
/** target field -> the columns (or dotted paths) whose values follow its mapped column's value. */
export const joinedColumns = nameRecord(z.array(storableText().min(1).max(500)).min(1, 'Name at least one column to join.').max(MAX_JOINED_COLUMNS, `At most ${MAX_JOINED_COLUMNS} columns joined to one field.`), storableName().min(1).max(63));
export type JoinedColumns = z.infer<typeof joinedColumns>;
const NEW_PRODUCTS_PREFIX = 'new_products.';
/** A joined_columns key naming a new product's field (`new_products.name` → name), or null for a mapped field's. */
export const newProductFieldOf = (key: string): string | null => (key.startsWith(NEW_PRODUCTS_PREFIX) ? key.slice(NEW_PRODUCTS_PREFIX.length) : null);

/**
 * `joined` without the entries of a new product's field that `newProducts` takes from no column
 * (the mapping refuses them): what a draft keeps of proposed joined columns (a sales line's name
 * joined with its variation, ADR 0201 F6, is read only where the line's name is).
 */
export function joinedColumnsRead(joined: JoinedColumns | undefined, newProducts: NewProducts | undefined): JoinedColumns | undefined {
  const kept = Object.entries(joined ?? {}).filter(([key]) => {
    const newProductField = newProductFieldOf(key);
    return newProductField === null || newProducts?.[newProductField] !== undefined;
  });
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/** Values a joined part is left out for, per joined_columns key, at most; and their length. */
export const MAX_JOINED_LEAVE_OUT = 5;
const MAX_LEAVE_OUT_LENGTH = 100;

/** A text value compared as a cell is (trimmed, ignoring case), so never blank; `what` names it in its refusals. */
const comparedValue = (what: string, max: number) =>
  z.string().check((context) => {
    const value = context.value;
    const problem = value.trim() === '' ? `${what} cannot be blank.` : value.length > max ? `${what} has at most ${max} characters.` : storableTextProblem(value);
    if (problem) context.issues.push({ code: 'custom', message: problem, input: value });
  });
const leftOutValue = comparedValue('A value to leave out of a joined name', MAX_LEAVE_OUT_LENGTH);
/**
 * joined_columns key -> values its joined parts are left out for (`{name: ['Regular']}`): Square
 * names the one variation of an item without options "Regular", so Item Name + Variation Name reads
 * "Advent Calendar" as Square's screens do, not "Advent Calendar Regular" (ADR 0201 F8).
 */
export const joinedLeaveOut = nameRecord(z.array(leftOutValue).min(1, 'List at least one value to leave out.').max(MAX_JOINED_LEAVE_OUT, `At most ${MAX_JOINED_LEAVE_OUT} values left out of one joined name.`), storableName().min(1).max(63));
export type JoinedLeaveOut = z.infer<typeof joinedLeaveOut>;

/** `leaveOut` without the entries of keys `joined` joins nothing to (the mapping refuses them): what a draft keeps. */
export function joinedLeaveOutRead(leaveOut: JoinedLeaveOut | undefined, joined: JoinedColumns | undefined): JoinedLeaveOut | undefined {
  const kept = Object.entries(leaveOut ?? {}).filter(([key]) => joined?.[key] !== undefined);
  return kept.length ? Object.fromEntries(kept) : undefined;
}

/**
 * What Shopify writes as Option1 Value of a product that has no options (one variant): no option
 * of the product, so a joined column holding it adds nothing to the name (ADR 0195, amendment).
 * Always left out: Shopify's own word, never a shop's option. Square's "Regular" is also a café's
 * real size, so it is left out only where a mapping says so (joined_leave_out, ADR 0201 F8).
 */
const NO_OPTION_PLACEHOLDER = 'default title';

/**
 * A field's value read from several parts (its mapped column's value, then the joined columns'):
 * the parts that are not blank, trimmed, one space apart; undefined or blank parts left out, and a
 * joined part that is Shopify's "Default Title" or one of `leftOut` (its mapping's joined_leave_out
 * for the field, compared ignoring case). When every part is blank, the first part as it was (a
 * blank code stays blank).
 */
export function joinedValue(parts: readonly unknown[], leftOut: readonly string[] = []): unknown {
  const placeholders = new Set([NO_OPTION_PLACEHOLDER, ...leftOut.map((value) => value.trim().toLowerCase())]);
  const texts = parts
    .map((part) => (typeof part === 'number' || typeof part === 'bigint' ? String(part) : typeof part === 'string' ? part.trim() : ''))
    .filter((text, at) => text !== '' && (at === 0 || !placeholders.has(text.toLowerCase())));
  return texts.length ? texts.join(' ') : parts[0];
}

/** The refusal of blank_code_by_name where the mapping reads no name. */
export const blankCodeByNameWithoutName =
  'blank_code_by_name matches a line without a product code by its name, but no name column is mapped: map name (a products file) or new_products.name (the column naming the product a line sells, as Lineitem name), or turn it off.';

/**
 * A product's name as blank_code_by_name compares it (ADR 0195 F4): in one Unicode form, lower
 * case, letters and digits only — "Chunky Cable Cardigan - M" and "Merino Crew Jumper - M / Oatmeal"
 * read as "chunkycablecardiganm" and "merinocrewjumpermoatmeal", as the products named "Chunky
 * Cable Cardigan M" and "Merino Crew Jumper M Oatmeal" do. Accents are kept (café is not cafe);
 * two numbers apart stay apart ("jumper1 2", not "jumper12").
 */
export const productNameForm = (name: string): string =>
  name
    .normalize('NFKC')
    .toLowerCase()
    // Two numbers stay two: "Jumper 1 / 2" is not "Jumper 12", nor "Size 10 12" "Size 1012".
    .replace(/(?<=\p{N})[^\p{L}\p{N}]+(?=\p{N})/gu, ' ')
    .replace(/[^\p{L}\p{N} ]+/gu, '')
    .replace(/ (?!\p{N})|(?<!\p{N}) /gu, '');

/** Bounds of a mapping's row filters: filters, and values per filter. */
export const MAX_ROW_FILTERS = 5;
export const MAX_ROW_FILTER_VALUES = 50;

/** A value a row filter leaves lines out for: matched as value maps match (valueMapForm), so never blank. */
const filterValue = comparedValue('A value to leave out', 200);

/**
 * One row filter of `skip_rows_where`: a line is left out (and counted) when its `column` (a
 * file's column, a record's dotted path) holds one of `values`, matched as value maps match. A
 * blank cell takes the value of the nearest line above with the same `blank_means_same_as` value
 * (a web shop's order number): Shopify writes an order's Financial Status on its first line only.
 */
export const rowFilter = z.strictObject({
  column: storableText().min(1).max(500),
  values: z.array(filterValue).min(1, 'List at least one value to leave out.').max(MAX_ROW_FILTER_VALUES, `At most ${MAX_ROW_FILTER_VALUES} values per filter.`),
  blank_means_same_as: storableText().min(1).max(500).optional(),
});
export type RowFilter = z.infer<typeof rowFilter>;
export const rowFilters = z.array(rowFilter).max(MAX_ROW_FILTERS, `At most ${MAX_ROW_FILTERS} filters.`);

/**
 * How one source record maps onto an entity, and how the file writes its values. A ForeignKey
 * target is fed with the related table's business key (a product code) unless `references` says
 * `id` for it (docs/api.md "Import").
 */
export const entityMapping = z.strictObject({
  field_mappings: fieldMappings,
  /**
   * target field -> one value for every line (`{date: '2026-11-30'}`), for a field the file has no
   * column for: a stock count's day, a till's end-of-day export. Read as the field's type (a date as
   * YYYY-MM-DD, or `today`: the shop's day when the file is imported or the integration runs);
   * checked against the table where the mapping is saved and where it is used.
   */
  field_values: fieldValues.optional(),
  date_format: z.enum(dateFormats).optional(),
  /** `,` for files written with decimal commas (`12,50`; a `.` then groups thousands). */
  decimal_separator: decimalSeparator.optional(),
  /** Unknown product codes become new products (named by their code) instead of row errors. */
  create_missing_products: z.boolean().optional(),
  /**
   * Lines whose product code is blank are skipped and counted instead of refusing the file: a web
   * shop's gift cards, shipping and custom items, a product export's image rows.
   */
  skip_rows_without_code: z.boolean().optional(),
  /** The worksheet of an .xlsx file (default: the first). */
  sheet: storableText().min(1).max(200).optional(),
  /**
   * The row of a CSV file or .xlsx sheet holding the column names (as a spreadsheet numbers it, from
   * 1); the rows above it (a report's title, blank lines) are not imported. Default: detected.
   */
  /**
   * The product code is the text in a cell's leading brackets, as ERP exports name a line's product
   * (`[FURN_7800] Desk Combination` is FURN_7800); a cell without them names a product without a
   * code, read as a blank code; a new product's name read from such a cell drops the brackets (ADR 0198).
   */
  code_in_brackets: z.boolean().optional(),
  header_row: z.number({ error: headerRowProblem }).int({ error: headerRowProblem }).min(1, { error: headerRowProblem }).max(MAX_HEADER_ROW, { error: headerRowProblem }).optional(),
  references: z.record(storableName().min(1).max(63), z.enum(['key', 'id'])).optional(),
  /** Rows of one file sharing a key, for imports through this mapping (default: the entity's setting). */
  repeated_keys: z.enum(repeatedKeyModes).optional(),
  /** What the file's values mean in columns of choices (`{status: {geplant: scheduled}}`). */
  value_maps: valueMaps.optional(),
  /** Where products created for unknown codes take their name and other fields from (needs `create_missing_products`). */
  new_products: newProducts.optional(),
  /** Lines left out by their values (a web shop's refunded and voided orders), counted, never imported. */
  skip_rows_where: rowFilters.optional(),
  /**
   * target field -> further columns whose values follow the mapped column's, one space apart
   * (`{product_id: ['Price Point Name']}` beside `product_id: Item` reads "Flat White Large"): a
   * till that sets no SKU knows a product by its item and its variation (Square's Price Point
   * Name). A blank part is left out (ADR 0193). A key `new_products.<field>` joins columns to that
   * new_products column: a gift shop's line named by `Item` + `Price Point Name` ("Greeting Card
   * Regular") is matched by blank_code_by_name to the product its library named so (ADR 0201 F6).
   */
  joined_columns: joinedColumns.optional(),
  /**
   * joined_columns key -> values a joined column's cell is left out for, compared ignoring case
   * (`{name: ['Regular']}`, `{'new_products.name': ['Regular']}`): Square's one variation of an item
   * without options, so the library's Item Name + Variation Name and a sales line's Item + Price
   * Point Name both read "Advent Calendar" (ADR 0201 F8). The first part is never left out. Without
   * it a joined name reads every part (a café's "Flat White Regular", ADR 0193).
   */
  joined_leave_out: joinedLeaveOut.optional(),
  /**
   * The file's column (or a record's dotted path) grouping lines (`Handle`): a blank cell of any
   * mapped field but the key takes the value of the nearest line above with the same value in this
   * column. Shopify's Products export writes Title, Vendor and Type on a product's first variant
   * line only (ADR 0195 F3); the row filter's `blank_means_same_as` does the same for one column.
   */
  fill_down_by: storableText().min(1).max(500).optional(),
  /**
   * A line whose product code is blank is known by its name (ADR 0195 F4): a products file's line
   * takes its mapped name (with its joined columns, filled down) as its code; a line naming a
   * product (sales, counts, deliveries) is matched to the stored product whose name reads the same
   * ignoring case, spaces and punctuation (`productNameForm`), read from `new_products.name`
   * (Shopify's Lineitem name "Chunky Cable Cardigan - M" is the product "Chunky Cable Cardigan M").
   * Two products reading the same refuse the line, naming both; a name matching none is left as a
   * line without a code (skipped with skip_rows_without_code).
   */
  blank_code_by_name: z.boolean().optional(),
}).check((context) => {
  // A field is filled from the file or given one value, never both: which would win is a guess.
  for (const field of Object.keys(context.value.field_values ?? {})) {
    if (field in context.value.field_mappings) {
      context.issues.push({ code: 'custom', message: `${field} is both mapped to a column and given one value for every line; keep one of them.`, input: field, path: ['field_values', field] });
    }
  }
  // A line is known by its name only where a name is read: a products file's name, or the name column of the products a line names.
  if (context.value.blank_code_by_name && !('name' in context.value.field_mappings) && !context.value.new_products?.['name']) {
    context.issues.push({ code: 'custom', message: blankCodeByNameWithoutName, input: true, path: ['blank_code_by_name'] });
  }
  // Joined columns follow a mapped column: alone, which column the value starts with is unsaid.
  // A new product's field (`new_products.name`, the name a line without a code is matched by) follows its new_products column.
  for (const field of Object.keys(context.value.joined_columns ?? {})) {
    const newProductField = newProductFieldOf(field);
    if (newProductField !== null) {
      if (!context.value.new_products?.[newProductField]) {
        context.issues.push({ code: 'custom', message: `${field} joins columns to the column new products take their ${newProductField} from, but new_products names no column for ${newProductField}; set new_products.${newProductField} first.`, input: field, path: ['joined_columns', field] });
      }
    } else if (!(field in context.value.field_mappings)) {
      context.issues.push({ code: 'custom', message: `${field} joins columns to its mapped column, but no column is mapped to ${field}; map one first.`, input: field, path: ['joined_columns', field] });
    }
  }
  // Values are left out of a joined name only: without joined columns there is no part to leave out.
  for (const key of Object.keys(context.value.joined_leave_out ?? {})) {
    if (!context.value.joined_columns?.[key]) {
      context.issues.push({ code: 'custom', message: `joined_leave_out.${key} leaves values out of the columns joined to ${key}, but joined_columns joins none to ${key}; join a column first or drop it.`, input: key, path: ['joined_leave_out', key] });
    }
  }
});
export type EntityMapping = z.infer<typeof entityMapping>;

export const mappingConfig = z.strictObject({
  description: storableText().max(1000).optional(),
  /** entity type -> how to map one source record onto it. */
  entities: z.record(storableName().min(1), entityMapping),
});
export type MappingConfig = z.infer<typeof mappingConfig>;

/** POST /api/yaml/save-mapping/: a named mapping kept in the database (editors may save their own). */
export const saveMappingRequest = z.strictObject({
  name: storableName().trim().min(1, 'Mapping name is required.').max(100),
  config: mappingConfig,
});
export const saveMappingResponse = z.object({ success: z.literal(true), message: z.string(), name: z.string(), mapping: mappingConfig });

export const tableConfig = z.strictObject({ folder: storableText().max(200).optional(), columns: z.array(columnDefinition).min(1).max(200) });

export const queryParameter = z.strictObject({
  type: z.enum(['integer', 'number', 'string', 'date', 'boolean']),
  default: z.union([z.string(), z.number(), z.boolean()]).optional(),
  /** The smallest value a number parameter takes (a number of days: 1): below it is a parameter error naming the parameter. */
  min: z.number().optional(),
});
export const namedQueryConfig = z.strictObject({
  description: z.string().max(1000).optional(),
  /** Read-only SQL returning columns `id` and `value`; parameters are written :name and bound as values. */
  sql: z.string().min(1).max(20_000),
  params: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), queryParameter).optional(),
});

export const productConfig = z.strictObject({
  tables: z.record(z.string(), tableConfig).default({}),
  mappings: z.record(z.string(), mappingConfig).default({}),
  queries: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), namedQueryConfig).default({}),
  inventory: z.strictObject({ entities: z.array(entityConfig.extend({ name: storableName().min(1).max(100) })).default([]) }).default({ entities: [] }),
});
export type ProductConfig = z.infer<typeof productConfig>;

export const configResponse = z.union([
  z.object({ success: z.literal(true), content: z.record(z.string(), z.unknown()) }),
  z.object({ success: z.literal(false), message: z.string() }),
]);
/**
 * An inventory entity as GET /api/yaml/config/ gives it: its configuration and name, the version a
 * save sends back as If-Match (ADR 0168's amendment), and the entity as the configuration file has
 * it (`file_config`, without its name; null when only saved through the API): what
 * POST /api/yaml/reset-entity/ sets it back to (ADR 0181).
 */
export const configEntity = entityConfig.extend({ name: z.string(), version: z.string(), file_config: entityConfig.omit({ name: true }).nullable() });
export type ConfigEntity = z.infer<typeof configEntity>;
/** What GET adds to an entity's configuration: read-only, left out of an entity sent back whole to update-entity. */
export const ENTITY_READ_ONLY_KEYS: readonly string[] = ['version', 'file_config'] satisfies (keyof ConfigEntity)[];

const entityName = storableName().trim().min(1, 'Entity name is required.').max(100);
export const updateEntityRequest = z.strictObject({
  entity_name: entityName,
  config: z.record(storableName(), z.unknown()),
});
/** The answer to an update or a reset: the entity as GET now shows it. */
export const updateEntityResponse = z.object({ success: z.literal(true), message: z.string(), entity: z.record(z.string(), z.unknown()) });
export const resetEntityRequest = z.strictObject({ entity_name: entityName });
