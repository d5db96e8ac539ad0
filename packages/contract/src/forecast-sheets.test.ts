// The inventory report's download says the supplier's terms beside the order (ADR 0183, amendment
// 2026-12-06 (3)): case size, minimum order and the need the terms rounded up, blank where there are
// none; and a product's quantities are numbers as recorded, grams and all.
import { describe, expect, it } from 'vitest';
import { INVENTORY_REPORT_COLUMNS, inventoryReportFileName, inventoryReportRow, supplierFileName } from './forecast-sheets.ts';
import type { ReportProduct } from './forecasting.ts';

const product: ReportProduct = { styleCode: 'HWB-24', name: 'Hot-water bottle', currentStock: 4, onHand: null, unit: null, unitCost: 3, leadTimeDays: 7, firstStockout: '2026-01-09', stockoutType: 'stockForecast', reorderPoint: 30, orderQuantity: 48, orderBy: '2026-01-03', model: 'SBA', urgencyDays: 2, recentDemand: 40, shortHistory: false, arrivalDate: '2026-01-08' };
const headers = INVENTORY_REPORT_COLUMNS.map((column) => column.header);
/** A row's cells by header, from "order quantity" to "order by". */
const orderCells = (row: ReturnType<typeof inventoryReportRow>) => Object.fromEntries(headers.map((header, at) => [header, row[at]]).slice(headers.indexOf('order quantity'), headers.indexOf('order by') + 1));

describe("the inventory report's download", () => {
  it('has the case size, the minimum order and the need right after the unit, as quantities', () => {
    expect(headers.slice(headers.indexOf('unit'), headers.indexOf('unit') + 5)).toEqual(['unit', 'case size', 'minimum order', 'needed', 'order by']);
    const kinds = Object.fromEntries(INVENTORY_REPORT_COLUMNS.map((column) => [column.header, column.kind]));
    expect(['reorder point', 'order quantity', 'case size', 'minimum order', 'needed'].map((header) => kinds[header])).toEqual(['quantity', 'quantity', 'quantity', 'quantity', 'quantity']);
  });

  it('says 48 is 2 cases of 24 for a need of 40, and a minimum that set the order', () => {
    expect(orderCells(inventoryReportRow({ ...product, orderMultiple: 24, orderQuantityNeeded: 40 }))).toEqual({ 'order quantity': 48, unit: null, 'case size': 24, 'minimum order': null, needed: 40, 'order by': '2026-01-03' });
    expect(orderCells(inventoryReportRow({ ...product, orderQuantity: 10, minOrderQuantity: 10, orderQuantityNeeded: 3 }))).toEqual({ 'order quantity': 10, unit: null, 'case size': null, 'minimum order': 10, needed: 3, 'order by': '2026-01-03' });
  });

  it('leaves them blank for a product without terms, and the need blank where the cases held it exactly', () => {
    expect(orderCells(inventoryReportRow(product))).toEqual({ 'order quantity': 48, unit: null, 'case size': null, 'minimum order': null, needed: null, 'order by': '2026-01-03' });
    expect(orderCells(inventoryReportRow({ ...product, orderMultiple: 24 }))).toMatchObject({ 'case size': 24, needed: null });
  });

  it("keeps a kilo product's grams in its order, cases, minimum and need", () => {
    const cheese = { ...product, unit: 'kg', reorderPoint: 2.345, orderQuantity: 7.5, orderMultiple: 2.5, minOrderQuantity: 1.25, orderQuantityNeeded: 6.125 };
    expect(orderCells(inventoryReportRow(cheese))).toEqual({ 'order quantity': 7.5, unit: 'kg', 'case size': 2.5, 'minimum order': 1.25, needed: 6.125, 'order by': '2026-01-03' });
    expect(inventoryReportRow(cheese)[headers.indexOf('reorder point')]).toBe(2.345);
  });

  it('keeps the terms of a row to hurry, which orders nothing', () => {
    expect(orderCells(inventoryReportRow({ ...product, orderQuantity: 0, orderBy: null, onOrderArrives: '2026-01-20', orderMultiple: 24 }))).toEqual({ 'order quantity': null, unit: null, 'case size': 24, 'minimum order': null, needed: null, 'order by': null });
  });
});

describe("a download's name for one supplier's list (ADR 0184)", () => {
  it("names the supplier in letters and digits, the products without one as no-supplier, and every supplier not at all", () => {
    expect(inventoryReportFileName('2026-12-06T08:00:00.000Z', 'Fresh Drinks Co.')).toBe('inventory-report-2026-12-06-fresh-drinks-co');
    expect(supplierFileName('reorder-report', 'Fresh Drinks Co.')).toBe('reorder-report-fresh-drinks-co');
    expect(supplierFileName('reorder-report', 'Lieferant Müller & Söhne')).toBe('reorder-report-lieferant-muller-sohne');
    expect(supplierFileName('reorder-report', null)).toBe('reorder-report-no-supplier');
    expect(supplierFileName('reorder-report', '株式会社')).toBe('reorder-report-supplier');
    expect(supplierFileName('reorder-report')).toBe('reorder-report');
  });
});
