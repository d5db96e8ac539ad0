import { describe, expect, it } from 'vitest';
import { csvCell, INVENTORY_REPORT_COLUMNS, inventoryReportRow, toCsv } from '@stockwise/contract';
import { forecastCsv } from './csv.ts';
import { forecastFixture } from './fixtures.test-data.ts';

describe('CSV export', () => {
  it.each(['=SUM(A1:A2)', '+1', '-2+3', '@cmd', '\tx', '\rx'])('escapes a text cell starting with a formula character: %j', (value) => {
    const cell = csvCell(value);
    expect(cell.startsWith(`"'`)).toBe(true);
    expect(cell.slice(2, -1)).toBe(value.replaceAll('"', '""'));
  });

  it('quotes commas, quotes and line breaks, and leaves plain text alone', () => {
    expect(csvCell('Hose, small')).toBe('"Hose, small"');
    expect(csvCell('5" pipe')).toBe('"5"" pipe"');
    expect(csvCell('a\nb')).toBe('"a\nb"');
    expect(csvCell('Blanket Small')).toBe('Blanket Small');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it('writes numbers as numbers (a negative stock stays a number), empty for null and non-finite', () => {
    expect(csvCell(-601.11)).toBe('-601.11');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
  });

  it('joins rows with CRLF', () => {
    expect(toCsv([['a', 1], ['b', null]])).toBe('a,1\r\nb,\r\n');
  });

  it('exports the forecast: date, forecast, lower, upper, stock, stock lower, stock upper — never below 0 — how much the stock is short by, and the unit (blank for pieces)', () => {
    expect(forecastCsv(forecastFixture()).split('\r\n')).toEqual([
      'date,forecast,lower,upper,stock,stock lower,stock upper,short by,short by up to,unit',
      '2026-01-04,5,2,8,10,7,13,0,0,',
      '2026-01-05,6,3,9,4,0,10,0,2,',
      '',
    ]);
  });

  it("writes the product's unit on every line of its forecast, as the report's download does: the file leaves the screen's header behind (ADR 0177, amendment 2026-12-06 (2))", () => {
    const kilos = forecastFixture();
    kilos.product.unit = 'kg';
    expect(forecastCsv(kilos).split('\r\n').map((line) => line.split(',').at(-1))).toEqual(['unit', 'kg', 'kg', '']);
  });

  it("writes the report's lines (the server's CSV) with the supplier after the name (blank: none), on hand now beside its count, the unit beside the order quantity (blank for pieces), escaped product names, a blank where never counted, and the lists' marks in shop words", () => {
    const product = { styleCode: 'X-1', name: '=cmd|calc', currentStock: 4, unit: null, unitCost: 1.5, leadTimeDays: 7, firstStockout: '2026-01-09', stockoutType: 'stockForecast' as const, reorderPoint: 3, orderQuantity: 10, orderBy: '2026-01-03', model: 'SBA', urgencyDays: -5, recentDemand: 12, shortHistory: false };
    const csv = toCsv([
      INVENTORY_REPORT_COLUMNS.map((column) => column.header),
      inventoryReportRow({ ...product, supplier: 'Acme, Ltd', onHand: { units: 2.5, countedUnits: 4, countedOn: '2026-01-02' }, shortHistory: true }),
      inventoryReportRow({ ...product, onHand: null, urgencyDays: 2, unit: 'kg', orderQuantity: 2.35 }),
      // No order: the delivery on its way arrives after the stockout, to hurry (not "too late" to order).
      inventoryReportRow({ ...product, onHand: null, orderQuantity: 0, orderBy: null, onOrderArrives: '2026-01-20' }),
    ]);
    expect(csv.split('\r\n')).toEqual([
      'product code,name,supplier,on hand now,last count,counted on,unit cost,first stockout,stockout type,reorder point,order quantity,unit,case size,minimum order,needed,order by,model,check,too late,on order',
      `X-1,"'=cmd|calc","Acme, Ltd",2.5,4,2026-01-02,1.5,2026-01-09,expected,3,10,,,,,2026-01-03,SBA,Under 4 weeks of sales,yes,`,
      `X-1,"'=cmd|calc",,,,,1.5,2026-01-09,expected,3,2.35,kg,,,,2026-01-03,SBA,,,`,
      `X-1,"'=cmd|calc",,,,,1.5,2026-01-09,expected,3,,,,,,,SBA,,,"On order: arrives 20 Jan 2026, after it runs out — hurry it"`,
      '',
    ]);
  });
});
