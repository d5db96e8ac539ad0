// A file's sales replace the totals its own mapping imported before for the same product-days
// (ADR 0164): right for a corrected file imported again, wrong for a second till's file imported
// under the first till's mapping, whose sales would be lost unseen. So the import says when it
// replaced different totals, and the preview warns before (ADR 0164's amendment of 2026-12-05,
// "one mapping, two tills").
import { sql, type Kysely } from 'kysely';
import type { ReplacesSales } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { formatRange } from '../plain-words/period.ts';

/** Product-days whose own earlier total a file's write replaced with a different one: how many, and the first and last of them. */
export type ReplacedOwn = { days: number; from: string; to: string };

/** The sales writer a file import is (ADR 0164): `file:<mapping name>`, or `file` without a name. */
export const fileSalesWriter = (mappingName: string | undefined): string => (mappingName ? `file:${mappingName}` : 'file');

const earlierImports = (mappingName: string | null) => (mappingName ? `imported under the mapping '${mappingName}'` : 'imported without a mapping name');

/**
 * " 12 product-days (1–14 Nov 2026) already held sales imported under the mapping 'Till sales' …",
 * as the import's message says it, with the way to keep two tills' sales; none replaced: empty.
 */
export function replacedOwnMessage(replaced: ReplacedOwn | undefined, mappingName: string | null): string {
  if (!replaced) return '';
  const one = replaced.days === 1;
  const days = `${replaced.days} product-day${one ? '' : 's'} (${formatRange({ from: replaced.from, to: replaced.to })})`;
  const firstTill = mappingName ? `the first till's file again under '${mappingName}'` : "the first till's file again";
  return (
    ` ${days} already held sales ${earlierImports(mappingName)}; this file's total${one ? '' : 's'} replaced ${one ? 'it' : 'them'}: importing under the same mapping again replaces, it does not add.` +
    ` If this file is from another till, import ${firstTill} to put its totals back, and this file under a mapping name of its own, so that both tills' sales are kept.`
  );
}

/**
 * The sales a file import as `source` (fileSalesWriter) stored before on `days`: the product-days
 * the import of a file holding those days would replace (the Import screen's preview warns of them,
 * read off the records it read); null when there are none.
 */
export async function ownSalesOnDays(db: Kysely<Database>, source: string, mappingName: string | null, days: string[]): Promise<ReplacesSales | null> {
  if (!days.length) return null;
  const { rows } = await sql<{ product_days: number; first_day: string | null; last_day: string | null }>`
    select count(*)::int as product_days, min(s.date)::text as first_day, max(s.date)::text as last_day
    from data.sales s join sales_sources l on l.sales_id = s.id and l.source = ${source}
    where s.date = any(${days}::date[])`.execute(db);
  const [found] = rows;
  if (!found?.product_days || !found.first_day || !found.last_day) return null;
  const range = formatRange({ from: found.first_day, to: found.last_day });
  const whose = mappingName ? `The mapping '${mappingName}'` : 'A file import without a mapping name';
  return {
    mapping_name: mappingName,
    product_days: found.product_days,
    first_day: found.first_day,
    last_day: found.last_day,
    message:
      `${whose} already imported sales for ${range} (${found.product_days} product-day${found.product_days === 1 ? '' : 's'}), days this file holds too: importing it ${mappingName ? 'under the same mapping ' : ''}replaces those totals with this file's, it does not add to them.` +
      ` If this file is from another till, save the mapping under a new name for it, so that both tills' sales are kept.`,
  };
}
