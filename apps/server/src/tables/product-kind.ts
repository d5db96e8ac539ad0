// A product's kind as shop systems write it (ADR 0200): Odoo's Product Type (Storable Product,
// Consumable, Service), QuickBooks' Type (Inventory, Non-inventory, Service), WooCommerce's (simple,
// variable, virtual), in the languages the import reads. The products' not_stocked column reads
// them besides yes or no, and a products file's kind column is proposed for it by them.

/** The products' column of products not stocked: a service or a fee, no stock kept (migration 0750). */
export const NOT_STOCKED_KEY = 'not_stocked';

/** Kinds of a product no stock is kept of: a service, a fee, something virtual. */
const NOT_STOCKED_KINDS = [
  'service', 'services', 'service item', 'non inventory', 'noninventory', 'non inventory item', 'non inventory part', 'non stock', 'nonstock', 'non stock item', 'non stocked', 'not stocked',
  'fee', 'fees', 'charge', 'virtual', 'virtual product', 'digital', 'digital product', 'downloadable', 'gift card', 'giftcard',
  'dienstleistung', 'dienstleistungen', 'gebuhr', 'gutschein', 'nicht lagerartikel', 'prestation', 'prestation de service', 'prestations', 'frais', 'service non stocke',
  'servicio', 'servicios', 'cargo', 'dienst', 'diensten', 'dienstverlening', 'servizio', 'servizi',
];
/** Kinds of a product whose stock is kept: goods bought and sold (a consumable too: it is bought). */
const STOCKED_KINDS = [
  'storable product', 'storable', 'stockable product', 'stockable', 'stock item', 'stocked', 'product', 'consumable', 'consu', 'inventory', 'inventory item', 'inventory part', 'goods', 'good', 'physical', 'physical product', 'simple', 'variable', 'variation', 'grouped',
  'lagerartikel', 'lagerprodukt', 'lagerfahiges produkt', 'lagerbares produkt', 'verbrauchsmaterial', 'verbrauchsartikel', 'ware', 'artikel', 'produkt',
  'produit stockable', 'stockable', 'consommable', 'article stocke', 'produit', 'bien', 'producto almacenable', 'almacenable', 'consumible', 'producto', 'articulo de inventario',
  'voorraadproduct', 'opslaanbaar product', 'verbruiksartikel', 'verbruiksproduct', 'prodotto stoccabile', 'stoccabile', 'consumabile', 'prodotto', 'articolo a magazzino',
];

/** A kind as written, compared: case, accents, hyphens and spacing aside ("Non-Inventory" is "non inventory", "Gebühr" is "gebuhr"). */
const kindForm = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[-_/]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const KINDS = new Map<string, boolean>([...STOCKED_KINDS.map((kind) => [kind, false] as const), ...NOT_STOCKED_KINDS.map((kind) => [kind, true] as const)]);

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

/** Why a not-stocked value was refused: what it reads. */
export const NOT_STOCKED_REASON = 'Expected true or false (yes or no, 1 or 0), or a product type: Service, Fee, Non-inventory, Virtual… (not stocked) or Storable Product, Consumable, Inventory… (stocked).';
