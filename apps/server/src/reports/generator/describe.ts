// Pseudocode for any SELECT, read from its parse tree: what it reads, keeps, groups, computes,
// sorts and limits, in plain steps. Used when the SQL was written by hand (or by a model).
import { parseSync } from 'libpg-query';

type Node = Record<string, unknown>;
const inner = (value: unknown): Node => (value && typeof value === 'object' ? (Object.values(value)[0] as Node) : {});
const kindOf = (value: unknown) => (value && typeof value === 'object' ? Object.keys(value)[0] : undefined);
const strings = (list: unknown): string[] => ((list as Node[] | undefined) ?? []).map((item) => String(inner(item).sval ?? '*'));

function collect(value: unknown, kind: string, found: Node[] = []): Node[] {
  if (Array.isArray(value)) value.forEach((item) => collect(item, kind, found));
  else if (value && typeof value === 'object') {
    if (kindOf(value) === kind) found.push(inner(value));
    Object.values(value).forEach((field) => collect(field, kind, found));
  }
  return found;
}

function expression(value: unknown): string {
  switch (kindOf(value)) {
    case 'ColumnRef':
      return strings(inner(value).fields).at(-1) as string;
    case 'FuncCall': {
      const call = inner(value);
      const args = call.agg_star ? '*' : ((call.args as unknown[] | undefined) ?? []).map(expression).join(', ');
      return `${strings(call.funcname).at(-1)}(${args})`;
    }
    case 'A_Const':
      return 'a constant';
    case 'TypeCast':
      return expression(inner(value).arg);
    default:
      return 'an expression';
  }
}

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** Plain-words steps of a SELECT; a line saying so when the SQL cannot be read. */
export function describeSql(sqlText: string): string {
  let statement: Node;
  try {
    const parsed = parseSync(sqlText);
    if (parsed.stmts?.length !== 1 || kindOf(parsed.stmts[0]?.stmt) !== 'SelectStmt') return '1. The SQL is not a single SELECT; it cannot be described.';
    statement = inner(parsed.stmts[0]?.stmt);
  } catch {
    return '1. The SQL cannot be read; fix it first.';
  }
  const ctes = collect(statement.withClause, 'CommonTableExpr').map((cte) => String(cte.ctename));
  const relations = [...new Set(collect(statement, 'RangeVar').map((relation) => String(relation.relname)).filter((name) => !ctes.includes(name)))];
  const aggregates = collect(statement.targetList, 'FuncCall').filter((call) => ['sum', 'count', 'avg', 'min', 'max'].includes(strings(call.funcname).at(-1) as string));
  const groups = ((statement.groupClause as unknown[] | undefined) ?? []).map(expression).map((text) => (text === 'a constant' ? 'the listed columns' : text));
  const orders = ((statement.sortClause as unknown[] | undefined) ?? []).map((sort) => {
    const node = inner(sort);
    return `${expression(node.node)}${node.sortby_dir === 'SORTBY_DESC' ? ' (highest first)' : ''}`;
  });
  const limit = kindOf(statement.limitCount) === 'A_Const' ? Number((inner(statement.limitCount).ival as { ival?: number } | undefined)?.ival ?? 0) : null;
  const out = [
    ctes.length ? `Prepare ${list(ctes)} first.` : null,
    relations.length ? `Read ${list(relations)}${collect(statement, 'JoinExpr').length ? ', joined together' : ''}.` : 'Compute values without reading a table.',
    statement.whereClause ? 'Keep only the rows that match the conditions.' : null,
    groups.length ? `Group the rows by ${list([...new Set(groups)])}.` : null,
    aggregates.length ? `Compute ${list(aggregates.map((call) => expression({ FuncCall: call })))}.` : null,
    statement.havingClause ? 'Keep only the groups that match the conditions.' : null,
    orders.length ? `Sort by ${list(orders)}.` : null,
    limit ? `Keep the first ${limit === 1 ? 'row' : `${limit} rows`}.` : null,
  ].filter(Boolean);
  return out.map((line, index) => `${index + 1}. ${line}`).join('\n');
}
