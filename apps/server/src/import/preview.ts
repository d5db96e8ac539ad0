// What the mapping builder shows for a chosen file (POST /api/records/preview-file/): its format,
// header and first raw records, the entity's targets, a proposed mapping by name, the date format
// detected over every record read, and the first five records as the import would store them with
// their problems — read by the import's own code (source.ts, target.ts); the lines the mapping's
// row filters leave out marked, and, for the Import screen, the values of the file's status-like
// columns and the row filters they suggest (row-filter.ts). Writes nothing.
import { sql, type Kysely } from 'kysely';
import { dateFormats, dayInTimeZone, MAX_JOINED_COLUMNS, DEFAULT_DECIMAL_PLACES, entityMapping, headerRowProblem, isoDayProblem, MAX_LISTED_NEW_PRODUCTS, PREVIEW_ROWS, readMappedPath, type DateFormat, type DateOrderPreference, type EntityMapping, type ImportTarget, type PreviewFileResponse, type ProductConfig, type RowFilter, splitQuantityUnit, valueMapForm } from '@stockwise/contract';
import type { Database } from '../db/schema.ts';
import { AppError, validationError } from '../http/errors.ts';
import { requestTimeZone } from '../http/viewer-day.ts';
import { isReadOnly } from '../tables/columns.ts';
import { NOT_STOCKED_KEY, notStockedOfKind, proposedKindMap } from '../tables/product-kind.ts';
import { mostlyBracketedCodes } from './bracketed-code.ts';
import { countedByLocation } from './counted-by-location.ts';
import { cellsWithNothingMapped, csvMapper, applyMapping, recordMapper, recordWithNothingMapped, resolveEntityMapping } from './mapping.ts';
import { absentFillDownMessage, noRecordHas, optionValueColumns, proposeFillDown } from './fill-down.ts';
import type { ImportContext } from './service.ts';
import { FileFormatError, openSource, type RawRecord } from './source.ts';
import { sentTimeZone } from './field-values.ts';
import { undecidedDateOrder } from './shop-date-order.ts';
import { skippedRowText } from './header-row.ts';
import { isNameable, newProductSource, pickNewProducts, sourcePaths } from './new-products.ts';
import { readCodeByName, withCodeByName, type CodeByName } from './code-by-name.ts';
import { compileRowFilters, rowFilterColumns, valuesOfColumns } from './row-filter.ts';
import { blankCodeLines, blankCodeSkipper, isBlank, codeColumnOf, compileRecordTyper, totalsLineReader, createsForUnknownCodes, fileImportWayOut, mapperReading, ownKeyLookup, ownTextKey, resolveWriteTarget, unknownCodeReason, type CodeLookup, type MeantCode, type KeyReference, type TypedRecord, type WriteTarget } from './target.ts';
import { isTotalsWord } from './totals-line.ts';
import { keepsSalesParts, looseCode, storedLooseTwins } from './writer-sql.ts';
import { codesWithLeadingZeros } from './leading-zeros.ts';
import { fileSalesWriter, ownSalesOnDays } from './own-sales.ts';
import type { ReceivedFile } from './upload.ts';
import { withoutCurrencySign } from './currency.ts';
import { RefusedChoiceValues } from './value-maps.ts';
import { UnitsAsWritten, unitsAsWrittenSentence } from './quantity-units.ts';
import { DateOrderDetector, detectDecimalSeparator } from './values.ts';

/** Records read for detecting the date format (every record of the previewed head, up to this many). */
const DETECTION_RECORDS = 5000;
/** Rows above the header listed at most (the mapping's header row is at most 50). */
const MAX_SKIPPED_ROWS_SHOWN = 20;
/** Dotted keys listed for a JSON file at most. */
const MAX_JSON_KEYS = 200;

/** Case, accents, spaces and punctuation ignored: "EK-Preis", "Stück", "Prix d'achat" match "ekpreis", "stuck", "prixdachat". */
const normalise = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_\-.#/()'’:]+/g, '');

/**
 * Column names shops use for each shipped field, normalised: English first, then the names German,
 * French, Spanish, Dutch and Italian till and shop systems export (the shops whose files carry
 * day-first dates and decimal commas).
 */
const PRODUCT_CODE = ['productcode', 'sku', 'code', 'stockcode', 'itemcode', 'articlenumber', 'article', 'itemno', 'itemnumber', 'partnumber', 'productid', 'product',
  'artikelnummer', 'artikelnr', 'artnr', 'artikel', 'reference', 'codearticle', 'referencia', 'codigo', 'codigoarticulo', 'artikelcode', 'codice', 'codicearticolo',
  // Last: a US store's "Item #" (normalised to "item") is its code; beside a "SKU" the SKU is.
  'item'];
const SYNONYMS: Record<string, string[]> = {
  product_code: PRODUCT_CODE,
  product_id: PRODUCT_CODE,
  // Square's library writes an "Item Name" beside a "Description" of a sentence or two (ADR 0201).
  name: ['name', 'productname', 'itemname', 'description', 'title', 'itemdescription',
    'bezeichnung', 'artikelbezeichnung', 'beschreibung', 'designation', 'libelle', 'nom', 'descripcion', 'nombre', 'omschrijving', 'naam', 'descrizione', 'nome',
    // Last: a till's "Product" beside its "SKU" is the item's name, as Square's "Item" is.
    'product', 'item'],
  // A "Product Category" before a "Product Type": Odoo's type is Storable Product or Service, its category the shop's own (ADR 0198).
  category: ['category', 'productgroup', 'group', 'department', 'categoryname', 'productcategory', 'producttype', 'type',
    'warengruppe', 'kategorie', 'gruppe', 'categorie', 'famille', 'rayon', 'categoria', 'familia', 'groep', 'reparto'],
  // Shopify's products export counts a variant's stock as "Variant Inventory Qty" (ADR 0195).
  // Odoo's product list counts it as "Quantity On Hand" (ADR 0198). Square's library counts it per
  // location, "Current Quantity Galway Shop" (LOCATION_PREFIXES, ADR 0201).
  current_stock: ['currentstock', 'currentquantity', 'stock', 'onhand', 'stockonhand', 'qtyonhand', 'quantityonhand', 'onhandquantity', 'onhandqty', 'instock', 'inventory', 'variantinventoryqty', 'inventoryqty', 'inventoryquantity',
    'bestand', 'lagerbestand', 'stockactuel', 'quantiteenstock', 'existencias', 'voorraad', 'giacenza'],
  // Shopify's "Cost per item" is what a variant costs the shop; its "Variant Price" beside it is the
  // selling price, taken by its last word only where no cost column is named (ADR 0195). Square's
  // library names it "Default Unit Cost" beside its "Price" (ADR 0201). A French caisse writes the
  // purchase price before VAT, "Prix d'achat HT", beside the selling price with it, "Prix de vente
  // TTC": both start with "Prix", so the cost is a whole name (ADR 0203 F1).
  unit_cost: ['unitcost', 'cost', 'costprice', 'costperitem', 'costperunit', 'defaultunitcost', 'purchaseprice', 'unitprice', 'price',
    'ekpreis', 'einkaufspreis', 'einstandspreis', 'preis', 'prixdachat', 'prixachat', 'prixdachatht', 'prixachatht', 'prixdachatunitaireht', 'prixderevient', 'prixderevientht', 'coutdachat', 'coutdachatht',
    'cout', 'prixunitaire', 'prix', 'preciocompra', 'coste', 'costo', 'precio', 'inkoopprijs', 'kostprijs', 'prijs', 'prezzoacquisto', 'prezzo'],
  // A product's unit of measure (ADR 0177); German tills shorten Mengeneinheit to ME.
  unit: ['unit', 'uom', 'unitofmeasure', 'unitofmeasurement', 'einheit', 'mengeneinheit', 'me', 'unite', 'unitedemesure', 'unidad', 'unidaddemedida', 'eenheid', 'unita', 'unitadimisura'],
  // What the supplier sells (ADR 0183). Never a lone "case", "pack", "inner" or "minimum", which a
  // name's first or last word would match: "Minimum stock" is a reorder level, "Pack" a description,
  // "Outer EAN" a barcode. Of an inner and an outer pack, the inner: the smaller step a supplier
  // lists is one it sells, and an order rounded too little is corrected where one too large is paid.
  order_multiple: ['ordermultiple', 'ordermultiples', 'orderincrement', 'casesize', 'casequantity', 'caseqty', 'casepack', 'packsize', 'packquantity', 'packqty', 'cartonsize', 'cartonquantity', 'cartonqty',
    'unitspercase', 'unitspercarton', 'unitscarton', 'unitsperpack', 'qtypercase', 'qtypercarton', 'innerpack', 'innerpackqty', 'innerqty', 'innerquantity', 'outerpack', 'outerpackqty', 'outerqty', 'outerquantity',
    'vpe', 'verpackungseinheit', 'gebindegroße', 'gebindegrosse', 'gebindemenge', 'colisage', 'pcb', 'uniteparcolis', 'unidadesporcaja', 'unidadesporbulto', 'verpakkingseenheid', 'colli', 'colliinhoud', 'collo', 'besteleenheid', 'pezziperconfezione', 'pezziperimballo'],
  min_order_quantity: ['minorderquantity', 'minimumorderquantity', 'moq', 'minorder', 'minimumorder', 'minorderqty', 'minimumorderqty', 'minqty', 'minimumqty', 'minquantity', 'minimumquantity',
    'mindestbestellmenge', 'minbestellmenge', 'mindestmenge', 'mindestabnahme', 'mindestabnahmemenge', 'qteminimum', 'qtemin', 'quantiteminimum', 'quantiteminimale', 'quantiteminimumdecommande', 'minimumdecommande', 'commandeminimum',
    'pedidominimo', 'cantidadminima', 'minimumbestelling', 'minimalebestelhoeveelheid', 'minimumbestelhoeveelheid', 'minimaleafname', 'minimumafname', 'ordineminimo', 'quantitaminima', 'lottominimo'],
  // Who the product is bought from (ADR 0184): by a whole name only (WHOLE_NAMES_ONLY), so a
  // supplier's own code for the item ("Supplier SKU", "Vendor code") is never taken as its name.
  // Odoo's product list names the column "Vendors" (ADR 0198), Square's library "Default Vendor Name" (ADR 0201).
  supplier: ['supplier', 'suppliername', 'mainsupplier', 'preferredsupplier', 'primarysupplier', 'vendor', 'vendorname', 'defaultvendorname', 'preferredvendor', 'vendors', 'suppliers',
    'lieferant', 'lieferantenname', 'lieferantname', 'hauptlieferant', 'fournisseur', 'nomfournisseur', 'nomdufournisseur', 'proveedor', 'nombreproveedor', 'nombredelproveedor',
    'leverancier', 'leveranciersnaam', 'naamleverancier', 'fornitore', 'nomefornitore'],
  // Made in the shop, not bought (ADR 0194): by a whole name only (WHOLE_NAMES_ONLY), so "House blend" or "Made by" is not it.
  made_here: ['madehere', 'madeherenotordered', 'madeinhouse', 'inhouse', 'homemade', 'housemade', 'bakedinhouse', 'bakedhere', 'notordered', 'producedinhouse',
    'eigenproduktion', 'eigenherstellung', 'selbstgemacht', 'hausgemacht', 'faitmaison', 'hechoencasa', 'elaboracionpropia', 'zelfgemaakt', 'eigengemaakt', 'huisgemaakt', 'fattoincasa', 'produzionepropria'],
  // A service or a fee, no stock kept (ADR 0200): by a whole name only; a kind column (Odoo's Product Type) by its values (notStockedByValues).
  not_stocked: ['notstocked', 'nonstock', 'nonstocked', 'noninventory', 'nichtlagerartikel', 'nonstocke', 'noalmacenable', 'nietopvoorraad'],
  lead_time_days: ['leadtimedays', 'leadtime', 'leaddays', 'lieferzeit', 'lieferzeittage', 'wiederbeschaffungszeit', 'delailivraison', 'delaidelivraison', 'delai', 'plazoentrega', 'plazo', 'levertijd', 'tempidiconsegna'],
  date: ['date', 'day', 'invoicedate', 'orderdate', 'salesdate', 'saledate', 'transactiondate', 'timestamp', 'datetime', 'countdate', 'countedon', 'datecounted', 'stocktakedate',
    'createdat', 'created', 'orderedat', 'soldat', 'purchasedat', 'placedat',
    'datum', 'zahldatum', 'zaehldatum', 'bestelldatum', 'lieferscheindatum', 'rechnungsdatum', 'erstelltam', 'verkaufsdatum', 'belegdatum', 'buchungsdatum', 'inventurdatum', 'datevente', 'datedevente', 'fecha', 'fechaventa', 'verkoopdatum', 'datavendita'],
  quantity: ['quantity', 'qty', 'units', 'unitssold', 'sold', 'qtysold', 'count', 'menge', 'anzahl', 'stuck', 'stuckzahl', 'quantite', 'qte', 'cantidad', 'unidades', 'aantal', 'hoeveelheid', 'quantita', 'qta'],
  stock_level: ['stocklevel', 'stock', 'onhand', 'counted', 'count', 'qty', 'quantity', 'level', 'bestand', 'lagerbestand', 'gezahlt', 'istbestand', 'zahlmenge', 'zaehlmenge', 'gezahltemenge', 'bestandsmenge', 'inventaire', 'existencias', 'inventario', 'voorraad', 'geteld', 'giacenza'],
  expected_date: ['expecteddate', 'deliverydate', 'duedate', 'eta', 'arrivaldate', 'date', 'liefertermin', 'lieferdatum', 'datelivraison', 'datedelivraison', 'fechaentrega', 'leverdatum', 'dataconsegna', 'datum'],
  status: ['status', 'state', 'deliverystatus', 'statut', 'etat', 'estado', 'stato'],
};

/**
 * Fields a column answers to by its whole name only, never by a word of it: "Unit cost" and "Unit
 * price" are money, not a product's unit; "Supplier SKU" and "Vendor code" are codes, not a supplier.
 */
const WHOLE_NAMES_ONLY = new Set(['unit', 'supplier', 'made_here', NOT_STOCKED_KEY]);

/**
 * Names a column starts with before a location's name (Square's library: "Current Quantity Galway
 * Shop", one column per location): the column answers to the name as a whole name. Of several
 * locations' columns, the first.
 */
const LOCATION_PREFIXES = ['currentquantity'];

/**
 * Words that make a column a level to keep, not a count or a quantity: "Minimum stock", "Safety
 * stock", "Reorder qty", "Max stock", Square's "Stock Alert Count" (and its Y/N "Stock Alert Enabled"). Such a column is never taken by its last or first word (the
 * current stock, a sale's quantity); a whole name (a field's own synonym, "Min. order qty") still is.
 */
const LEVEL_WORDS = new Set(['min', 'minimum', 'max', 'maximum', 'safety', 'reorder', 'target', 'par', 'ideal', 'alert', 'mindest', 'meldebestand', 'sicherheitsbestand']);

/**
 * A JSON record's paths naming an id (`product_id`, `line_items.0.variant_id`) whose values are
 * numbers: a shop's own row ids (Shopify's line item product_id), not the code its products are
 * known by. A file's cells are text, so none of its columns is one.
 */
export function numericIdPaths(header: string[], values: unknown[]): Set<string> {
  return new Set(
    header.filter((path) => {
      if (!normalise(path.slice(path.lastIndexOf('.') + 1)).endsWith('id')) return false;
      const read = values.map((value) => readMappedPath(value, path)).filter((value) => value !== undefined && value !== null);
      return read.length > 0 && read.every((value) => typeof value === 'number');
    }),
  );
}

/**
 * The header's column proposed for each target, by name. `defaults` (the entity's default field
 * mappings, Settings → Import entities): a target's column there is proposed first when the file
 * has it, by its whole name (ignoring case and spacing, as every name here) — what this shop's files
 * call it, set by an administrator, outranks what shops in general call it. `numericIds`
 * (numericIdPaths): taken for a product only where no other column answers to it: a line item's
 * `sku` beside its numeric `product_id` is the product.
 */
export function proposeMapping(targets: ImportTarget[], header: string[], numericIds: ReadonlySet<string> = new Set(), defaults: Readonly<Record<string, string>> = {}): Record<string, string | null> {
  const used = new Set<string>();
  const proposed: Record<string, string | null> = {};
  for (const target of targets) {
    const named = defaults[target.field];
    const column = named === undefined ? undefined : header.find((candidate) => !used.has(candidate) && normalise(candidate) === normalise(named));
    if (column !== undefined) used.add(column);
    proposed[target.field] = column ?? null;
  }
  const byName = new Map<string, string>();
  for (const column of header) if (!byName.has(normalise(column))) byName.set(normalise(column), column);
  for (const prefix of LOCATION_PREFIXES) {
    const column = header.find((candidate) => normalise(candidate).startsWith(prefix) && normalise(candidate) !== prefix);
    if (column !== undefined && !byName.has(prefix)) byName.set(prefix, column);
  }
  // A JSON record's nested `item.sku` answers to `sku` too, after every whole name.
  for (const column of header) {
    const last = normalise(column.slice(column.lastIndexOf('.') + 1));
    if (column.includes('.') && last && !byName.has(last)) byName.set(last, column);
  }
  // A label that is also one of the field's synonyms is matched at the synonym's rank: a till's
  // `SKU` beside `Product` (the name) is the product, though "Product" is product_id's label.
  const candidates = (target: ImportTarget) => {
    const synonyms = SYNONYMS[target.field] ?? [];
    const label = synonyms.includes(normalise(target.label)) ? [] : [target.label];
    return [target.field, ...label, ...(target.reference ? [target.reference.key] : []), ...synonyms].map(normalise);
  };
  // After every whole name, a name's last or first word: web shops qualify theirs (Shopify's
  // "Lineitem sku", "Lineitem quantity"; Amazon's "quantity-purchased", "purchase-date"). Last
  // words first: the noun ends an English name, so "Product type" is a type, not a product code.
  const byWord = (name: string, at: number) =>
    header.find((column) => !used.has(column) && nameWords(column)[at] === name && !allWords(column).some((word) => LEVEL_WORDS.has(word)));
  const free = (target: ImportTarget, column: string | undefined, round: number): column is string =>
    column !== undefined && !used.has(column) && (round === 3 || !target.reference || !numericIds.has(column)) && (round !== 2 || !WHOLE_NAMES_ONLY.has(target.field));
  // Exact names first (a `quantity` column goes to quantity even if stock_level would take it as a synonym).
  for (const round of [0, 1, 2, ...(numericIds.size ? [3] : [])]) {
    for (const target of targets) {
      if (proposed[target.field]) continue;
      const names = round === 0 ? candidates(target).slice(0, 2) : candidates(target);
      const match =
        round === 2 ? [0, 1].flatMap((at) => names.map((name) => byWord(name, at))).find((column) => free(target, column, round)) : names.map((name) => byName.get(name)).find((column) => free(target, column, round));
      if (match) used.add(match);
      proposed[target.field] = match ?? null;
    }
  }
  return proposed;
}

/** A taxonomy's path ("Apparel & Accessories > Clothing"): a standard classification, not the shop's own grouping. */
const isTaxonomyPath = (value: string) => /\S\s*>\s*\S/.test(value);

/**
 * How a column's values group the records read: 2 where they separate them (more than one
 * distinct value) in the shop's own words, 1 where they separate them as a taxonomy's paths, 0
 * where one value (or none) stands on every line — it tells no product from another.
 */
function groupingScore(values: readonly unknown[]): number {
  const distinct = new Set(values.flatMap((value) => (isBlank(value) ? [] : [String(value).trim()])));
  if (distinct.size < 2) return 0;
  return [...distinct].every(isTaxonomyPath) ? 1 : 2;
}

/**
 * The category proposed by its name, reconsidered by its values (ADR 0195 F6): where another free
 * column answers to a category's names too and groups the records read better (groupingScore), it
 * is proposed instead — Shopify's own Type (Shirts, Knitwear) over its Product Category, the same
 * "Apparel & Accessories > Clothing" on every product. A tie keeps the name's rank; a category an
 * administrator named as the entity's default column (and the file has) is kept.
 */
export function categoryByValues(targets: ImportTarget[], header: string[], proposed: Record<string, string | null>, valuesOf: (column: string) => readonly unknown[], numericIds: ReadonlySet<string>, defaults: Readonly<Record<string, string>> = {}): Record<string, string | null> {
  const target = targets.find((t) => t.field === 'category' && !t.reference);
  const current = proposed.category;
  if (!target || !current || (defaults.category !== undefined && normalise(defaults.category) === normalise(current))) return proposed;
  let best = { column: current, score: groupingScore(valuesOf(current)) };
  const taken = new Set(Object.values(proposed));
  const tried = new Set([current]);
  // The other columns answering to a category's names, in the proposal's own order of names.
  for (;;) {
    if (best.score === 2) break;
    const next = proposeMapping([target], header.filter((column) => !taken.has(column) && !tried.has(column)), numericIds).category;
    if (!next) break;
    tried.add(next);
    const score = groupingScore(valuesOf(next));
    if (score > best.score) best = { column: next, score };
  }
  return best.column === current ? proposed : { ...proposed, category: best.column };
}

/**
 * Names of a products file's column saying each product's kind: Odoo's Product Type, QuickBooks'
 * Type, Odoo 17's Detailed Type, in the languages the import reads (ADR 0200).
 */
const KIND_COLUMNS = ['producttype', 'type', 'itemtype', 'detailedtype', 'kind', 'productkind', 'typeofproduct', 'typeofitem',
  'produkttyp', 'produktart', 'artikeltyp', 'artikelart', 'typ', 'typedeproduit', 'typeproduit', 'typedarticle', 'tipodeproducto', 'tipoproducto', 'tipodearticulo', 'tipo',
  'productsoort', 'soortproduct', 'tipodiprodotto', 'tipoprodotto'];

/**
 * The column proposed for not_stocked by its values (ADR 0200): a column named as a product's kind
 * (KIND_COLUMNS, whole name) whose values read are all kinds (Storable Product, Service: never a
 * shop's own category, Shirts). A name alone never proposes it: Shopify's Type is the shop's own
 * grouping. Proposed over the category that had it — the category is proposed again from the other
 * columns — yet after it: Odoo's Product Category stays the category (ADR 0198 F1).
 */
export function notStockedByValues(targets: ImportTarget[], header: string[], proposed: Record<string, string | null>, valuesOf: (column: string) => readonly unknown[], numericIds: ReadonlySet<string>): Record<string, string | null> {
  if (!targets.some((t) => t.field === NOT_STOCKED_KEY && !t.reference) || proposed[NOT_STOCKED_KEY]) return proposed;
  const taken = new Set(Object.entries(proposed).flatMap(([field, column]) => (column && field !== 'category' ? [column] : [])));
  const ofKinds = (column: string) => {
    const values = valuesOf(column).filter((value) => !isBlank(value));
    return values.length > 0 && values.every((value) => notStockedOfKind(value) !== undefined);
  };
  const column = KIND_COLUMNS.flatMap((name) => header.filter((candidate) => normalise(candidate) === name && !taken.has(candidate))).find(ofKinds);
  if (!column) return proposed;
  const category = targets.find((t) => t.field === 'category' && !t.reference);
  const next = { ...proposed, [NOT_STOCKED_KEY]: column };
  if (!category || proposed.category !== column) return next;
  return { ...next, category: proposeMapping([category], header.filter((candidate) => !taken.has(candidate) && candidate !== column), numericIds).category ?? null };
}

/** A till's item column (Square's Item, its catalogue's Item Name) and its variation's (Price Point Name, Variation Name). */
const ITEM_COLUMNS = ['item', 'itemname'];
const VARIATION_COLUMNS = ['pricepointname', 'pricepoint', 'variationname', 'variation', 'variantname', 'variant'];

/**
 * The fill-down proposed for a file whose later lines of a group leave the name blank (Shopify's
 * Products export: Title on a product's first variant line only): the grouping column, and the
 * name joined with the variant's option values ("Linen Shirt M Blue") where the file has them.
 */
function proposedFillDown(target: WriteTarget, targets: readonly ImportTarget[], fieldMappings: Record<string, string>, header: string[], lines: readonly ((column: string) => unknown)[]): { by: string; joined: Record<string, string[]> | null } | null {
  const named = targets.filter((t) => (t.required || t.needed_for_new_rows) && !t.reference && !target.keyColumns.includes(t.field) && (t.type === 'CharField' || t.type === 'TextField') && fieldMappings[t.field] !== undefined);
  const by = proposeFillDown(header, named.map((t) => fieldMappings[t.field] as string), lines);
  if (!by) return null;
  const name = named.find((t) => t.field === 'name') ?? named[0];
  const options = optionValueColumns(header, MAX_JOINED_COLUMNS);
  return { by, joined: name && options.length ? { [name.field]: options } : null };
}

/** The file's item column and its variation column (Square's Item and Price Point Name), where it has them. */
function itemAndVariation(header: string[]): { item: string | undefined; variation: string | undefined } {
  const named = (names: string[]) => names.map((name) => header.find((column) => normalise(column) === name)).find((column) => column !== undefined);
  return { item: named(ITEM_COLUMNS), variation: named(VARIATION_COLUMNS) };
}

/**
 * The line's name joined with its variation where it is read from the item column beside one
 * (ADR 0201 F6): a gift shop's sales line without a SKU is "Greeting Card" + "Regular", the name its
 * library gave the product ("Greeting Card Regular", proposeJoinedCode's name). Not where the
 * variation is read by a field already (a café's code, Item + Price Point Name).
 */
function proposeJoinedLineName(header: string[], lineNameColumn: string | null, fieldMappings: Record<string, string>): Record<string, string[]> | null {
  const { item, variation } = itemAndVariation(header);
  if (!item || !variation || lineNameColumn !== item || Object.values(fieldMappings).includes(variation)) return null;
  return { [newProductSource('name')]: [variation] };
}

/** Square's name for the one variation of an item without options, and its exports' variation columns (ADR 0201 F8). */
const SQUARE_NO_OPTIONS = 'Regular';
const SQUARE_VARIATION_COLUMNS = ['pricepointname', 'variationname'];

/**
 * "Regular" left out of a name joined with Square's variation column (ADR 0201 F8): the library's
 * Item Name + Variation Name and a sales line's Item + Price Point Name both read "Advent Calendar",
 * as Square's screens do, and the line still meets its product. Only where the code is not the
 * joined text: a café's code Item + Price Point Name keeps "Flat White Regular" beside "Flat White
 * Large" (ADR 0193), a size of its own, and its name with it.
 */
function proposeLeaveOut(joined: Record<string, string[]> | null, codeField: string | null): Record<string, string[]> | null {
  if (!joined || (codeField !== null && codeField in joined)) return null;
  const keys = Object.entries(joined).filter(([, parts]) => parts.some((part) => SQUARE_VARIATION_COLUMNS.includes(normalise(part))));
  return keys.length ? Object.fromEntries(keys.map(([key]) => [key, [SQUARE_NO_OPTIONS]])) : null;
}

/**
 * A product known by its item and variation (ADR 0193): where the column proposed for the product
 * code is blank on most of the lines read, or none is, and the file has an item column beside a
 * variation column (Square: Item and Price Point Name, its library: Item Name and Variation Name),
 * the code is proposed as the item joined with the variation ("Flat White Large"), and so is the
 * name where the item was proposed for it. A café sets no SKUs: its lines would all be skipped.
 * Where the SKUs are mostly filled, the code keeps them, but a name from the item column is still
 * joined with the variation: a gift shop's "Sea Salt Soy Candle" Small and Large are two products
 * (ADR 0201). Answers the field mappings and joined columns proposed, or null to keep the proposal.
 */
export function proposeJoinedCode(
  codeField: string | null,
  header: string[],
  proposed: Record<string, string | null>,
  valueOf: (record: RawRecord, column: string) => unknown,
  records: readonly RawRecord[],
): { proposed: Record<string, string | null>; joined: Record<string, string[]> } | null {
  if (!codeField || !records.length) return null;
  const { item, variation } = itemAndVariation(header);
  if (!item || !variation) return null;
  const codeColumn = proposed[codeField];
  const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  // A shop whose SKUs are mostly filled keeps them as codes; its item's name still needs the variation (ADR 0201).
  const keepsCode = codeColumn !== null && codeColumn !== undefined && codeColumn !== item && records.filter((record) => blank(valueOf(record, codeColumn))).length * 2 <= records.length;
  if (keepsCode && proposed.name !== item) return null;
  const next: Record<string, string | null> = keepsCode ? { ...proposed } : { ...proposed, [codeField]: item };
  const joined: Record<string, string[]> = keepsCode ? {} : { [codeField]: [variation] };
  if (proposed.name === item) joined.name = [variation];
  // The variation's column reads as part of the joined fields now, not as another field.
  for (const [field, column] of Object.entries(next)) if (column === variation) next[field] = null;
  return { proposed: next, joined };
}

/**
 * The lines without a code known by their name as blank_code_by_name would read them (a products
 * file's `name`; a line's `lineNameColumn` matched to the stored products), or null where the
 * mapping reads no such name (offered nothing).
 */
async function offeredCodeByName(db: Kysely<Database>, target: WriteTarget, fieldMappings: Record<string, string>, lineNameColumn: string | null): Promise<CodeByName | null> {
  const fillsName = 'name' in fieldMappings;
  try {
    return await readCodeByName(db, { field_mappings: fieldMappings, blank_code_by_name: true, ...(lineNameColumn && !fillsName ? { new_products: { name: lineNameColumn } } : {}) }, { table: target.encodedName, key: target.keyColumns }, [...target.references.values()]);
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/** Names shown of the lines without a product code at most. */
const BLANK_CODE_NAMES = 3;

/**
 * The first few distinct names (`nameOf`, blank left out) of the lines (those the row filters keep)
 * whose mapped code field is blank: a web shop's "Gift Card - £25", or a "Chunky Cable Cardigan - M" sold without a SKU (ADR 0195).
 */
function blankCodeNames<Line extends { fields: Record<string, unknown> }>(lines: readonly Line[], codeField: string | null, nameOf: (line: Line) => unknown): string[] {
  const names = new Set<string>();
  for (const line of codeField ? lines : []) {
    const { fields } = line;
    const name = nameOf(line);
    if (names.size < BLANK_CODE_NAMES && isBlank(fields[codeField as string]) && typeof name === 'string' && name.trim()) names.add(name.trim());
  }
  return [...names];
}

/**
 * Columns that say whether an order or a till's line stands: Shopify's Financial Status, a shop
 * system's order or payment status, a US till's line type (`Type`, `Trans Type`: SALE, RETURN, VOID).
 */
const STATUS_COLUMNS = ['financialstatus', 'orderstatus', 'paymentstatus', 'status', 'bestellstatus', 'zahlungsstatus', 'auftragsstatus', 'statut', 'statutcommande', 'estado', 'estadopedido', 'stato', 'type', 'transtype', 'transactiontype', 'linestatus', 'linetype', 'saletype'];
/**
 * Values of such a column that mean the sale did not happen, as value maps match them — an ERP's
 * quotation not (yet) confirmed among them (Odoo's Quotation, Quotation Sent: ADR 0198); a partial
 * refund is not one (the export does not say which line went back), nor a till's RETURN (its
 * negative quantity nets the sale it returns).
 */
const UNDONE_VALUES = new Set(['void', 'no sale', 'nosale', 'refunded', 'voided', 'cancelled', 'canceled', 'quotation', 'quotation sent', 'angebot', 'devis', 'presupuesto', 'offerte', 'preventivo', 'storniert', 'erstattet', 'ruckerstattet', 'rückerstattet', 'zuruckerstattet', 'zurückerstattet', 'annule', 'annulé', 'annulee', 'annulée', 'rembourse', 'remboursé', 'cancelado', 'reembolsado', 'geannuleerd', 'terugbetaald', 'annullato', 'rimborsato']);
/** Columns naming the order a line belongs to (Shopify's Name: #1001). */
const ORDER_COLUMNS = ['name', 'order', 'ordernumber', 'orderid', 'orderno', 'ordername', 'bestellnummer', 'bestellung', 'auftragsnummer', 'commande', 'numerocommande', 'pedido', 'numeropedido', 'ordine'];

/**
 * The row filter a file's own words suggest: a status column not mapped to a field, holding values
 * that undo a sale (refunded, voided, cancelled, storniert), those values left out; when some of
 * its lines are blank and the file names each line's order, blank cells read their order's value.
 */
export function proposeRowFilters(header: string[], columnValues: Record<string, { value: string; lines: number }[]>, mappedColumns: readonly string[], recordCount: number, groupColumn: string | null = null): RowFilter[] {
  return [...undoneSalesFilter(header, columnValues, mappedColumns, recordCount), ...notStockFilter(header, columnValues, mappedColumns, recordCount, groupColumn)];
}

/** Columns saying a line is no stock item but a gift card (Shopify's products export: Gift Card TRUE). */
const NOT_STOCK_COLUMNS = ['giftcard', 'isgiftcard', 'variantgiftcard', 'gutschein', 'istgutschein'];
/** Values of such a column that say yes, as value maps match them. */
const YES_VALUES = new Set(['true', 'yes', '1', 'y', 'wahr', 'ja', 'oui', 'vrai', 'si', 'sí']);

/**
 * The row filter leaving out what is not stock (ADR 0195 F4): a gift card column not mapped to a
 * field, holding a yes on some lines, those values left out. A gift card has no stock, is never
 * reordered and is named no product a sale can match; with blank cells (Shopify writes it on a
 * product's first line only) they read the line above of the same group (the fill_down_by column).
 */
function notStockFilter(header: string[], columnValues: Record<string, { value: string; lines: number }[]>, mappedColumns: readonly string[], recordCount: number, groupColumn: string | null): RowFilter[] {
  const column = header.find((name) => NOT_STOCK_COLUMNS.includes(normalise(name)) && !mappedColumns.includes(name));
  const seen = column ? (columnValues[column] ?? []) : [];
  const values = seen.filter((entry) => YES_VALUES.has(valueMapForm(entry.value))).map((entry) => entry.value);
  if (!column || !values.length) return [];
  const hasBlanks = seen.reduce((sum, entry) => sum + entry.lines, 0) < recordCount;
  return [{ column, values, ...(hasBlanks && groupColumn && groupColumn !== column ? { blank_means_same_as: groupColumn } : {}) }];
}

function undoneSalesFilter(header: string[], columnValues: Record<string, { value: string; lines: number }[]>, mappedColumns: readonly string[], recordCount: number): RowFilter[] {
  const undone = (column: string) => (columnValues[column] ?? []).filter((entry) => UNDONE_VALUES.has(valueMapForm(entry.value))).map((entry) => entry.value);
  // The first status column holding such values: a file's `Status` of paid orders beside a till's `Type` of VOID lines.
  // A feed's order lines carry their order's status as `order.financial_status`: named by its last part too.
  const named = (column: string, name: string) => normalise(column) === name || normalise(column.slice(column.lastIndexOf('.') + 1)) === name;
  const statusColumn = STATUS_COLUMNS.flatMap((name) => header.filter((column) => named(column, name) && !mappedColumns.includes(column))).find((column) => undone(column).length > 0);
  if (!statusColumn) return [];
  const seen = columnValues[statusColumn] ?? [];
  const values = undone(statusColumn);
  const hasBlanks = seen.reduce((sum, entry) => sum + entry.lines, 0) < recordCount;
  const orderColumn = hasBlanks ? ORDER_COLUMNS.map((name) => header.find((column) => normalise(column) === name && column !== statusColumn)).find((column) => column !== undefined) : undefined;
  return [{ column: statusColumn, values, ...(orderColumn ? { blank_means_same_as: orderColumn } : {}) }];
}

/** The words of a column's name (`Lineitem sku`, `purchaseDate`, `safety_stock`), normalised. */
const allWords = (column: string): string[] =>
  column
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.#/()'’:]+/)
    .map(normalise)
    .filter(Boolean);

/** The first and last words of a column's name (`Lineitem sku` → lineitem, sku; `purchaseDate` → purchase, date), normalised. */
function nameWords(column: string): string[] {
  const words = allWords(column);
  return words.length > 1 ? [words.at(-1) as string, words[0] as string] : [];
}

/** A column's first word, when its name has several (`Lineitem sku` → lineitem), normalised. */
const firstWord = (column: string) => nameWords(column)[1] ?? null;

/**
 * The file's columns proposed for the fields of new products (`name`, `category`), by the names
 * proposeMapping knows for the products' own fields, among the columns the entity's mapping leaves
 * free. Columns sharing the code column's first word come first: a Shopify orders export's
 * "Lineitem name" names the line's product, its "Name" the order.
 */
export function proposeNewProducts(reference: KeyReference, header: string[], fieldMappings: Record<string, string>): Record<string, string | null> {
  const targets: ImportTarget[] = reference.columns
    .filter((c) => isNameable(c, reference.keyColumn))
    .map((c) => ({ field: c.key, label: c.label ?? c.key, type: c.type, required: false }));
  const used = new Set(Object.values(fieldMappings));
  const free = header.filter((column) => !used.has(column));
  const codeWord = firstWord(fieldMappings[reference.column] ?? '');
  const siblings = codeWord ? free.filter((column) => firstWord(column) === codeWord) : [];
  const fromSiblings = proposeMapping(targets, siblings);
  const taken = new Set(Object.values(fromSiblings));
  const fromAll = proposeMapping(
    targets.filter((t) => !fromSiblings[t.field]),
    free.filter((column) => !taken.has(column)),
  );
  return Object.fromEntries(targets.map((t) => [t.field, fromSiblings[t.field] ?? fromAll[t.field] ?? null]));
}

/** The dotted paths to the leaf values of JSON records, in the order first seen. */
export function leafPaths(values: unknown[]): string[] {
  const paths: string[] = [];
  const seen = new Set<string>();
  const walk = (value: unknown, prefix: string, depth: number) => {
    if (paths.length >= MAX_JSON_KEYS) return;
    if (value !== null && typeof value === 'object' && depth < 8) {
      for (const [key, inner] of Object.entries(value as Record<string, unknown>)) walk(inner, prefix ? `${prefix}.${key}` : key, depth + 1);
      return;
    }
    if (prefix && !seen.has(prefix)) {
      seen.add(prefix);
      paths.push(prefix);
    }
  };
  for (const value of values) walk(value, '', 0);
  return paths;
}

type SourceValue = string | number | boolean | null;
export const asSourceValue = (value: unknown): SourceValue => {
  if (value === undefined || value === null) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
};

/**
 * The entity's fields for the mapping builder. Where the key is one text column (products' code), a
 * column new rows need is required only to add them: a mapping without it updates stored rows.
 */
/** A field of a shown line as the import reads it, a date refused for its range as read, else as found (a date that does not read at all). */
const shownValue = (typed: TypedRecord, field: string, found: unknown): unknown => (field in typed.values ? typed.values[field] : (typed.readDates?.[field] ?? found));

function describeTargets(target: WriteTarget): ImportTarget[] {
  const updatable = ownTextKey(target) !== null;
  return target.columns
    .filter((c) => !isReadOnly(c.type))
    .map((c) => {
      const reference = target.references.get(c.key);
      const isKey = target.keyColumns.includes(c.key);
      const neededForNew = target.blankIsMissing.has(c.key) && !isKey;
      return {
        field: c.key,
        label: c.label ?? c.key,
        type: c.type,
        required: isKey || (neededForNew && !updatable),
        ...(neededForNew && updatable ? { needed_for_new_rows: true as const } : {}),
        ...(reference?.by === 'key' ? { reference: { table: reference.table, key: reference.keyColumn } } : {}),
        ...(c.type === 'DecimalField' ? { decimal_places: c.decimal_places ?? DEFAULT_DECIMAL_PLACES } : {}),
      };
    });
}

/**
 * Which of `codes` (in the order the records first have them) the table of `lookup` lacks — neither
 * the code, nor one code differing only in case, nor one the code is without its leading zeros, is
 * stored (as the import matches them) — each with
 * what it may mean (unknownCodeReason): the stored codes differing from it only in case and
 * punctuation; with `firstRows` (create_missing_products: each code's first row), the new code of an
 * earlier row that does (takeOutNewLooseTwins). Null: no such code (created with create_missing_products).
 */
async function missingCodes(db: Kysely<Database>, lookup: CodeLookup | undefined, codes: string[], firstRows: Map<string, number> | null = null): Promise<Map<string, MeantCode>> {
  if (!lookup || lookup.by !== 'key' || !codes.length) return new Map();
  const table = sql.id('data', lookup.encodedName);
  const key = sql.ref(lookup.keyColumn);
  const { rows } = await sql<{ code: string; suggestions: string[] | null; loose: string }>`
    select c.code, ${storedLooseTwins(sql`${table}`, sql`${key}`, sql`c.code`)} as suggestions, ${looseCode(sql`c.code`)} as loose
    from unnest(${codes}::text[]) with ordinality c(code, n)
    where not exists (select 1 from ${table} where ${key}::text = c.code)
      and (select count(*) from ${table} where lower(${key}::text) = lower(c.code)) <> 1
      and not (c.code ~ '^[0-9]+$' and exists (select 1 from (${codesWithLeadingZeros(table, key)}) z where z.digits = ltrim(c.code, '0') and length(z.code) > length(c.code)))
    order by c.n`.execute(db);
  const firstOfLoose = new Map<string, string>();
  return new Map(
    rows.map(({ code, suggestions, loose }): [string, MeantCode] => {
      if (suggestions || !firstRows) return [code, suggestions];
      const first = firstOfLoose.get(loose);
      if (first === undefined) firstOfLoose.set(loose, code);
      return [code, first === undefined ? null : { code: first, row: firstRows.get(first) ?? 0 }];
    }),
  );
}

/**
 * The one day the title lines above a file's header name, read unambiguously: `Inventur
 * 30.11.2026` (dotted: day first, as everywhere dots are written), `2026-11-30`, `30/11/2026` (a
 * part above 12 tells the order). Null when they name none, two different days ("01.11.2026 –
 * 30.11.2026"), or one that could be either (`03/04/2026`) or is no calendar day.
 */
export function dayOfTitleLines(texts: readonly string[]): string | null {
  const days = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)|(?<!\d)(\d{1,2})([./])(\d{1,2})\5(\d{4})(?!\d)/g)) {
      const [, isoYear, isoMonth, isoDay, first = '', mark, second = '', year = ''] = match;
      let parts: [string, string, string];
      if (isoYear && isoMonth && isoDay) parts = [isoYear, isoMonth, isoDay];
      else if (mark === '.' || (Number(first) > 12 && Number(second) <= 12)) parts = [year, second, first];
      else if (Number(second) > 12 && Number(first) <= 12) parts = [year, first, second];
      else return null;
      const day = `${parts[0]}-${parts[1].padStart(2, '0')}-${parts[2].padStart(2, '0')}`;
      if (isoDayProblem(day)) return null;
      days.add(day);
    }
  }
  return days.size === 1 ? ([...days][0] ?? null) : null;
}

export type PreviewedRecords = Pick<PreviewFileResponse, 'proposed_field_values' | 'proposed_value_maps' | 'targets' | 'proposed_mapping' | 'proposed_joined_columns' | 'proposed_joined_leave_out' | 'proposed_code_in_brackets' | 'counted_by_location' | 'date_format' | 'decimal_separator' | 'rows' | 'refused_choices' | 'new_products' | 'new_product_count' | 'proposed_new_products' | 'column_values' | 'proposed_row_filters' | 'blank_code_lines' | 'blank_code_names' | 'empty_lines' | 'blank_code_matched' | 'proposed_blank_code_by_name' | 'proposed_skip_rows_without_code' | 'replaces_sales' | 'units_as_written'>;

/**
 * The records of a source (a file's head, an endpoint's first page) as the mapping builder shows
 * them: the entity's targets, a mapping proposed from `header`'s names, the date format and decimal
 * separator detected, and the first records mapped by `given` (else by the proposal), typed as the
 * import would store them, with their problems.
 */
export async function previewRecords(
  db: Kysely<Database>,
  config: ProductConfig,
  {
    entityType,
    given,
    dateFormat,
    header,
    records,
    offerRowFilters = false,
    today,
    unknownCodeWayOut = fileImportWayOut,
    titleDay = null,
    undecidedDates = 'dd/mm/yyyy',
    undecidedSaidBy = 'browser',
    partialRead = false,
    importedAs = null,
  }: {
    entityType: string;
    given: EntityMapping | null;
    dateFormat?: DateFormat | undefined;
    header: string[];
    records: RawRecord[];
    offerRowFilters?: boolean;
    today: string;
    /** How an unknown product code's problem names the way out (as the import's refusal does; Try the endpoint: savedMappingWayOut). */
    unknownCodeWayOut?: string;
    /** The day the file's title lines name (dayOfTitleLines): the proposal's one date for all lines where no column holds dates. */
    titleDay?: string | null;
    /** How the shop writes a slashed date no date of the file decides (the person's choice, else undecidedDateOrder). */
    undecidedDates?: 'dd/mm/yyyy' | 'mm/dd/yyyy';
    /** Whose order that is, for the preview's sentence: the person's own choice or their browser's. */
    undecidedSaidBy?: 'choice' | 'browser';
    /** The records are the file's first lines only (its head, or the first DETECTION_RECORDS): a later date may yet decide the order. */
    partialRead?: boolean;
    /** The mapping name a file's import would be under (its sales writer): sales it imported before on the records' days are named (replaces_sales). */
    importedAs?: { mappingName: string | null } | null;
  },
): Promise<PreviewedRecords> {
  const provisional = await resolveWriteTarget(db, config, entityType, { field_mappings: {} }, { complete: false });
  const targets = describeTargets(provisional);
  const defaults = config.inventory.entities.find((entity) => entity.name === entityType)?.field_mappings;
  const numericIds = numericIdPaths(header, records.flatMap((record) => (record.cells ? [] : [record.value])));
  const valueOf = (record: RawRecord, column: string) => (record.cells ? record.cells[header.indexOf(column)] : readMappedPath(record.value, column));
  const valuesOf = (column: string) => records.map((record) => valueOf(record, column));
  const byName = categoryByValues(targets, header, notStockedByValues(targets, header, proposeMapping(targets, header, numericIds, defaults), valuesOf, numericIds), valuesOf, numericIds, defaults);
  const joinedCode = given ? null : proposeJoinedCode(codeColumnOf(provisional), header, byName, valueOf, records);
  const proposed = joinedCode?.proposed ?? byName;
  const fieldMappings = given?.field_mappings ?? Object.fromEntries(Object.entries(proposed).filter((entry): entry is [string, string] => entry[1] !== null));
  // A stock count's day in its title ("Inventur 30.11.2026;;") and no date column: proposed as the
  // date of every line (field_values, as "Same date for all lines" sets it), never a future day.
  const undated = !given && titleDay !== null && titleDay <= today ? targets.find((t) => t.required && (t.type === 'DateField' || t.type === 'DateTimeField') && !proposed[t.field]) : undefined;
  const proposedValues = undated && titleDay ? { [undated.field]: titleDay } : null;
  // A kind column for not_stocked (Odoo's Product Type): its words said as yes or no in a value map the user sees and may change (ADR 0200's amendment).
  const kindColumn = given ? null : proposed[NOT_STOCKED_KEY];
  const kindMap = kindColumn ? proposedKindMap(valuesOf(kindColumn)) : null;
  const proposedMaps = kindMap ? { [NOT_STOCKED_KEY]: kindMap } : null;
  // A product's later variant lines with a blank name (Shopify's Title on the first only): filled down by its Handle, named by its options too (ADR 0195 F3).
  // Detected for a given mapping too: the screen offers it again after it was turned off.
  const columnAt = new Map(header.map((column, at) => [column, at]));
  const detectedFillDown = proposedFillDown(provisional, targets, fieldMappings, header, records.map((record) => (column: string) => (record.cells ? record.cells[columnAt.get(column) ?? -1] : readMappedPath(record.value, column))));
  const fillDown = given ? null : detectedFillDown;
  // An ERP's "[FURN_7800] Desk Combination": the code in its brackets (ADR 0198); detected for a given mapping too, for the screen to offer it again.
  const codeSource = codeColumnOf(provisional) === null ? undefined : fieldMappings[codeColumnOf(provisional) as string];
  const detectedBrackets = codeSource !== undefined && mostlyBracketedCodes(records.map((record) => valueOf(record, codeSource)));
  const readsBrackets = given ? given.code_in_brackets === true : detectedBrackets;
  // The column a line's name is read from, for new products and for matching a line without a code by its name (ADR 0195 F4).
  const codeReference = [...provisional.references.values()].find((r) => r.by === 'key');
  const otherColumns = codeReference ? proposeNewProducts(codeReference, header, fieldMappings) : null;
  // Read in brackets, the code's own cell names the product — "[FURN_7800] Desk Combination", or the name alone for a product
  // without a code (ADR 0198 F10) —: a new product's name and a line's name come from it, not from a line's free text (Odoo's Description).
  const newProductColumns = otherColumns && readsBrackets && typeof codeSource === 'string' ? { ...otherColumns, name: codeSource } : otherColumns;
  const nameColumn = newProductColumns ? newProductColumns.name : fieldMappings.name;
  const lineNameColumn = given?.new_products?.['name'] ?? newProductColumns?.name ?? null;
  // Where the mapping reads no line name (the proposal; a given mapping, for the screen to offer matching again), it is read joined as proposed (ADR 0201 F6).
  const lineNameJoined = given?.new_products?.['name'] ? null : proposeJoinedLineName(header, lineNameColumn, fieldMappings);
  const proposedJoined = joinedCode || fillDown?.joined || (lineNameJoined && !given) ? { ...joinedCode?.joined, ...fillDown?.joined, ...(given ? {} : lineNameJoined) } : null;
  // Detected for a given mapping's joins too: the screen offers leaving "Regular" out again after it was turned off.
  const proposedLeaveOut = proposeLeaveOut(given ? { ...given.joined_columns, ...lineNameJoined } : proposedJoined, codeColumnOf(provisional));
  const paths = given ? sourcePaths({ ...given, field_mappings: fieldMappings }) : sourcePaths({ field_mappings: fieldMappings, ...(proposedJoined ? { joined_columns: proposedJoined } : {}) });
  // The rows are read as the proposal (or the given mapping) says, by the mappers the import uses.
  const reading = mapperReading(provisional, given ?? { fill_down_by: fillDown?.by, code_in_brackets: readsBrackets, ...(proposedLeaveOut ? { joined_leave_out: proposedLeaveOut } : {}) });
  const { fill } = reading;
  if (fill && records.some((record) => record.cells) && !header.includes(fill.by)) throw new FileFormatError(`The file has no column '${fill.by}' that blank cells are filled down by (fill_down_by). Check the mapping or the sheet.`);
  // A JSON file or an endpoint's page: a path no record read has fills nothing, as a missing column would.
  const jsonValues = records.flatMap((record) => (record.cells ? [] : [record.value]));
  if (fill && noRecordHas(fill.by, jsonValues)) throw validationError(absentFillDownMessage(fill.by, 'No record read', jsonValues));
  // Only where the screen shows row filters (the Import screen, Try the endpoint): a filter proposed is one the user sees.
  const columnValues = offerRowFilters ? valuesOfColumns(header, records) : {};
  const proposedFilters = offerRowFilters ? proposeRowFilters(header, columnValues, Object.values(fieldMappings), records.length, fillDown?.by ?? null) : [];
  // The proposal's rows are read with the filters proposed (the draft the screen starts from); a given mapping's with its own.
  const filters = given ? (given.skip_rows_where ?? []) : proposedFilters;
  const mapCells = csvMapper(header, paths, reading);
  const mapRecord = recordMapper(paths, reading);
  // A line's name where the mapping reads none, by the same mappers: as the draft that turns matching on reads it.
  const lineNamePaths = lineNameColumn ? sourcePaths({ field_mappings: {}, new_products: { name: lineNameColumn }, ...(lineNameJoined ? { joined_columns: lineNameJoined } : {}) }) : null;
  // Read as proposed, "Regular" left out (ADR 0201 F8), a given mapping's too: the matching it offers again reads the line so.
  const lineNameLeaveOut = proposeLeaveOut(lineNameJoined, codeColumnOf(provisional));
  const lineNameReading = lineNameLeaveOut ? { ...reading, leftOut: { ...reading.leftOut, ...lineNameLeaveOut } } : reading;
  const lineNameOfCells = lineNamePaths ? csvMapper(header, lineNamePaths, lineNameReading) : null;
  const lineNameOfRecord = lineNamePaths ? recordMapper(lineNamePaths, lineNameReading) : null;
  const filterColumns = rowFilterColumns({ field_mappings: {}, skip_rows_where: filters });
  const filterCellsOf = (record: RawRecord) => (record.cells ? filterColumns.map((column) => record.cells?.[header.indexOf(column)]) : filterColumns.map((path) => readMappedPath(record.value, path)));
  const cellsEmpty = cellsWithNothingMapped(header, paths);
  const recordEmpty = recordWithNothingMapped(paths);
  const mapped = records.map((record) => ({
    row: record.row,
    fields: record.cells ? mapCells(record.cells) : mapRecord(record.value),
    lineName: (record.cells ? lineNameOfCells?.(record.cells) : lineNameOfRecord?.(record.value)) ?? null,
    filterCells: filterCellsOf(record),
    empty: record.cells ? cellsEmpty(record.cells) : recordEmpty(record.value),
  }));
  // Counted over the lines the row filters keep: a refunded order's gift wrap is left out by its status already.
  const keptByFilters = compileRowFilters({ field_mappings: {}, skip_rows_where: filters });
  const keptLines = records.flatMap((record, at) => {
    const line = mapped[at];
    return line && !keptByFilters?.leavesOut(line.filterCells) ? [{ record, fields: line.fields, lineName: line.lineName, empty: line.empty }] : [];
  });
  // A line with nothing mapped (Shopify's image-only line) is counted apart from one with data but no code (ADR 0195 F5).
  const withData = keptLines.filter((line) => !line.empty);
  // A stock count per location (Odoo's WH/Stock, WH/Stock/Shelf 2): a product's lines are added up, not the last kept (ADR 0198); detected for a given mapping too, for the screen to say why.
  const codeField = codeColumnOf(provisional);
  const countsParts = codeField !== null && provisional.references.get(codeField)?.by === 'key' && provisional.repeatedKeys === 'last';
  const locationColumn = countsParts ? countedByLocation(header, Object.values(paths).flat(), withData.map((line) => ({ code: line.fields[codeField], cell: (column: string) => valueOf(line.record, column) }))) : null;
  const blankCodes = blankCodeLines(provisional, { field_mappings: fieldMappings }, withData.map((line) => line.fields));
  const emptyLines = blankCodeLines(provisional, { field_mappings: fieldMappings }, keptLines.map((line) => line.fields)) ? keptLines.length - withData.length : 0;
  const proposesSkip = !given && blankCodes + emptyLines > 0;
  // Lines without a code known by their name (ADR 0195 F4): offered where a products file's such lines have a name, or a line's name reads as one stored product's.
  const withLineName = (line: { fields: Record<string, unknown>; lineName: Record<string, unknown> | null }) => (line.lineName && !(newProductSource('name') in line.fields) ? { ...line.fields, ...line.lineName } : line.fields);
  const offeredByName = blankCodes ? await offeredCodeByName(db, provisional, fieldMappings, lineNameColumn) : null;
  const offersByName = offeredByName !== null && withData.some((line) => withCodeByName(offeredByName, withLineName(line)).matched);
  const proposesByName = !given && offersByName;
  const decimalColumns = Object.keys(fieldMappings).filter((field) => provisional.typeOf(field) === 'DecimalField');
  // Every cell of a file tells how it writes numbers: a till's `Preis` 16,50 beside a `Menge` 1,000 the entity stores as whole units.
  // A price's currency sign (`€ 2,00`) hides nothing, nor a quantity's unit (`1,5 kg`): the import takes them off before reading the number (ADR 0178).
  const withoutSign = (value: unknown) => (typeof value === 'string' ? (withoutCurrencySign(value)?.number ?? splitQuantityUnit(value)?.number ?? value) : value);
  const detectedSeparator = detectDecimalSeparator(mapped.flatMap((record, at) => (records[at]?.cells ?? decimalColumns.map((field) => record.fields[field])).map(withoutSign)));
  // The proposal is read the way the file is written; a given mapping as it says.
  const usedSeparator = given ? (given.decimal_separator ?? '.') : (detectedSeparator ?? '.');
  const mapping: EntityMapping = {
    ...(given ?? {}),
    ...(proposedValues ? { field_values: proposedValues } : {}),
    ...(proposedMaps ? { value_maps: proposedMaps } : {}),
    ...(filters.length ? { skip_rows_where: filters } : {}),
    ...(proposesSkip ? { skip_rows_without_code: true } : {}),
    ...(proposesByName ? { blank_code_by_name: true, ...(offeredByName.products && lineNameColumn ? { new_products: { name: lineNameColumn } } : {}) } : {}),
    ...(proposedJoined ? { joined_columns: proposedJoined } : {}),
    ...(proposedLeaveOut && !given ? { joined_leave_out: proposedLeaveOut } : {}),
    ...(fillDown ? { fill_down_by: fillDown.by } : {}),
    ...(readsBrackets && !given ? { code_in_brackets: true } : {}),
    ...(locationColumn && !given ? { repeated_keys: 'sum' as const } : {}),
    field_mappings: fieldMappings,
    ...(dateFormat ? { date_format: dateFormat } : {}),
    // A detected decimal point is read as chosen: a deli's `1.250` kg beside its `0.6` is 1.25 (ADR 0176), as the import screen then sends it.
    ...(given ? {} : detectedSeparator ? { decimal_separator: detectedSeparator } : {}),
  };
  const target = await resolveWriteTarget(db, config, entityType, mapping, { complete: false, today });
  // Read as the writer reads them: a line without a code given its product by its name, or refused when its name reads as several products'.
  const namedProblems = new Map<number, string>();
  let blankMatched = 0;
  const mappedOf = new Map(records.map((record, at) => [record, mapped[at]]));
  if (target.codeByName) {
    const keptRecords = new Set(withData.map((line) => line.record));
    for (const [at, line] of mapped.entries()) {
      const record = records[at] as RawRecord;
      if (line.empty) continue;
      const named = withCodeByName(target.codeByName, withLineName(line));
      if (named.problem) namedProblems.set(line.row, named.problem);
      if (!named.matched) continue;
      line.fields = named.fields;
      if (keptRecords.has(record)) blankMatched += 1;
    }
  }

  // Detection over every record read, whatever format the mapping chose: the builder shows both.
  // The values outside a column's choices, and the quantities read in the unit their cells wrote,
  // are gathered over the same records, not only the rows shown.
  const detector = new DateOrderDetector(undecidedDates);
  const refusedChoices = new RefusedChoiceValues();
  const unitsAsWritten = new UnitsAsWritten();
  const typeForDetection = compileRecordTyper(target, { ...mapping, date_format: 'auto' }, detector, { unitsAsWritten });
  const skipsLine = blankCodeSkipper(target, mapping);
  const totalsWordOf = totalsLineReader(target, mapping);
  // With create_missing_products, which codes of the records read would become products, and named how.
  const creating = mapping.create_missing_products ? [...target.references.values()].find((r) => r.by === 'key' && target.mapped.includes(r.column)) : undefined;
  const coded: { code: string; values: Record<string, string | null> }[] = [];
  const firstRows = new Map<string, number>();
  // As the writer does, lines the row filters leave out are not read at all (a refunded order's code creates no product).
  const filtersForDetection = compileRowFilters(mapping);
  for (const record of mapped) {
    // Nor are a totals line and a line without a code (skip_rows_without_code): the writer skips them before reading their cells.
    if (filtersForDetection?.leavesOut(record.filterCells) || totalsWordOf?.(record.fields) || skipsLine?.(record.fields)) continue;
    const typed = typeForDetection(record.fields, record.row);
    refusedChoices.addAll(typed.refusedChoices);
    const code = creating && !typed.errors ? typed.values[creating.column] : undefined;
    if (typeof code !== 'string') continue;
    coded.push({ code, values: typed.values as Record<string, string | null> });
    if (!firstRows.has(code)) firstRows.set(code, record.row);
  }
  const missing = creating ? await missingCodes(db, creating, [...firstRows.keys()], firstRows) : new Map<string, MeantCode>();
  const newProducts = creating
    ? pickNewProducts(
        coded,
        // A code differing only in case and punctuation from a stored code (`GAR 1018`), or from a new code of an earlier row, is refused, not created; a totals line (`Summe`) is skipped.
        new Set([...missing].filter(([code, meant]) => meant === null && !isTotalsWord(code)).map(([code]) => code)),
        target.newProducts,
        creating.requiredTextColumns,
        MAX_LISTED_NEW_PRODUCTS,
      )
    : null;
  // What the lines without a code are, by the column a product's name comes from (ADR 0195): those still without one once named.
  // A line naming a product is named as its name is read (joined with its variation: "Greeting Card Regular", ADR 0201 F6); a products file's line by its name column.
  const nameOf = ({ record, fields, lineName }: (typeof withData)[number]) => (lineNameColumn ? withLineName({ fields, lineName })[newProductSource('name')] : nameColumn && (record.cells ? record.cells[header.indexOf(nameColumn)] : readMappedPath(record.value, nameColumn)));
  const blankNames = blankCodes && nameColumn ? blankCodeNames(withData.map((line) => ({ ...line, fields: mappedOf.get(line.record)?.fields ?? line.fields })), codeColumnOf(provisional), nameOf) : [];
  const refused = refusedChoices.list(target.columns);
  const chosen = mapping.date_format && mapping.date_format !== 'auto' ? mapping.date_format : null;
  const detected: DateFormat | null = chosen ?? detector.order ?? (detector.candidates.length === 1 ? (detector.candidates[0] ?? null) : null);
  const ambiguous = !chosen && detector.ambiguity !== null;
  // A year of till lines starts with October's first days: the head read holds no day past the 12th, the whole file does (QA8 F22).
  // Undecided in the head only is not a refusal: the import decides over the whole file, so the words go with the date format, not on each row as a problem (ADR 0193's amendment, F3).
  const undecidedInHead = ambiguous && partialRead && detector.firstAmbiguousText !== null;
  const ambiguityText = undecidedInHead
    ? `dates like ${detector.firstAmbiguousText} could be day-first (dd/mm/yyyy) or month-first (mm/dd/yyyy): every day in the ${records.length.toLocaleString('en')} lines read is 12 or less. The import reads the whole file and takes the order from its first day past the 12th; shown here ${undecidedDates === 'mm/dd/yyyy' ? 'month' : 'day'}-first, ${undecidedSaidBy === 'choice' ? 'as you chose in Profile' : 'as your browser writes dates'}. To be sure, choose the date format in the mapping.`
    : (detector.ambiguity?.message ?? '');

  // The shown rows are read in the order learnt over every record read: as the import will store them.
  const typeRecord = compileRecordTyper(target, mapping, detector.learnt());
  const rowFilters = compileRowFilters(mapping);
  const replacesSales = importedAs && keepsSalesParts(target) ? await ownSalesOnDays(db, fileSalesWriter(importedAs.mappingName ?? undefined), importedAs.mappingName, daysOfRecords(target, mapped, rowFilters, typeRecord)) : null;
  const shown = mapped.slice(0, PREVIEW_ROWS);
  type ShownRow = { row: number; values: Record<string, SourceValue>; problems: Record<string, string>; skipped?: true; totalsLine?: string; leftOut?: { column: string; value: string }; typed: TypedRecord | null };
  const rows = shown.map(({ row, fields: values, lineName, filterCells }): ShownRow => {
    const problems: Record<string, string> = {};
    const leftOut = rowFilters?.leavesOut(filterCells) ?? null;
    // In the writer's order: a row filter, then a totals line, then a blank code.
    const totalsLine = leftOut ? null : (totalsWordOf?.(values) ?? null);
    // A line whose name reads as several products' is refused, not skipped (as the writer does).
    if (leftOut || totalsLine || (skipsLine?.(values) && !namedProblems.has(row))) {
      // Shown as the other lines are (a date read as the import reads it), though not imported; what does not read stays as found.
      const read = typeRecord(values, row);
      const skippedValues: Record<string, SourceValue> = {};
      for (const field of Object.keys(fieldMappings)) skippedValues[field] = asSourceValue(shownValue(read, field, values[field]));
      const why = leftOut ? { leftOut: { column: leftOut.column, value: leftOut.value } } : totalsLine ? { totalsLine } : { skipped: true as const };
      return { row, values: skippedValues, problems, ...why, typed: null };
    }
    const typed = typeRecord(values, row);
    for (const [field, reasons] of Object.entries(typed.errors ?? {})) problems[field] = reasons.join(' ');
    const ambiguousName = namedProblems.get(row);
    if (ambiguousName && target.codeByName) problems[target.codeByName.codeField] = ambiguousName;
    const filled = (field: string) => field in fieldMappings || target.fixed.has(field);
    for (const field of target.keyColumns) if (!filled(field)) problems[field] ??= 'No column is mapped to this key field.';
    if (!target.updateOnly) for (const field of target.blankIsMissing) if (!filled(field) && targets.some((t) => t.field === field)) problems[field] ??= 'No column is mapped to this required field.';
    const shownValues: Record<string, SourceValue> = {};
    for (const field of [...Object.keys(fieldMappings), ...target.fixed.keys()]) shownValues[field] = asSourceValue(shownValue(typed, field, values[field]));
    // The name a line is matched by or names a new product with, as read (its joined columns shown on the screen with it: ADR 0201 F6).
    if (mapping.new_products?.['name']) shownValues[newProductSource('name')] = asSourceValue(withLineName({ fields: values, lineName })[newProductSource('name')] ?? null);
    if (ambiguous && !undecidedInHead) for (const field of target.mapped.filter((c) => target.typeOf(c) === 'DateField' || target.typeOf(c) === 'DateTimeField')) problems[field] ??= ambiguityText;
    return { row, values: shownValues, problems, typed };
  });
  // Codes the import would refuse: of references (with create_missing_products only a loose twin of a stored code, which is not created), and an update-only target's own.
  const lookups: { column: string; lookup: CodeLookup; creates: boolean; wayOut: string | null }[] = [...target.references.values()]
    .filter((r) => r.by === 'key' && target.mapped.includes(r.column))
    .map((r) => {
      const creates = mapping.create_missing_products === true;
      return { column: r.column, lookup: r, creates, wayOut: createsForUnknownCodes(r) && !creates ? unknownCodeWayOut : null };
    });
  const ownLookup = ownKeyLookup(target);
  if (ownLookup) lookups.push({ column: ownLookup.keyColumn, lookup: ownLookup, creates: false, wayOut: null });
  for (const { column, lookup, creates, wayOut } of lookups) {
    // The codes of the records read were looked up for the new-product list already: only the shown rows' others are.
    const known = lookup === creating ? missing : new Map<string, MeantCode>();
    const asked = lookup === creating ? firstRows : new Map<string, number>();
    const codes = rows.map((r) => r.typed?.values[column]).filter((code): code is string => typeof code === 'string' && !asked.has(code));
    const unknown = new Map([...known, ...(await missingCodes(db, lookup, [...new Set(codes)]))]);
    for (const row of rows) {
      const code = row.typed?.values[column];
      const meant = typeof code === 'string' ? unknown.get(code) : undefined;
      if (typeof code === 'string' && meant !== undefined && (meant !== null || !creates)) row.problems[column] ??= unknownCodeReason(lookup, code, meant, wayOut);
    }
  }
  return {
    targets,
    proposed_mapping: proposed,
    ...(proposedValues ? { proposed_field_values: proposedValues } : {}),
    ...(proposedMaps ? { proposed_value_maps: proposedMaps } : {}),
    ...(proposedJoined ? { proposed_joined_columns: proposedJoined } : {}),
    ...(proposedLeaveOut ? { proposed_joined_leave_out: proposedLeaveOut } : {}),
    ...(detectedFillDown ? { proposed_fill_down_by: detectedFillDown.by } : {}),
    ...(detectedBrackets ? { proposed_code_in_brackets: true as const } : {}),
    ...(locationColumn ? { counted_by_location: locationColumn } : {}),
    date_format: { detected, ambiguous, candidates: detector.candidates, ...(undecidedInHead ? { undecided_in_lines_read: ambiguityText } : {}) },
    decimal_separator: { detected: detectedSeparator, used: usedSeparator },
    rows: rows.map(({ row, values, problems, skipped, totalsLine, leftOut }) => ({ row, values, problems, ...(skipped ? { skipped } : {}), ...(totalsLine ? { totals_line: totalsLine } : {}), ...(leftOut ? { left_out: leftOut } : {}) })),
    ...(refused.length ? { refused_choices: refused } : {}),
    ...(newProducts ? { new_products: newProducts.list, new_product_count: newProducts.count } : {}),
    ...(newProductColumns ? { proposed_new_products: newProductColumns } : {}),
    ...(Object.keys(columnValues).length ? { column_values: columnValues } : {}),
    ...(proposedFilters.length ? { proposed_row_filters: proposedFilters } : {}),
    ...(blankCodes ? { blank_code_lines: blankCodes } : {}),
    ...(blankNames.length ? { blank_code_names: blankNames } : {}),
    ...(emptyLines ? { empty_lines: emptyLines } : {}),
    ...(blankMatched ? { blank_code_matched: blankMatched } : {}),
    ...(offersByName ? { proposed_blank_code_by_name: true as const } : {}),
    ...(proposesSkip ? { proposed_skip_rows_without_code: true as const } : {}),
    ...(replacesSales ? { replaces_sales: replacesSales } : {}),
    ...(unitsAsWritten.cells
      ? {
          units_as_written: {
            cells: unitsAsWritten.cells,
            units: unitsAsWritten.units,
            message: `${partialRead ? `In the file's first ${records.length.toLocaleString('en')} lines, ` : ''}${unitsAsWrittenSentence(unitsAsWritten, 'future')}`,
          },
        }
      : {}),
  };
}

/** The days of the records the import would write (those the row filters keep, their day read as the rows shown are). */
function daysOfRecords(target: WriteTarget, records: { row: number; fields: Record<string, unknown>; filterCells: unknown[] }[], rowFilters: ReturnType<typeof compileRowFilters>, typeRecord: ReturnType<typeof compileRecordTyper>): string[] {
  const dateField = target.mapped.find((c) => target.keyColumns.includes(c) && target.typeOf(c) === 'DateField');
  if (!dateField) return [];
  const days = new Set<string>();
  for (const record of records) {
    if (rowFilters?.leavesOut(record.filterCells)) continue;
    const day = typeRecord(record.fields, record.row).values[dateField];
    if (typeof day === 'string') days.add(day);
  }
  return [...days];
}

/** The form's `header_row` (the row the Import screen's user says holds the column names, before a mapping is built on it). */
function headerRowField(text: string): number {
  const parsed = entityMapping.shape.header_row.safeParse(/^\d+$/.test(text) ? Number(text) : text);
  if (!parsed.success || parsed.data === undefined) throw validationError(headerRowProblem);
  return parsed.data;
}

/** `dateOrder`: the previewing person's own choice (Profile, ADR 0167's amendment), which decides an undecided file's dates before their browser does. */
export type PreviewRequest = { file: ReceivedFile; fields: Record<string, string>; dateOrder?: DateOrderPreference | undefined };

const CHOSEN_DATE_ORDERS = { 'day-first': 'dd/mm/yyyy', 'month-first': 'mm/dd/yyyy' } as const;

export async function previewFile(ctx: ImportContext, { file, fields, dateOrder }: PreviewRequest): Promise<PreviewFileResponse> {
  const entityType = fields.entity_type || 'products';
  let given: EntityMapping | null = null;
  if (fields.mapping_config) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fields.mapping_config);
    } catch {
      throw validationError('mapping_config is not valid JSON.');
    }
    const resolved = resolveEntityMapping(parsed, entityType);
    if (!resolved.ok) throw validationError(resolved.message);
    given = resolved.mapping;
  }
  const dateFormat = fields.date_format as DateFormat | undefined;
  if (dateFormat !== undefined && !dateFormats.includes(dateFormat)) throw validationError(`date_format must be one of: ${dateFormats.join(', ')}.`);
  const config = await ctx.loadConfig();
  const sheet = fields.sheet || given?.sheet || null;
  const headerRow = fields.header_row ? headerRowField(fields.header_row) : (given?.header_row ?? null);
  // Cut by the server (keepBytes) or by the web app before sending (`file_part: head`).
  const cutHead = file.cut || fields.file_part === 'head';
  const source = await openSource({ path: file.path }, file.fileName, file.mimeType, { sheet, headerRow, cutHead });

  const records: RawRecord[] = [];
  let warning: string | null = null;
  try {
    for await (const batch of source.batches) {
      records.push(...batch.slice(0, DETECTION_RECORDS - records.length));
      if (records.length >= DETECTION_RECORDS) break;
    }
  } catch (error) {
    // The head of a file may end inside a record: what came before it is still shown.
    if (!(error instanceof FileFormatError) || !records.length) throw error;
    warning = error.message;
  }
  const header = source.header() ?? leafPaths(records.slice(0, 50).map((r) => r.value));
  const place = source.headerPlace();
  // A line of empty cells (`;;`) above the header says nothing worth listing.
  const titleLines = (place?.skipped ?? []).map(({ row, cells }) => ({ row, text: skippedRowText(cells) })).filter((line) => line.text !== '');
  const skipped = titleLines.slice(0, MAX_SKIPPED_ROWS_SHOWN);
  const titleDay = dayOfTitleLines(titleLines.map((line) => line.text));
  const today = dayInTimeZone(Date.now(), await requestTimeZone(ctx.database.db, fields.time_zone));
  const previewed = await previewRecords(ctx.database.db, config, { entityType, given, dateFormat, header, records, offerRowFilters: true, today, titleDay,
    undecidedDates: dateOrder && dateOrder !== 'browser' ? CHOSEN_DATE_ORDERS[dateOrder] : undecidedDateOrder(sentTimeZone(fields.time_zone), fields.locale || undefined),
    undecidedSaidBy: dateOrder && dateOrder !== 'browser' ? 'choice' : 'browser',
    partialRead: cutHead || records.length >= DETECTION_RECORDS,
    importedAs: fields.mapping_name === undefined ? null : { mappingName: fields.mapping_name || null },
  });
  const rawRows = records.slice(0, PREVIEW_ROWS).map((record) => (record.cells ? header.map((_, at) => asSourceValue(record.cells?.[at])) : header.map((path) => asSourceValue(applyMapping(record.value, { v: path }).v))));
  return {
    format: source.format,
    ...(source.sheets() ? { sheets: source.sheets() as string[] } : {}),
    ...(source.separator() ? { separator: source.separator() as string } : {}),
    header,
    ...(place ? { header_row: place.row, ...(place.detected !== null ? { detected_header_row: place.detected } : {}) } : {}),
    ...(skipped.length ? { skipped_rows: skipped } : {}),
    raw_rows: rawRows,
    ...previewed,
    ...(warning ? { warning } : {}),
  };
}
