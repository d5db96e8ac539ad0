// The likely new name of a renamed field (ADR 0170): one that stands out, or none.
import { describe, expect, it } from 'vitest';
import { absentFieldsMessage, closestPath, fieldsAbsentFrom } from './absent-fields.ts';

describe('closestPath', () => {
  it.each([
    ['quantity', ['id', 'sku', 'qty', 'date'], 'qty'],
    ['quantity', ['Quantity', 'qty'], 'Quantity'],
    ['order_date', ['id', 'orderDate'], 'orderDate'],
    ['description', ['desc', 'sku'], 'desc'],
    ['line.quantity', ['line.qty', 'qty'], 'line.qty'],
    ['quantity', ['units', 'sku'], null],
    ['quantity', ['qty', 'qnty'], null],
    ['sku', ['id', 'name'], null],
  ])('%s among %j: %s', (wanted, candidates, expected) => {
    expect(closestPath(wanted, candidates)).toBe(expected);
  });
});

describe('absentFieldsMessage', () => {
  const mapped = [
    { field: 'product_id', label: 'Product', path: 'sku' },
    { field: 'quantity', label: 'Quantity', path: 'quantity' },
  ];
  it('names the fields no record has, what the records have, and does not offer a path another field reads', () => {
    const records = [{ sku: 'A', qty: 2 }, { sku: 'B', qty: 1 }, 'not a record'];
    const absent = fieldsAbsentFrom(mapped, records);
    expect(absent.map((m) => m.field)).toEqual(['quantity']);
    expect(absentFieldsMessage(absent, records, { mapped, where: 'of page 2', mappingName: 'orders' })).toBe(
      "No record of page 2 has the field 'quantity' (mapped to Quantity); the records have: sku, qty. Was it renamed to 'qty'? Update the mapping 'orders'.",
    );
    expect(fieldsAbsentFrom(mapped, ['text', null])).toEqual([]);
  });
});
