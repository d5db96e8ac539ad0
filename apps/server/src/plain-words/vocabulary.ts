// The catalogue's own words that plain questions are read against — category names and the words of
// product names — for the report writer's vocabulary and the assistant alike.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

type Db = Kysely<Database>;

/** The products' categories ("Heating"), for reading a category named in a question. */
export const categoryNames = async (db: Db): Promise<string[]> =>
  (await db.selectFrom('data.products').select('category').distinct().where('category', 'is not', null).orderBy('category').limit(500).execute()).map((row) => row.category as string);

/**
 * Two words side by side in products' names ("Snow Shovel"), each of letters only and 3 or more of
 * them, as the names write them: a question's two words among them select the products whose name
 * holds both together (`readNameWord`, QA6 #6).
 */
export const productNamePhrases = async (db: Db): Promise<string[]> =>
  (
    await sql<{ phrase: string }>`
      select min(pair.word || ' ' || pair.next) as phrase
      from data.products p, lateral (
        select t.word, lead(t.word) over (order by t.at) as next from regexp_split_to_table(p.name, '\\s+') with ordinality as t(word, at)
      ) pair
      where pair.next is not null and pair.word ~ '^[[:alpha:]]{3,}$' and pair.next ~ '^[[:alpha:]]{3,}$'
      group by lower(pair.word || ' ' || pair.next) order by 1 limit 5000`.execute(db)
  ).rows.map((row) => row.phrase);

/** The words of the products' names ("Radiator", "Mug"), letters only and 3 or more of them, as the names write them: a question's word among them selects products (`readNameWord`). */
export const productNameWords = async (db: Db): Promise<string[]> =>
  (
    await sql<{ word: string }>`
      select min(w) as word from data.products p, regexp_split_to_table(p.name, '\\s+') w
      where w ~ '^[[:alpha:]]{3,}$' group by lower(w) order by 1 limit 5000`.execute(db)
  ).rows.map((row) => row.word);
