// The add-table dialog's column editor: one draft per row, turned into the contract's column definition.
import type { ColumnDefinition, FieldType } from '@stockwise/contract';

/** Every field type of spec §3, in the order the type select offers them. */
export const fieldTypeOptions = [
  'CharField',
  'TextField',
  'EmailField',
  'IntegerField',
  'DecimalField',
  'DateField',
  'DateTimeField',
  'BooleanField',
  'ForeignKey',
  'query',
  'nestedTable',
  'AutoField',
] as const satisfies readonly FieldType[];
// Compile-time proof that the list above names every type of the contract.
type MissingFieldTypes = Exclude<FieldType, (typeof fieldTypeOptions)[number]>;
const everyFieldTypeListed: MissingFieldTypes extends never ? true : never = true;
void everyFieldTypeListed;

export type ColumnDraft = {
  uid: number;
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  maxLength: string;
  maxDigits: string;
  decimalPlaces: string;
  /** A decimal column of money: the grid writes it in the shop's currency (ADR 0166). */
  money: boolean;
  choices: string;
  relatedTable: string;
  queryName: string;
};

export const emptyDraft = (uid: number): ColumnDraft => ({
  uid,
  key: '',
  label: '',
  type: 'CharField',
  required: false,
  maxLength: '',
  maxDigits: '',
  decimalPlaces: '',
  money: false,
  choices: '',
  relatedTable: '',
  queryName: '',
});

export const supportsChoices = (type: FieldType) => type === 'CharField' || type === 'TextField' || type === 'IntegerField';
export const supportsRequired = (type: FieldType) => type !== 'AutoField' && type !== 'query' && type !== 'nestedTable';

const integerOf = (text: string): number | undefined => {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
};

/** A label typed as "Unit cost" suggests the key "unit_cost". */
export const keyFromLabel = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, 'c_$1')
    .slice(0, 63);

export function draftToDefinition(draft: ColumnDraft): ColumnDefinition {
  const definition: ColumnDefinition = { key: draft.key.trim() || keyFromLabel(draft.label), type: draft.type };
  if (draft.label.trim()) definition.label = draft.label.trim();
  if (draft.required && supportsRequired(draft.type)) definition.required = true;
  if (draft.type === 'CharField') {
    const maxLength = integerOf(draft.maxLength);
    if (maxLength !== undefined) definition.max_length = maxLength;
  }
  if (draft.type === 'DecimalField') {
    const digits = integerOf(draft.maxDigits);
    const places = integerOf(draft.decimalPlaces);
    if (digits !== undefined) definition.max_digits = digits;
    if (places !== undefined) definition.decimal_places = places;
    if (draft.money) definition.money = true;
  }
  if (supportsChoices(draft.type)) {
    const choices = draft.choices.split(',').map((choice) => choice.trim()).filter(Boolean);
    if (choices.length > 0) definition.choices = choices;
  }
  if (draft.type === 'ForeignKey' && draft.relatedTable) definition.related_table = draft.relatedTable;
  if (draft.type === 'query' && draft.queryName) definition.query_name = draft.queryName;
  return definition;
}
