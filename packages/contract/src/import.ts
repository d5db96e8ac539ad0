// File import through a mapping (spec §3 Import log entry, §5 uploads, §7 /api/records/process-file/).
import { z } from 'zod';
import { dateFormats, decimalSeparator, joinedColumnsRead, joinedLeaveOutRead, repeatedKeyModes, rowFilter, type EntityMapping } from './config.ts';
import { fieldTypes } from './tables.ts';

export const PREVIEW_ROWS = 5;
/** File content is kept in the import log only below this size (spec §9). */
export const LOGGED_FILE_CONTENT_MAX_BYTES = 500_000;
export const MAX_REPORTED_ROW_ERRORS = 100;

/**
 * One refused source row: its number (1 = the first record after the header), the target field
 * and the file's own column it came from (when the mapping names one), and the reason in words.
 */
/** `lines`: how many refused lines the entry stands for when more than one (the lines of one key it names). */
export const rowError = z.object({ row: z.number().int(), field: z.string().nullable(), column: z.string().optional(), reason: z.string(), lines: z.number().int().optional() });
export type RowError = z.infer<typeof rowError>;

/** Distinct values of one field reported as refused choices, at most. */
export const MAX_REFUSED_CHOICE_VALUES = 50;

/**
 * The values of a column of choices that were refused as none of them (`geplant` for a delivery's
 * status), or of a yes-or-no column as neither yes nor no (`Bundle` in not_stocked), each once
 * (ignoring case, in the order first met, at most 50), with the values the column allows (true and
 * false for a yes-or-no column): what a mapping's `value_maps` can say the file's values mean.
 */
export const refusedChoices = z.object({ field: z.string(), values: z.array(z.string()), choices: z.array(z.string()) });
export type RefusedChoices = z.infer<typeof refusedChoices>;

/**
 * rows: source records read; written: rows they became (after summing or keeping the last of a
 * repeated key); inserted + updated = written (updated is 0 when only key columns are mapped);
 * duplicates = rows - written; created_references: products created for unknown codes; skipped:
 * lines left out for a blank product code (`skip_rows_without_code`), not counted in rows;
 * empty_skipped: of those left out so, the lines with nothing in any mapped column (Shopify's
 * image-only lines), counted here and not in skipped nor rows (ADR 0195 F5);
 * filtered: lines left out by the mapping's row filters (`skip_rows_where`), not counted in rows
 * nor in skipped, and `filtered_by` how many each filter left out (present when there are any).
 */
/** Lines one row filter (`skip_rows_where`) left out: its column and values, and how many lines. */
export const filteredBy = z.object({ column: z.string(), values: z.array(z.string()), lines: z.number().int() });
export type FilteredBy = z.infer<typeof filteredBy>;

export const importCounts = z.object({
  rows: z.number().int(),
  written: z.number().int().optional(),
  inserted: z.number().int(),
  updated: z.number().int(),
  duplicates: z.number().int(),
  refused: z.number().int().optional(),
  created_references: z.number().int().optional(),
  skipped: z.number().int().optional(),
  empty_skipped: z.number().int().optional(),
  /**
   * Lines without a product code given one by their name (blank_code_by_name, ADR 0195 F4): a
   * products file's lines coded by their name, or a sales file's lines matched to the product of
   * that name; counted in rows, not in skipped.
   */
  matched_by_name: z.number().int().optional(),
  /** Totals lines (`Summe`, `Total`) whose code no product has, left out rather than created as products (create_missing_products). */
  totals_skipped: z.number().int().optional(),
  filtered: z.number().int().optional(),
  filtered_by: z.array(filteredBy).optional(),
});
export type ImportCounts = z.infer<typeof importCounts>;

/**
 * Something the import did that the file did not say, though nothing was refused: new rows without
 * a value for a column with a default got the default (`field`, how many `rows`, the `value`
 * used). `message` says it in words ("12 rows had no lead time: 14 days used (the default)").
 */
export const importWarning = z.object({ field: z.string(), rows: z.number().int(), value: z.string(), message: z.string() });
export type ImportWarning = z.infer<typeof importWarning>;

/**
 * A product an import created (or, in a preview, would create) for an unknown code: its code and
 * the fields it took from the file (`name`; the code when the file has none for it).
 */
export const newProduct = z.object({ code: z.string(), values: z.record(z.string(), z.string().nullable()) });
export type NewProduct = z.infer<typeof newProduct>;

/** New products an answer lists by name at most (counts.created_references counts them all). */
export const MAX_LISTED_NEW_PRODUCTS = 20;

/**
 * Sales a file's import replaced (or, in a preview, would replace) that its own mapping imported
 * before for the same product-days (ADR 0164: a mapping's file replaces its earlier totals, so that
 * importing it again does not double): the mapping (null: imported without a name), how many
 * product-days, and the first and last of them. Right for a corrected file imported again; wrong
 * for another till's file under the same mapping, whose sales then replace the first till's.
 */
export const replacedSales = z.object({ mapping_name: z.string().nullable(), product_days: z.number().int(), first_day: z.string(), last_day: z.string() });
export type ReplacedSales = z.infer<typeof replacedSales>;
/** The preview's warning of ReplacedSales to come, in words (`message`). */
export const replacesSales = replacedSales.extend({ message: z.string() });
export type ReplacesSales = z.infer<typeof replacesSales>;

/**
 * The sales a file's import wrote (ADR 0174): how many product-days, and the first and last of them —
 * what its undo would put back.
 */
export const salesWritten = z.object({ product_days: z.number().int(), first_day: z.string(), last_day: z.string() });
export type SalesWritten = z.infer<typeof salesWritten>;

/**
 * The stock counts a stock count file's import wrote (ADR 0175): how many (`counts`), of them how
 * many replaced a different count (`replaced`) and how many were new rows (`added`), and the first
 * and last day — what its undo would put back and remove.
 */
export const stockWritten = z.object({ counts: z.number().int(), replaced: z.number().int(), added: z.number().int(), first_day: z.string().nullable(), last_day: z.string().nullable() });
export type StockWritten = z.infer<typeof stockWritten>;

export const importResult = z.object({
  message: z.string(),
  import_id: z.string(),
  entity_type: z.string(),
  table: z.string(),
  counts: importCounts,
  /** What was done with rows sharing a key (the entity's setting). */
  repeated_keys: z.enum(repeatedKeyModes).optional(),
  duration_ms: z.number(),
  /** Present when there are any. */
  warnings: z.array(importWarning).optional(),
  /** What the import did otherwise than the file says, in words: stock counts older than their products' stock recorded later (ADR 0030), supplier names written in the spelling already used (ADR 0186). Present when there are any. */
  notices: z.array(z.string()).optional(),
  /** The first products created for unknown codes, in the file's order (create_missing_products); present when there are any. */
  new_products: z.array(newProduct).optional(),
  /** Sales of this mapping's earlier import the file replaced with different totals (`message` says it too); present when there are any. */
  replaced_sales: replacedSales.optional(),
  /** The sales a sales file's import wrote, which its undo (POST /api/records/imports/{id}/undo/) would put back; present for a sales import that wrote quantities. */
  sales_written: salesWritten.optional(),
  /** The counts a stock count file's import wrote, which its undo would put back or remove; present for a stock count import that wrote counts. */
  stock_written: stockWritten.optional(),
});
export type ImportResult = z.infer<typeof importResult>;

export const importFailure = z.object({
  detail: z.string(),
  code: z.string(),
  /** The spec's answer field for a failed import. */
  error: z.string(),
  import_id: z.string().optional(),
  row_errors: z.array(rowError).optional(),
  row_error_count: z.number().int().optional(),
  /** Values refused as outside a column's choices, over every row of the file (present when there are any). */
  refused_choices: z.array(refusedChoices).optional(),
});

/** An import's undo (ADR 0174): when, by whom (null: a user since deleted), and what it did in words. */
export const importUndone = z.object({ at: z.string(), by: z.string().nullable(), message: z.string() });
export type ImportUndone = z.infer<typeof importUndone>;

/**
 * The answer of POST /api/records/imports/{id}/undo/: what the undo did, in words; how many rows it
 * put back (`restored`: sales days' totals, or stock counts) and removed (rows only the import had
 * written), and how many product-days the import wrote (a stock count is one product's count of a day).
 */
export const importUndoResult = z.object({ message: z.string(), restored: z.number().int(), removed: z.number().int(), product_days: z.number().int() });
export type ImportUndoResult = z.infer<typeof importUndoResult>;

export const importStatuses = ['running', 'success', 'error'] as const;
export const importLogEntry = z.object({
  id: z.string(),
  operationType: z.literal('import'),
  status: z.enum(importStatuses),
  fileName: z.string(),
  mappingName: z.string(),
  entityType: z.string(),
  details: z
    .object({
      counts: importCounts.optional(),
      repeated_keys: z.enum(repeatedKeyModes).optional(),
      duration_ms: z.number().optional(),
      bytes: z.number().optional(),
      row_errors: z.array(rowError).optional(),
      row_error_count: z.number().int().optional(),
      refused_choices: z.array(refusedChoices).optional(),
      warnings: z.array(importWarning).optional(),
      /** What the import did not change though it wrote (the result's `notices`). */
      notices: z.array(z.string()).optional(),
      /** How the file's dates were read when it did not say, in words: "Dates were read day-first (dd/mm/yyyy)." (logs before 2026-12-06 held it among the notices). */
      dates_read: z.string().optional(),
      replaced_sales: replacedSales.optional(),
      sales_written: salesWritten.optional(),
      stock_written: stockWritten.optional(),
    })
    // Logs written by earlier versions may carry fields no longer named here.
    .passthrough(),
  errorMessage: z.string().nullable(),
  fileContent: z.string().nullable(),
  progress: z.object({ rows_done: z.number().int(), bytes_done: z.number().int(), bytes_total: z.number().int().nullable() }),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** A sales (ADR 0174) or stock count (ADR 0175) file's import whose before-images are kept and that is not undone: POST …/undo/ puts back what it wrote. */
  undoable: z.boolean(),
  /** Present when the import was undone. */
  undone: importUndone.nullable(),
});
export type ImportLogEntry = z.infer<typeof importLogEntry>;
export const importLogList = z.object({ results: z.array(importLogEntry.omit({ fileContent: true })) });

/** A JSON object (not an array, not null). */
export const isPlainRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads a mapping's source path (`a.b.0.c`, through objects and arrays) from a record, exactly as
 * the server's import does and the browser's preview shows it. A flat record whose key is the
 * whole path (a CSV header `a.b`) wins.
 */
export function readMappedPath(source: unknown, path: string): unknown {
  if (isPlainRecord(source) && Object.hasOwn(source, path)) return source[path];
  let current: unknown = source;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (isPlainRecord(current) && Object.hasOwn(current, segment)) current = current[segment];
    else return undefined;
  }
  return current;
}

/** The shipped entities in a shop's words: what the Import screen lists and an import's message says. */
const ENTITY_LABELS = new Map([
  ['products', 'Products'],
  ['sales', 'Sales'],
  ['stock_snapshots', 'Stock counts'],
  ['deliveries', 'Deliveries'],
]);

const FILE_KINDS = new Set(['csv', 'json', 'xlsx', 'xls', 'api']);

/** A configuration's name as a shop reads it: `product_catalogue_csv` → "Product catalogue CSV". */
export function readableName(name: string): string {
  const words = name.split(/[_\-\s]+/).filter(Boolean).map((word) => (FILE_KINDS.has(word.toLowerCase()) ? word.toUpperCase() : word));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An entity in a shop's words: a shipped one by its label ("Stock counts" for stock_snapshots), another by its name made readable. */
export const entityLabel = (name: string): string => ENTITY_LABELS.get(name) ?? readableName(name);

/** entityLabel inside a sentence: "Imported 9 rows into stock counts". */
export const entityInSentence = (name: string): string => entityLabel(name).toLowerCase();

/** The file formats an import reads. */
export const importFormats = ['csv', 'json', 'xlsx'] as const;
export type ImportFormat = (typeof importFormats)[number];
/** A preview reads at most this much of a CSV or JSON file (clients may send only this much). */
export const PREVIEW_MAX_BYTES = 256 * 1024;

export const sourceValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** A field of the entity that a mapping can fill. */
export const importTarget = z.object({
  field: z.string(),
  label: z.string(),
  type: z.enum(fieldTypes),
  required: z.boolean(),
  /** Needed only to add new rows: a mapping that leaves it out (and maps the key) only updates stored rows (a stock take without names). */
  needed_for_new_rows: z.literal(true).optional(),
  /** A ForeignKey fed with the related table's business key (the product code), not its id. */
  reference: z.object({ table: z.string(), key: z.string() }).optional(),
  /** A DecimalField's places (DEFAULT_DECIMAL_PLACES when its definition names none): the preview writes its numbers with them, as the Data grid does. */
  decimal_places: z.number().int().optional(),
});
export type ImportTarget = z.infer<typeof importTarget>;

/**
 * POST /api/records/preview-file/ (multipart: file, entity_type, optional mapping_config, sheet,
 * date_format): what the mapping builder shows. Read by the import's own parsing code; writes nothing.
 */
export const previewFileResponse = z.object({
  format: z.enum(importFormats),
  /** The worksheets of an .xlsx file, in order. */
  sheets: z.array(z.string()).optional(),
  /** The separator a CSV file was read with (detected: `,`, `;` or tab). */
  separator: z.string().optional(),
  /** The CSV header, the dotted keys of the first JSON records, or the sheet's row of column names. */
  header: z.array(z.string()),
  /**
   * CSV and .xlsx: the row holding the column names, as a spreadsheet numbers it (from 1): the
   * mapping's `header_row`, else the one detected. Rows above it are not imported.
   */
  header_row: z.number().int().optional(),
  /** CSV and .xlsx: the row that holds the column names by the file's own look (title lines and blank lines above it skipped). */
  detected_header_row: z.number().int().optional(),
  /** The non-blank rows above the header (a report's title), each as its cells' text: what is skipped. */
  skipped_rows: z.array(z.object({ row: z.number().int(), text: z.string() })).optional(),
  /** The first records' values, one per header entry, as the file has them. */
  raw_rows: z.array(z.array(sourceValue)),
  targets: z.array(importTarget),
  /** target field -> the source column its name matches (case, spaces, underscores, synonyms), or null. */
  proposed_mapping: z.record(z.string(), z.string().nullable()),
  /**
   * target field -> the one value the proposal gives every line (as a mapping's `field_values`):
   * the day a file's title lines name ("Inventur 30.11.2026"), for a date no column holds; the
   * rows are read with it. Absent when a mapping is given, or nothing is proposed.
   */
  proposed_field_values: z.record(z.string(), z.string()).optional(),
  /**
   * target field -> file value -> the value stored (as a mapping's `value_maps`): the kind words of
   * the column proposed for not_stocked, as the file writes them (`{not_stocked: {Service: 'true',
   * 'Storable Product': 'false'}}`, ADR 0200's amendment); the rows are read with it. Absent when a
   * mapping is given, or nothing is proposed.
   */
  proposed_value_maps: z.record(z.string(), z.record(z.string(), z.string())).optional(),
  /**
   * target field -> the columns the proposal joins to its mapped column (as a mapping's
   * `joined_columns`): a till's export whose SKU is blank on most lines, beside an item and its
   * variation (Square's Item and Price Point Name), is proposed as Item + Price Point Name (ADR 0193).
   */
  proposed_joined_columns: z.record(z.string(), z.array(z.string())).optional(),
  /**
   * joined_columns key -> the values the proposal leaves out of those joined columns (as a mapping's
   * `joined_leave_out`): Square's "Regular", where a name (not a code) is joined with Square's
   * Variation Name or Price Point Name, so "Advent Calendar" reads as Square names it (ADR 0201 F8).
   * Said for a given mapping's joined columns too (its rows read as it says), for the screen to
   * offer it again after it was turned off.
   */
  proposed_joined_leave_out: z.record(z.string(), z.array(z.string())).optional(),
  /**
   * The column the proposal fills blank cells down by (as a mapping's `fill_down_by`): a key column
   * (Shopify's Handle) whose value repeats on consecutive lines while the name goes blank on the
   * later ones (ADR 0195 F3). The proposal's rows are read with it; a given mapping's rows with its
   * own `fill_down_by` (this is still said, for the screen to offer it again). Absent when none is found.
   */
  proposed_fill_down_by: z.string().optional(),
  /**
   * Most cells of the product code's column name the product as `[CODE] Name` (an ERP's display
   * name, Odoo's): the proposal reads the code in the brackets (a mapping's `code_in_brackets`,
   * ADR 0198). Said for a given mapping too, for the screen to offer it again. Absent otherwise.
   */
  proposed_code_in_brackets: z.literal(true).optional(),
  /**
   * The location column by which a stock count's lines count one product in parts (Odoo's Location:
   * WH/Stock, WH/Stock/Shelf 2; a column named Location, Bin, Shelf, Warehouse, Lagerort, … that no
   * field reads, one product on lines of different locations), where the entity keeps the last of
   * a key's rows: the proposal adds them up (`repeated_keys: 'sum'`; ADR 0198). Said for a given
   * mapping too, for the screen to say why. Absent otherwise.
   */
  counted_by_location: z.string().optional(),
  date_format: z.object({
    /** The format the file's dates are read with: the mapping's, or the one detected; null when none could be. */
    detected: z.enum(dateFormats).nullable(),
    /** True when day and month could be either way round in every date read (every day is 12 or less). */
    ambiguous: z.boolean(),
    /** Formats every date read so far fits. */
    candidates: z.array(z.enum(dateFormats)),
    /**
     * Only the file's head was read and none of its days is past the 12th: the order is undecided in
     * the lines read, not refused — the import takes it from the whole file (its first day past the
     * 12th). Says so, and which order the rows are shown in (ADR 0193's amendment, F3). The rows then
     * carry no date problem for it: a problem is what the import will refuse.
     */
    undecided_in_lines_read: z.string().optional(),
  }),
  decimal_separator: z.object({
    /** How the file's decimal numbers are written: `,` (`1,25`, `1.234,50`), `.`, or null when none tells (whole numbers only, `1,234`, or both seen). */
    detected: decimalSeparator.nullable(),
    /** The separator the rows below were read with: the given mapping's, else (no mapping given) the detected one, else `.`. */
    used: decimalSeparator,
  }),
  /** The first records after the mapping, typed as the import would store them, with per-field problems. */
  /** `skipped`: a line the import will leave out, its product code blank (`skip_rows_without_code`). */
  /** `totals_line`: a till's totals line the import skips (a Subtotal, a Grand Total), with the word it shows. */
  /** `left_out`: a line a row filter leaves out (`skip_rows_where`): the filter's column and the value read (a blank cell's from its order's line above). */
  rows: z.array(z.object({ row: z.number().int(), values: z.record(z.string(), sourceValue), problems: z.record(z.string(), z.string()), skipped: z.literal(true).optional(), totals_line: z.string().optional(), left_out: z.object({ column: z.string(), value: z.string() }).optional() })),
  /**
   * The values of the file's columns that hold few different ones (at most 50, over the records
   * read), each with how many lines hold it: what a row filter can leave out. Blank cells are not listed.
   */
  column_values: z.record(z.string(), z.array(z.object({ value: z.string(), lines: z.number().int() }))).optional(),
  /** Row filters the file's own words suggest (a Financial Status column holding refunded, voided): the mapping proposed with them when none was given. */
  proposed_row_filters: z.array(rowFilter).optional(),
  /** Where skipping lines without a product code is offered (the Import screen, Try the endpoint): how many of the records read leave it blank while others fill it (a shop's gift-wrap lines); absent when none does. */
  blank_code_lines: z.number().int().optional(),
  /**
   * With blank_code_lines: the first few names those lines carry (up to 3, distinct, in the file's
   * order), read from the column a product's name comes from (a new product's name column, Shopify's
   * Lineitem name; a products file's own name): what the lines skipped are — a gift card, or a
   * product sold without a SKU (ADR 0195). Absent when the lines name nothing.
   */
  blank_code_names: z.array(z.string()).max(3).optional(),
  /**
   * Where skipping lines without a product code is offered: how many of the records read have
   * nothing in any mapped column (a Shopify image-only line: a Handle and an Image Src) while
   * others have a code — skipped with the lines without a code, but counted apart, not in
   * blank_code_lines (ADR 0195 F5); absent when none does.
   */
  empty_lines: z.number().int().optional(),
  /**
   * Of blank_code_lines, those the mapping's `blank_code_by_name` (given, or proposed) gives a
   * product code by their name (ADR 0195 F4): imported, not skipped; blank_code_names then names
   * only the others, the lines still without a code. Absent when none is.
   */
  blank_code_matched: z.number().int().optional(),
  /**
   * The lines without a product code can be known by their name (`blank_code_by_name`): a products
   * file's lines have a name, or a line's name reads as one stored product's. Said for a given
   * mapping too, for the screen to offer the option again; the proposal has it on.
   */
  proposed_blank_code_by_name: z.literal(true).optional(),
  /** The mapping is proposed with skip_rows_without_code on (no mapping given, blank_code_lines or empty_lines present): the proposal's rows were read so. */
  proposed_skip_rows_without_code: z.literal(true).optional(),
  /** Values outside a column's choices in the records read (not only the rows shown); present when there are any. */
  refused_choices: z.array(refusedChoices).optional(),
  /**
   * With create_missing_products: the products the records read would create (codes not stored,
   * the first few, in the file's order) and the fields they would take from the file.
   */
  new_products: z.array(newProduct).optional(),
  /** How many products the records read would create (new_products lists the first few). */
  new_product_count: z.number().int().optional(),
  /** products field -> the source column its name matches, for new products (`name`, `category`); for entities fed with product codes. */
  proposed_new_products: z.record(z.string(), z.string().nullable()).optional(),
  /**
   * Sales: what importing the file under `mapping_name` (a form field) would replace — the sales that
   * mapping imported before on the days of the records read; absent when none, or no name was sent.
   */
  replaces_sales: replacesSales.optional(),
  /**
   * Quantities of products without a unit in the records read that the import will read in the
   * unit their cells wrote (ADR 0178), with the sentence the import's message will say ("In the
   * file's first 5,000 lines, " before it when only those were read); absent when none.
   */
  units_as_written: z.object({ cells: z.number().int(), units: z.array(z.string()), message: z.string() }).optional(),
  /** A problem of the file itself met after the first records (e.g. the head sent ends inside a record). */
  warning: z.string().optional(),
});
export type PreviewFileResponse = z.infer<typeof previewFileResponse>;

/** What a preview (or Try the endpoint) proposes that a mapping starts from. */
export type MappingProposal = Pick<
  PreviewFileResponse,
  | 'proposed_mapping'
  | 'proposed_field_values'
  | 'proposed_value_maps'
  | 'proposed_joined_columns'
  | 'proposed_joined_leave_out'
  | 'decimal_separator'
  | 'proposed_row_filters'
  | 'proposed_skip_rows_without_code'
  | 'proposed_fill_down_by'
  | 'proposed_blank_code_by_name'
  | 'proposed_new_products'
  | 'targets'
  | 'proposed_code_in_brackets'
  | 'counted_by_location'
>;

/** The record field a line's name is read into, as joined_columns keys it (ADR 0201 F6). */
export const LINE_NAME_FIELD = 'new_products.name';

/**
 * The columns proposed to follow a line's name (Item, followed by Price Point Name: ADR 0201 F6) and
 * the values proposed to be left out of them (Square's "Regular", F8), where the mapping (`draft`)
 * takes its name column from the proposal now; a mapping naming its own keeps its joins.
 */
export function proposedNameJoins(draft: EntityMapping | null, proposal: Pick<MappingProposal, 'proposed_joined_columns' | 'proposed_joined_leave_out'>): Pick<EntityMapping, 'joined_columns' | 'joined_leave_out'> {
  const proposed = proposal.proposed_joined_columns?.[LINE_NAME_FIELD];
  if (!proposed || draft?.new_products?.['name']) return {};
  const leftOut = proposal.proposed_joined_leave_out?.[LINE_NAME_FIELD];
  return { joined_columns: { ...draft?.joined_columns, [LINE_NAME_FIELD]: proposed }, ...(leftOut ? { joined_leave_out: { ...draft?.joined_leave_out, [LINE_NAME_FIELD]: leftOut } } : {}) };
}

/**
 * The mapping a file's proposal makes, as the Import screen's draft (and Try the endpoint's) starts
 * from it and the file-walk tests send it: the proposed columns (names matched ignoring case, spaces,
 * underscores and synonyms) and every option proposed with them. `headerRow`: the row of column names
 * the user chose (else the file's own is detected on import too).
 */
export function mappingFromProposal(proposal: MappingProposal, headerRow?: number): EntityMapping {
  // A variant sold without a SKU: known by its name (ADR 0195 F4), a sales line's read from the column new products are named from.
  // Not where the answer names no such column for a line naming a product: the option alone would be refused.
  const lineName = proposal.proposed_new_products?.['name'];
  const byName: Pick<EntityMapping, 'blank_code_by_name' | 'new_products' | 'joined_columns' | 'joined_leave_out'> =
    proposal.proposed_blank_code_by_name && (lineName || !proposal.targets.some((target) => target.reference?.table === 'products'))
      ? { blank_code_by_name: true as const, ...(lineName ? { new_products: { name: lineName }, ...proposedNameJoins(null, proposal) } : {}) }
      : {};
  // A café's Square export without SKUs: the product is its Item + Price Point Name (ADR 0193), shown in the field's "followed by";
  // a gift shop's line without a SKU is named so where it is matched by its name (ADR 0201 F6), and only there.
  const joined = joinedColumnsRead(proposal.proposed_joined_columns, byName.new_products);
  // Square's "Regular" left out of those names, where proposed (ADR 0201 F8).
  const leftOut = joinedLeaveOutRead(proposal.proposed_joined_leave_out, joined);
  return {
    ...(headerRow !== undefined ? { header_row: headerRow } : {}),
    field_mappings: Object.fromEntries(Object.entries(proposal.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null)),
    // A stock count's day from its title line, shown as "Same date for all lines" with that day: the user sees it and may change it.
    ...(proposal.proposed_field_values && Object.keys(proposal.proposed_field_values).length ? { field_values: proposal.proposed_field_values } : {}),
    // An Odoo product list's Product Type for not_stocked: its words said as yes or no (Service → true), kept with the mapping (ADR 0200's amendment).
    ...(proposal.proposed_value_maps && Object.keys(proposal.proposed_value_maps).length ? { value_maps: proposal.proposed_value_maps } : {}),
    // The proposal's rows were read the way the file writes its numbers: the mapping imports them so
    // (a decimal point only where the file shows one: then a deli's `1.250` kg is 1.25, ADR 0176).
    ...(proposal.decimal_separator.used === ',' ? { decimal_separator: ',' as const } : proposal.decimal_separator.detected === '.' ? { decimal_separator: '.' as const } : {}),
    // Shown on the screen with Remove: a web shop's refunded and voided orders are not sales.
    ...(proposal.proposed_row_filters?.length ? { skip_rows_where: proposal.proposed_row_filters } : {}),
    // A shop's gift-wrap lines (no product code beside lines with one): skipped, not refused every run.
    ...(proposal.proposed_skip_rows_without_code ? { skip_rows_without_code: true } : {}),
    ...(joined ? { joined_columns: joined } : {}),
    ...(leftOut ? { joined_leave_out: leftOut } : {}),
    // A Shopify Products export's later variant lines: their blank Title, Vendor and Type are their first line's (ADR 0195 F3).
    ...(proposal.proposed_fill_down_by ? { fill_down_by: proposal.proposed_fill_down_by } : {}),
    ...byName,
    // An ERP's "[FURN_7800] Desk Combination": the code in the brackets (ADR 0198).
    ...(proposal.proposed_code_in_brackets ? { code_in_brackets: true } : {}),
    // A stock count per location (Odoo's WH/Stock, WH/Stock/Shelf 2): a product's lines are added up (ADR 0198).
    ...(proposal.counted_by_location ? { repeated_keys: 'sum' as const } : {}),
  };
}
