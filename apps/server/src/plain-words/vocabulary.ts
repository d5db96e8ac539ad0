// The catalogue's own words that plain questions are read against — category names and the words of
// product names — for the report writer's vocabulary and the assistant alike.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

/** The products' categories ("Heating"), for reading a category named in a question. */
export const categoryNames = async (db: Db): Promise<string[]> =>
  (await db.selectFrom('data.products').select('category').distinct().where('category', 'is not', null).orderBy('category').limit(500).execute()).map((row) => row.category as string);

/** Most phrases of each length kept, the first alphabetically. */
const PHRASES_PER_LENGTH = 5000;

/**
 * Each product's name as its words are read (ADR 0189, amendment 2026-12-06 (5)): as written, where
 * letters joined by hyphens or an apostrophe ("T-Shirt", "linen-shirt", "Men's") are one word; and,
 * for a name holding such a word, once more with those marks made spaces, where its parts are words
 * ("Shirt", "linen"; never "T": under 3 letters). A curly apostrophe reads as a straight one.
 */
const NAME_SPELLINGS = sql.raw(`names as (
        select translate(p.name, '\u2019', '''') as name from data.products p
        union all
        select regexp_replace(p.name, '[-''\u2019]', ' ', 'g') from data.products p where p.name ~ '[-''\u2019]'
      )`);
/** A word of names: letters only, 3 or more of them; or letters joined by hyphens or apostrophes, one part of 3 or more ("T-Shirt", "Men's"). */
const isNameWord = (column: string) => sql.raw(`(${column} ~ '^[[:alpha:]]{3,}$' or (${column} ~ '^[[:alpha:]]+([-''][[:alpha:]]+)+$' and ${column} ~ '[[:alpha:]]{3}'))`);

/**
 * Two or three words side by side in products' names ("Snow Shovel", "Pressure Treated Lumber",
 * "V-Neck Jumper", "linen shirt" of "linen-shirt XS"), each a word of names (`isNameWord`), as the
 * names write them: a question's words among them select the products whose name holds them
 * together, the longest phrase first (`readNameWord`, QA6 #6).
 */
const readNamePhrases = async (db: Db): Promise<string[]> =>
  (
    await sql<{ phrase: string }>`
      with ${NAME_SPELLINGS},
      runs as (
        select run.first, run.second, run.third from names p, lateral (
          select t.word as first, lead(t.word) over run as second, lead(t.word, 2) over run as third
          from regexp_split_to_table(p.name, '\\s+') with ordinality as t(word, at) window run as (order by t.at)
        ) run
        where ${isNameWord('run.first')} and ${isNameWord('run.second')}
      )
      (select min(first || ' ' || second) as phrase from runs group by lower(first || ' ' || second) order by 1 limit ${PHRASES_PER_LENGTH})
      union all
      (select min(first || ' ' || second || ' ' || third) as phrase from runs where ${isNameWord('third')}
        group by lower(first || ' ' || second || ' ' || third) order by 1 limit ${PHRASES_PER_LENGTH})`.execute(db)
  ).rows.map((row) => row.phrase);

/** The words of the products' names ("Radiator", "Mug", "T-Shirt" and "Shirt"), as `isNameWord` keeps them and the names write them: a question's word among them selects products (`readNameWord`). */
const readNameWords = async (db: Db): Promise<string[]> =>
  (
    await sql<{ word: string }>`
      with ${NAME_SPELLINGS}
      select min(w) as word from names p, regexp_split_to_table(p.name, '\\s+') w
      where ${isNameWord('w')} group by lower(w) order by 1 limit 5000`.execute(db)
  ).rows.map((row) => row.word);

/** Shared by every caller until the names change: read, never changed. */
export type ProductNames = { words: readonly string[]; phrases: readonly string[] };

/**
 * The products' names as they stand, in one cheap statement: how many there are and the sum of their
 * hashes. The words and phrases depend on nothing else (not the names' order, nor which product holds
 * which), so an equal key is the same words and phrases, whichever instance renamed a product and
 * when — up to two sets of names whose 32-bit hashes add up alike.
 */
const namesKey = async (db: Db): Promise<string> =>
  (await sql<{ key: string }>`select count(*) || ':' || coalesce(sum(hashtext(name)), 0) as key from data.products`.execute(db)).rows[0]?.key ?? '';

/** Per database, the words and phrases last read and the names' key they were read at. */
const readNames = new WeakMap<Db, ProductNames & { key: string }>();

/**
 * The words and two- and three-word phrases of the products' names, for reading a question (the
 * assistant's every question, the report writer's vocabulary): read again only when the names' key
 * changed, checked on every call — reading them takes about 1 s at 20,000 products (2 s where a third
 * of the names hold hyphens or apostrophes, 3 s on PGlite; a busy machine), the key a few
 * ms (docs/performance.md). Kept only when the names did not change while they were read.
 */
export async function productNames(db: Db): Promise<ProductNames> {
  const key = await namesKey(db);
  const kept = readNames.get(db);
  if (kept?.key === key) return kept;
  const [words, phrases] = await Promise.all([readNameWords(db), readNamePhrases(db)]);
  const read = { key, words, phrases };
  if ((await namesKey(db)) === key) readNames.set(db, read);
  return read;
}
