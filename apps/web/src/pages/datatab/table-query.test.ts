import { afterEach, describe, expect, it } from 'vitest';
import { useAccountStore } from '../../stores/account.ts';
import { useBrowserLanguages } from '../../test/jsdom.ts';
import { dateFilterReading, filtersJson, initialSort, mergeColumnNotes, mergePageNotes, noPageNotes, nextSort, readFilterInput, referenceText, withFilter, type FilterColumns } from './table-query.ts';
import { dateExamples, viewerDates } from '../../components/viewer-dates.ts';

describe('sorting (spec §4)', () => {
  it('starts unsorted (the server sorts by id)', () => {
    expect(initialSort).toEqual({ sortBy: null, sortDir: 'asc' });
  });

  it('a new column starts ascending', () => {
    expect(nextSort(initialSort, 'name')).toEqual({ sortBy: 'name', sortDir: 'asc' });
    expect(nextSort({ sortBy: 'name', sortDir: 'desc' }, 'qty')).toEqual({ sortBy: 'qty', sortDir: 'asc' });
  });

  it('the same column toggles asc then desc (and back)', () => {
    const asc = nextSort(initialSort, 'name');
    const desc = nextSort(asc, 'name');
    expect(desc).toEqual({ sortBy: 'name', sortDir: 'desc' });
    expect(nextSort(desc, 'name')).toEqual({ sortBy: 'name', sortDir: 'asc' });
  });
});

describe('filters (spec §4, docs/api.md filters_json)', () => {
  it('sets one column and keeps the others', () => {
    const one = withFilter({}, 'name', 'hose');
    expect(withFilter(one, 'category', 'Garden')).toEqual({ name: 'hose', category: 'Garden' });
  });

  it('an empty or blank value removes that filter', () => {
    const filters = { name: 'hose', category: 'Garden' };
    expect(withFilter(filters, 'name', '')).toEqual({ category: 'Garden' });
    expect(withFilter(filters, 'category', '   ')).toEqual({ name: 'hose' });
  });

  it('builds {key: value} and nothing at all without filters', () => {
    expect(filtersJson({})).toBeUndefined();
    expect(filtersJson({ name: ' hose ', qty: '5' })).toBe('{"name":"hose","qty":"5"}');
    expect(filtersJson({ name: '' })).toBeUndefined();
  });

  const columns = [
    { key: 'name', type: 'CharField' },
    { key: 'qty', type: 'IntegerField' },
    { key: 'cost', type: 'DecimalField' },
    { key: 'day', type: 'DateField' },
    { key: 'product_id', type: 'ForeignKey' },
  ] as const;

  it('reads number and date columns as typed (<10, 10-50, >=2026-11-01) and text columns as text', () => {
    expect(JSON.parse(filtersJson({ name: '<10', qty: '<10', cost: '2,5-3', day: '>=2026-11-01', product_id: '85123' }, columns) ?? '')).toEqual({
      name: '<10',
      qty: { lt: 10 },
      cost: { gte: 2.5, lte: 3 },
      day: { gte: '2026-11-01' },
      product_id: '85123',
    });
    expect(filtersJson({ qty: '7' }, columns)).toBe('{"qty":{"equals":7}}');
  });

  it('leaves out a text it cannot read, saying why', () => {
    expect(filtersJson({ qty: 'abc', name: 'hose' }, columns)).toBe('{"name":"hose"}');
    expect(filtersJson({ qty: 'abc' }, columns)).toBeUndefined();
    expect(readFilterInput('IntegerField', '<10.5')).toEqual({ problem: 'wholeNumber' });
    expect(readFilterInput('DecimalField', 'abc')).toEqual({ problem: 'number' });
    expect(readFilterInput('DateField', '2026-02-30')).toEqual({ problem: 'noSuchDay', day: '2026-02-30', why: 'February 2026 has 28 days' });
    expect(readFilterInput('CharField', ' <10 ')).toEqual({ filter: '<10' });
    expect(readFilterInput(undefined, 'x')).toEqual({ filter: 'x' });
  });
});

describe('a date filter said back', () => {
  it('reads day first and ISO alike, and says how it read them', () => {
    expect(dateFilterReading('30.11.2026', 'day-first')).toEqual({ kind: 'on', from: '30 Nov 2026', to: '30 Nov 2026' });
    expect(dateFilterReading('03/04/2026', 'day-first')).toEqual({ kind: 'on', from: '3 Apr 2026', to: '3 Apr 2026' });
    expect(dateFilterReading('01.11.2026..30.11.2026', 'day-first')).toEqual({ kind: 'between', from: '1 Nov 2026', to: '30 Nov 2026' });
    expect(dateFilterReading('11.2026', 'day-first')).toEqual({ kind: 'between', from: '1 Nov 2026', to: '30 Nov 2026' });
    expect(dateFilterReading('>=1.11.2026', 'day-first')).toMatchObject({ kind: 'from', from: '1 Nov 2026' });
    expect(dateFilterReading('<2026-11-30')).toMatchObject({ kind: 'before', to: '30 Nov 2026' });
    expect(dateFilterReading('31.11.2026', 'day-first')).toBeNull();
    expect(dateFilterReading(' ')).toBeNull();
  });

  it('sends day-first text as ISO dates, and names an impossible day and why', () => {
    const dates: FilterColumns = [{ key: 'date', type: 'DateField' }];
    expect(filtersJson({ date: '30/11/2026' }, dates, 'day-first')).toBe('{"date":{"equals":"2026-11-30"}}');
    expect(filtersJson({ date: '1.11.2026-30.11.2026' }, dates, 'day-first')).toBe('{"date":{"gte":"2026-11-01","lte":"2026-11-30"}}');
    expect(readFilterInput('DateField', '11/30/2026', 'day-first')).toEqual({ problem: 'noSuchDay', day: '11/30/2026', why: 'dates are read as DD/MM/YYYY (30/11/2026), and a year has 12 months' });
  });
});

describe("dates in the viewer's order (ADR 0167)", () => {
  const dates: FilterColumns = [{ key: 'date', type: 'DateField' }];

  it('reads month first for en-US and day first for en-AU, sending the same ISO days', () => {
    expect(viewerDates('browser', ['en-US', 'en'])).toEqual({ order: 'month-first', pattern: 'MM/DD/YYYY' });
    expect(viewerDates('browser', ['en-AU'])).toEqual({ order: 'day-first', pattern: 'DD/MM/YYYY' });
    expect(viewerDates('browser', ['de-DE', 'de'])).toEqual({ order: 'day-first', pattern: 'DD.MM.YYYY' });
    expect(viewerDates('browser', ['qq-ZZ'])).toEqual({ order: 'day-first', pattern: 'DD.MM.YYYY' });
    expect(filtersJson({ date: '11/30/2026' }, dates, 'month-first')).toBe('{"date":{"equals":"2026-11-30"}}');
    expect(filtersJson({ date: '30/11/2026' }, dates, 'day-first')).toBe('{"date":{"equals":"2026-11-30"}}');
    expect(dateFilterReading('03/04/2026', 'month-first')).toEqual({ kind: 'on', from: '4 Mar 2026', to: '4 Mar 2026' });
    expect(readFilterInput('DateField', '13/04/2026', 'month-first')).toEqual({ problem: 'noSuchDay', day: '13/04/2026', why: 'dates are read as MM/DD/YYYY (04/13/2026), and a year has 12 months' });
  });

  it('gives examples in the pattern: a month never with a dash, which is a range', () => {
    expect(dateExamples('MM/DD/YYYY')).toEqual({ day: '11/30/2026', from: '11/01/2026', month: '11/2026', range: '11/01/2026..11/30/2026' });
    expect(dateExamples('DD-MM-YYYY')).toMatchObject({ day: '30-11-2026', month: '11.2026' });
    expect(dateExamples('YYYY-MM-DD')).toMatchObject({ day: '2026-11-30', month: '2026-11' });
  });
});

describe('reference labels', () => {
  it('adds a later page\'s labels to the known ones and shows a ForeignKey as code — name, else its id', () => {
    const first = mergeColumnNotes({}, { product_id: { '1': 'A-1 — One' } });
    const both = mergeColumnNotes(first, { product_id: { '2': 'B-2 — Two' } });
    expect(both).toEqual({ product_id: { '1': 'A-1 — One', '2': 'B-2 — Two' } });
    expect(mergeColumnNotes(both, undefined)).toBe(both);
    expect(referenceText(both, 'product_id', 2)).toBe('B-2 — Two');
    expect(referenceText(both, 'product_id', '1')).toBe('A-1 — One');
    expect(referenceText(both, 'product_id', 3)).toBeNull();
    expect(referenceText(both, 'product_id', null)).toBeNull();
  });
});

describe('page notes', () => {
  it('keeps the references and the values never recorded of every page loaded', () => {
    const first = mergePageNotes(noPageNotes, { references: { product_id: { '1': 'A-1 — One' } }, unknown_values: { current_stock: { '7': 'not_counted' } } });
    const both = mergePageNotes(first, { unknown_values: { current_stock: { '9': 'not_counted' } } });
    expect(both).toEqual({ references: { product_id: { '1': 'A-1 — One' } }, unknownValues: { current_stock: { '7': 'not_counted', '9': 'not_counted' } } });
    expect(mergePageNotes(noPageNotes, {})).toEqual(noPageNotes);
  });
});

describe('a typed date in the signed-in person’s order', () => {
  afterEach(() => useAccountStore.setState({ dateOrder: 'browser' }));

  it('reads 03/04/2026 as the browser’s language writes it, then as the person chose', () => {
    const restore = useBrowserLanguages(['en-US', 'en']);
    try {
      expect(readFilterInput('DateField', '03/04/2026')).toEqual({ filter: { equals: '2026-03-04' } });
      useAccountStore.setState({ dateOrder: 'day-first' });
      expect(readFilterInput('DateField', '03/04/2026')).toEqual({ filter: { equals: '2026-04-03' } });
    } finally {
      restore();
    }
  });
});
