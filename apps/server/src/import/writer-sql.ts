// SQL of the records writer (writer.ts): the staging table every typed row is COPYed into, the
// checks run on it (unknown codes, refused repeated keys), and the one merge into the data table
// (lookups by business key, repeated keys summed or the last kept, then insert or upsert).
import { sql, type RawBuilder } from 'kysely';
import { isReferredBy, type ReferencingForeignKey } from '../tables/repo.ts';
import { ownTextKey, type CodeLookup, type TotalsSkipped, type WriteTarget } from './target.ts';
import { TOTALS_LINE_PATTERN } from './totals-line.ts';
import { codesWithLeadingZeros } from './leading-zeros.ts';

/** Every typed row of the file, as COPYed. */
export const STAGING_TABLE = 'import_rows';
/** The staged rows after lookups and the entity's handling of repeated keys: what gets written. */
export const MERGED_TABLE = 'import_merged';
/** The row number in the source, so that of a repeated key the last row wins and errors name it. */
export const STAGING_ROW = '_row';
/** Which mapped columns a staged row fills: one '1' or '0' per column. */
export const STAGING_FIELDS = '_fields';
/** How many source rows a staged row stands for (rows of one key already added up while typing: sum mode). */
export const STAGING_LINES = '_lines';
/** Which mapped columns hold a date read day-first only provisionally ('1' per such column), or null. */
export const STAGING_PROVISIONAL = '_provisional';

const id = (name: string) => sql.id(name);
const list = (columns: string[]) => sql.join(columns.map(id));
const dataTable = (encodedName: string) => sql.id('data', encodedName);
const staged = (column: string) => sql`s.${id(column)}`;
/** SQL fragments one after the other (none: nothing). */
const joined = (parts: RawBuilder<unknown>[]) => (parts.length ? sql.join(parts, sql``) : sql``);
const byKey = (target: WriteTarget, column: string) => target.references.get(column)?.by === 'key';

/** Temporary tables dropped at commit (and first, when a caller writes several batches in one transaction). */
export function createStagingTable(target: WriteTarget): RawBuilder<unknown>[] {
  const columns = target.mapped.map((c) => (byKey(target, c) ? sql`null::text as ${id(c)}` : id(c)));
  // The fields of new products (new_products) ride along as text: not columns of this table.
  for (const { staged } of target.newProducts?.fields ?? []) columns.push(sql`null::text as ${id(staged)}`);
  return [
    sql`drop table if exists ${id(STAGING_TABLE)}, ${id(MERGED_TABLE)}`,
    sql`create temp table ${id(STAGING_TABLE)} on commit drop as
      select null::int8 as ${id(STAGING_ROW)}, null::text as ${id(STAGING_FIELDS)}, null::int4 as ${id(STAGING_LINES)}, null::text as ${id(STAGING_PROVISIONAL)}, ${sql.join(columns)} from ${dataTable(target.encodedName)} with no data`,
  ];
}

export const stagingColumns = (target: WriteTarget) => [STAGING_ROW, STAGING_FIELDS, STAGING_LINES, STAGING_PROVISIONAL, ...target.mapped, ...(target.newProducts?.fields.map((f) => f.staged) ?? [])];

/**
 * Fails with 42P10 unless a unique index covers exactly the key columns: plain INSERTs would not
 * notice, and a second import of the file would then add every row again.
 */
export const checkKeyIsUnique = (target: WriteTarget) =>
  sql`insert into ${dataTable(target.encodedName)} (${list(target.keyColumns)})
    select ${list(target.keyColumns)} from ${dataTable(target.encodedName)} where false on conflict (${list(target.keyColumns)}) do nothing`;

/** Imports into one table take turns (parallel merges of overlapping keys could deadlock); an undo of a sales import takes its turn too. */
export const lockTableNamed = (encodedName: string) => sql`select pg_advisory_xact_lock(hashtext(${`import-table:${encodedName}`}))`;
export const lockTable = (target: WriteTarget) => lockTableNamed(target.encodedName);

/** Dates read day-first while the file's date order was undecided, now known to be month-first. */
export function swapDayAndMonth(target: WriteTarget): RawBuilder<unknown> | null {
  const dates = target.mapped.filter((c) => target.typeOf(c) === 'DateField' || target.typeOf(c) === 'DateTimeField');
  if (!dates.length) return null;
  const part = (field: string, value: RawBuilder<unknown>) => sql`extract(${sql.raw(field)} from ${value})::int`;
  const swaps = dates.map((c) => {
    const swapped =
      target.typeOf(c) === 'DateField'
        ? sql`make_date(${part('year', id(c))}, ${part('day', id(c))}, ${part('month', id(c))})`
        : (() => {
            const utc = sql`(${id(c)} at time zone 'UTC')`;
            return sql`make_timestamptz(${part('year', utc)}, ${part('day', utc)}, ${part('month', utc)}, ${part('hour', utc)}, ${part('minute', utc)}, extract(second from ${utc}), 'UTC')`;
          })();
    const position = target.mapped.indexOf(c) + 1;
    return sql`${id(c)} = case when substr(${id(STAGING_PROVISIONAL)}, ${position}, 1) = '1' then ${swapped} else ${id(c)} end`;
  });
  return sql`update ${id(STAGING_TABLE)} set ${sql.join(swaps)} where ${id(STAGING_PROVISIONAL)} is not null`;
}

/** A code as compared for "did you mean": lower case, letters and digits only (`hw 0003` and `HW-0003` alike). */
export const looseCode = (code: RawBuilder<unknown>) => sql`regexp_replace(lower(${code}::text), '[^[:alnum:]]', '', 'g')`;

/**
 * A staged row refused for its code: the lines it stands for, how many lines all such rows stand
 * for, and what the code may mean (unknownCodeReason): the stored codes differing from it only in
 * case and punctuation (`suggestions`), or the new code of an earlier row (`first_code`, `first_row`).
 */
export type UnknownCode = { row: number; code: string; lines: number; total: number; suggestions: string[] | null; first_code?: string; first_row?: number };

/** The stored codes of `table`.`key` that differ from `code` only in case and punctuation, in code order (null: none). */
export const storedLooseTwins = (table: RawBuilder<unknown>, key: RawBuilder<unknown>, code: RawBuilder<unknown>) =>
  sql`(select array_agg(${key}::text order by ${key}::text collate "C") from ${table} where ${looseCode(key)} = ${looseCode(code)})`;

/**
 * The first 100 staged rows whose code (or id) in `column` matches no row of `lookup`'s table (the
 * related table, or an update-only target's own), each with the lines it stands for (added up), and
 * how many lines there are; with the stored codes that differ from it only in case and punctuation.
 */
export function unknownCodes(column: string, lookup: CodeLookup) {
  const key = sql`r.${id(lookup.keyColumn)}`;
  return sql<UnknownCode>`
    with unknown as (
      select ${id(STAGING_ROW)}::int as row, ${staged(column)}::text as code, ${id(STAGING_LINES)}::int as lines, (sum(${id(STAGING_LINES)}) over ())::int as total
      from ${id(STAGING_TABLE)} s
      where ${staged(column)} is not null
        and not exists (select 1 from ${dataTable(lookup.encodedName)} r where ${key} = ${staged(column)})
      order by ${id(STAGING_ROW)} limit 100),
    suggested as (
      select u.code, ${storedLooseTwins(sql`${dataTable(lookup.encodedName)} r`, key, sql`u.code`)} as suggestions
      from (select distinct code from unknown) u)
    select u.row, u.code, u.lines, u.total, s.suggestions from unknown u join suggested s using (code) order by u.row`;
}

/**
 * Before create_missing_products creates anything: takes the staged rows out whose code is not
 * stored but differs only in case and punctuation from a stored code (`GAR 1018` beside GAR-1018,
 * or beside GAR-1018 and GAR.1018, is a typo, not a new product), answering the first 100 with
 * those codes as suggestions, as unknownCodes does. One look over the distinct missing codes.
 */
export function takeOutLooseTwins(target: WriteTarget, column: string) {
  const reference = target.references.get(column);
  if (!reference) throw new Error(`${column} is not a reference`);
  const key = sql`r.${id(reference.keyColumn)}`;
  return sql<UnknownCode>`
    with twins as (
      select m.code, array_agg(${key}::text order by ${key}::text collate "C") as suggestions
      from (select distinct ${staged(column)}::text as code from ${id(STAGING_TABLE)} s
        where ${staged(column)} is not null
          and not exists (select 1 from ${dataTable(reference.encodedName)} r where ${key} = ${staged(column)})) m
      join ${dataTable(reference.encodedName)} r on ${looseCode(key)} = ${looseCode(sql`m.code`)}
      group by m.code),
    taken as (
      delete from ${id(STAGING_TABLE)} s using twins t where ${staged(column)}::text = t.code
      returning s.${id(STAGING_ROW)}::int as row, t.code, s.${id(STAGING_LINES)}::int as lines, t.suggestions)
    select row, code, lines, (sum(lines) over ())::int as total, suggestions from taken order by row limit 100`;
}

/**
 * Before create_missing_products creates anything: takes the staged rows out whose code is not
 * stored and reads as a totals line's word (`Summe`, `Total:`), since a till's totals line is not a
 * product (ADR 0153's amendment). A stored product of that code keeps its lines. Answers how many
 * lines, and the words as the file wrote them (each once).
 */
export function takeOutTotalsLines(target: WriteTarget, column: string) {
  const reference = target.references.get(column);
  if (!reference) throw new Error(`${column} is not a reference`);
  return sql<TotalsSkipped>`
    with taken as (
      delete from ${id(STAGING_TABLE)} s
      where ${staged(column)} is not null and ${staged(column)}::text ~* ${TOTALS_LINE_PATTERN}
        and not exists (select 1 from ${dataTable(reference.encodedName)} r where r.${id(reference.keyColumn)} = ${staged(column)})
      returning ${staged(column)}::text as code, s.${id(STAGING_LINES)}::int as lines, s.${id(STAGING_ROW)} as row)
    select coalesce(sum(lines), 0)::int as lines,
      coalesce((select array_agg(code order by first_row) from (select code, min(row) as first_row from taken group by code) c), '{}') as codes
    from taken`;
}

/**
 * Then, of the new codes left that differ from each other only in case and punctuation (`ABC-1` in
 * row 3, `abc 1` in row 7), keeps the one of the earliest row and takes the rows of the others out,
 * answering the first 100 with that code and row: one product per code the shop means, and the
 * file's other spelling refused as a stored code's is (ADR 0011's amendment of 2026-12-03, row-errors).
 */
export function takeOutNewLooseTwins(target: WriteTarget, column: string) {
  const reference = target.references.get(column);
  if (!reference) throw new Error(`${column} is not a reference`);
  return sql<UnknownCode>`
    with missing as (
      select ${staged(column)}::text as code, ${looseCode(staged(column))} as loose, min(s.${id(STAGING_ROW)})::int as first_row from ${id(STAGING_TABLE)} s
      where ${staged(column)} is not null
        and not exists (select 1 from ${dataTable(reference.encodedName)} r where r.${id(reference.keyColumn)} = ${staged(column)})
      group by 1),
    firsts as (select distinct on (loose) loose, code, first_row from missing order by loose, first_row),
    twins as (select m.code, f.code as first_code, f.first_row from missing m join firsts f using (loose) where m.code <> f.code),
    taken as (
      delete from ${id(STAGING_TABLE)} s using twins t where ${staged(column)}::text = t.code
      returning s.${id(STAGING_ROW)}::int as row, t.code, s.${id(STAGING_LINES)}::int as lines, t.first_code, t.first_row)
    select row, code, lines, (sum(lines) over ())::int as total, null::text[] as suggestions, first_code, first_row from taken order by row limit 100`;
}

/**
 * Staged codes that match no code exactly but exactly one ignoring case (`hw-0003` for `HW-0003`),
 * rewritten to that code. Where the related table holds codes differing only in case, a staged code
 * matching one of them exactly keeps it, and one matching neither stays unknown.
 */
export function matchCodesIgnoringCase(target: WriteTarget, column: string) {
  const reference = target.references.get(column);
  if (!reference) throw new Error(`${column} is not a reference`);
  return foldCodes(column, reference.encodedName, reference.keyColumn);
}

/**
 * The same for the target's own one-column text key (a product import's `product_code`): a stock
 * take's `gar-1012` updates the stored GAR-1012 instead of adding a second product; null for other keys.
 */
export function matchOwnKeyIgnoringCase(target: WriteTarget) {
  const key = ownTextKey(target);
  return key && target.mapped.includes(key) ? foldCodes(key, target.encodedName, key) : null;
}

/** Rewrites staged `column` to the one code of `table`.`keyColumn` it matches ignoring case, where it matches none exactly. */
function foldCodes(column: string, encodedName: string, keyColumn: string) {
  const key = sql`r.${id(keyColumn)}`;
  return sql`
    update ${id(STAGING_TABLE)} s set ${id(column)} = folded.code
    from (select lower(${key}::text) as lowered, min(${key}::text) as code from ${dataTable(encodedName)} r group by 1 having count(*) = 1) folded
    where s.${id(column)} is not null and lower(s.${id(column)}::text) = folded.lowered
      and not exists (select 1 from ${dataTable(encodedName)} r where ${key} = s.${id(column)})`;
}

/** The first codes restoreLeadingZeros rewrote (as written, and as stored), with how many codes and lines it rewrote in all. */
export type RestoredCode = { written: string; code: string; codes: number; lines: number };

/**
 * Rewrites each staged code of `column` that no row of `table`.`keyColumn` has, holds only digits,
 * and is a stored code without its leading zeros (`501234567890` for 0501234567890, as Excel saves
 * a barcode it read as a number) to that code, answering the first five rewritten (in row order)
 * and how many codes and lines in all (ADR 0011's amendment of 2026-12-04, Excel's barcodes).
 */
export function restoreLeadingZeros(column: string, encodedName: string, keyColumn: string) {
  const key = sql`r.${id(keyColumn)}`;
  const code = sql`s.${id(column)}::text`;
  return sql<RestoredCode>`
    with stored as (${codesWithLeadingZeros(sql`${dataTable(encodedName)} r`, key)}),
    pairs as (
      select ${code} as written, min(z.code) as code from ${id(STAGING_TABLE)} s join stored z on ltrim(${code}, '0') = z.digits
      where ${code} ~ '^[0-9]+$' and length(${code}) < length(z.code)
        and not exists (select 1 from ${dataTable(encodedName)} r where ${key} = s.${id(column)})
      group by 1),
    restored as (
      update ${id(STAGING_TABLE)} s set ${id(column)} = p.code from pairs p where ${code} = p.written
      returning p.written, p.code, s.${id(STAGING_ROW)} as row, s.${id(STAGING_LINES)} as lines),
    each as (select written, code, min(row) as first_row, sum(lines) as lines from restored group by 1, 2)
    select written, code, (count(*) over ())::int as codes, (sum(lines) over ())::int as lines from each order by first_row limit 5`;
}

/** restoreLeadingZeros for a reference's codes. */
export function restoreReferenceZeros(target: WriteTarget, column: string) {
  const reference = target.references.get(column);
  if (!reference) throw new Error(`${column} is not a reference`);
  return restoreLeadingZeros(column, reference.encodedName, reference.keyColumn);
}

/** restoreLeadingZeros for the target's own one-column text key (a products file's codes); null for other keys. */
export function restoreOwnKeyZeros(target: WriteTarget) {
  const key = ownTextKey(target);
  return key && target.mapped.includes(key) ? restoreLeadingZeros(key, target.encodedName, key) : null;
}

/** Sets aside the staged rows whose code in `column` the table of `lookup` lacks (a run that writes the records that pass). */
export function dropUnknownCodes(column: string, lookup: CodeLookup) {
  return sql`
    delete from ${id(STAGING_TABLE)} s
    where ${staged(column)} is not null
      and not exists (select 1 from ${dataTable(lookup.encodedName)} r where r.${id(lookup.keyColumn)} = ${staged(column)})`;
}

/**
 * New rows of the related table for the staged codes it lacks. The fields the mapping's
 * new_products names take, per code, the value most of its lines carry (on a tie, its first
 * line's); required text columns without one take the code, as before. Answers how many, and the
 * first `shown` in the file's order with the values they got.
 */
export function createMissingReferences(target: WriteTarget, column: string, shown: number) {
  const reference = target.references.get(column);
  if (!reference) throw new Error(`${column} is not a reference`);
  const fromFile = target.newProducts?.reference === column ? target.newProducts.fields : [];
  const codeNamed = reference.requiredTextColumns.filter((c) => !fromFile.some((f) => f.field === c));
  const filled = [...codeNamed, ...fromFile.map((f) => f.field)];
  const picked = (at: number) => id(`picked_${at}`);
  const pick = fromFile.map(
    ({ staged: value }, at) => sql`, ${picked(at)} as (
      select distinct on (code) code, value from (
        select ${staged(column)} as code, s.${id(value)} as value, sum(s.${id(STAGING_LINES)}) as lines, min(s.${id(STAGING_ROW)}) as first_row
        from ${id(STAGING_TABLE)} s join missing m on m.code = ${staged(column)}
        where s.${id(value)} is not null group by 1, 2) v
      order by code, lines desc, first_row)`,
  );
  const valueOf = (field: string) => {
    const at = fromFile.findIndex((f) => f.field === field);
    if (at < 0) return sql`m.code`;
    return reference.requiredTextColumns.includes(field) ? sql`coalesce(${picked(at)}.value, m.code)` : sql`${picked(at)}.value`;
  };
  const joins = fromFile.map((_, at) => sql` left join ${picked(at)} using (code)`);
  const shownValues = filled.length ? sql`jsonb_build_object(${sql.join(filled.map((field) => sql`${field}::text, c.${id(field)}::text`))})` : sql`'{}'::jsonb`;
  return sql<{ created: number; shown: { code: string; values: Record<string, string | null> }[] }>`
    with missing as (
      select ${staged(column)} as code, min(s.${id(STAGING_ROW)}) as first_row from ${id(STAGING_TABLE)} s
      where ${staged(column)} is not null
        and not exists (select 1 from ${dataTable(reference.encodedName)} r where r.${id(reference.keyColumn)} = ${staged(column)})
      group by 1)
    ${joined(pick)},
    created as (
      insert into ${dataTable(reference.encodedName)} (${list([reference.keyColumn, ...filled])})
      select m.code${joined(filled.map((field) => sql`, ${valueOf(field)}`))} from missing m ${joined(joins)}
      on conflict do nothing returning *)
    select (select count(*)::int from created) as created,
      (select coalesce(jsonb_agg(jsonb_build_object('code', x.code, 'values', x.fields) order by x.first_row), '[]'::jsonb) from (
        select c.${id(reference.keyColumn)}::text as code, ${shownValues} as fields, m.first_row
        from created c join missing m on m.code = c.${id(reference.keyColumn)}::text order by m.first_row limit ${sql.lit(shown)}) x) as shown`;
}

/** Rows whose key an earlier row of the source already had (the entity refuses repeated keys). */
export function repeatedKeys(target: WriteTarget) {
  const keys = list(target.keyColumns);
  const keyText = sql.join(
    target.keyColumns.map((c) => staged(c)),
    sql` || ', ' || `,
  );
  return sql<{ row: number; first_row: number; key: string; total: number }>`
    select row, first_row, key, (count(*) over ())::int as total from (
      select ${id(STAGING_ROW)}::int as row, (min(${id(STAGING_ROW)}) over (partition by ${keys}))::int as first_row, (${keyText})::text as key
      from ${id(STAGING_TABLE)} s) x
    where row <> first_row order by row limit 100`;
}

/** Of a key whose lines add up beyond what a column holds: the row whose line takes the sum beyond, its first rows with their amounts, how many staged rows and lines it has, and their total. */
export type OverflowingSum = { row: number; rows: number[]; amounts: string[]; staged: number; lines: number; total: string; total_lines: number };

/** Rows shown with their amounts in an overflowing sum's error (overflowingSums). */
export const OVERFLOW_ROWS_SHOWN = 5;

/** The keys whose staged rows add up in `column` to more than `largest` or less than its negative (sum mode), grouped as the merge groups them. */
const overflowingKeys = (target: WriteTarget, column: string, largest: string) =>
  sql`from ${id(STAGING_TABLE)} s where ${staged(column)} is not null group by ${list(target.keyColumns)}
    having abs(sum(${staged(column)})) > ${largest}::numeric`;

/**
 * The first 100 keys (by the row that takes their sum beyond) whose lines add up in `column` to
 * more than it holds (`largest`: largestStored), and how many lines all such keys have: refused
 * before the merge, which would fail on the first without naming a row.
 */
export function overflowingSums(target: WriteTarget, column: string, largest: string) {
  const keys = list(target.keyColumns);
  const shown = sql.lit(OVERFLOW_ROWS_SHOWN);
  const row = id(STAGING_ROW);
  return sql<OverflowingSum>`
    select row, rows, amounts, staged, lines, total, (sum(lines) over ())::int as total_lines from (
      select min(${row}) filter (where abs(running) > ${largest}::numeric)::int as row, (array_agg(${row}::int order by ${row}))[1:${shown}] as rows,
        (array_agg(${id(column)}::text order by ${row}))[1:${shown}] as amounts, count(*)::int as staged, sum(${id(STAGING_LINES)})::int as lines, sum(${id(column)})::text as total
      from (select ${keys}, ${row}, ${id(STAGING_LINES)}, ${staged(column)}, sum(${staged(column)}) over (partition by ${keys} order by ${row}) as running
        from ${id(STAGING_TABLE)} s where ${staged(column)} is not null) s
      group by ${keys} having abs(sum(${id(column)})) > ${largest}::numeric) g
    order by row limit 100`;
}

/** Sets aside the staged rows of the keys overflowingSums lists. */
export function dropOverflowingSums(target: WriteTarget, column: string, largest: string) {
  const sameKey = sql.join(
    target.keyColumns.map((c) => sql`o.${id(c)} is not distinct from ${staged(c)}`),
    sql` and `,
  );
  return sql`
    delete from ${id(STAGING_TABLE)} s
    using (select ${list(target.keyColumns)} ${overflowingKeys(target, column, largest)}) o where ${sameKey}`;
}

/** Sets aside the staged rows whose key an earlier staged row has (repeatedKeys lists them). */
export function dropRepeatedKeys(target: WriteTarget) {
  const sameKey = sql.join(
    target.keyColumns.map((c) => sql`e.${id(c)} is not distinct from ${staged(c)}`),
    sql` and `,
  );
  return sql`
    delete from ${id(STAGING_TABLE)} s
    where exists (select 1 from ${id(STAGING_TABLE)} e where ${sameKey} and e.${id(STAGING_ROW)} < s.${id(STAGING_ROW)})`;
}

/** The staged rows with their codes replaced by the ids of the rows they name (null: unknown), and the staging columns `extra`. */
function resolvedStaging(target: WriteTarget, extra: string[]) {
  const byCode = [...target.references.values()].filter((r) => r.by === 'key' && target.mapped.includes(r.column));
  const joins = byCode.map((r, at) => sql`left join ${dataTable(r.encodedName)} ${id(`r${at}`)} on ${id(`r${at}`)}.${id(r.keyColumn)} = ${staged(r.column)}`);
  const resolved = target.mapped.map((c) => {
    const at = byCode.findIndex((r) => r.column === c);
    return at >= 0 ? sql`${id(`r${at}`)}.id as ${id(c)}` : sql`${staged(c)}`;
  });
  return sql`(select ${sql.join([...resolved, ...extra.map((c) => staged(c))])} from ${id(STAGING_TABLE)} s ${sql.join(joins, sql` `)})`;
}

/**
 * The staged lines (their codes resolved) of keys whose stored row this run wrote, each with that
 * row's `column` (`stored`), and, added to it, the key's lines up to this one (`running`) and all
 * of them (`total`): what the merge would store, since a run's later batch adds to its earlier
 * ones' (onConflict).
 */
const linesOnRunTotals = (target: WriteTarget, column: string, source: RunSource) => {
  const keys = sql.join(target.keyColumns.map((c) => sql`l.${id(c)}`));
  const row = sql`l.${id(STAGING_ROW)}`;
  return sql`select ${keys}, ${row}, l.${id(STAGING_LINES)}, l.${id(column)}, t.${id(column)} as stored,
      t.${id(column)} + sum(l.${id(column)}) over (partition by ${keys} order by ${row}) as running,
      t.${id(column)} + sum(l.${id(column)}) over (partition by ${keys}) as total
    from ${resolvedStaging(target, [STAGING_ROW, STAGING_LINES])} l
    join ${dataTable(target.encodedName)} t on ${sql.join(
      target.keyColumns.map((c) => sql`t.${id(c)} = l.${id(c)}`),
      sql` and `,
    )}
    where l.${id(column)} is not null and t.${id(column)} is not null and ${ofThisRun(target, source)}`;
};

/** Of a key whose lines take the total its run stored beyond what a column holds: that total as well (OverflowingSum's `total` includes it). */
export type OverflowingRunTotal = OverflowingSum & { stored: string };

/**
 * The first 100 keys (by the row that takes their total beyond) whose lines, added to the total
 * this run's earlier batches stored for the key in `column`, come to more than it holds
 * (`largest`), and how many lines all such keys have: refused before the merge, which would fail
 * on the first without naming a record.
 */
export function overflowingRunTotals(target: WriteTarget, column: string, largest: string, source: RunSource) {
  const keys = list(target.keyColumns);
  const shown = sql.lit(OVERFLOW_ROWS_SHOWN);
  const row = id(STAGING_ROW);
  return sql<OverflowingRunTotal>`
    select row, rows, amounts, staged, lines, total, stored, (sum(lines) over ())::int as total_lines from (
      select min(${row}) filter (where abs(running) > ${largest}::numeric)::int as row, (array_agg(${row}::int order by ${row}))[1:${shown}] as rows,
        (array_agg(${id(column)}::text order by ${row}))[1:${shown}] as amounts, count(*)::int as staged, sum(${id(STAGING_LINES)})::int as lines,
        min(total)::text as total, min(stored)::text as stored
      from (${linesOnRunTotals(target, column, source)}) l where abs(total) > ${largest}::numeric
      group by ${keys}) g
    order by row limit 100`;
}

/** Sets aside the staged rows of the keys overflowingRunTotals lists. */
export const dropOverflowingRunTotals = (target: WriteTarget, column: string, largest: string, source: RunSource) =>
  sql`delete from ${id(STAGING_TABLE)} s where s.${id(STAGING_ROW)} in (select l.${id(STAGING_ROW)} from (${linesOnRunTotals(target, column, source)}) l where abs(l.total) > ${largest}::numeric)`;

/**
 * The rows to write: codes replaced by ids, and of rows sharing a key, their sums or the last one.
 * `oneFieldSet`: every staged row fills the same columns (a CSV file), so no row's set needs picking.
 */
export function createMergedTable(target: WriteTarget, oneFieldSet: boolean): RawBuilder<unknown> {
  const source = sql`${resolvedStaging(target, [STAGING_ROW, STAGING_FIELDS])} src`;
  const keys = list(target.keyColumns);
  if (target.repeatedKeys === 'sum') {
    const columns = target.mapped.filter((c) => !target.keyColumns.includes(c));
    const aggregates = columns.map((c) => (target.summed.includes(c) ? sql`sum(${id(c)}) as ${id(c)}` : sql`(array_agg(${id(c)} order by ${id(STAGING_ROW)} desc))[1] as ${id(c)}`));
    return sql`create temp table ${id(MERGED_TABLE)} on commit drop as
      select ${keys}, ${sql.join([
        ...aggregates,
        sql`max(${id(STAGING_ROW)}) as ${id(STAGING_ROW)}`,
        oneFieldSet ? sql`max(${id(STAGING_FIELDS)}) as ${id(STAGING_FIELDS)}` : sql`(array_agg(${id(STAGING_FIELDS)} order by ${id(STAGING_ROW)} desc))[1] as ${id(STAGING_FIELDS)}`,
      ])}
      from ${source} group by ${keys}`;
  }
  return sql`create temp table ${id(MERGED_TABLE)} on commit drop as
    select distinct on (${keys}) * from ${source} order by ${keys}, ${id(STAGING_ROW)} desc`;
}

export const countMerged = () => sql<{ n: number }>`select count(*)::int as n from ${id(MERGED_TABLE)}`;

/** The merged rows joined to the stored rows of the same key (t: stored, m: merged). */
const mergedJoinStored = (target: WriteTarget) =>
  sql`${id(MERGED_TABLE)} m join ${dataTable(target.encodedName)} t on ${sql.join(
    target.keyColumns.map((c) => sql`t.${id(c)} = m.${id(c)}`),
    sql` and `,
  )}`;

/** Whether any merged key is stored already (then the write is an upsert, else plain inserts). */
export function anyKeyStored(target: WriteTarget) {
  return sql<{ found: boolean }>`select exists (select 1 from ${mergedJoinStored(target)}) as found`;
}

/** Whether merged row `m` fills `column` (a cell of the file, blank or not; a column of another field set does not). */
const mergedRowFills = (target: WriteTarget, column: string) => {
  const at = target.mapped.indexOf(column);
  return at < 0 ? sql<boolean>`false` : sql<boolean>`substr(m.${id(STAGING_FIELDS)}, ${at + 1}, 1) = '1'`;
};

/** The supplier names a write meets (ADR 0186): `column`'s values of `table` (alias `m`) where `where`, each with the first row it is on, in the file's order. */
const metSuppliers = (table: string, column: string, where: RawBuilder<boolean>) =>
  sql<{ written: string }>`select m.${id(column)}::text as written from ${id(table)} m where m.${id(column)} is not null and ${where} group by 1 order by min(m.${id(STAGING_ROW)}), 1`;

/** The supplier names the merged rows write into products' `column`. */
export const mergedSuppliers = (target: WriteTarget, column: string) => metSuppliers(MERGED_TABLE, column, mergedRowFills(target, column));

/** The stored products (`p`) the merged rows write `column` of: their names are being replaced, so they are not the spellings to keep. */
export const productsRewritingColumn = (target: WriteTarget, column: string) =>
  sql<boolean>`exists (select 1 from ${id(MERGED_TABLE)} m where ${mergedRowFills(target, column)} and ${sql.join(
    target.keyColumns.map((c) => sql`m.${id(c)} = p.${id(c)}`),
    sql` and `,
  )})`;

/** The supplier names in the staged `value` column (a new product's field, new_products) of the rows whose code in `column` no stored product has: the names new products take. */
export function newProductSuppliers(target: WriteTarget, column: string, value: string) {
  const reference = target.references.get(column);
  if (!reference) throw new Error(`${column} is not a reference`);
  return metSuppliers(STAGING_TABLE, value, sql<boolean>`not exists (select 1 from ${dataTable(reference.encodedName)} r where r.${id(reference.keyColumn)} = m.${id(column)})`);
}

/** Each `written` name in `table`'s `column` replaced by the spelling it is `stored` in (null: none). */
export const respellSuppliers = (table: typeof STAGING_TABLE | typeof MERGED_TABLE, column: string, spellings: readonly { written: string; stored: string | null }[]) =>
  sql`update ${id(table)} m set ${id(column)} = v.stored
    from (values ${sql.join(spellings.map(({ written, stored }) => sql`(${written}::text, ${stored}::text)`))}) as v(written, stored)
    where m.${id(column)}::text = v.written`;

/**
 * Per column of `columns`, how many merged rows will be new rows (their key not stored) without a
 * value for it — a blank cell or a column the mapping does not fill — and so get its default.
 */
export function newRowsWithoutValue(target: WriteTarget, columns: string[]) {
  const fills = (column: string) => mergedRowFills(target, column);
  const stored = sql`exists (select 1 from ${dataTable(target.encodedName)} t where ${sql.join(
    target.keyColumns.map((c) => sql`t.${id(c)} = m.${id(c)}`),
    sql` and `,
  )})`;
  // A product made here (ADR 0194) or not stocked (ADR 0200) is bought from no one: the lead time it was left without is no default it uses.
  const notBought = target.encodedName === 'products' ? ['made_here', 'not_stocked'].filter((c) => target.mapped.includes(c)) : [];
  const bought = sql.join(notBought.map((c) => sql` and m.${id(c)} is not true`), sql``);
  const counted = (c: string) => (c === 'lead_time_days' ? bought : sql``);
  return sql<Record<string, number>>`select ${sql.join(columns.map((c) => sql`(count(*) filter (where not ${fills(c)}${counted(c)}))::int as ${id(c)}`))} from ${id(MERGED_TABLE)} m where not ${stored}`;
}

/** Of `counted` merged stock counts, how many (`older`) a stored figure of their product dated after them, up to today, outdates as on hand, and that figure's first and last days. */
export type OutdatedCounts = { older: number; counted: number; first_day: string | null; last_day: string | null };

/**
 * OutdatedCounts of the merged stock counts, once written (the rule of the snapshots' trigger,
 * migration 0030). `current_date` is the shop's day: the import's transaction runs in its time zone (repo.ts).
 */
export const outdatedCounts = () => sql<OutdatedCounts>`
  select count(later.day)::int as older, count(*)::int as counted, min(later.day)::text as first_day, max(later.day)::text as last_day
  from ${id(MERGED_TABLE)} m
  cross join lateral (select max(s.date) as day from data.stock_snapshots s where s.product_id = m.product_id and s.date > m.date and s.date <= current_date) later`;

/** The ids of the stored rows the merged rows that fill `column` were written to. */
export const mergedRowIdsFilling = (target: WriteTarget, column: string) => sql`select t.id from ${mergedJoinStored(target)} where m.${id(column)} is not null`;

export type MergeWrite = {
  fieldSets: string[];
  /**
   * plain: INSERT (no key is stored); upsert: ON CONFLICT DO UPDATE; insert-new: ON CONFLICT DO
   * NOTHING (stored keys refused); update: UPDATE of the stored rows (an update-only target, whose
   * keys are all stored: an INSERT would trip the NOT NULL of the columns it does not fill).
   */
  mode: 'plain' | 'upsert' | 'insert-new' | 'update';
  source: { tag: string; run: string } | null;
  /** Whose sales totals these are (salesWriterOf): their part of each product-day is replaced, the other writers' parts kept. */
  writer?: SalesWriter | null;
  /** A stock count file import's log entry: each count it writes keeps the one it replaced under it, for an undo (ADR 0175). */
  countsBeforeImport?: string | null;
};

/**
 * Who writes a sales total (ADR 0164): `file:<mapping name>` (`file` without a saved mapping) or
 * `integration:<id>`, and the run whose later batches add to the part its earlier ones wrote
 * (null: a file, written in one merge). `importId`: a file import's log entry, under which each part
 * it writes keeps its before-image for an undo (ADR 0174); none for a run.
 */
export type SalesWriter = { source: string; run: string | null; importId?: string | null };

/** The column of data.sales kept per writer in sales_sources. */
const SALES_PART = 'quantity';
/** The day of a sales row (its key beside the product). */
const SALES_DAY = 'date';

/** The count of a stock snapshot (its key is the product and the day). */
const STOCK_COUNT = 'stock_level';

/** Whether a file's write into `target` keeps the counts it replaces for an undo (ADR 0175): stock counts, when the mapping writes the count. */
export const keepsStockCounts = (target: WriteTarget) => target.encodedName === 'stock_snapshots' && target.mapped.includes(STOCK_COUNT);

/** Whether a write into `target` keeps its writer's parts in sales_sources: only sales, when the mapping writes their quantity. */
export const keepsSalesParts = (target: WriteTarget) => target.encodedName === 'sales' && target.mapped.includes(SALES_PART);

/** The writer whose parts the merge keeps in sales_sources (of the columns `updatable`). */
const salesWriterOf = (target: WriteTarget, write: MergeWrite, updatable: string[]) => (write.writer && keepsSalesParts(target) && updatable.includes(SALES_PART) ? write.writer : null);

/**
 * The part of stored sales row `t` that the writer wrote before and now replaces: its part in
 * sales_sources (none: 0), or — a row no writer's part is kept for (stored before migration 0380,
 * the demo's) — the whole stored quantity, replaced as before. A run's later batch replaces nothing
 * of what its earlier batches wrote: its lines add to them, as one file's do (sum mode).
 */
function ownPart(target: WriteTarget, writer: SalesWriter) {
  const addsInRun = writer.run !== null && target.repeatedKeys === 'sum';
  const part = addsInRun ? sql`case when l.run = ${writer.run} then 0 else l.quantity end` : sql`l.quantity`;
  return sql`coalesce(
    (select ${part} from sales_sources l where l.sales_id = t.id and l.source = ${writer.source}),
    case when exists (select 1 from sales_sources l where l.sales_id = t.id) then 0 else t.${id(SALES_PART)} end)`;
}

/** The merged rows that fill the columns of `fields` into the data table (in key order: the key's index grows at its end). */
function insertMerged(target: WriteTarget, write: MergeWrite, fields: string) {
  const keys = list(target.keyColumns);
  const columns = target.mapped.filter((_, i) => fields[i] === '1');
  const updatable = columns.filter((c) => !target.keyColumns.includes(c));
  const only = write.fieldSets.length > 1 ? sql`where ${id(STAGING_FIELDS)} = ${fields}` : sql``;
  return sql`insert into ${dataTable(target.encodedName)} as t (${list(columns)}) select ${list(columns)} from ${id(MERGED_TABLE)} ${only} order by ${keys} ${onConflict(target, write, updatable)}`;
}

/** The merged rows that fill the columns of `fields` onto the stored rows of their keys (null: the set fills no column besides the key). */
function updateMerged(target: WriteTarget, write: MergeWrite, fields: string) {
  const updatable = target.mapped.filter((c, i) => fields[i] === '1' && !target.keyColumns.includes(c));
  if (!updatable.length) return null;
  const only = write.fieldSets.length > 1 ? sql` and m.${id(STAGING_FIELDS)} = ${fields}` : sql``;
  const sameKey = sql.join(
    target.keyColumns.map((c) => sql`t.${id(c)} = m.${id(c)}`),
    sql` and `,
  );
  return sql`update ${dataTable(target.encodedName)} as t set ${sql.join(newValues(target, write, updatable, 'm'))} from ${id(MERGED_TABLE)} m where ${sameKey}${only}`;
}

/**
 * What a merged row does to a stored row of its key. A run of an integration writes batch by batch,
 * each summed on its own: where the entity adds up lines (sales), a key an earlier batch of the same
 * run wrote (noted under the run) gets this batch's lines added, as one file's lines are — a stored
 * row from before the run is replaced by the run's total, as a file's is. Insert keeps refusing keys
 * stored before the run, and adds to those of the run.
 */
function onConflict(target: WriteTarget, write: MergeWrite, updatable: string[]) {
  if (write.mode === 'plain') return sql``;
  const keys = list(target.keyColumns);
  if (write.mode === 'insert-new') {
    const summed = summedInRun(target, write, updatable);
    if (!summed.length) return sql`on conflict (${keys}) do nothing`;
    return sql`on conflict (${keys}) do update set ${sql.join(newValues(target, write, summed, 'excluded'))} where ${ofThisRun(target, write.source)}`;
  }
  if (!updatable.length) return sql`on conflict (${keys}) do nothing`;
  return sql`on conflict (${keys}) do update set ${sql.join(newValues(target, write, updatable, 'excluded'))}`;
}

const summedInRun = (target: WriteTarget, write: MergeWrite, updatable: string[]) => (write.source && target.repeatedKeys === 'sum' ? updatable.filter((c) => target.summed.includes(c)) : []);
/** Whether stored row `t` was written by the run `source` (none: a file import, which adds to no stored row). */
const ofThisRun = (target: WriteTarget, source: RunSource | null) =>
  source ? sql`exists (select 1 from import_row_sources r where r.table_name = ${target.encodedName} and r.row_id = t.id and r.source = ${source.tag} and r.run = ${source.run})` : sql`false`;

/** The SET list of `updatable` from the merged row (`excluded` of an upsert, `m` of an update): its value, or added to what this run wrote before (onConflict). */
function newValues(target: WriteTarget, write: MergeWrite, updatable: string[], from: 'excluded' | 'm') {
  const summed = summedInRun(target, write, updatable);
  const writer = salesWriterOf(target, write, updatable);
  const incoming = (c: string) => sql`${id(from)}.${id(c)}`;
  return updatable.map((c) => {
    if (writer && c === SALES_PART) return sql`${id(c)} = t.${id(c)} - ${ownPart(target, writer)} + ${incoming(c)}`;
    return summed.includes(c) ? sql`${id(c)} = case when ${ofThisRun(target, write.source)} then t.${id(c)} + ${incoming(c)} else ${incoming(c)} end` : sql`${id(c)} = ${incoming(c)}`;
  });
}

/**
 * Plain INSERTs of the merged rows without RETURNING (no source to note): every merged row is
 * new, so the counts are the merged table's, and PostgreSQL keeps no list of the written ids.
 */
export const insertMergedPlain = (target: WriteTarget, fieldSets: string[]) =>
  fieldSets.map((fields) => insertMerged(target, { fieldSets, mode: 'plain', source: null }, fields));

/**
 * The merged rows into the data table, one statement per set of filled columns (a missing field
 * keeps its default on insert and its stored value on update); answers how many rows were new and
 * how many were written. With a source, the written rows' ids are noted under it (data action replace).
 */
export function writeMerged(target: WriteTarget, write: MergeWrite) {
  const writer = salesWriterOf(target, write, target.mapped);
  const countsImport = write.countsBeforeImport && keepsStockCounts(target) ? write.countsBeforeImport : null;
  // Only writtenParts joins the written rows back to the merged ones by key; plain inserts' parts need none.
  const keys = writer && write.mode !== 'plain' ? sql`, ${sql.join(target.keyColumns.map((c) => sql`t.${id(c)}`))}` : sql``;
  // A sales writer's rows return their new total where the set fills it (writtenParts reads it); a stock count file's, the count written (countsBeforeImport).
  const returned = writer ? SALES_PART : countsImport ? STOCK_COUNT : null;
  const total = (fields: string) => (returned ? sql`, case when ${sql.lit(fields[target.mapped.indexOf(returned)] === '1')} then t.${id(returned)} end as total` : sql``);
  // xmax = 0 only on a freshly inserted row version (an upsert's updated row keeps its lock's); an UPDATE inserts none.
  const statements = write.fieldSets.flatMap((fields) => {
    if (write.mode !== 'update') return [sql`${insertMerged(target, write, fields)} returning t.id, (xmax = 0) as inserted${keys}${total(fields)}`];
    const update = updateMerged(target, write, fields);
    return update ? [sql`${update} returning t.id, false as inserted${keys}${total(fields)}`] : [];
  });
  if (!statements.length) return sql<WrittenMerged>`select 0 as inserted, 0 as written`;
  // One statement (a CSV file's one set of filled columns) is all_written itself: a union of one
  // would copy every written row into a second materialized list.
  const writes =
    statements.length === 1
      ? [sql`all_written as (${statements[0]})`]
      : [
          ...statements.map((statement, at) => sql`${id(`written_${at}`)} as (${statement})`),
          sql`all_written as (${sql.join(
            statements.map((_, at) => sql`select * from ${id(`written_${at}`)}`),
            sql` union all `,
          )})`,
        ];
  // A row is the source's own (replace may delete it later) when the source created it; one stored
  // before and updated is noted under the run all the same (its later batches add to it), not owned.
  const noted = write.source
    ? sql`, noted as (
        insert into import_row_sources as n (table_name, row_id, source, run, created)
        select ${target.encodedName}, id, ${write.source.tag}, ${write.source.run}, inserted from all_written
        on conflict (table_name, row_id) do update set source = excluded.source, run = excluded.run,
          created = case when n.source = excluded.source then n.created or excluded.created else excluded.created end)`
    : sql``;
  // Plain INSERTs wrote new rows only: no part was stored for them, no other writer's to keep.
  const parts = !writer ? sql`` : write.mode === 'plain' ? newParts(writer) : writtenParts(target, writer);
  const kept = writer && write.mode !== 'plain' ? sql`${keptPartsInWords(writer)}${writer.run === null ? ownPartsReplaced : sql``}` : sql``;
  const counts = countsImport ? countsBeforeImport(countsImport, write.mode === 'plain') : sql``;
  return sql<WrittenMerged>`
    with ${sql.join(writes)} ${noted}${parts}${counts}
    select (count(*) filter (where inserted))::int as inserted, count(*)::int as written${kept} from all_written`;
}

/** How many rows writeMerged wrote, and how many were new; for sales, of the rows whose other writers' parts it kept (AddedTo), how many and whose. */
export type WrittenMerged = {
  inserted: number;
  written: number;
  kept?: number;
  kept_sources?: string[] | null;
  kept_edits?: boolean;
  /** A file's parts that replaced a different part of its own source (ownPartsReplaced): how many product-days, and their first and last day. */
  replaced?: number;
  replaced_from?: string | null;
  replaced_to?: string | null;
};

/**
 * The parts of new sales rows: each row's total is its writer's part (none where the file left it
 * out). A file's Undo needs of these days only which they are (each is removed, its part being what
 * the file wrote): kept as ranges of consecutive ids rather than a before-image per day (ADR 0174's
 * amendment of 2026-12-05; putBackSalesImport reads them).
 */
const newParts = (writer: SalesWriter) => sql`, parts as (
    insert into sales_sources (sales_id, source, run, quantity)
    select id, ${writer.source}, ${writer.run}, total from all_written where total is not null)${
  writer.importId
    ? sql`,
    created_days as (
      insert into sales_days_created_by_import (import_id, first_id, last_id)
      select ${writer.importId}, min(id), max(id) from (select id, id - row_number() over (order by id) as range from all_written where total is not null) r group by range)`
    : sql``
}`;

/**
 * The writer's parts of the written sales rows into sales_sources (its earlier part replaced, or
 * added to by a later batch of the same run), and the rows that held other parts besides its own:
 * the other writers', or a change typed on the Data screen (`others`). Those are read off the new
 * total (`total − own part`, the statement's snapshot of sales_sources saying which rows held parts
 * and whether the writer's own came from this run) rather than off the stored rows as they were,
 * which would visit every written row's old version again.
 */
function writtenParts(target: WriteTarget, writer: SalesWriter) {
  const sameKey = sql.join(
    target.keyColumns.map((c) => sql`m.${id(c)} = w.${id(c)}`),
    sql` and `,
  );
  const addsInRun = writer.run !== null && target.repeatedKeys === 'sum';
  const part = addsInRun ? sql`case when i.own_run = ${writer.run} then i.own_part + i.part else i.part end` : sql`i.part`;
  // The writer's own part before this write (the statement's snapshot), read once for kept, the run's before-images and a file's replaced days.
  const day = writer.run === null ? sql`, m.${id(SALES_DAY)} as day` : sql``;
  return sql`, incoming as (
      select w.id, w.inserted, w.total, m.${id(SALES_PART)} as part, own.quantity as own_part, own.run as own_run${day}
      from all_written w join ${id(MERGED_TABLE)} m on ${sameKey}
        left join sales_sources own on own.sales_id = w.id and own.source = ${writer.source}
      where m.${id(SALES_PART)} is not null),
    -- The own part read in incoming says which parts exist: those are updated, the others inserted,
    -- without ON CONFLICT's speculative insert per part (the source's other writers take turns with
    -- this one: the table's import lock, a run's lock). A part written again unchanged (a file
    -- imported twice) is left as it is: no new row version.
    parts as (
      update sales_sources l set quantity = ${part}, run = ${writer.run}
      from incoming i
      where i.own_part is not null and l.sales_id = i.id and l.source = ${writer.source}
        and (i.own_part, i.own_run) is distinct from (${part}, ${writer.run}::text)),
    new_parts as (
      insert into sales_sources (sales_id, source, run, quantity)
      select i.id, ${writer.source}, ${writer.run}, i.part from incoming i where i.own_part is null),
    kept as (
      select i.id, i.total - i.part as others
      from incoming i
      where not coalesce(i.own_run = ${writer.run}, false) and exists (select 1 from sales_sources l where l.sales_id = i.id)
        and i.total <> i.part)${writer.run === null ? sql`,
    replaced as (select day from incoming where own_part <> part)${writer.importId ? partsBeforeImport(writer.importId) : sql``}` : partsBeforeRun(writer.source, writer.run)}`;
}

/**
 * A file import's before-image of every part it writes (ADR 0174): the part it was (none: null),
 * the part written, and what the write took out of the day's total — the part, or the whole total
 * of a day that held no part at all (stored before the ledger; ownPart), read off the statement's
 * snapshot of data.sales only for those days, or nothing for a day it created. A file is one merge,
 * each day in it once (a plain insert that met a day stored meanwhile rolled its images back with
 * it), so no image is ever written twice: a plain INSERT, without ON CONFLICT's speculative work.
 */
const partsBeforeImport = (importId: string) => sql`,
    before_import as (
      insert into sales_parts_before_import (import_id, sales_id, written, previous_part, replaced, created)
      select ${importId}, i.id, i.part, i.own_part,
        case when i.inserted then 0 when i.own_part is not null then i.own_part else (select s.${id(SALES_PART)} from data.sales s where s.id = i.id) + i.part - i.total end,
        i.inserted
      from incoming i)`;

/**
 * A stock count file's before-image of every count it writes (ADR 0175): the count written, and the
 * count the row held (null: the import created the row), read off the statement's snapshot of the
 * table — the row as it was before this statement updated it — by the row's id; plain INSERTs
 * (`allNew`) created every row. Each row is written once per file (one merge), so a plain insert.
 */
const countsBeforeImport = (importId: string, allNew: boolean) => sql`,
    counts_before_import as (
      insert into stock_counts_before_import (import_id, snapshot_id, written, previous)
      select ${importId}, w.id, w.total, ${allNew ? sql`null::integer` : sql`o.${id(STOCK_COUNT)}`}
      from all_written w${allNew ? sql`` : sql` left join data.stock_snapshots o on o.id = w.id and not w.inserted`}
      where w.total is not null)`;

/**
 * A run's parts replacing the writer's parts of earlier runs keep those as they were (the
 * statement's snapshot), once per run and product-day: the run's later batches add to its first
 * one's, so a run that does not end leaves a day at the lines its committed batches held; its end
 * drops or puts back these before-images (integrations/repo.ts, ADR 0139's amendment of 2026-12-05).
 */
const partsBeforeRun = (source: string, run: string) => sql`,
    before_run as (
      insert into sales_parts_before_run (run, sales_id, source, previous_run, previous_quantity)
      select ${run}, i.id, ${source}, i.own_run, i.own_part
      from incoming i
      where i.own_part is not null and i.own_run is distinct from ${run}
      on conflict (run, sales_id) do nothing)`;

/**
 * Sales parts put back to their before-images (a failed run's, ADR 0139; an undone file import's,
 * ADR 0174), and their product-days' totals by the same difference, so that other sources' parts and
 * typed changes are kept. `held` (after the CTEs `before`, which may delete the images) names per
 * part: sales_id, source, the part now (`quantity`), what its writer took out of the total
 * (`replaced`), and the part and run it was (`previous_part` null: it did not exist, and goes).
 * Answers how many product-days' totals changed back.
 */
export const putBackSalesParts = (before: RawBuilder<unknown>, held: RawBuilder<unknown>) => sql<{ restored: number }>`
  with ${before} held as (${held}),
  totals as (
    update data.sales t set ${id(SALES_PART)} = t.${id(SALES_PART)} - h.quantity + h.replaced from held h
    where t.id = h.sales_id and h.quantity <> h.replaced returning t.id),
  parts as (
    update sales_sources l set run = h.previous_run, quantity = h.previous_part from held h
    where l.sales_id = h.sales_id and l.source = h.source and h.previous_part is not null),
  gone as (delete from sales_sources l using held h where l.sales_id = h.sales_id and l.source = h.source and h.previous_part is null)
  select count(*)::int as restored from totals`;

/**
 * The product-days where a file's part replaced a different part of its own source: its mapping's
 * earlier import held another total for them. A re-import of a corrected file does that rightly; a
 * second till's file under the first till's mapping does it wrongly, and the import says so (ADR
 * 0164's amendment of 2026-12-05, "one mapping, two tills"). A part written again unchanged is no replace.
 */
const ownPartsReplaced = sql`,
  (select count(*)::int from replaced) as replaced, (select min(day)::text from replaced) as replaced_from, (select max(day)::text from replaced) as replaced_to`;

/** What writtenParts kept, in words for the summary: "the file import 'pos-history'", "the integration reading shop.example.com". */
const keptPartsInWords = (writer: SalesWriter) => sql`,
  (select count(*)::int from kept) as kept,
  (select array_agg(distinct case when l.source = 'file' then 'a file import without a saved mapping'
      when l.source like 'file:%' then 'the file import ''' || substr(l.source, 6) || ''''
      else coalesce('the integration reading ' || substring(i.endpoint from '^[A-Za-z]+://([^/:?#]+)'), 'an integration since deleted') end)
    from kept k join sales_sources l on l.sales_id = k.id left join integrations i on l.source = 'integration:' || i.id
    where l.source <> ${writer.source}) as kept_sources,
  exists (select 1 from kept k where k.others <> coalesce((select sum(l.quantity) from sales_sources l where l.sales_id = k.id and l.source <> ${writer.source}), 0)) as kept_edits`;

type RunSource = { tag: string; run: string };

/** The notes of rows `source` wrote in its earlier runs and this run did not (n: the note). */
const notesOfEarlierRuns = (target: WriteTarget, source: RunSource) =>
  sql`import_row_sources n where n.table_name = ${target.encodedName} and n.source = ${source.tag} and n.run <> ${source.run}`;

/** Whether a row that `keeping` names refers to row `id`. */
const isKept = (keeping: ReferencingForeignKey[], id: RawBuilder<unknown>) => sql.join(keeping.map((foreignKey) => isReferredBy(foreignKey, id)), sql` or `);

/** The ids of the rows replace deletes: `source` created them in an earlier run, and no row that `keeping` names refers to them. */
export const rowsOfEarlierRunsToDelete = (target: WriteTarget, source: RunSource, keeping: ReferencingForeignKey[]) =>
  sql`select n.row_id from ${notesOfEarlierRuns(target, source)} and n.created${keeping.length ? sql` and not (${isKept(keeping, sql`n.row_id`)})` : sql``}`;

/** Locks the rows `source` created in earlier runs, so that no row comes to refer to one between the keep and the delete. */
export const lockRowsOfEarlierRuns = (target: WriteTarget, source: RunSource) =>
  sql`select count(*) from (select 1 from ${dataTable(target.encodedName)} where id in (select n.row_id from ${notesOfEarlierRuns(target, source)} and n.created) for update) locked`;

/**
 * Of the rows `source` created in earlier runs, those rows that `keeping` names refer to: how many,
 * the business keys of the first `shown` (in key order), and per foreign key of `keeping` whether it refers to any.
 */
export function rowsOfEarlierRunsKept(target: WriteTarget, source: RunSource, keeping: ReferencingForeignKey[], shown: number) {
  const flag = (at: number) => id(`referred_${at}`);
  const key = sql`concat_ws(', ', ${sql.join(target.keyColumns.map((c) => sql`t.${id(c)}::text`))})`;
  return sql<{ total: number; keys: string[] | null; referred: boolean[] }>`
    select count(*)::int as total, (array_agg(k.key order by k.key))[1:${sql.lit(shown)}] as keys,
      array[${sql.join(keeping.map((_, at) => sql`coalesce(bool_or(k.${flag(at)}), false)`))}] as referred
    from (
      select ${key} as key, ${sql.join(keeping.map((foreignKey, at) => sql`${isReferredBy(foreignKey, sql`t.id`)} as ${flag(at)}`))}
      from ${dataTable(target.encodedName)} t where t.id in (select n.row_id from ${notesOfEarlierRuns(target, source)} and n.created)) k
    where ${sql.join(
      keeping.map((_, at) => sql`k.${flag(at)}`),
      sql` or `,
    )}`;
}

export const deleteRowsOfEarlierRuns = (target: WriteTarget, source: RunSource, keeping: ReferencingForeignKey[]) => sql<{ deleted: number }>`
  with deleted as (delete from ${dataTable(target.encodedName)} where id in (${rowsOfEarlierRunsToDelete(target, source, keeping)}) returning 1)
  select count(*)::int as deleted from deleted`;

/**
 * The notes of earlier runs replace is done with: of rows the source only updated (kept, not its
 * own: ADR 0139) and of rows no longer there. Kept rows it created stay noted, for a later run.
 */
export const dropNotesOfEarlierRuns = (target: WriteTarget, source: RunSource) =>
  sql`delete from ${notesOfEarlierRuns(target, source)} and (not n.created or not exists (select 1 from ${dataTable(target.encodedName)} t where t.id = n.row_id))`;

/**
 * Replace in a table of sales parts (ADR 0164): of the product-days `source` wrote in earlier runs
 * and this run did not, those holding other parts too (another writer's, a change typed on the Data
 * screen) lose only the source's part, and are no longer noted as its rows, so the delete after this
 * keeps them. A product-day of the source's part alone is left to that delete, as before. A run's
 * parts always name their run, so `l.run <>` (not `is distinct from`) finds them through the index
 * of runs' parts (migration 0420) without leaving any out.
 */
export const removeOwnPartsOfEarlierRuns = (target: WriteTarget, source: RunSource) => sql`
  with shared as (
    update ${dataTable(target.encodedName)} t set ${id(SALES_PART)} = t.${id(SALES_PART)} - l.quantity
    from sales_sources l
    where l.sales_id = t.id and l.source = ${source.tag} and l.run <> ${source.run}
      and (t.${id(SALES_PART)} <> l.quantity or exists (select 1 from sales_sources o where o.sales_id = t.id and o.source <> l.source))
    returning t.id),
  parts as (delete from sales_sources l using shared where l.sales_id = shared.id and l.source = ${source.tag})
  delete from import_row_sources n using shared where n.table_name = ${target.encodedName} and n.row_id = shared.id and n.source = ${source.tag}`;

/** The plain INSERT is tried in a savepoint: a key stored meanwhile sends the write the upsert way. */
export const savepoint = (step: 'savepoint' | 'release' | 'rollback') =>
  step === 'savepoint' ? sql`savepoint import_merge` : step === 'release' ? sql`release savepoint import_merge` : sql`rollback to savepoint import_merge`;
