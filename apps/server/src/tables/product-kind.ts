// A product's kind as shop systems write it (ADR 0200): Odoo's Product Type (Storable Product,
// Consumable, Service), QuickBooks' Type (Inventory, Non-inventory, Service), WooCommerce's (simple,
// variable, virtual), in the languages the import reads. A products file's kind column is proposed
// for not_stocked by them, with a value map of its words (Service → true); the column itself reads
// yes or no only, as every yes-or-no column does (ADR 0200's amendment).
import { valueMapForm, MAX_VALUE_MAP_ENTRIES } from '@stockwise/contract';
import { booleanValue } from './columns.ts';

/** The products' column of products not stocked: a service or a fee, no stock kept (migration 0750). */
export const NOT_STOCKED_KEY = 'not_stocked';

/** Kinds of a product no stock is kept of: a service, a fee, something virtual. */
const NOT_STOCKED_KINDS = [
  'Service', 'Services', 'Service item', 'Non-inventory', 'Noninventory', 'Non-inventory item', 'Non-inventory part', 'Non-stock', 'Nonstock', 'Non-stock item', 'Non-stocked', 'Not stocked',
  'Fee', 'Fees', 'Charge', 'Virtual', 'Virtual product', 'Digital', 'Digital product', 'Downloadable', 'Gift card', 'Giftcard',
  'Dienstleistung', 'Dienstleistungen', 'Gebühr', 'Gutschein', 'Nicht-Lagerartikel', 'Prestation', 'Prestation de service', 'Prestations', 'Frais', 'Service non stocké',
  'Servicio', 'Servicios', 'Cargo', 'Dienst', 'Diensten', 'Dienstverlening', 'Servizio', 'Servizi',
];
/** Kinds of a product whose stock is kept: goods bought and sold (a consumable too: it is bought). */
const STOCKED_KINDS = [
  'Storable Product', 'Storable', 'Stockable Product', 'Stockable', 'Stock item', 'Stocked', 'Product', 'Consumable', 'consu', 'Inventory', 'Inventory item', 'Inventory part', 'Goods', 'Good', 'Physical', 'Physical product', 'simple', 'variable', 'variation', 'grouped',
  'Lagerartikel', 'Lagerprodukt', 'Lagerfähiges Produkt', 'Lagerbares Produkt', 'Verbrauchsmaterial', 'Verbrauchsartikel', 'Ware', 'Artikel', 'Produkt',
  'Produit stockable', 'Consommable', 'Article stocké', 'Produit', 'Bien', 'Producto almacenable', 'Almacenable', 'Consumible', 'Producto', 'Artículo de inventario',
  'Voorraadproduct', 'Opslaanbaar product', 'Verbruiksartikel', 'Verbruiksproduct', 'Prodotto stoccabile', 'Stoccabile', 'Consumabile', 'Prodotto', 'Articolo a magazzino',
];

const withoutAccents = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

/** A kind as written, compared: case, accents, hyphens and spacing aside ("Non-Inventory" is "non inventory", "Gebühr" is "gebuhr"). */
const kindForm = (value: string) =>
  withoutAccents(value)
    .toLowerCase()
    .replace(/[-_/]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const KINDS = new Map<string, boolean>([...STOCKED_KINDS.map((kind) => [kindForm(kind), false] as const), ...NOT_STOCKED_KINDS.map((kind) => [kindForm(kind), true] as const)]);

/**
 * Whether a product of this kind is not stocked (true: Service, Fee) or stocked (false: Storable
 * Product, Inventory); undefined for no kind known. Kinds listed with commas (WooCommerce's "simple,
 * virtual") are each read: not stocked when any of them is.
 */
export function notStockedOfKind(raw: unknown): boolean | undefined {
  if (typeof raw !== 'string') return undefined;
  const kinds = raw.split(',').map((kind) => KINDS.get(kindForm(kind)));
  return kinds.some((kind) => kind === undefined) ? undefined : kinds.includes(true);
}

/** A value map's stored value for a kind: not_stocked is a yes-or-no column. */
const stored = (notStocked: boolean) => String(notStocked);

/**
 * The value map proposed with a kind column for not_stocked: each kind word the file writes
 * (`Service`, `simple, virtual`), once ignoring case, as first written → 'true' or 'false'. Words
 * the column reads as yes or no need none; null when no word needs one.
 */
export function proposedKindMap(values: readonly unknown[]): Record<string, string> | null {
  const map = new Map<string, [string, string]>();
  for (const value of values) {
    if (typeof value !== 'string' || booleanValue(value) !== undefined || value.trim().length > 200 || map.size >= MAX_VALUE_MAP_ENTRIES) continue;
    const notStocked = notStockedOfKind(value);
    if (notStocked !== undefined && !map.has(valueMapForm(value))) map.set(valueMapForm(value), [value.trim(), stored(notStocked)]);
  }
  return map.size ? Object.fromEntries(map.values()) : null;
}
