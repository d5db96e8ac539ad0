// The last day a report's own date filter lets in (ADR 0154, amendment "a period cut by the report's
// own filter"). "Units sold by week last month" groups by week but stops at 30 Nov: its last row,
// the week of 30 Nov, holds 30 Nov only, not the days up to today. The rows cannot say so (they hold
// the week's Monday); the WHERE clause does. Its upper bounds on a column are read here, as SQL the
// run's own transaction evaluates beside `current_date`, so "current_date" means the same day in both.
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

/**
 * SQL for the last day a condition lets in, when it bounds a column from above by a date:
 * `col < E` (the day before E, or E's day when E is a moment past midnight), `col <= E`, `col = E`,
 * `col between A and E`.
 */
function lastDayOf(condition: unknown, bytes: Buffer, tokens: readonly Token[]): string | null {
  if (!boundsByDate(condition)) return null;
  const body = bodyOf(condition);
  const at = Number(body.location);
  if (body.kind === 'AEXPR_OP') {
    const op = lastName(body.name);
    const operator = tokenAt(tokens, at);
    const text = operator < 0 ? null : expressionText(bytes, tokens, operator + 1);
    if (text === null) return null;
    return op === '<' ? `((${text})::timestamp - interval '1 microsecond')::date` : `(${text})::date`;
  }
  // BETWEEN's own AND, past any inside its lower bound: the upper bound follows it.
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

/** Whether a condition bounds a column from above by a date (read from its parse tree alone). */
function boundsByDate(condition: unknown): boolean {
  if (kindOf(condition) !== 'A_Expr') return false;
  const body = bodyOf(condition);
  if (!isColumn(body.lexpr)) return false;
  if (body.kind === 'AEXPR_OP') return ['<', '<=', '='].includes(lastName(body.name)) && isDate(body.rexpr);
  const [, upper] = (body.rexpr as { List?: { items?: unknown[] } } | undefined)?.List?.items ?? [];
  return body.kind === 'AEXPR_BETWEEN' && isDate(upper);
}

/**
 * SQL for the last day the statement's own WHERE clause lets in, or null when it sets none. Only
 * the outer SELECT's conditions joined by AND count: a bound inside OR, a subquery or a CTE does not
 * say where the result's rows stop.
 */
export function reportEndSql(sqlText: string, select: Node): string | null {
  const where = select.whereClause;
  if (!where || (select.op !== undefined && select.op !== 'SETOP_NONE')) return null;
  const conditions = kindOf(where) === 'BoolExpr' && bodyOf(where).boolop === 'AND_EXPR' ? ((bodyOf(where).args as unknown[]) ?? []) : [where];
  // Scanning costs more than parsing: only SQL with a bound is scanned.
  if (!conditions.some(boundsByDate)) return null;
  const bytes = Buffer.from(sqlText, 'utf8');
  const tokens = scanSync(sqlText).tokens as Token[];
  const ends = conditions.map((condition) => lastDayOf(condition, bytes, tokens)).filter((end): end is string => end !== null);
  return ends.length === 0 ? null : `least(${ends.join(', ')})::text`;
}
