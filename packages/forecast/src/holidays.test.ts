// What the forecast says of the closed days ahead (ADR 0171, amendment 2026-12-05): a Manchester
// wholesaler's learned Christmas closures are public holidays; the days it typed into Settings → Shop
// (Mon 28 Dec 2026, the substitute bank holiday, and 4 Jan 2027, its stock-take) are the shop's own,
// by date and note.
import { describe, expect, it } from 'vitest';
import { dayNumber, formatDay } from './dates.ts';
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

  it("says the closures learned on dates no holiday as the shop's, public holidays only as holidays (ADR 0203 F4)", () => {
    // A Lyon épicerie closed on Mondays, three weeks every August (15 August, a holiday, among them) and over Christmas.
    const congés = Array.from({ length: 22 }, (_, k) => formatDay(dayNumber('2027-08-03') + k));
    expect(closuresAhead(days(...congés, '2027-07-14'), [], new Map(), [], [1])).toEqual({
      description: ' Closed on public holidays. Closed 3 Aug – 24 Aug, as the shop was in past years.',
      patterns: ['holidays', 'shop_closed'],
    });
    // Shut from Christmas Eve to 2 January: the week between the holidays makes it the shop's closure, all of it.
    const christmasWeek = Array.from({ length: 10 }, (_, k) => formatDay(dayNumber('2027-12-24') + k));
    expect(closuresAhead(days(...christmasWeek), [], new Map(), [], [1]).description).toBe(' Closed 24 Dec – 2 Jan, as the shop was in past years.');
    // Christmas on a Saturday, Boxing Day on a Sunday: Tuesday 28th is Boxing Day's substitute for a shop shut on Mondays, still a holiday.
    expect(closuresAhead(days('2027-12-25', '2027-12-26', '2027-12-28'), [], new Map(), [], [1]).description).toBe(' Closed on public holidays.');
    // A stock-take day learned from two years is the shop's; the shop's typed days still say its settings.
    expect(closuresAhead(days('2026-12-28', '2027-03-04'), [], shop).description).toBe(" Closed on 4 Mar, as the shop was in past years. Closed on 28 Dec (Bank holiday (substitute)), as the shop's settings say.");
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

  it("names the first three of many and counts the rest in days, in date order, beside a weekday closed in its months", () => {
    const many = shopClosedDays(['2027-01-12', '2027-01-04', '2027-01-06', '2027-01-08', '2027-01-10'].map((date) => ({ date, note: null })));
    const sundaysInJanuary = [{ weekday: 0, months: [1] }];
    expect(closuresAhead(days('2027-01-03', '2027-01-12', '2027-01-10', '2027-01-08', '2027-01-06', '2027-01-04'), sundaysInJanuary, many)).toEqual({
      description: " Closed on Sundays in Jan. Closed on 4 Jan, 6 Jan, 8 Jan and 2 more days, as the shop's settings say.",
      patterns: ['closed_days', 'shop_closed'],
    });
  });

  it('says a run of days with one note as a range, over the new year, and counts the days beyond the runs named', () => {
    const christmas = Array.from({ length: 10 }, (_, index) => ({ date: formatDay(dayNumber('2026-12-24') + index), note: 'Christmas closure' }));
    const closures = shopClosedDays([...christmas, { date: '2027-01-04', note: 'Stock-take' }]);
    expect(closuresAhead(days(...christmas.map(({ date }) => date), '2027-01-04'), [], closures)).toEqual({
      description: " Closed 24 Dec – 2 Jan (Christmas closure) and 4 Jan (Stock-take), as the shop's settings say.",
      patterns: ['shop_closed'],
    });
    // Only the part of a run inside the horizon is said.
    expect(closuresAhead(days('2026-12-31', '2027-01-01', '2027-01-02'), [], closures).description).toBe(" Closed 31 Dec – 2 Jan (Christmas closure), as the shop's settings say.");
    // A note that changes splits the run; the fourth run is counted by its days.
    const split = shopClosedDays([
      { date: '2026-12-24', note: 'Christmas closure' },
      { date: '2026-12-25', note: 'Christmas closure' },
      { date: '2026-12-28', note: 'Bank holiday (substitute)' },
      { date: '2026-12-29', note: null },
      { date: '2026-12-30', note: null },
      { date: '2027-01-04', note: 'Stock-take' },
      { date: '2027-01-05', note: 'Stock-take' },
    ]);
    expect(closuresAhead(days('2026-12-24', '2026-12-25', '2026-12-28', '2026-12-29', '2026-12-30', '2027-01-04', '2027-01-05'), [], split).description).toBe(
      " Closed 24 Dec – 25 Dec (Christmas closure), 28 Dec (Bank holiday (substitute)), 29 Dec – 30 Dec and 2 more days, as the shop's settings say.",
    );
    // Every day named alone: "Closed on", as for single days.
    expect(closuresAhead(days('2026-12-25', '2026-12-28', '2026-12-29', '2027-01-04'), [], split).description).toBe(" Closed on 25 Dec (Christmas closure), 28 Dec (Bank holiday (substitute)), 29 Dec and 1 more day, as the shop's settings say.");
  });

  it('says only the days ahead, and the year where the days named are a year apart', () => {
    const twoYears = shopClosedDays([{ date: '2026-12-28' }, { date: '2027-12-28' }, { date: '2025-06-02', note: 'Flood' }]);
    expect(closuresAhead(days('2026-12-28', '2027-12-28'), [], twoYears).description).toBe(" Closed on 28 Dec 2026 and 28 Dec 2027, as the shop's settings say.");
    const runs = shopClosedDays([{ date: '2026-12-31' }, { date: '2027-01-01' }, { date: '2027-12-31' }]);
    expect(closuresAhead(days('2026-12-31', '2027-01-01', '2027-12-31'), [], runs).description).toBe(" Closed 31 Dec 2026 – 1 Jan 2027 and 31 Dec 2027, as the shop's settings say.");
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

// ADR 0188: a weekday-of-month holiday is named by its rule and what it is called.
describe('closuresAhead with weekday-of-month holidays', () => {
  const thanksgiving = { month: 11, weekday: 4, nth: 4 } as const;
  const usHolidays = [{ month: 1, weekday: 1, nth: 3 }, { month: 2, weekday: 1, nth: 3 }, { month: 5, weekday: 1, nth: 'last' }, { month: 9, weekday: 1, nth: 1 }, thanksgiving] as const;

  it('names the rule and its holiday, and the other learned closed days as public holidays', () => {
    expect(closuresAhead(days('2026-11-26'), [], new Map(), [thanksgiving])).toEqual({ description: ' Closed on the fourth Thursday of November (Thanksgiving).', patterns: ['holidays'] });
    expect(closuresAhead(days('2026-12-25', '2026-11-26'), [], new Map(), [thanksgiving]).description).toBe(' Closed on the fourth Thursday of November (Thanksgiving) and other public holidays.');
    // A rule with no day in the horizon is not said.
    expect(closuresAhead(days('2026-12-25'), [], new Map(), [thanksgiving]).description).toBe(' Closed on public holidays.');
  });

  it('names the first three in date order, the rest as other public holidays', () => {
    const ahead = days('2027-09-06', '2027-05-31', '2027-01-18', '2027-02-15', '2026-11-26');
    expect(closuresAhead(ahead, [], new Map(), [...usHolidays]).description).toBe(
      " Closed on the fourth Thursday of November (Thanksgiving), the third Monday of January (Martin Luther King Jr. Day), the third Monday of February (Presidents' Day or Family Day) and other public holidays.",
    );
  });

  it("says a shop's own day as the shop's, even on a learned holiday's date", () => {
    const own = shopClosedDays([{ date: '2026-11-26', note: 'Thanksgiving' }]);
    expect(closuresAhead(days('2026-11-26'), [], own, [thanksgiving])).toEqual({ description: " Closed on 26 Nov (Thanksgiving), as the shop's settings say.", patterns: ['shop_closed'] });
  });
});
