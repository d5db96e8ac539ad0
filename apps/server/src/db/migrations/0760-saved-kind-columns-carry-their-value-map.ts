// A kind column for not_stocked reads through a value map (ADR 0200's amendment): the products'
// not_stocked no longer reads Service or Storable Product itself, so a mapping saved before, which
// maps a column (Odoo's Product Type) to not_stocked with no value map of it, is given the map of
// every kind word the column used to read (KIND_VALUE_MAP), and imports and integration runs through
// it read as they did. A mapping already at the bound of value maps' fields is left as it is (none is
// known; it would no longer be a valid mapping).
import { sql, type Kysely } from 'kysely';

/** The products' column of products not stocked (migration 0750). */
const NOT_STOCKED = 'not_stocked';
/** The fields a mapping's value maps could hold when 0760 was written (the contract's MAX_VALUE_MAP_FIELDS then). */
const MAX_VALUE_MAP_FIELDS = 20;

/**
 * Every kind word not_stocked read before 0760, as tables/product-kind.ts listed the kinds then: each
 * as written, without its hyphens and without its accents (a value map matches ignoring case and
 * surrounding spaces only), and WooCommerce's types with their flags. A copy, frozen on purpose (ADR
 * 0200, amendment of 2026-12-07 "0760 writes a frozen map"): a migration writes what it wrote when it
 * was made, and the app's list may change later; read from it, a fresh database would be given
 * another map than an upgraded one.
 */
export const KIND_VALUE_MAP: Readonly<Record<string, 'true' | 'false'>> = Object.freeze(
  Object.fromEntries([
    ...[
      'Service', 'Services', 'Service item', 'Non-inventory', 'Non inventory', 'Noninventory', 'Non-inventory item', 'Non inventory item',
      'Non-inventory part', 'Non inventory part', 'Non-stock', 'Non stock', 'Nonstock', 'Non-stock item', 'Non stock item', 'Non-stocked', 'Non stocked',
      'Not stocked', 'Fee', 'Fees', 'Charge', 'Virtual', 'Virtual product', 'Digital', 'Digital product', 'Downloadable', 'Gift card', 'Giftcard',
      'Dienstleistung', 'Dienstleistungen', 'Gebühr', 'Gebuhr', 'Gutschein', 'Nicht-Lagerartikel', 'Nicht Lagerartikel', 'Prestation',
      'Prestation de service', 'Prestations', 'Frais', 'Service non stocké', 'Service non stocke', 'Servicio', 'Servicios', 'Cargo', 'Dienst', 'Diensten',
      'Dienstverlening', 'Servizio', 'Servizi', 'simple, virtual', 'simple, downloadable', 'simple, downloadable, virtual', 'variable, virtual',
      'variable, downloadable', 'variable, downloadable, virtual', 'variation, virtual', 'variation, downloadable', 'variation, downloadable, virtual',
    ].map((word) => [word, 'true'] as const),
    ...[
      'Storable Product', 'Storable', 'Stockable Product', 'Stockable', 'Stock item', 'Stocked', 'Product', 'Consumable', 'consu', 'Inventory',
      'Inventory item', 'Inventory part', 'Goods', 'Good', 'Physical', 'Physical product', 'simple', 'variable', 'variation', 'grouped', 'Lagerartikel',
      'Lagerprodukt', 'Lagerfähiges Produkt', 'Lagerfahiges Produkt', 'Lagerbares Produkt', 'Verbrauchsmaterial', 'Verbrauchsartikel', 'Ware', 'Artikel',
      'Produkt', 'Produit stockable', 'Consommable', 'Article stocké', 'Article stocke', 'Produit', 'Bien', 'Producto almacenable', 'Almacenable',
      'Consumible', 'Producto', 'Artículo de inventario', 'Articulo de inventario', 'Voorraadproduct', 'Opslaanbaar product', 'Verbruiksartikel',
      'Verbruiksproduct', 'Prodotto stoccabile', 'Stoccabile', 'Consumabile', 'Prodotto', 'Articolo a magazzino',
    ].map((word) => [word, 'false'] as const),
  ]),
);

type EntityMapping = { field_mappings?: Record<string, unknown>; value_maps?: Record<string, unknown> };
type SavedMapping = { name: string; config: { entities?: Record<string, EntityMapping> } };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Rewrites each saved mapping's entities through `change` (answering the entity changed, or null), storing those that changed. */
async function changeEntities(db: Kysely<unknown>, change: (entity: EntityMapping) => EntityMapping | null): Promise<void> {
  const saved = (await sql<SavedMapping>`select name, config from config_mappings`.execute(db)).rows;
  for (const { name, config } of saved) {
    if (!isRecord(config.entities)) continue;
    let changed = false;
    const entities = Object.fromEntries(
      Object.entries(config.entities).map(([entityType, entity]) => {
        const next = isRecord(entity) ? change(entity) : null;
        changed ||= next !== null;
        return [entityType, next ?? entity];
      }),
    );
    if (changed) await sql`update config_mappings set config = ${JSON.stringify({ ...config, entities })}::jsonb where name = ${name}`.execute(db);
  }
}

export const up = (db: Kysely<unknown>): Promise<void> =>
  changeEntities(db, (entity) => {
    const maps = isRecord(entity.value_maps) ? entity.value_maps : {};
    if (!isRecord(entity.field_mappings) || !(NOT_STOCKED in entity.field_mappings) || NOT_STOCKED in maps || Object.keys(maps).length >= MAX_VALUE_MAP_FIELDS) return null;
    return { ...entity, value_maps: { ...maps, [NOT_STOCKED]: KIND_VALUE_MAP } };
  });

/** Back: a server before 0760 refuses a value map of a yes-or-no column, so every not_stocked map goes (the map added here, and one a user gave since). */
export const down = (db: Kysely<unknown>): Promise<void> =>
  changeEntities(db, (entity) => {
    if (!isRecord(entity.value_maps) || !(NOT_STOCKED in entity.value_maps)) return null;
    const { [NOT_STOCKED]: _dropped, ...others } = entity.value_maps;
    const { value_maps: _all, ...rest } = entity;
    return Object.keys(others).length ? { ...rest, value_maps: others } : rest;
  });
