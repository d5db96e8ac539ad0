// A mapped field that no record of a page has (a shop's API renamed `quantity` to `qty`): said once,
// naming the field, what the records hold instead and the likely new name, rather than as "A value
// is required." on every record (QA F6; ADR 0170). Records that lack it only here and there keep
// their row-level refusals.
import { isPlainRecord, readMappedPath } from '@stockwise/contract';
import { leafPaths } from '../import/preview.ts';
import { listed } from './writer.ts';

/** A field of the entity the mapping reads from a source path, with the label the shop knows it by; `role`: what the path is for when it is no field's ("that blank cells are filled down by"). */
export type MappedPath = { field: string; label: string; path: string; role?: string };

/** Records whose paths are listed in the message. */
const LISTED_RECORDS = 50;
/** Names of the records' fields the message lists. */
const LISTED_PATHS = 20;

/** A field name compared for likeness: lower case, letters and digits only (`Order_Date` and `orderdate` alike). */
const plain = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const leafOf = (path: string) => path.slice(path.lastIndexOf('.') + 1);
const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('.')));

/** Whether `short` is `long` abbreviated: its letters in order, from the same first letter (qty of quantity, desc of description). */
const abbreviates = (short: string, long: string) => {
  if (short.length < 2 || short.length >= long.length || short[0] !== long[0]) return false;
  let at = 0;
  for (const letter of long) if (letter === short[at]) at += 1;
  return at === short.length;
};

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, at) => at);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** How unlike `found` is `wanted` as a field name (0: the same but for case and separators); null: not an obvious rename. */
function unlikeness(wanted: string, found: string): number | null {
  const [a, b] = [plain(leafOf(wanted)), plain(leafOf(found))];
  if (!a || !b) return null;
  const differentPlace = parentOf(wanted) === parentOf(found) ? 0 : 0.5;
  if (a === b) return differentPlace;
  if (abbreviates(a, b) || abbreviates(b, a)) return 1 + differentPlace;
  const distance = editDistance(a, b);
  return Math.min(a.length, b.length) >= 4 && distance <= 2 ? 1 + distance + differentPlace : null;
}

/** The one path of `candidates` most like `wanted`, when one stands out; null when none is alike or two are equally so. */
export function closestPath(wanted: string, candidates: string[]): string | null {
  let best: { path: string; score: number } | null = null;
  let tied = false;
  for (const path of candidates) {
    const score = unlikeness(wanted, path);
    if (score === null) continue;
    if (!best || score < best.score) [best, tied] = [{ path, score }, false];
    else if (score === best.score) tied = true;
  }
  return best && !tied ? best.path : null;
}

/** The fields of `mapped` that none of `records` (the plain-object ones) has; none when no record is an object. */
export const fieldsAbsentFrom = (mapped: MappedPath[], records: unknown[]): MappedPath[] => {
  const objects = records.filter(isPlainRecord);
  return objects.length ? mapped.filter(({ path }) => objects.every((record) => readMappedPath(record, path) === undefined)) : [];
};

/**
 * The message for `absent` fields no record of `records` has: "No record has the field 'quantity'
 * (mapped to Quantity); the records have: id, sku, qty, date. Was it renamed to 'qty'? Update the
 * mapping 'shop_orders'." `where`: the records' place ("of page 3"), `mappingName` the mapping to update;
 * `mapped`: every path the mapping reads (not offered as a new name for another field).
 */
export function absentFieldsMessage(absent: MappedPath[], records: unknown[], options: { mapped: MappedPath[]; where?: string | undefined; mappingName?: string | null }): string {
  const present = leafPaths(records.filter(isPlainRecord).slice(0, LISTED_RECORDS));
  const taken = new Set(options.mapped.map((m) => m.path));
  const free = present.filter((path) => !taken.has(path));
  const fields = listed(absent.map((m) => `'${m.path}' (${m.role ?? `mapped to ${m.label}`})`));
  const shown = `${present.slice(0, LISTED_PATHS).join(', ')}${present.length > LISTED_PATHS ? ', …' : ''}`;
  const renames = absent.flatMap((m) => {
    const closest = closestPath(m.path, free);
    return closest ? [{ from: m.path, to: closest }] : [];
  });
  const question =
    absent.length === 1 ? ` Was it renamed${renames[0] ? ` to '${renames[0].to}'` : ''}?` : renames.length ? renames.map((r) => ` Was '${r.from}' renamed to '${r.to}'?`).join('') : ' Were they renamed?';
  return `No record${options.where ? ` ${options.where}` : ''} has the field${absent.length === 1 ? '' : 's'} ${fields}; the records have: ${shown || 'no fields'}.${question} Update the mapping${options.mappingName ? ` '${options.mappingName}'` : ''}.`;
}
