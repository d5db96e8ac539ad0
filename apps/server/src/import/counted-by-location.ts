// A stock count exported per location (ADR 0198): Odoo's "WH/Stock" and "WH/Stock/Shelf 2", a
// warehouse system's bins. A product's lines are parts of its stock, to be added up; kept as the
// entity's "keep the last row", the stock on hand would be its last shelf's.

/** Names of a column that says where in the shop or warehouse a line was counted, normalised (letters and digits only). */
const LOCATION_COLUMNS = new Set(['location', 'locations', 'stocklocation', 'storagelocation', 'bin', 'binlocation', 'shelf', 'warehouse', 'lagerort', 'lagerplatz', 'emplacement', 'ubicacion', 'locatie', 'ubicazione']);

const normalised = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * The location column by which the lines read count one product in parts: a column named as a
 * location that no field reads, and a product code read on two lines at least with different
 * values there. Null where none does (one line per product, or no such column).
 */
export function countedByLocation(header: readonly string[], mappedColumns: readonly string[], lines: readonly { code: unknown; cell: (column: string) => unknown }[]): string | null {
  const column = header.find((name) => LOCATION_COLUMNS.has(normalised(name)) && !mappedColumns.includes(name));
  if (column === undefined) return null;
  const placesOf = new Map<string, Set<string>>();
  for (const { code, cell } of lines) {
    if (code === null || code === undefined || String(code).trim() === '') continue;
    const places = placesOf.get(String(code).trim()) ?? new Set<string>();
    places.add(String(cell(column) ?? '').trim());
    if (places.size > 1) return column;
    placesOf.set(String(code).trim(), places);
  }
  return null;
}
