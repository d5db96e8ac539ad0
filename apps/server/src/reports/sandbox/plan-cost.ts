// The worst-case cost of a report's plan, from EXPLAIN (VERBOSE, FORMAT JSON): what the embedded sandbox
// compares with REPORT_MAX_COST before it runs a report (docs/security.md "Runaway SQL in embedded
// mode", ADR 0040 amendments "Judging the worst case", "Aggregates that sort their input" and "Sorts
// of row values and the forecast views' JSON").
//
// The cost at the top of a plan is what the planner expects to spend, and it expects to stop early
// wherever the SQL lets it: a LIMIT, an EXISTS, a semi or anti join all end at the first row they
// need. When that row never comes (a join condition that matches nothing) the work is everything
// below them: `… from sales a, sales b where a.quantity * b.quantity = -7 limit 1` is priced at 4
// and runs for half an hour on PGlite, where nothing can stop it. So the plan is judged by the
// largest of these, each the cost of running a part of it to the end:
//  - every node's Total Cost, which is the cost of running it to its last row (a Limit's alone is
//    cut to the rows it lets through; the node under it keeps its full cost), times the number of
//    times the node runs: the inner side of a nested loop once per outer row (a Materialize there
//    is filled once, then read again per outer row, each reading at most what filling it added); a
//    correlated subquery (SubPlan, unless hashed) once per row of the node that evaluates it.
//    Those rows are not in the plan, but the planner charged that node at least the subquery's
//    first row for each of them, so the node's cost over that charge bounds them;
//  - a semi or anti join with a join filter (EXISTS / NOT EXISTS / IN with a condition on both
//    sides) as if every outer row met every inner row before the filter let one through.
// The largest, not the sum: the parts run inside one another, so the largest holds most of the
// work. Some kinds of node are then weighted for what they cost on PGlite: with their input,
// function scans (FUNCTION_SCAN_WEIGHT) and aggregates that sort their input
// (SORTING_AGGREGATE_WEIGHT), which VERBOSE shows in the aggregate's own expressions; on their own
// part, sorts of row values (ROW_SORT_WEIGHT) and nodes that read JSON (JSON_WEIGHT).
// The result overstates a plan that does stop early; that matters only near the ceiling.

/** How the plan is asked for: VERBOSE adds each node's Output, where an aggregate's DISTINCT or ORDER BY shows. */
export const EXPLAIN_PLAN = 'explain (verbose, format json) ';

export type PlanNode = {
  'Node Type': string;
  'Startup Cost': number;
  'Total Cost': number;
  'Plan Rows': number;
  'Parent Relationship'?: string;
  'Subplan Name'?: string;
  'Join Type'?: string;
  'Join Filter'?: string;
  Plans?: PlanNode[];
  [detail: string]: unknown;
};

/**
 * Worst-case cost PGlite gets through in a second of CPU time on the fastest kinds of plan measured
 * (joins and generate_series ran at 190,000–370,000 over two runs, most near 200,000–290,000;
 * docs/performance.md "Report cost against time on PGlite", a 2-core machine): a plan of N times
 * this cost takes about N seconds; the kinds measured slower are weighted below.
 */
export const PGLITE_COST_PER_SECOND = 300_000;

/**
 * What a nested loop is charged for each pair of rows it looks at with a one-comparison join filter:
 * 424,675,868 for the 140,829 × 140,829 pairs of the cross join above.
 */
const PAIR_COST = 0.02;

/**
 * A function scan (generate_series, unnest, … in FROM) stores every row it makes before the rows
 * are read: on PGlite its rows took 4 times what the planner charges them, next to a join's
 * (docs/performance.md, "Report cost against time on PGlite").
 */
const FUNCTION_SCAN_WEIGHT = 4;

/**
 * An aggregate with DISTINCT, ORDER BY or WITHIN GROUP inside (count(distinct …), string_agg(… order
 * by …), percentile_cont) compares its input rows with one another, and the planner charges a
 * comparison the same whatever it compares. Comparing row values is where that is far off:
 * `count(distinct (product_id, extract(dow from date)))` over 8 × the demo's sales costs 163,198
 * with its input (and its Sort) and took 4.74 s of CPU on PGlite, 1,422,000 at 300,000 a second:
 * 8.7 times its cost; over the sales alone 8.3 times; with a second count(distinct) sorted inside
 * the aggregate, which the planner does not charge at all, 10.7 (docs/performance.md, "Report cost
 * against time on PGlite"). Hence 10, the node's cost with its input. The type compared is not in
 * the plan, so such aggregates of plain numbers, dates or text, which took one to two times what
 * the planner charges, are overstated 5 to 10 times.
 */
const SORTING_AGGREGATE_WEIGHT = 10;

/**
 * A Sort whose key is a row value the plan shows — a row constructor `ROW(a, b)` or a whole row
 * `s.*` — compares records field by field, which the planner charges as one comparison: its own
 * part (its cost over its input's) took 5 times that on PGlite next to a join for `ROW(a, b)`, 12
 * times for whole rows of sales, while sorts of plain numbers, dates or text ran at or above a
 * join's rate (docs/performance.md, "Report cost against time on PGlite"). Hence 8, between them.
 * A row value the plan names only as a column (`x.r` of a subquery) is not seen.
 */
const ROW_SORT_WEIGHT = 8;

/**
 * A node that reads JSON in its own expressions (`->`, `->>`, `#>`, a json/jsonb function, a cast
 * to json) parses the document each time, and the planner charges that as one operator whatever the
 * document's size: in the forecast views, whose every row reads its product's whole forecast text,
 * those nodes' own parts took 30 to 60 times what the planner charges (docs/performance.md). Hence
 * 40; small documents (a jsonb column of a few keys) are overstated as much, and longer forecasts
 * are slower per row than that.
 */
const JSON_WEIGHT = 40;

export function worstCaseCost(plan: PlanNode): number {
  const walk = new PlanWalk();
  walk.visit(plan, 1);
  return walk.largest + walk.weighted;
}

/** How many times its cost a node takes on PGlite next to a join. */
function weight(node: PlanNode): number {
  if (node['Node Type'] === 'Function Scan') return FUNCTION_SCAN_WEIGHT;
  if (node['Node Type'] === 'Aggregate' && sortsItsInput(node)) return SORTING_AGGREGATE_WEIGHT;
  return 1;
}

/** How many times its own part (its cost over its inputs') a node takes on PGlite next to a join. */
function ownWeight(node: PlanNode): number {
  if (/Sort$/.test(node['Node Type']) && ownWords(node, ['Sort Key']).some((expression) => ROW_VALUE.test(expression))) return ROW_SORT_WEIGHT;
  return ownWords(node).some((expression) => READS_JSON.test(expression)) ? JSON_WEIGHT : 1;
}

/** `ROW(a, b)` or a whole row `s.*` (EXPLAIN prints a row constructor upper-case, a quoted alias `"".*` once emptied). */
const ROW_VALUE = /\bROW\(|(?:\w|"")\.\*/;
/** `x -> ''`, `x ->> ''`, `x #> ''`, `json_array_elements_text(…)`, `row_to_json(…)`, `(x)::jsonb`; not `<->`. */
const READS_JSON = /(?<![<-])->|#>|jsonb?\w*\(|::jsonb?\b/;

/** A node's cost over its inputs' (not its subqueries', which are counted where they run). */
function ownCost(node: PlanNode): number {
  const inputs = (node.Plans ?? []).filter((child) => child['Parent Relationship'] !== 'SubPlan' && child['Parent Relationship'] !== 'InitPlan');
  return Math.max(0, node['Total Cost'] - inputs.reduce((sum, child) => sum + child['Total Cost'], 0));
}

class PlanWalk {
  /** The most a part of the plan costs, run to its end as often as it runs. */
  largest = 0;
  /** What the weighted nodes cost beyond their planner's cost, each as often as it runs. */
  weighted = 0;

  /** `sorted`: the node feeds an aggregate weighted for sorting its input, whose weight holds this node's sort already. */
  visit(node: PlanNode, runs: number, sorted = false): void {
    this.count(node['Total Cost'] * runs);
    const own = sorted && /Sort$/.test(node['Node Type']) ? 1 : ownWeight(node);
    this.weighted += ((weight(node) - 1) * node['Total Cost'] + (own - 1) * ownCost(node)) * runs;
    const children = node.Plans ?? [];
    const outerRows = children.find((child) => child['Parent Relationship'] === 'Outer')?.['Plan Rows'] ?? 1;
    const innerRows = children.find((child) => child['Parent Relationship'] === 'Inner')?.['Plan Rows'] ?? 1;
    if (/Semi|Anti/.test(node['Join Type'] ?? '') && node['Join Filter']) this.count(runs * outerRows * innerRows * PAIR_COST);
    for (const child of children) {
      const relationship = child['Parent Relationship'];
      if (node['Node Type'] === 'Nested Loop' && relationship === 'Inner') this.innerLoop(child, runs, outerRows);
      else if (relationship === 'SubPlan' && !isHashed(node, child)) this.visit(child, runs * subplanCalls(node, child));
      else this.visit(child, runs, weight(node) === SORTING_AGGREGATE_WEIGHT);
    }
  }

  private innerLoop(inner: PlanNode, runs: number, loops: number): void {
    const filled = inner.Plans?.[0];
    if (inner['Node Type'] !== 'Materialize' || !filled) return this.visit(inner, runs * Math.max(1, loops));
    const rereading = Math.max(0, inner['Total Cost'] - filled['Total Cost']);
    this.count(runs * (filled['Total Cost'] + loops * rereading));
    this.visit(filled, runs);
  }

  private count(cost: number): void {
    this.largest = Math.max(this.largest, cost);
  }
}

/** Where a node's expressions are: not its names (Alias, Relation Name, …), which are the report's words unquoted. */
const EXPRESSIONS = ['Output', 'Filter', 'Join Filter', 'One-Time Filter', 'Hash Cond', 'Merge Cond', 'Index Cond', 'Recheck Cond', 'Function Call'];

/**
 * A node's expressions as EXPLAIN prints them, with every string constant and quoted name emptied:
 * what is left is the plan's own words, not the report's (`'count(DISTINCT x)'::text` becomes
 * `''::text`, `s."hashed SubPlan 1"` becomes `s.""`). The sandbox sets standard_conforming_strings,
 * so a constant is printed in single quotes with a quote inside doubled, never as E'…'.
 */
function ownWords(node: PlanNode, fields = EXPRESSIONS): string[] {
  const expressions = fields.flatMap((key) => [node[key]].flat()).filter((value): value is string => typeof value === 'string');
  return expressions.map((expression) => expression.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"/g, (quoted) => quoted.charAt(0).repeat(2)));
}

/** An aggregate sorts its input when one of its aggregates has DISTINCT, ORDER BY or WITHIN GROUP (in its output or its HAVING filter). */
function sortsItsInput(aggregate: PlanNode): boolean {
  // `count(DISTINCT x)`, `string_agg(x, ','::text ORDER BY y)`, `percentile_cont(…) WITHIN GROUP (ORDER BY x)`; not `(a IS DISTINCT FROM b)`.
  return ownWords(aggregate).some((expression) => /\(DISTINCT |\bORDER BY /.test(expression));
}

/** A hashed SubPlan is run once into a hash table; the node that uses it says so in its expressions. */
function isHashed(owner: PlanNode, subplan: PlanNode): boolean {
  // "hashed SubPlan 1", not the start of "hashed SubPlan 12".
  const name = new RegExp(`hashed ${(subplan['Subplan Name'] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\d)`);
  return ownWords(owner).some((expression) => name.test(expression));
}

/** Times a correlated subquery runs at most: the owner's cost over the least the planner charged it per call (an EXISTS's first row). */
function subplanCalls(owner: PlanNode, subplan: PlanNode): number {
  const firstRow = subplan['Startup Cost'] + (subplan['Total Cost'] - subplan['Startup Cost']) / Math.max(1, subplan['Plan Rows']);
  return firstRow > 0 ? Math.max(1, owner['Total Cost'] / firstRow) : 1;
}
