// The parser gate of the report sandbox (docs/security.md "Report sandbox"): PostgreSQL's own
// parser (libpg-query) reads the SQL; one SELECT / WITH … SELECT / VALUES statement passes, with
// functions and casts from an allowlist and relations of the readable set only. Relation names
// are rewritten in the text to `data."<table>"`; set-returning calls the planner cannot size go to
// report_guard. The rewritten text is parsed and checked again, strictly, inside the very
// `DECLARE … CURSOR FOR` statement that will run: what runs is what was checked.
import { loadModule, parseSync, scanSync } from 'libpg-query';
import { reportEndSql, reportStartSql } from './report-end.ts';
import { characterCount, placeIn, SqlSourceMap, type RunSpan, type TextPlace } from './error-place.ts';
import { allowedFunctions, allowedTypes, MAX_CONSTANT_SIZE, sizedFunctions } from './functions.ts';

/** SQL the gate does not let through; `at` is where in the user's SQL, when the gate knows. */
export class SandboxRefusal extends Error {
  readonly at: TextPlace | null;
  constructor(message: string, at: TextPlace | null = null) {
    super(message);
    this.at = at;
  }
}

/** The relations a report may read: display name -> table name in the data schema. */
export type ReadableNames = { byName: ReadonlyMap<string, string>; tables: ReadonlySet<string> };

export type GateOptions = {
  readable: ReadableNames;
  /** Embedded mode: no WITH RECURSIVE (nothing could stop a runaway one there). */
  embedded: boolean;
};

export const CURSOR_NAME = 'report_rows';
const DATA_SCHEMA = 'data';
const GUARD_SCHEMA = 'report_guard';

let parserReady: Promise<void> | null = null;
/** Loads the WebAssembly parser once per process. */
export function loadSqlParser(): Promise<void> {
  parserReady ??= loadModule();
  return parserReady;
}

type AstNode = Record<string, unknown>;
type Edit = { start: number; end: number; text: string };

const STATEMENT_WORDS: Record<string, string> = {
  InsertStmt: 'INSERT',
  UpdateStmt: 'UPDATE',
  DeleteStmt: 'DELETE',
  MergeStmt: 'MERGE',
  TransactionStmt: 'a transaction command (BEGIN, COMMIT, ROLLBACK)',
  VariableSetStmt: 'SET / RESET',
  VariableShowStmt: 'SHOW',
  CopyStmt: 'COPY',
  ExplainStmt: 'EXPLAIN',
  DoStmt: 'DO',
  CallStmt: 'CALL',
  DeclareCursorStmt: 'DECLARE',
  FetchStmt: 'FETCH',
  LockStmt: 'LOCK',
  ListenStmt: 'LISTEN',
  NotifyStmt: 'NOTIFY',
  PrepareStmt: 'PREPARE',
  ExecuteStmt: 'EXECUTE',
  CreateTableAsStmt: 'CREATE TABLE AS',
  TruncateStmt: 'TRUNCATE',
  GrantStmt: 'GRANT / REVOKE',
  GrantRoleStmt: 'GRANT / REVOKE',
};

function describeStatement(kind: string): string {
  if (STATEMENT_WORDS[kind]) return STATEMENT_WORDS[kind];
  const words = kind.replace(/Stmt$/, '').replace(/([a-z])([A-Z])/g, '$1 $2').toUpperCase();
  return words;
}

const NODE_WORDS: Record<string, string> = {
  RangeTableSample: 'TABLESAMPLE',
  RangeTableFunc: 'XMLTABLE',
  XmlExpr: 'XML functions',
  XmlSerialize: 'XMLSERIALIZE',
  ParamRef: 'Parameters ($1)',
  LockingClause: 'FOR UPDATE / FOR SHARE',
  CurrentOfExpr: 'WHERE CURRENT OF',
};

/** Node types a read-only query is made of; any other node is refused. */
const ALLOWED_NODES = new Set([
  'SelectStmt', 'ResTarget', 'ColumnRef', 'A_Star', 'A_Const', 'A_Expr', 'BoolExpr', 'NullTest', 'BooleanTest', 'SubLink',
  'CaseExpr', 'CaseWhen', 'CoalesceExpr', 'MinMaxExpr', 'TypeCast', 'TypeName', 'FuncCall', 'WindowDef', 'SortBy', 'RangeVar',
  'RangeSubselect', 'RangeFunction', 'JoinExpr', 'Alias', 'WithClause', 'CommonTableExpr', 'A_ArrayExpr', 'A_Indirection',
  'A_Indices', 'RowExpr', 'GroupingSet', 'GroupingFunc', 'CollateClause', 'String', 'Integer', 'Float', 'Boolean', 'BitString',
  'List', 'SQLValueFunction', 'NamedArgExpr', 'ColumnDef', 'CTESearchClause', 'CTECycleClause',
]);

const nodeKind = (value: unknown): string | null => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  return keys.length === 1 && /^[A-Z]/.test(keys[0] as string) ? (keys[0] as string) : null;
};
const inner = (value: unknown): AstNode => Object.values(value as AstNode)[0] as AstNode;
const names = (list: unknown): string[] => ((list as AstNode[] | undefined) ?? []).map((item) => String((inner(item) as { sval?: string }).sval ?? ''));

/** Parses SQL; a syntax error in the user's own text (`placeErrors`) says where it is. */
function parseOrRefuse(sqlText: string, placeErrors: boolean) {
  try {
    return parseSync(sqlText);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // libpg-query's cursorPosition: 0-based characters (PostgreSQL's position less one), -1 for none.
    const position = (error as { sqlDetails?: { cursorPosition?: number } }).sqlDetails?.cursorPosition;
    throw new SandboxRefusal(`The SQL could not be read: ${message}.`, placeErrors && position !== undefined ? placeIn(sqlText, position) : null);
  }
}

class Scope {
  private readonly ctes: ReadonlySet<string>;
  private readonly parent: Scope | null;
  constructor(ctes: ReadonlySet<string> = new Set(), parent: Scope | null = null) {
    this.ctes = ctes;
    this.parent = parent;
  }
  with(namesInScope: Iterable<string>): Scope {
    return new Scope(new Set(namesInScope), this);
  }
  has(name: string): boolean {
    return this.ctes.has(name) || (this.parent?.has(name) ?? false);
  }
}

function isConstant(expression: unknown): boolean {
  const kind = nodeKind(expression);
  if (kind === 'A_Const') return true;
  if (kind === 'TypeCast') return isConstant(inner(expression).arg);
  if (kind === 'A_Expr') {
    const node = inner(expression);
    return node.kind === 'AEXPR_OP' && node.lexpr === undefined && names(node.name).join('.') === '-' && isConstant(node.rexpr);
  }
  return false;
}

function constantInteger(expression: unknown): number | null {
  if (nodeKind(expression) !== 'A_Const') return null;
  const node = inner(expression) as { ival?: { ival?: number } };
  return node.ival ? (node.ival.ival ?? 0) : null;
}

/**
 * One walk over a statement. In `resolve` mode (the user's text) names are looked up leniently and
 * edits are collected; in `strict` mode (the rewritten text) every relation must already be a
 * readable table of the data schema and every set-returning call either sized or guarded.
 */
class Walker {
  readonly edits: Edit[] = [];
  private readonly options: GateOptions;
  private readonly mode: 'resolve' | 'strict';
  private readonly text: NameReader;
  constructor(options: GateOptions, mode: 'resolve' | 'strict', text: NameReader) {
    this.options = options;
    this.mode = mode;
    this.text = text;
  }

  visit(value: unknown, scope: Scope): void {
    if (Array.isArray(value)) {
      for (const item of value) this.visit(item, scope);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const kind = nodeKind(value);
    if (!kind) {
      for (const field of Object.values(value)) this.visit(field, scope);
      return;
    }
    const node = inner(value);
    if (!ALLOWED_NODES.has(kind)) {
      if (kind.endsWith('Stmt')) throw this.refusal(`Reports only read data: ${describeStatement(kind)} is not allowed.`, node.location);
      throw this.refusal(`${NODE_WORDS[kind] ?? kind.replace(/^Json/, 'JSON ')} is not allowed in a report.`, node.location);
    }
    switch (kind) {
      case 'SelectStmt':
        return this.select(node, scope);
      case 'RangeVar':
        return this.relation(node, scope);
      case 'FuncCall':
        this.functionCall(node);
        break;
      case 'TypeCast':
      case 'ColumnDef':
        this.type(node.typeName as AstNode | undefined);
        if (kind === 'ColumnDef' && (node.constraints || node.raw_default)) throw this.refusal('Column definitions may only name a column and its type.', node.location);
        break;
      case 'A_Expr':
      case 'SubLink': {
        const operator = names(kind === 'A_Expr' ? node.name : node.operName);
        if (operator.length > 1 && operator[0] !== 'pg_catalog') throw this.refusal(`The operator ${operator.join('.')} is not allowed in a report.`, node.location);
        break;
      }
      default:
        break;
    }
    for (const field of Object.values(node)) this.visit(field, scope);
  }

  select(node: AstNode, scope: Scope): void {
    if (node.intoClause) throw new SandboxRefusal('Reports only read data: SELECT INTO (which creates a table) is not allowed.');
    let bodyScope = scope;
    const withClause = node.withClause as { ctes?: unknown[]; recursive?: boolean; location?: number } | undefined;
    if (withClause) {
      const ctes = (withClause.ctes ?? []).map((cte) => {
        if (nodeKind(cte) !== 'CommonTableExpr') throw this.refusal('WITH may only name queries.', withClause.location);
        return inner(cte);
      });
      if (withClause.recursive && this.options.embedded) {
        throw this.refusal('WITH RECURSIVE is not available in embedded mode (a runaway recursion could not be stopped there); use generate_series instead.', withClause.location);
      }
      const cteNames = ctes.map((cte) => String(cte.ctename));
      ctes.forEach((cte, index) => {
        if (nodeKind(cte.ctequery) !== 'SelectStmt') throw this.refusal('Reports only read data: WITH may hold SELECT queries only (no INSERT, UPDATE or DELETE).', cte.location);
        // Non-recursive WITH: a query sees only the ones named before it (else the name would
        // fall through to a real relation of that name).
        const visible = withClause.recursive ? cteNames : cteNames.slice(0, index);
        this.select(inner(cte.ctequery), scope.with(visible));
        const { ctequery: _query, ...rest } = cte;
        this.visit(rest, scope);
      });
      bodyScope = scope.with(cteNames);
    }
    for (const [field, value] of Object.entries(node)) {
      if (field === 'withClause') continue;
      if (field === 'larg' || field === 'rarg') this.select(value as AstNode, bodyScope);
      else this.visit(value, bodyScope);
    }
  }

  relation(node: AstNode, scope: Scope): void {
    const relname = String(node.relname);
    const schema = node.schemaname === undefined ? null : String(node.schemaname);
    if (node.catalogname !== undefined) throw this.refusal(`Reports can read the data tables and forecast views only, not ${String(node.catalogname)}.${schema}.${relname}.`, node.location);
    if (schema === null && scope.has(relname)) return;
    if (this.mode === 'strict') {
      if (schema !== DATA_SCHEMA || !this.options.readable.tables.has(relname)) throw new SandboxRefusal(`The relation ${schema ?? ''}${schema ? '.' : ''}${relname} is not readable by reports.`);
      return;
    }
    const shown = schema ? `${schema}.${relname}` : relname;
    if (schema !== null && schema !== DATA_SCHEMA) throw this.refusal(`Reports can read the data tables and forecast views only, not ${shown}.`, node.location);
    const table = this.resolveName(relname);
    if (!table) {
      const known = [...this.options.readable.byName.keys()].sort().join(', ');
      throw this.refusal(`Unknown table '${shown}': reports can read ${known}.`, node.location);
    }
    this.replaceName(Number(node.location), schema ? 2 : 1, `${DATA_SCHEMA}.${quoteIdentifier(table)}`);
  }

  private resolveName(name: string): string | undefined {
    const { byName, tables } = this.options.readable;
    const exact = byName.get(name) ?? (tables.has(name) ? name : undefined);
    if (exact) return exact;
    // An unquoted name arrives folded to lower case; a table shown as 'Suppliers' still matches.
    const folded = [...byName.entries()].filter(([display]) => display.toLowerCase() === name.toLowerCase());
    return folded.length === 1 ? folded[0]?.[1] : undefined;
  }

  private replaceName(location: number, parts: number, text: string): void {
    this.edits.push({ start: location, end: this.text.endOfName(location, parts), text });
  }

  /** A refusal at a node's location (a byte offset), placed in the user's text; the rewritten text's places are no one's. */
  private refusal(message: string, location: unknown): SandboxRefusal {
    return new SandboxRefusal(message, this.mode === 'resolve' && typeof location === 'number' ? this.text.placeOfByte(location) : null);
  }

  functionCall(node: AstNode): void {
    const parts = names(node.funcname);
    const name = parts.at(-1) as string;
    const schema = parts.length > 1 ? parts[0] : null;
    const args = (node.args as unknown[] | undefined) ?? [];
    if (schema === GUARD_SCHEMA && name === 'generate_series' && parts.length === 2) return;
    if ((schema !== null && schema !== 'pg_catalog') || parts.length > 2 || !allowedFunctions.has(name)) {
      throw this.refusal(
        `The function ${parts.join('.')}() is not allowed in reports: remove it from the SQL. Reports may call aggregate, window, math, text, date/time, array and JSON functions, such as count, sum, avg, round, date_trunc, extract, to_char, lower, string_agg and row_number.`,
        node.location,
      );
    }
    const sizeArgument = sizedFunctions.get(name);
    if (sizeArgument !== undefined) {
      const size = constantInteger(args[sizeArgument]);
      if (size === null || size > MAX_CONSTANT_SIZE) throw this.refusal(`${name}() needs a constant length of at most ${MAX_CONSTANT_SIZE.toLocaleString('en')}.`, node.location);
    }
    if (name === 'generate_series' && !args.every(isConstant)) {
      // Bounds known only at run time: the planner cannot size the series, the guard can.
      if (this.mode === 'strict') throw new SandboxRefusal('generate_series with computed bounds must go through the guard.');
      this.replaceName(Number(node.location), parts.length, `${GUARD_SCHEMA}.generate_series`);
    }
  }

  type(typeName: AstNode | undefined): void {
    if (!typeName) return;
    const parts = names(typeName.names);
    const name = parts.at(-1) as string;
    if ((parts.length > 1 && parts[0] !== 'pg_catalog') || parts.length > 2 || !allowedTypes.has(name)) {
      throw this.refusal(`Casting to ${parts.join('.')} is not allowed in reports.`, typeName.location);
    }
  }
}

export const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;

function onlyStatement(sqlText: string) {
  const parsed = parseOrRefuse(sqlText, true);
  const statements = parsed.stmts ?? [];
  if (statements.length === 0) throw new SandboxRefusal('No SQL code to execute.');
  if (statements.length > 1) throw new SandboxRefusal(`A report runs one statement; this SQL has ${statements.length}. Remove the extra statements.`);
  const statement = statements[0] as { stmt?: unknown; stmt_location?: number; stmt_len?: number };
  const kind = nodeKind(statement.stmt);
  if (kind !== 'SelectStmt') throw new SandboxRefusal(`Reports only read data: ${describeStatement(kind ?? 'an empty statement')} is not allowed.`);
  return { statement, select: inner(statement.stmt) };
}

/**
 * Finds where a (possibly qualified) name written at a byte offset ends. Plain and quoted names
 * are read here (scanning the whole text costs more than parsing it); anything unusual (U&"…"
 * with UESCAPE, say) is left to PostgreSQL's own scanner.
 */
class NameReader {
  private readonly bytes: Buffer;
  private readonly sqlText: string;
  private scanned: Map<number, { end: number; index: number }> | null = null;
  private tokens: { start: number; end: number }[] = [];
  constructor(sqlText: string) {
    this.sqlText = sqlText;
    this.bytes = Buffer.from(sqlText, 'utf8');
  }

  /** The line and column of a byte offset into the text. */
  placeOfByte(offset: number): TextPlace | null {
    return placeIn(this.sqlText, characterCount(this.bytes.subarray(0, offset).toString('utf8')));
  }

  endOfName(start: number, parts: number): number {
    let position = start;
    for (let part = 0; part < parts; part++) {
      if (part > 0) {
        position = this.skipSpace(position);
        if (this.bytes[position] !== 0x2e) return this.scannerEnd(start, parts);
        position = this.skipSpace(position + 1);
      }
      const end = this.identifierEnd(position);
      if (end === null) return this.scannerEnd(start, parts);
      position = end;
    }
    return position;
  }

  private identifierEnd(position: number): number | null {
    const b = this.bytes;
    const quoted = (from: number): number | null => {
      for (let i = from + 1; i < b.length; i++) {
        if (b[i] !== 0x22) continue;
        if (b[i + 1] === 0x22) i++;
        else return i + 1;
      }
      return null;
    };
    if (b[position] === 0x22) return quoted(position);
    if ((b[position] === 0x55 || b[position] === 0x75) && b[position + 1] === 0x26) return null;
    const isStart = (c: number | undefined) => c !== undefined && ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c >= 0x80);
    const isPart = (c: number | undefined) => isStart(c) || (c !== undefined && ((c >= 0x30 && c <= 0x39) || c === 0x24));
    if (!isStart(b[position])) return null;
    let end = position + 1;
    while (isPart(b[end])) end++;
    return end;
  }

  private skipSpace(position: number): number {
    const b = this.bytes;
    let i = position;
    while (i < b.length) {
      const c = b[i] as number;
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0c) i++;
      else if (c === 0x2d && b[i + 1] === 0x2d) {
        while (i < b.length && b[i] !== 0x0a) i++;
      } else if (c === 0x2f && b[i + 1] === 0x2a) {
        let depth = 1;
        i += 2;
        while (i < b.length && depth > 0) {
          if (b[i] === 0x2f && b[i + 1] === 0x2a) {
            depth++;
            i += 2;
          } else if (b[i] === 0x2a && b[i + 1] === 0x2f) {
            depth--;
            i += 2;
          } else i++;
        }
      } else break;
    }
    return i;
  }

  private scannerEnd(start: number, parts: number): number {
    if (!this.scanned) {
      this.tokens = scanSync(this.sqlText).tokens;
      this.scanned = new Map(this.tokens.map((token, index) => [token.start, { end: token.end, index }]));
    }
    const first = this.scanned.get(start);
    const last = first ? this.tokens[first.index + parts * 2 - 2] : undefined;
    if (!last) throw new SandboxRefusal('The SQL could not be read: a name is written in a way reports do not support.');
    return last.end;
  }
}

export type CheckedSql = {
  /** The statement to run: relations qualified, guards in place, no trailing semicolon. */
  statement: string;
  /** The same statement inside the cursor that runs it, checked again as a whole. */
  cursor: string;
  /** Where each character of `cursor` came from in the user's SQL: PostgreSQL's error positions traced back. */
  sourceMap: SqlSourceMap;
  /** SQL for the last day the statement's own date filter lets in (report-end.ts), or null. */
  endSql: string | null;
  /** SQL for the first day it lets in, or null. */
  startSql: string | null;
};

const CURSOR_HEAD = `DECLARE ${CURSOR_NAME} NO SCROLL CURSOR FOR\n`;

/** Checks report SQL and returns the text to run, or throws SandboxRefusal with a message for the user. */
export function checkReportSql(sqlText: string, options: GateOptions): CheckedSql {
  const { statement, select } = onlyStatement(sqlText);
  const walker = new Walker(options, 'resolve', new NameReader(sqlText));
  walker.select(select, new Scope());

  const bytes = Buffer.from(sqlText, 'utf8');
  const from = statement.stmt_location ?? 0;
  const to = statement.stmt_len ? from + statement.stmt_len : bytes.length;
  const { text: rewritten, spans } = rewrite(bytes, from, to, walker.edits);

  // The end of line keeps a trailing `-- comment` from swallowing anything after the statement.
  const cursor = `${CURSOR_HEAD}${rewritten}\n`;
  verifyCursor(cursor, options);
  const head = characterCount(CURSOR_HEAD);
  return {
    statement: rewritten,
    cursor,
    sourceMap: new SqlSourceMap(sqlText, spans.map((span) => ({ ...span, runFrom: span.runFrom + head, runTo: span.runTo + head }))),
    endSql: reportEndSql(sqlText, select),
    startSql: reportStartSql(sqlText, select),
  };
}

/**
 * The statement's bytes with each edit in place, trimmed, and the spans saying where its
 * characters came from: stretches copied from the user's text, and names written by the gate.
 * Locations are byte offsets into the UTF-8 text; spans count characters.
 */
function rewrite(bytes: Buffer, from: number, to: number, edits: readonly Edit[]): { text: string; spans: RunSpan[] } {
  const pieces: { text: string; userBytes: Buffer; copied: boolean }[] = [];
  let at = from;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const before = bytes.subarray(at, edit.start);
    pieces.push({ text: before.toString('utf8'), userBytes: before, copied: true }, { text: edit.text, userBytes: bytes.subarray(edit.start, edit.end), copied: false });
    at = edit.end;
  }
  const rest = bytes.subarray(at, to);
  pieces.push({ text: rest.toString('utf8'), userBytes: rest, copied: true });

  const whole = pieces.map((piece) => piece.text).join('');
  const text = whole.trim();
  // Whitespace is one UTF-16 unit a character: the lengths trimmed are character counts.
  const leading = whole.length - whole.trimStart().length;
  const length = characterCount(text);
  const spans: RunSpan[] = [];
  let runFrom = -leading;
  let userFrom = characterCount(bytes.subarray(0, from).toString('utf8'));
  for (const piece of pieces) {
    const runTo = runFrom + characterCount(piece.text);
    const clippedFrom = Math.max(runFrom, 0);
    const clippedTo = Math.min(runTo, length);
    if (clippedFrom < clippedTo) spans.push({ runFrom: clippedFrom, runTo: clippedTo, userFrom: piece.copied ? userFrom + (clippedFrom - runFrom) : userFrom, copied: piece.copied });
    runFrom = runTo;
    userFrom += characterCount(piece.userBytes.toString('utf8'));
  }
  return { text, spans };
}

function verifyCursor(cursorText: string, options: GateOptions): void {
  const parsed = parseOrRefuse(cursorText, false);
  const statements = parsed.stmts ?? [];
  const declare = statements.length === 1 && nodeKind(statements[0]?.stmt) === 'DeclareCursorStmt' ? inner(statements[0]?.stmt) : null;
  if (!declare || declare.portalname !== CURSOR_NAME || nodeKind(declare.query) !== 'SelectStmt') {
    throw new SandboxRefusal('The SQL could not be read as one query.');
  }
  new Walker(options, 'strict', new NameReader(cursorText)).select(inner(declare.query), new Scope());
}
