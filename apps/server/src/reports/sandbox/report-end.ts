// The last day a report's own date filter lets in (ADR 0154, amendment "a period cut by the report's
// own filter"). "Units sold by week last month" groups by week but stops at 30 Nov: its last row,
// the week of 30 Nov, holds 30 Nov only, not the days up to today. The rows cannot say so (they hold
// the week's Monday); the WHERE clause does — the outer one's, or that of a CTE or subquery the rows
// come from (amendment 2026-12-04). Its upper bounds on a column are read here, as SQL the run's own
// transaction evaluates beside `current_date`, so "current_date" means the same day in both. Its
// lower bounds too: "by month since 15 March" starts in March on the 15th.
import { scanSync } from 'libpg-query';

type Node = Record<string, unknown>;
type Token = { start: number; end: number; text: string };

const kindOf = (value: unknown): string | null => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  return keys.length === 1 && /^[A-Z]/.test(keys[0] as string) ? (keys[0] as string) : null;
};
const bodyOf = (value: unknown): Node => Object.values(value as Node)[0] as Node;
const lastName = (list: unknown): string => {
  const items = (list as Node[] | undefined) ?? [];
  return String((bodyOf(items.at(-1)) as { sval?: string } | undefined)?.sval ?? '').toLowerCase();
};

const DATE_TYPES = new Set(['date', 'timestamp', 'timestamptz']);
/** Types a bound's parts may be cast to: the figures and intervals of date arithmetic. */
const PART_TYPES = new Set([...DATE_TYPES, 'interval', 'int2', 'int4', 'int8', 'numeric', 'text']);
const DATE_FUNCTIONS = new Set(['date_trunc', 'make_date', 'now']);
const PART_FUNCTIONS = new Set([...DATE_FUNCTIONS, 'extract', 'date_part']);
const DATE_VALUES = new Set(['SVFOP_CURRENT_DATE', 'SVFOP_CURRENT_TIMESTAMP', 'SVFOP_CURRENT_TIMESTAMP_N', 'SVFOP_LOCALTIMESTAMP', 'SVFOP_LOCALTIMESTAMP_N']);
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Whether an expression is date arithmetic on constants and today only: no column, no query, nothing that can fail where the report ran. */
function isPart(node: unknown): boolean {
  const body = bodyOf(node);
  switch (kindOf(node)) {
    case 'A_Const':
    case 'SQLValueFunction':
      return true;
    case 'TypeCast':
      return PART_TYPES.has(lastName((body.typeName as Node).names)) && isPart(body.arg);
    case 'FuncCall':
      return PART_FUNCTIONS.has(lastName(body.funcname)) && ((body.args as unknown[] | undefined) ?? []).every(isPart);
    case 'A_Expr':
      return body.kind === 'AEXPR_OP' && ['+', '-', '*'].includes(lastName(body.name)) && (body.lexpr === undefined || isPart(body.lexpr)) && isPart(body.rexpr);
    default:
      return false;
  }
}

/** Whether an expression is a day or a moment: a date, a timestamp, today, a truncated or shifted one. */
function isDate(node: unknown): boolean {
  const body = bodyOf(node);
  switch (kindOf(node)) {
    case 'A_Const':
      return ISO_DAY.test(String((body.sval as { sval?: string } | undefined)?.sval ?? ''));
    case 'SQLValueFunction':
      return DATE_VALUES.has(String(body.op));
    case 'TypeCast':
      return DATE_TYPES.has(lastName((body.typeName as Node).names)) && isPart(body.arg);
    case 'FuncCall':
      return DATE_FUNCTIONS.has(lastName(body.funcname)) && isPart(node);
    case 'A_Expr':
      return body.kind === 'AEXPR_OP' && ['+', '-'].includes(lastName(body.name)) && body.lexpr !== undefined && isDate(body.lexpr) && isPart(body.rexpr);
    default:
      return false;
  }
}

const isColumn = (node: unknown) => kindOf(node) === 'ColumnRef' || (kindOf(node) === 'TypeCast' && kindOf(bodyOf(node).arg) === 'ColumnRef');

/** Keywords that end a condition of the WHERE clause at its own depth. */
const ENDS_CONDITION = new Set(['and', 'or', 'group', 'order', 'limit', 'having', 'window', 'offset', 'fetch', 'union', 'intersect', 'except', 'for', ';']);

/** The text of the expression starting at token `first`, up to the end of its condition. */
function expressionText(bytes: Buffer, tokens: readonly Token[], first: number): string | null {
  let depth = 0;
  let last = -1;
  for (let i = first; i < tokens.length; i++) {
    const word = (tokens[i] as Token).text.toLowerCase();
    if (depth === 0 && (ENDS_CONDITION.has(word) || word === ')')) break;
    if (word === '(' || word === '[' || word === 'case') depth++;
    if (word === ')' || word === ']' || word === 'end') depth--;
    last = i;
  }
  if (last < first) return null;
  return bytes.subarray((tokens[first] as Token).start, (tokens[last] as Token).end).toString('utf8');
}

/** The index of the first token starting at or after a byte offset. */
const tokenAt = (tokens: readonly Token[], offset: number) => tokens.findIndex((token) => token.start >= offset);

/** Which end of the rows a bound sets: their last day (`<`, `<=`, `=`, BETWEEN's upper end) or their first (`>`, `>=`, `=`, BETWEEN's lower end). */
type Side = 'end' | 'start';
const SIDE_OPERATORS: Record<Side, readonly string[]> = { end: ['<', '<=', '='], start: ['>', '>=', '='] };

/**
 * SQL for the day a condition lets in last (`end`) or first (`start`), when it bounds a column by a
 * date on that side: `col < E` (the day before E, or E's day when E is a moment past midnight),
 * `col <= E`, `col = E`, `col between A and E`; `col > E` (the day after E's), `col >= E`, A.
 */
function dayOf(condition: unknown, side: Side, bytes: Buffer, tokens: readonly Token[]): string | null {
  if (!boundsByDate(condition, side)) return null;
  const body = bodyOf(condition);
  const at = Number(body.location);
  if (body.kind === 'AEXPR_OP') {
    const op = lastName(body.name);
    const operator = tokenAt(tokens, at);
    const text = operator < 0 ? null : expressionText(bytes, tokens, operator + 1);
    if (text === null) return null;
    if (op === '<') return `((${text})::timestamp - interval '1 microsecond')::date`;
    return op === '>' ? `((${text})::date + 1)` : `(${text})::date`;
  }
  // The lower bound follows BETWEEN; the upper one BETWEEN's own AND, past any inside its lower bound.
  if (side === 'start') {
    const text = expressionText(bytes, tokens, tokenAt(tokens, at) + 1);
    return text === null ? null : `(${text})::date`;
  }
  let and = tokenAt(tokens, at) + 1;
  for (let depth = 0; and < tokens.length; and++) {
    const word = (tokens[and] as Token).text.toLowerCase();
    if (word === '(' || word === 'case') depth++;
    if (word === ')' || word === 'end') depth--;
    if (depth === 0 && word === 'and') break;
  }
  const text = expressionText(bytes, tokens, and + 1);
  return text === null ? null : `(${text})::date`;
}

/** Whether a condition bounds a column by a date on a side (read from its parse tree alone). */
function boundsByDate(condition: unknown, side: Side): boolean {
  if (kindOf(condition) !== 'A_Expr') return false;
  const body = bodyOf(condition);
  if (!isColumn(body.lexpr)) return false;
  if (body.kind === 'AEXPR_OP') return SIDE_OPERATORS[side].includes(lastName(body.name)) && isDate(body.rexpr);
  const [lower, upper] = (body.rexpr as { List?: { items?: unknown[] } } | undefined)?.List?.items ?? [];
  return body.kind === 'AEXPR_BETWEEN' && isDate(side === 'end' ? upper : lower);
}

/** The tightest of a SELECT's bounds on a side (the earliest end, the latest start), and the loosest of OR's branches. */
const TIGHTEST: Record<Side, string> = { end: 'least', start: 'greatest' };
const LOOSEST: Record<Side, string> = { end: 'greatest', start: 'least' };

/** SQL for the day one condition lets in last (first), or null: a bound itself, or OR branches that each bound the same column. */
function conditionDay(condition: unknown, side: Side, text: SqlText): string | null {
  if (boundsByDate(condition, side)) return dayOf(condition, side, text.bytes(), text.tokens());
  const branches = orBranches(condition);
  if (!branches) return null;
  // Rows stop at the latest day any branch lets in (start at the earliest), and only when every branch bounds the same column.
  const bounded = branches.map((branch) => andArgs(branch).filter((bound) => boundsByDate(bound, side)));
  const column = bounded[0]?.[0] && columnOf(bounded[0][0]);
  if (!column || !bounded.every((bounds) => bounds.length > 0 && bounds.every((bound) => columnOf(bound) === column))) return null;
  const days = bounded.map((bounds) => bounds.map((bound) => dayOf(bound, side, text.bytes(), text.tokens())));
  if (days.some((branch) => branch.some((day) => day === null))) return null;
  return `${LOOSEST[side]}(${days.map((branch) => `${TIGHTEST[side]}(${branch.join(', ')})`).join(', ')})`;
}

const orBranches = (condition: unknown): unknown[] | null => (kindOf(condition) === 'BoolExpr' && bodyOf(condition).boolop === 'OR_EXPR' ? ((bodyOf(condition).args as unknown[]) ?? []) : null);
const andArgs = (condition: unknown): unknown[] => (kindOf(condition) === 'BoolExpr' && bodyOf(condition).boolop === 'AND_EXPR' ? ((bodyOf(condition).args as unknown[]) ?? []) : [condition]);
/** The column a bound compares, as written (`s.date`, `date`). */
const columnOf = (bound: unknown): string => {
  const lexpr = bodyOf(bound).lexpr;
  const ref = kindOf(lexpr) === 'TypeCast' ? bodyOf(lexpr).arg : lexpr;
  return ((bodyOf(ref).fields as unknown[]) ?? []).map((field) => String((bodyOf(field) as { sval?: string }).sval ?? '*')).join('.');
};

/** The statement's text, scanned once and only when a bound is read from it (scanning costs more than parsing). */
class SqlText {
  private scanned: Token[] | null = null;
  private readonly sqlText: string;
  private encoded: Buffer | null = null;
  constructor(sqlText: string) {
    this.sqlText = sqlText;
  }
  bytes(): Buffer {
    this.encoded ??= Buffer.from(this.sqlText, 'utf8');
    return this.encoded;
  }
  tokens(): Token[] {
    this.scanned ??= scanSync(this.sqlText).tokens as Token[];
    return this.scanned;
  }
}

/** The CTEs a SELECT's WITH clause names, over those of the statements around it. */
function withCtes(select: Node, outer: ReadonlyMap<string, Node>): ReadonlyMap<string, Node> {
  const ctes = ((select.withClause as { ctes?: unknown[] } | undefined)?.ctes ?? []).map((cte) => bodyOf(cte) as { ctename: string; ctequery: unknown });
  if (!ctes.length) return outer;
  const scope = new Map(outer);
  for (const cte of ctes) if (kindOf(cte.ctequery) === 'SelectStmt') scope.set(cte.ctename, bodyOf(cte.ctequery));
  return scope;
}

/**
 * The SELECTs whose rows the result's rows are made of: a CTE or subquery in FROM, and the sides
 * of a join that keep their rows (both of an inner join, the left of a left join, the right of a
 * right join). A query in the select list or in WHERE (`exists`, `in`) feeds no row.
 */
function feedingSelects(from: unknown, ctes: ReadonlyMap<string, Node>): Node[] {
  const body = bodyOf(from);
  switch (kindOf(from)) {
    case 'RangeVar': {
      const cte = body.schemaname === undefined ? ctes.get(String(body.relname)) : undefined;
      return cte ? [cte] : [];
    }
    case 'RangeSubselect':
      return kindOf(body.subquery) === 'SelectStmt' ? [bodyOf(body.subquery)] : [];
    case 'JoinExpr': {
      const sides = { JOIN_INNER: [body.larg, body.rarg], JOIN_LEFT: [body.larg], JOIN_RIGHT: [body.rarg] }[String(body.jointype)] ?? [];
      return sides.flatMap((side) => feedingSelects(side, ctes));
    }
    default:
      return [];
  }
}

/** The days a SELECT's own conditions and those of the SELECTs feeding it let in last (first), as SQL. */
function daysOf(select: Node, side: Side, text: SqlText, outer: ReadonlyMap<string, Node>, seen: Set<Node>): string[] {
  if (seen.has(select) || (select.op !== undefined && select.op !== 'SETOP_NONE')) return [];
  seen.add(select);
  const ctes = withCtes(select, outer);
  const own = select.whereClause ? andArgs(select.whereClause).map((condition) => conditionDay(condition, side, text)) : [];
  const fed = ((select.fromClause as unknown[] | undefined) ?? []).flatMap((from) => feedingSelects(from, ctes)).flatMap((feeding) => daysOf(feeding, side, text, ctes, seen));
  return [...own.filter((day): day is string => day !== null), ...fed];
}

/**
 * SQL for the last day the statement's own date filter lets in, or null when it sets none: the
 * outer SELECT's conditions joined by AND, and those of the CTEs and subqueries its rows come from
 * (ADR 0154, amendment 2026-12-04 "bounds in CTEs, subqueries and OR"). OR counts only when every
 * branch bounds the same column: a branch on another column lets other days in.
 */
export function reportEndSql(sqlText: string, select: Node): string | null {
  const ends = daysOf(select, 'end', new SqlText(sqlText), new Map(), new Set());
  return ends.length === 0 ? null : `least(${ends.join(', ')})::text`;
}

/** SQL for the first day the statement's own date filter lets in, or null: reportEndSql's twin for lower bounds (the latest of them counts). */
export function reportStartSql(sqlText: string, select: Node): string | null {
  const starts = daysOf(select, 'start', new SqlText(sqlText), new Map(), new Set());
  return starts.length === 0 ? null : `greatest(${starts.join(', ')})::text`;
}
