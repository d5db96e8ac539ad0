// Row page plans kept per table (docs/adr/0084): what a page's statements depend on apart from the
// page itself — the table's columns, the sort, the parsed filters_json and how references are
// shown — worked out once per query shape. A page of a shape seen before then parses no JSON,
// runs no zod and builds no Kysely conditions.
import type { CatalogueEntry } from './repo.ts';

/** Then a table's plans start over: a filters_json is at most 20,000 characters, so at most a few MB per table. */
const MAX_PLANS_PER_TABLE = 200;

type TablePlans<P> = { sources: readonly unknown[]; byQuery: Map<string, P> };

/**
 * Plans by catalogue entry object (a table changed here or read again after the catalogue cache's
 * few seconds is another object) and by what they were built from besides it (`sources`: the
 * configuration, related tables' entries — compared by identity, so any change of them is
 * another set of plans). Only plans built without an error are kept: a refused query is worked
 * out, and refused, every time.
 */
export class PagePlanCache<P> {
  readonly #tables = new WeakMap<CatalogueEntry, TablePlans<P>>();

  get(entry: CatalogueEntry, sources: readonly unknown[], queryKey: string, build: () => P): P {
    let plans = this.#tables.get(entry);
    if (!plans || plans.sources.length !== sources.length || plans.sources.some((source, index) => source !== sources[index])) {
      plans = { sources, byQuery: new Map() };
      this.#tables.set(entry, plans);
    }
    let plan = plans.byQuery.get(queryKey);
    if (plan === undefined) {
      plan = build();
      if (plans.byQuery.size >= MAX_PLANS_PER_TABLE) plans.byQuery.clear();
      plans.byQuery.set(queryKey, plan);
    }
    return plan;
  }
}
