// The mapping builder's logic (spec §2, §9; issue 13): which entity mapping a saved mapping holds,
// the draft the user edits (one file column per target field, and how the file writes its
// values), and what keeps Import disabled. The server reads the file and types the first rows
// (POST /api/records/preview-file/); this only decides what to ask it and what to show.
import { joinedColumnsRead, joinedLeaveOutRead, newProductFieldOf, proposedNameJoins, valueMapForm, type EntityMapping, type ImportTarget, type MappingConfig, type PreviewFileResponse, type RefusedChoices } from '@stockwise/contract';

/** The import's entity select: where the integration editor sends someone who needs a mapping built. */
export const IMPORT_ENTITY_ID = 'import-entity';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The field mappings of the entity type in a mapping config, or null when it has none. */
export function entityFieldMappings(config: MappingConfig | null | undefined, entityType: string): Record<string, string> | null {
  const entity = config?.entities?.[entityType];
  return entity && isRecord(entity.field_mappings) ? entity.field_mappings : null;
}

/** The entity mapping a saved mapping holds for the entity, as a draft to edit, or null (the builder proposes one). */
export function draftFrom(config: MappingConfig | null | undefined, entityType: string): EntityMapping | null {
  const entity = config?.entities?.[entityType];
  return entity && isRecord(entity.field_mappings) ? { ...entity, field_mappings: { ...entity.field_mappings } } : null;
}

/** Where a line's name is read from for blank_code_by_name: a sales file's new product name column (Lineitem name); none for a products file (its own name). */
const lineNameColumn = (draft: EntityMapping | null, proposed: Record<string, string | null> | undefined): string | null => draft?.new_products?.['name'] ?? proposed?.['name'] ?? null;

/**
 * The options that turn knowing a line without a product code by its name on or off (ADR 0195
 * F4). On, a sales file's lines are matched by the column new products are named from (the
 * draft's, else the proposal's, with the columns proposed to follow it: ADR 0201 F6); off, that
 * column goes too unless products are created from it.
 */
export function blankCodeByNameOptions(draft: EntityMapping | null, on: boolean, preview: Pick<PreviewFileResponse, 'proposed_new_products' | 'proposed_joined_columns' | 'proposed_joined_leave_out'>): MappingOptions {
  const column = lineNameColumn(draft, preview.proposed_new_products);
  if (!on) return { blank_code_by_name: undefined, ...(draft?.create_missing_products ? {} : { new_products: undefined }) };
  return { blank_code_by_name: true, ...(column && preview.proposed_new_products ? { new_products: { ...draft?.new_products, name: column }, ...proposedNameJoins(draft, preview) } : {}) };
}

/** The draft without `field`'s joined columns, nor the values left out of them (the server refuses those alone). */
const withoutJoined = (draft: EntityMapping, field: string) => withoutEntry(withoutEntry(draft, 'joined_columns', field), 'joined_leave_out', field);

/**
 * The draft with `columns` following `field`'s mapped column in their order (ADR 0195: Title +
 * Option1 Value + Option2 Value + Option3 Value); none drops the field's entry (the contract
 * refuses an empty list), as does a field without a column (the server refuses joins to none).
 */
export function withJoinedColumns(draft: EntityMapping, field: string, columns: readonly string[]): EntityMapping {
  // A line's name (`new_products.name`, ADR 0201 F6) is read from its new_products column.
  const newProductField = newProductFieldOf(field);
  const read = newProductField === null ? field in draft.field_mappings : draft.new_products?.[newProductField] !== undefined;
  if (!columns.length || !read) return withoutJoined(draft, field);
  // The values left out stay with the columns still joined: "Regular" is left out of whichever part holds it.
  const without = withoutEntry(draft, 'joined_columns', field);
  return { ...without, joined_columns: { ...without.joined_columns, [field]: [...columns] } };
}

/**
 * The options that leave `values` out of the columns joined to `field` (Square's "Regular", ADR
 * 0201 F8), or none: every part read again.
 */
export function joinedLeaveOutOptions(draft: EntityMapping, field: string, values: readonly string[] | null): MappingOptions {
  const { [field]: _previous, ...others } = draft.joined_leave_out ?? {};
  const next = values?.length ? { ...others, [field]: [...values] } : others;
  return { joined_leave_out: Object.keys(next).length ? next : undefined };
}

/** field -> the columns it reads as the screen names them: `Item + Price Point Name` for joined columns. */
export function shownColumns(draft: Pick<EntityMapping, 'field_mappings' | 'joined_columns'>): Record<string, string> {
  return Object.fromEntries(Object.entries(draft.field_mappings).map(([field, column]) => [field, [column, ...(draft.joined_columns?.[field] ?? [])].join(' + ')]));
}

/**
 * The draft as it is saved: a date order the file proved (Detect read `16/11/2026` as day-first)
 * goes in, so next month's file, whose days are all 12 or less until the 13th, is not refused as
 * ambiguous. ISO dates are read under any format: nothing to keep.
 */
export function withLearntDateFormat(draft: EntityMapping, preview: Pick<PreviewFileResponse, 'date_format'> | null): EntityMapping {
  const detected = preview?.date_format.detected;
  if ((draft.date_format && draft.date_format !== 'auto') || !detected || detected === 'auto' || detected === 'iso' || preview.date_format.ambiguous) return draft;
  return { ...draft, date_format: detected };
}

/** The draft's fields each given something of their own: one value for every line, a value map, joined columns and what they leave out. */
type PerField = 'field_values' | 'value_maps' | 'joined_columns' | 'joined_leave_out';
/** The draft's `key` without `field`'s entry, dropped altogether when none is left. */
function withoutEntry(draft: EntityMapping, key: PerField, field: string): EntityMapping {
  const entries = draft[key];
  if (!entries || !(field in entries)) return draft;
  const { [field]: _dropped, ...others } = entries;
  const { [key]: _all, ...rest } = draft;
  return (Object.keys(others).length ? { ...rest, [key]: others } : rest) as EntityMapping;
}
const withoutValueMap = (draft: EntityMapping, field: string) => withoutEntry(draft, 'value_maps', field);

const withoutFieldValue = (draft: EntityMapping, field: string) => withoutEntry(draft, 'field_values', field);

/**
 * The draft with one target fed from `column`, or from no column (then its value map goes too: the
 * server refuses a map for an unmapped field). A column replaces the field's one value for all lines.
 */
export function withColumn(draft: EntityMapping, field: string, column: string | null): EntityMapping {
  const { [field]: _previous, ...rest } = draft.field_mappings;
  const withoutValue = withoutFieldValue(draft, field);
  // Columns joined to no column are refused by the server: they go with the field's column (ADR 0193).
  return column ? { ...withoutValue, field_mappings: { ...rest, [field]: column } } : { ...withoutJoined(withoutValueMap(withoutValue, field), field), field_mappings: rest };
}

/**
 * The column select's choice that gives a date field one value for every line instead of a column
 * (a stock count or a till's day export without dates). A control character: no file's column is named so.
 */
export const SAME_VALUE_CHOICE = '\u0001same-value';

/** Whether a target's value may be read from two columns (ADR 0193): a product code, the product a line names, a product's name. */
export const joinsColumns = (target: ImportTarget) => target.reference !== undefined || target.field === 'product_code' || target.field === 'name';

/** Whether a target is a date the file may leave out, given one day for every line instead. */
export const takesOneDate = (target: ImportTarget) => target.type === 'DateField' || target.type === 'DateTimeField';

/** The day (YYYY-MM-DD) on the browser's calendar: the shop's today, where the clerk is. */
export function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** The draft with `field` given `value` on every line (its column and value map dropped: the server refuses both at once). */
export function withFieldValue(draft: EntityMapping, field: string, value: string): EntityMapping {
  const fromNoColumn = withColumn(draft, field, null);
  return { ...fromNoColumn, field_values: { ...fromNoColumn.field_values, [field]: value } };
}

/** field -> the file's value -> the allowed value it means; an empty meaning is no answer (the value stays refused). */
export type ValueMeanings = Record<string, Record<string, string>>;

/** The draft with the meanings added to its value maps (an earlier meaning of the same value replaced). */
export function withValueMeanings(draft: EntityMapping, meanings: ValueMeanings): EntityMapping {
  const valueMaps = { ...draft.value_maps };
  for (const [field, values] of Object.entries(meanings)) {
    const chosen = Object.entries(values).filter(([, meant]) => meant !== '');
    if (chosen.length) valueMaps[field] = { ...valueMaps[field], ...Object.fromEntries(chosen) };
  }
  return Object.keys(valueMaps).length ? { ...draft, value_maps: valueMaps } : draft;
}

/** A column of choices (or a yes-or-no column: choices true and false) whose values the file holds outside them, with the field's label. */
export type ValuesToMap = RefusedChoices & { label: string; yesNo: boolean };

/**
 * The values the preview or the import refused as outside a column's choices, each once per field,
 * leaving out those the draft's value maps already give a meaning (the preview re-runs after Apply).
 */
export function valuesToMap(targets: readonly ImportTarget[], draft: EntityMapping | null, ...refused: readonly (readonly RefusedChoices[] | undefined)[]): ValuesToMap[] {
  const byField = new Map<string, ValuesToMap>();
  for (const { field, values, choices } of refused.flatMap((list) => list ?? [])) {
    const mapped = new Set(Object.keys(draft?.value_maps?.[field] ?? {}).map(valueMapForm));
    const target = targets.find((candidate) => candidate.field === field);
    const entry = byField.get(field) ?? { field, label: target?.label ?? field, values: [], choices, yesNo: target?.type === 'BooleanField' };
    const known = new Set(entry.values.map(valueMapForm));
    for (const value of values) {
      if (mapped.has(valueMapForm(value)) || known.has(valueMapForm(value))) continue;
      known.add(valueMapForm(value));
      entry.values.push(value);
    }
    byField.set(field, entry);
  }
  return [...byField.values()].filter((entry) => entry.values.length > 0);
}

export type MappingOptions = Omit<EntityMapping, 'field_mappings'>;

/** The draft with options changed; an option set to undefined is dropped (the default applies). */
export function withOptions(draft: EntityMapping, options: MappingOptions): EntityMapping {
  const next: Record<string, unknown> = { ...draft, ...options };
  for (const [key, value] of Object.entries(options)) if (value === undefined) delete next[key];
  // A new product's column gone takes the columns joined to it along (the server refuses joins to none).
  const joined = joinedColumnsRead(next['joined_columns'] as EntityMapping['joined_columns'], next['new_products'] as EntityMapping['new_products']);
  if (joined) next['joined_columns'] = joined;
  else delete next['joined_columns'];
  // And the values left out of them.
  const leftOut = joinedLeaveOutRead(next['joined_leave_out'] as EntityMapping['joined_leave_out'], joined);
  if (leftOut) next['joined_leave_out'] = leftOut;
  else delete next['joined_leave_out'];
  return next as EntityMapping;
}

/**
 * The options that turn creating products for unknown codes on or off. On, new products take their
 * fields from the columns the server proposes (unless the draft already names some); off, those go
 * too (the server refuses new_products without create_missing_products).
 */
export function createMissingOptions(draft: EntityMapping | null, on: boolean, preview: Pick<PreviewFileResponse, 'proposed_new_products' | 'proposed_joined_columns' | 'proposed_joined_leave_out'>): MappingOptions {
  // Lines without a code matched by name still read the name column (blank_code_by_name, ADR 0195 F4).
  const matchedBy = draft?.blank_code_by_name ? draft.new_products?.['name'] : undefined;
  if (!on) return { create_missing_products: undefined, new_products: matchedBy ? { name: matchedBy } : undefined };
  const fromProposal = Object.fromEntries(Object.entries(preview.proposed_new_products ?? {}).filter((entry): entry is [string, string] => entry[1] !== null));
  const newProducts = draft?.new_products ?? fromProposal;
  return { create_missing_products: true, new_products: Object.keys(newProducts).length ? newProducts : undefined, ...(newProducts['name'] ? proposedNameJoins(draft, preview) : {}) };
}

/** The options with one field of new products taken from `column`, or from none (new_products dropped when empty). */
export function newProductColumnOptions(draft: EntityMapping | null, field: string, column: string | null): MappingOptions {
  const { [field]: _previous, ...rest } = draft?.new_products ?? {};
  const next = column ? { ...rest, [field]: column } : rest;
  return { new_products: Object.keys(next).length ? next : undefined };
}

/** Required targets that neither a file column nor one value for all lines fills: Import stays disabled while there is one. */
export function unmappedRequired(targets: ImportTarget[], draft: EntityMapping | null): ImportTarget[] {
  return targets.filter((target) => target.required && !draft?.field_mappings[target.field] && !draft?.field_values?.[target.field]);
}

/**
 * The draft's columns that the file's header lacks, and whether a required field reads one of
 * them (the server refuses such a file: the draft cannot import it).
 */
export function columnsMissingFromFile(preview: PreviewFileResponse, draft: EntityMapping | null): { columns: string[]; required: boolean } {
  const inFile = new Set(preview.header);
  // A joined column (ADR 0193) is read as the field's own is: missing, the field is.
  const read = Object.entries(draft?.field_mappings ?? {}).flatMap(([field, column]) => [column, ...(draft?.joined_columns?.[field] ?? [])].map((part) => [field, part] as const));
  const missing = read.filter(([, column]) => !inFile.has(column));
  const requiredFields = new Set(preview.targets.filter((target) => target.required).map((target) => target.field));
  return { columns: missing.map(([, column]) => column), required: missing.some(([field]) => requiredFields.has(field)) };
}

/**
 * The file's columns that no field, new product's field or row filter of the draft reads: they are
 * not imported (a wholesaler's supplier column the products table has no field for), said before
 * the import rather than dropped silently. A CSV's or sheet's columns only: a JSON record's every
 * nested path is no column a shop chose.
 */
export function columnsNotImported(preview: PreviewFileResponse, draft: EntityMapping | null): string[] {
  if (preview.format === 'json' || !draft) return [];
  const newProducts = Object.entries(draft.new_products ?? {}).flat();
  const filters = (draft.skip_rows_where ?? []).flatMap((filter) => [filter.column, filter.blank_means_same_as ?? '']);
  const read = new Set([...Object.values(draft.field_mappings), ...Object.values(draft.joined_columns ?? {}).flat(), ...newProducts, ...filters, draft.fill_down_by ?? '']);
  return preview.header.filter((column) => column.trim() !== '' && !read.has(column));
}

/** How many previewed cells the server will refuse. */
export function problemCount(rows: PreviewFileResponse['rows']): number {
  return rows.reduce((total, row) => total + Object.keys(row.problems).length, 0);
}
