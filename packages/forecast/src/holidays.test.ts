// What the forecast says of the closed days ahead (ADR 0171, amendment 2026-12-05): a Manchester
// wholesaler's learned Christmas closures are public holidays; the days it typed into Settings → Shop
// (Mon 28 Dec 2026, the substitute bank holiday, and 4 Jan 2027, its stock-take) are the shop's own,
// by date and note.
import { describe, expect, it } from 'vitest';
import { dayNumber } from './dates.ts';
import { closuresAhead, shopClosedDays } from './holidays.ts';

const days = (...dates: string[]) => dates.map(dayNumber);
const shop = shopClosedDays([
  { date: '2026-12-28', note: 'Bank holiday (substitute)' },
  { date: '2027-01-04', note: 'Stock-take' },
]);

describe('closuresAhead', () => {
  it('calls a learned closed day a public holiday, as before', () => {
    expect(closuresAhead(days('2026-12-25', '2026-12-26'), [])).toEqual({ description: ' Closed on public holidays.', patterns: ['holidays'] });
  });

  it("names the shop's own closed days by date and note, not as public holidays", () => {
    expect(closuresAhead(days('2026-12-28', '2027-01-04'), [], shop)).toEqual({
      description: " Closed on 28 Dec (Bank holiday (substitute)) and 4 Jan (Stock-take), as the shop's settings say.",
      patterns: ['shop_closed'],
    });
  });

  it("says both: the learned holidays and the shop's days, a day in both the shop's", () => {
    const both = shopClosedDays([{ date: '2026-12-25', note: 'Christmas' }, { date: '2026-12-28' }]);
    expect(closuresAhead(days('2026-12-25', '2026-12-26', '2026-12-28'), [], both)).toEqual({
      description: " Closed on public holidays. Closed on 25 Dec (Christmas) and 28 Dec, as the shop's settings say.",
      patterns: ['holidays', 'shop_closed'],
    });
    // Every learned day ahead also on the shop's list: no public holiday is left to speak of.
    expect(closuresAhead(days('2026-12-25'), [], both)).toEqual({ description: " Closed on 25 Dec (Christmas), as the shop's settings say.", patterns: ['shop_closed'] });
  });

  it("names the first three of many and counts the rest, in date order, beside a weekday closed in its months", () => {
    const many = shopClosedDays(['2027-01-08', '2027-01-04', '2027-01-05', '2027-01-06', '2027-01-07'].map((date) => ({ date, note: null })));
    const sundaysInJanuary = [{ weekday: 0, months: [1] }];
    expect(closuresAhead(days('2027-01-03', '2027-01-08', '2027-01-07', '2027-01-06', '2027-01-05', '2027-01-04'), sundaysInJanuary, many)).toEqual({
      description: " Closed on Sundays in Jan. Closed on 4 Jan, 5 Jan, 6 Jan and 2 more, as the shop's settings say.",
      patterns: ['closed_days', 'shop_closed'],
    });
  });

  it('says only the days ahead, and the year where the days named are a year apart', () => {
    const twoYears = shopClosedDays([{ date: '2026-12-28' }, { date: '2027-12-28' }, { date: '2025-06-02', note: 'Flood' }]);
    expect(closuresAhead(days('2026-12-28', '2027-12-28'), [], twoYears).description).toBe(" Closed on 28 Dec 2026 and 28 Dec 2027, as the shop's settings say.");
  });
});

describe('shopClosedDays', () => {
  it('keeps a note as one line of plain text, none for a blank one, and the first of a date given twice', () => {
    const notes = shopClosedDays([
      { date: '2027-01-04', note: '  Stock-take\n  <b>all day</b> ' },
      { date: '2027-01-04', note: 'again' },
      { date: '2026-12-28', note: '   ' },
    ]);
    expect([...notes]).toEqual([
      [dayNumber('2027-01-04'), 'Stock-take <b>all day</b>'],
      [dayNumber('2026-12-28'), null],
    ]);
  });
});
