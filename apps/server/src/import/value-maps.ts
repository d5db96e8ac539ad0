// A mapping's value maps (`value_maps: {status: {geplant: scheduled}}`): what a file's own words
// mean in a column of choices, or in a yes-or-no column (`{not_stocked: {Service: 'true'}}`). Checked against the table where the mapping is saved or used, applied
// by the typer (target.ts) before the column's check, and the values still refused collected once
// each, so the Import screen can ask what they mean (docs/adr/0011-real-data-in.md).
import { MAX_REFUSED_CHOICE_VALUES, valueMapForm, valueMapTargets, type ColumnDefinition, type EntityMapping, type ProductConfig, type RefusedChoices } from '@stockwise/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { validationError } from '../http/errors.ts';
import { findCatalogueEntry } from '../tables/repo.ts';

/** Column -> matched form of a file value -> the value stored. */
export type CompiledValueMaps = Map<string, Map<string, string>>;

export function compileValueMaps(mapping: EntityMapping): CompiledValueMaps {
  return new Map(Object.entries(mapping.value_maps ?? {}).map(([field, values]) => [field, new Map(Object.entries(values).map(([from, to]) => [valueMapForm(from), to]))]));
}

const invalid = (reason: string) => validationError(`Invalid configuration: ${reason}`);

/**
 * Refuses (400) a value map the table cannot take, naming the field and the value: a field the
 * mapping does not fill from the file, a column neither of choices nor yes-or-no, a stored value
 * that is not one of the choices (true or false for a yes-or-no column), or one file value
 * (ignoring case) meaning two things.
 */
export function checkValueMaps(columns: readonly ColumnDefinition[], mapping: EntityMapping): void {
  for (const [field, values] of Object.entries(mapping.value_maps ?? {})) {
    const column = columns.find((c) => c.key === field);
    const name = column?.label ?? field;
    if (!(field in mapping.field_mappings)) throw invalid(`value_maps.${field}: ${name} is not mapped to a column of the file, so there are no values of it to map.`);
    const allowed = column && valueMapTargets(column);
    if (!allowed) throw invalid(`value_maps.${field}: ${name} is neither a column with a set of allowed values nor a yes-or-no column; only those take a value map.`);
    const meant = new Map<string, { from: string; to: string }>();
    for (const [from, to] of Object.entries(values)) {
      if (!allowed.includes(to)) throw invalid(`value_maps.${field}.${from}: ${to} is not one of the allowed values of ${name}: ${allowed.join(', ')}.`);
      const earlier = meant.get(valueMapForm(from));
      if (earlier && earlier.to !== to) throw invalid(`value_maps.${field}: ${earlier.from} and ${from} are the same value (case is ignored) but are mapped to ${earlier.to} and ${to}.`);
      meant.set(valueMapForm(from), { from, to });
    }
  }
}

/**
 * The check of a mapping being saved: the value maps of `entityType` against its table. A mapping
 * without value maps is saved as before, whatever its entity.
 */
export async function checkSavedValueMaps(db: Kysely<Database>, config: ProductConfig, entityType: string, mapping: EntityMapping): Promise<void> {
  if (!mapping.value_maps || Object.keys(mapping.value_maps).length === 0) return;
  checkValueMaps((await tableOfSavedMapping(db, config, entityType, 'value_maps')).columns, mapping);
}

/** The table of `entityType`, which a mapping being saved is checked against for `option`: a 400 when there is none. */
export async function tableOfSavedMapping(db: Kysely<Database>, config: ProductConfig, entityType: string, option: string) {
  const entity = config.inventory.entities.find((e) => e.name === entityType);
  if (!entity) throw invalid(`${option} of '${entityType}' cannot be checked: there is no entity '${entityType}'.`);
  const table = await findCatalogueEntry(db, entity.table);
  if (!table) throw invalid(`table '${entity.table}' of entity '${entity.name}' does not exist.`);
  return table;
}

/** The refused values of columns of choices and yes-or-no columns, each once ignoring case (the first spelling met), at most 50 per column. */
export class RefusedChoiceValues {
  readonly #byField = new Map<string, Map<string, string>>();

  add(field: string, value: string) {
    let values = this.#byField.get(field);
    if (!values) this.#byField.set(field, (values = new Map()));
    const key = valueMapForm(value);
    if (values.size < MAX_REFUSED_CHOICE_VALUES && !values.has(key)) values.set(key, value);
  }

  addAll(refused: Record<string, string> | null) {
    for (const [field, value] of Object.entries(refused ?? {})) this.add(field, value);
  }

  /** In the table's column order, with each column's choices (true and false for a yes-or-no column). */
  list(columns: readonly ColumnDefinition[]): RefusedChoices[] {
    return columns.flatMap((column) => {
      const values = this.#byField.get(column.key);
      const choices = valueMapTargets(column);
      return values && choices ? [{ field: column.key, values: [...values.values()], choices: [...choices] }] : [];
    });
  }
}
