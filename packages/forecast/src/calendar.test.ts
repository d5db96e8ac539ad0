import { describe, expect, it } from 'vitest';
import { CATALOGUE_PROFILE, catalogueCalendar, closedDatesBetween, closedEasterHolidays, closedNthWeekdays, firstOpenDayFrom, closedMonthDays, dayOfLeapYear, EASTER_HOLIDAYS, easterSunday, newItemRatesOf, yearlyProfile, type DailyTotals, type ProductStart } from './calendar.ts';
import { dayNumber, formatDay } from './dates.ts';
import { forecastProduct, isForecastError, type ProductForecast, type ProductForecastInput } from './index.ts';
import { yearlyIndex } from './pooled.ts';

const FIRST = dayNumber('2024-12-01');
const HOLIDAYS = new Set(['12-25', '12-26', '01-01']);
const isSunday = (day: number) => new Date(day * 86_400_000).getUTCDay() === 0;

/** Two years of a shop's daily units: closed on Sundays and on 25/26 Dec and 1 Jan, about 200 units a day otherwise. */
function shopTotals(days = 730): DailyTotals {
  const totals = Float64Array.from({ length: days }, (_, t) => {
    const day = FIRST + t;
    return isSunday(day) || HOLIDAYS.has(formatDay(day).slice(5)) ? 0 : 200 + ((t * 37) % 40);
  });
  return { firstDay: FIRST, totals };
}

const forecastOf = (input: ProductForecastInput): ProductForecast => {
  const result = forecastProduct(input);
  if (isForecastError(result)) throw new Error(result.error);
  return result;
};

describe('public-holiday closures of the catalogue', () => {
  it('finds the dates the whole shop sold nothing on in every year, not its closed weekday', () => {
    expect([...closedMonthDays(shopTotals())].sort()).toEqual(['01-01', '12-25', '12-26']);
  });

  it('does not call a date closed when one of its years traded', () => {
    const { firstDay, totals } = shopTotals();
    const christmas2025 = dayNumber('2025-12-25') - firstDay;
    totals[christmas2025] = 210;
    expect([...closedMonthDays({ firstDay, totals })].sort()).toEqual(['01-01', '12-26']);
  });

  it('ignores a catalogue too quiet for an empty day to mean anything', () => {
    const { firstDay, totals } = shopTotals();
    expect(closedMonthDays({ firstDay, totals: totals.map((units) => units / 100) }).size).toBe(0);
  });

  it("finds a small shop's holidays from two years that agree, its public holidays from one, and no other date from one", () => {
    // About 11 units a day: one empty ordinary day in a year could be chance, the same empty date two years running is not.
    const { firstDay, totals } = shopTotals();
    const small = totals.map((units) => Math.round(units / 20));
    expect([...closedMonthDays({ firstDay, totals: small })].sort()).toEqual(['01-01', '12-25', '12-26']);
    // One year is enough for a public holiday (e^-11 at that level), not for an ordinary date.
    const oneYear = small.slice(0, 365);
    expect([...closedMonthDays({ firstDay, totals: oneYear })].sort()).toEqual(['01-01', '12-25', '12-26']);
    oneYear[dayNumber('2025-03-04') - firstDay] = 0;
    expect(closedMonthDays({ firstDay, totals: oneYear }).has('03-04')).toBe(false);
    // An empty Tuesday in one year only is not a holiday.
    const quietDay = dayNumber('2025-03-04') - firstDay;
    small[quietDay] = 0;
    expect(closedMonthDays({ firstDay, totals: small }).has('03-04')).toBe(false);
    // Nor is a date that sold in one of its years, small as the shop is.
    small[dayNumber('2025-12-25') - firstDay] = 3;
    expect([...closedMonthDays({ firstDay, totals: small })].sort()).toEqual(['01-01', '12-26']);
  });

  it("finds the weekday the whole shop is closed on, and none for a shop open every day", () => {
    expect(catalogueCalendar(new Map([['Hardware', shopTotals()]])).closedWeekdays).toEqual([0]);
    const { firstDay, totals } = shopTotals();
    const everyDay = totals.map((units, t) => (isSunday(firstDay + t) ? 150 : units));
    expect(catalogueCalendar(new Map([['Hardware', { firstDay, totals: everyDay }]])).closedWeekdays).toEqual([]);
  });

  it('reads closed weekdays from the weeks the shop sold in only', () => {
    // A new shop: twelve weeks of zero rows, then its first week's weekday sales; no weekend has been seen yet.
    const opening = Float64Array.from({ length: 12 * 7 }, (_, t) => (t >= 11 * 7 && !isSunday(FIRST + t) && new Date((FIRST + t) * 86_400_000).getUTCDay() !== 6 ? 9 : 0));
    expect(catalogueCalendar(new Map([['Hardware', { firstDay: FIRST, totals: opening }]])).closedWeekdays).toEqual([]);
    // Closed on Sundays, and for a fortnight in its last twelve weeks: still closed on Sundays.
    const { totals } = shopTotals();
    totals.fill(0, totals.length - 5 * 7, totals.length - 3 * 7);
    expect(catalogueCalendar(new Map([['Hardware', { firstDay: FIRST, totals }]])).closedWeekdays).toEqual([0]);
  });

  it('lists the closed dates of a forecast window', () => {
    expect(closedDatesBetween({ closedDates: ['01-01', '12-25', '12-26'] }, '2026-12-01', 40)).toEqual(['2026-12-25', '2026-12-26', '2027-01-01']);
  });

  it('forecasts zero with a zero band on closed dates, and does not read past holidays as lost demand', () => {
    const sales = Array.from({ length: 730 }, (_, t) => {
      const ds = formatDay(FIRST + t);
      return { ds, y: HOLIDAYS.has(ds.slice(5)) ? 0 : 8 + ((t * 5) % 3) };
    });
    const closedDates = ['2024-12-25', '2024-12-26', '2025-01-01', '2025-12-25', '2025-12-26', '2026-01-01', '2026-12-25', '2026-12-26', '2027-01-01'];
    const result = forecastOf({ sales, horizon: 60, today: '2026-12-01', closedDates });
    const rows = new Map(result.forecast.map((row) => [row.ds, row]));
    for (const ds of ['2026-12-25', '2026-12-26', '2027-01-01']) {
      expect(rows.get(ds)).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    }
    expect(rows.get('2026-12-24')?.yhat).toBeGreaterThan(7);
    expect(rows.get('2026-12-24')?.yhat_upper).toBeGreaterThan(8);
    expect(result.model.patterns).toContain('holidays');
    expect(result.model.description).toMatch(/Closed on public holidays\.$/);
  });

  it('refuses closed dates that are not dates', () => {
    expect(forecastProduct({ sales: [{ ds: '2026-01-01', y: 1 }], closedDates: ['25 Dec'] })).toEqual({ error: 'closedDates must be a list of YYYY-MM-DD dates.', code: 'invalid_input' });
  });
});

/** Days a shop closes on that move with Easter: Good Friday, Easter Monday, Ascension, Whit Monday. */
const isEasterHoliday = (day: number) => Object.values(EASTER_HOLIDAYS).some((offset) => day - easterSunday(Number(formatDay(day).slice(0, 4))) === offset);

/** A shop's daily units from `from` for `days` days: closed on Sundays and the Easter-based holidays, 200–240 units a day otherwise. */
function easterShopTotals(from: string, days: number): DailyTotals {
  const firstDay = dayNumber(from);
  return { firstDay, totals: Float64Array.from({ length: days }, (_, t) => (isSunday(firstDay + t) || isEasterHoliday(firstDay + t) ? 0 : 200 + ((t * 37) % 40))) };
}

describe('public holidays that move with Easter', () => {
  it('computes Easter Sunday with the Gregorian algorithm', () => {
    const known = ['1818-03-22', '1943-04-25', '2000-04-23', '2019-04-21', '2024-03-31', '2025-04-20', '2026-04-05', '2027-03-28', '2038-04-25'];
    expect(known.map((ds) => formatDay(easterSunday(Number(ds.slice(0, 4)))))).toEqual(known);
  });

  it('finds every Easter-based closure of three years, each on a different date every year, and no month-day', () => {
    const shop = easterShopTotals('2023-12-01', 3 * 365);
    expect([...closedEasterHolidays(shop)].sort()).toEqual(['ascension', 'easter_monday', 'good_friday', 'whit_monday']);
    expect(closedMonthDays(shop).size).toBe(0);
    const calendar = catalogueCalendar(new Map([['Hardware', shop]]));
    expect(calendar.closedHolidays).toEqual(['ascension', 'easter_monday', 'good_friday', 'whit_monday']);
    expect(calendar.closedDates).toEqual([]);
    // Easter 2027 is on 28 March.
    expect(closedDatesBetween(calendar, '2027-01-01', 365)).toEqual(['2027-03-26', '2027-03-29', '2027-05-06', '2027-05-17']);
  });

  it('reads a one-year history closed at Easter as the holidays, not as next year’s same month-days', () => {
    const shop = easterShopTotals('2025-06-01', 365);
    const calendar = catalogueCalendar(new Map([[null, shop]]));
    expect(calendar.closedHolidays).toEqual(['ascension', 'easter_monday', 'good_friday', 'whit_monday']);
    expect(calendar.closedDates).toEqual([]);
  });

  it('does not call a holiday closed when one of its years traded', () => {
    const shop = easterShopTotals('2023-12-01', 3 * 365);
    shop.totals[dayNumber('2025-04-21') - shop.firstDay] = 215;
    expect([...closedEasterHolidays(shop)].sort()).toEqual(['ascension', 'good_friday', 'whit_monday']);
  });

  it('forecasts zero with a zero band on next year’s Easter closures, and an ordinary day around them', () => {
    const shop = easterShopTotals('2024-12-01', 730);
    const calendar = catalogueCalendar(new Map([['Hardware', shop]]));
    const sales = Array.from({ length: 730 }, (_, t) => ({ ds: formatDay(shop.firstDay + t), y: isEasterHoliday(shop.firstDay + t) ? 0 : 8 + ((t * 5) % 3) }));
    const closedDates = closedDatesBetween(calendar, '2024-12-01', 730 + 200);
    const result = forecastOf({ sales, horizon: 200, today: '2026-12-01', closedDates });
    const rows = new Map(result.forecast.map((row) => [row.ds, row]));
    for (const ds of ['2027-03-26', '2027-03-29', '2027-05-06', '2027-05-17']) {
      expect(rows.get(ds)).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    }
    for (const ds of ['2027-03-25', '2027-03-30', '2027-04-03', '2027-04-06']) expect(rows.get(ds)?.yhat).toBeGreaterThan(7);
    expect(result.model.patterns).toContain('holidays');
  });
});

const GIFT_SHOP_FIRST = dayNumber('2025-10-01');
const GIFT_SHOP_CLOSED = new Set(['2025-12-25', '2026-01-26', '2026-04-03', '2026-04-25']);

/**
 * QA's Melbourne gift shop (pass 7, F8): 14 months of daily units up to 30 November 2026, open every
 * day, about 16 a day (25 in December, 12 from mid-March to mid-May), nothing on Christmas Day,
 * Australia Day, Good Friday (3 April) and Anzac Day 2026.
 */
function giftShopTotals(): DailyTotals {
  const days = dayNumber('2026-11-30') - GIFT_SHOP_FIRST + 1;
  const totals = Float64Array.from({ length: days }, (_, t) => {
    const ds = formatDay(GIFT_SHOP_FIRST + t);
    const monthDay = ds.slice(5);
    const level = monthDay.startsWith('12') ? 25 : monthDay >= '03-15' && monthDay <= '05-15' ? 12 : 16;
    return GIFT_SHOP_CLOSED.has(ds) ? 0 : level + ((t * 37) % 7) - 3;
  });
  return { firstDay: GIFT_SHOP_FIRST, totals };
}

describe("a small shop's public holidays from one year", () => {
  it("closes next year's Good Friday (a week earlier) and Anzac Day, with Christmas and Australia Day", () => {
    const calendar = catalogueCalendar(new Map([['Gifts', giftShopTotals()]]));
    expect(calendar.closedHolidays).toEqual(['good_friday']);
    expect(calendar.closedDates).toEqual(['01-26', '04-25', '12-25']);
    // Easter 2027 is on 28 March: Good Friday is 26 March.
    expect(closedDatesBetween(calendar, '2026-12-01', 365)).toEqual(['2026-12-25', '2027-01-26', '2027-03-26', '2027-04-25']);
  });

  it('forecasts a product zero on them, and an ordinary day around them', () => {
    const shop = giftShopTotals();
    const calendar = catalogueCalendar(new Map([['Gifts', shop]]));
    const sales = Array.from(shop.totals, (units, t) => ({ ds: formatDay(shop.firstDay + t), y: Math.round(units / 4) }));
    const closedDates = closedDatesBetween(calendar, formatDay(shop.firstDay), shop.totals.length + 365);
    const result = forecastOf({ sales, horizon: 365, today: '2026-12-01', closedDates });
    const rows = new Map(result.forecast.map((row) => [row.ds, row]));
    for (const ds of ['2027-03-26', '2027-04-25']) expect(rows.get(ds)).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0 });
    for (const ds of ['2027-03-25', '2027-03-27', '2027-04-24', '2027-04-26']) expect(rows.get(ds)?.yhat).toBeGreaterThan(1);
    expect(result.model.description).toContain('Closed on public holidays.');
  });

  it('does not close an ordinary date empty once at the same level, nor a holiday it traded on in the other year', () => {
    const { firstDay, totals } = giftShopTotals();
    // A Tuesday in April (12 a day) and a Thursday in October (16 a day) with no sale: chance, not closures.
    for (const ds of ['2026-04-14', '2025-10-16']) totals[dayNumber(ds) - firstDay] = 0;
    // Armistice Day empty in 2025, traded on in 2026.
    totals[dayNumber('2025-11-11') - firstDay] = 0;
    const closed = closedMonthDays({ firstDay, totals });
    // Good Friday's month-day (3 April) is an ordinary date too: its one empty year is the holiday's, not next 3 April's.
    expect([...closed].sort()).toEqual(['01-26', '04-25', '12-25']);
    // Empty in both years, Armistice Day is closed.
    totals[dayNumber('2026-11-11') - firstDay] = 0;
    expect(closedMonthDays({ firstDay, totals }).has('11-11')).toBe(true);
  });

  it("judges a busy shop's holidays as before: empty is closed, a quiet one is not", () => {
    const { firstDay, totals } = giftShopTotals();
    const busy = totals.map((units) => units * 15);
    expect(catalogueCalendar(new Map([['Gifts', { firstDay, totals: busy }]]))).toMatchObject({ closedHolidays: ['good_friday'], closedDates: ['01-26', '04-25', '12-25'] });
    // Anzac Day at a sixth of its neighbours: a quiet day, the shop was open.
    busy[dayNumber('2026-04-25') - firstDay] = 30;
    expect(closedMonthDays({ firstDay, totals: busy }).has('04-25')).toBe(false);
  });
});

/** A category of Christmas goods: about 40 units a day from mid-November to Christmas Eve, a few a week otherwise. */
function christmasCategory(): DailyTotals {
  const totals = Float64Array.from({ length: 730 }, (_, t) => (inSeason(formatDay(FIRST + t)) ? 40 : 0.3));
  return { firstDay: FIRST, totals };
}
const inSeason = (ds: string) => (ds.slice(5, 7) === '11' && Number(ds.slice(8)) >= 15) || (ds.slice(5, 7) === '12' && Number(ds.slice(8)) <= 24);

describe('pooled yearly pattern', () => {
  it('knows the day of a leap year, 29 Feb included', () => {
    expect(['2025-01-01', '2025-02-28', '2024-02-29', '2025-03-01', '2024-03-01', '2025-12-31'].map((ds) => dayOfLeapYear(dayNumber(ds)))).toEqual([0, 58, 59, 60, 60, 365]);
  });

  it('lays a profile out over the days from any start, across leap and common years', () => {
    const profile = Array.from({ length: 366 }, (_, i) => i);
    const from = dayNumber('2023-12-30');
    const index = yearlyIndex(profile, from, 800);
    index.forEach((value, t) => expect(value).toBe(dayOfLeapYear(from + t)));
  });

  it("finds a category's season: high before Christmas, low in spring, mean 1", () => {
    const profile = yearlyProfile(christmasCategory()) as number[];
    expect(profile).toHaveLength(366);
    expect(profile.reduce((a, b) => a + b, 0) / 366).toBeCloseTo(1, 2);
    expect(profile[dayOfLeapYear(dayNumber('2025-12-10'))]).toBeGreaterThan(5);
    expect(profile[dayOfLeapYear(dayNumber('2025-04-10'))]).toBeLessThan(0.3);
  });

  it('reads a day of returns only (a net negative day after Christmas) as no sales, never a negative profile', () => {
    const seasonOnly = Float64Array.from({ length: 730 }, (_, t) => (inSeason(formatDay(FIRST + t)) ? 40 : 0));
    const returned = Float64Array.from(seasonOnly);
    for (const ds of ['2025-12-27', '2025-12-29']) returned[dayNumber(ds) - FIRST] = -3;
    const profile = yearlyProfile({ firstDay: FIRST, totals: returned }) as number[];
    expect(profile.every((value) => value >= 0)).toBe(true);
    expect(profile).toEqual(yearlyProfile({ firstDay: FIRST, totals: seasonOnly }));
    const calendar = catalogueCalendar(new Map<string | null, DailyTotals>([['Christmas', { firstDay: FIRST, totals: returned }], [null, shopTotals()]]));
    const sales = Array.from({ length: 400 }, (_, t) => ({ ds: formatDay(FIRST + 330 + t), y: inSeason(formatDay(FIRST + 330 + t)) ? 3 : 0 }));
    expect(isForecastError(forecastProduct({ sales, horizon: 30, today: '2027-01-04', yearlyProfile: calendar.yearlyProfiles.Christmas! }))).toBe(false);
  });

  it('gives no profile for under a year of sales or too few units', () => {
    const { firstDay, totals } = christmasCategory();
    expect(yearlyProfile({ firstDay, totals: totals.subarray(0, 300) })).toBeNull();
    expect(yearlyProfile({ firstDay, totals: totals.map((units) => units / 10) })).toBeNull();
  });

  it('keeps profiles of categories with enough sales and of the whole catalogue', () => {
    const calendar = catalogueCalendar(new Map<string | null, DailyTotals>([['Christmas', christmasCategory()], ['Spares', { firstDay: FIRST, totals: new Float64Array(730).fill(0.1) }], [null, shopTotals()]]));
    expect(Object.keys(calendar.yearlyProfiles).sort()).toEqual(['*', 'Christmas']);
  });

  it("gives a small shop's catalogue the pattern of its year-round categories, not its Christmas lights' December", () => {
    // ~11 units a day of hardware, ~4 of garden goods all year, and fairy lights at 4 a day from mid-November to Christmas Eve.
    const hardware = shopTotals().totals.map((units) => Math.round(units / 20));
    const garden = hardware.map((units, t) => (units ? 2 + (t % 5) : 0));
    const lights = Float64Array.from({ length: 730 }, (_, t) => (inSeason(formatDay(FIRST + t)) ? 3 + (t % 3) : 0));
    const shop = new Map<string | null, DailyTotals>([
      ['Hardware', { firstDay: FIRST, totals: hardware }],
      ['Garden', { firstDay: FIRST, totals: garden }],
      ['Lighting', { firstDay: FIRST, totals: lights }],
    ]);
    const december = dayOfLeapYear(dayNumber('2025-12-10'));
    const whole = catalogueCalendar(shop).yearlyProfiles['*']!;
    expect(whole[december]).toBeGreaterThan(0.9);
    expect(whole[december]).toBeLessThan(1.08);
    // The sum of the shop's units has the lights' December (+25 %): what the screws were given before.
    expect(yearlyProfile({ firstDay: FIRST, totals: hardware.map((units, t) => units + garden[t]! + lights[t]!) })![december]).toBeGreaterThan(1.2);
  });

  it("keeps a garden centre's summer in its catalogue's pattern, and the Christmas category's season in its own", () => {
    const summer = (amplitude: number, base: number) =>
      Float64Array.from({ length: 730 }, (_, t) => Math.round(base * (1 + amplitude * Math.cos((2 * Math.PI * (dayOfLeapYear(FIRST + t) - 196)) / 366))));
    const garden = new Map<string | null, DailyTotals>([
      ['Plants', { firstDay: FIRST, totals: summer(0.8, 20) }],
      ['Furniture', { firstDay: FIRST, totals: summer(0.6, 8) }],
      ['Christmas', christmasCategory()],
    ]);
    const whole = catalogueCalendar(garden).yearlyProfiles['*']!;
    expect(whole[dayOfLeapYear(dayNumber('2025-07-15'))]).toBeGreaterThan(1.5);
    expect(whole[dayOfLeapYear(dayNumber('2025-12-10'))]).toBeLessThan(0.5);
    expect(catalogueCalendar(garden).yearlyProfiles['Christmas']![dayOfLeapYear(dayNumber('2025-12-10'))]).toBeGreaterThan(5);
  });

  it("keeps a Christmas shop's season in its catalogue's pattern when its other goods sell too little for one", () => {
    const shop = new Map<string | null, DailyTotals>([
      ['Christmas', christmasCategory()],
      ['Cards', { firstDay: FIRST, totals: Float64Array.from({ length: 730 }, (_, t) => (t % 3 === 0 ? 1 : 0)) }],
    ]);
    expect(catalogueCalendar(shop).yearlyProfiles['*']![dayOfLeapYear(dayNumber('2025-12-10'))]).toBeGreaterThan(5);
  });

  it('lets a Christmas item with one season of history ramp up before December and fall after it', () => {
    // Sold from September 2025, one season, up to 5 November 2026: too short for its own yearly models.
    const start = dayNumber('2025-09-01');
    const sales = Array.from({ length: dayNumber('2026-11-05') - start }, (_, t) => {
      const ds = formatDay(start + t);
      return { ds, y: inSeason(ds) ? 6 + (t % 3) : t % 17 === 0 ? 1 : 0 };
    });
    const profile = yearlyProfile(christmasCategory()) as number[];
    const result = forecastOf({ sales, horizon: 90, today: '2026-11-05', yearlyProfile: profile });
    const mean = (from: string, to: string) => {
      const rows = result.forecast.filter((row) => row.ds >= from && row.ds <= to);
      return rows.reduce((sum, row) => sum + row.yhat, 0) / rows.length;
    };
    expect(result.model.name).toMatch(/PooledYearly/);
    expect(result.model.patterns).toContain('yearly');
    expect(mean('2026-11-05', '2026-11-10')).toBeLessThan(1.5);
    expect(mean('2026-12-01', '2026-12-20')).toBeGreaterThan(4);
    expect(mean('2027-01-10', '2027-02-02')).toBeLessThan(1);
    // Without the category's pattern the item's history says nothing of December.
    const alone = forecastOf({ sales, horizon: 90, today: '2026-11-05' });
    expect(alone.model.name).not.toMatch(/Yearly/);
  });

  it('refuses a profile of the wrong length', () => {
    expect(forecastProduct({ sales: [{ ds: '2026-01-01', y: 1 }], yearlyProfile: [1, 2, 3] })).toEqual({ error: 'yearlyProfile must be 366 non-negative numbers.', code: 'invalid_input' });
  });
});

describe("new products' first weeks", () => {
  const start = dayNumber('2025-01-01');
  const end = start + 700;
  const starts = (category: string | null, firstSaleDay: number, unitsPerDay: number[]): ProductStart[] => unitsPerDay.map((rate) => ({ category, firstSaleDay, units: rate * 28 }));

  it('keeps the first-weeks daily demand of products that started within the history, per category and for the catalogue', () => {
    const rates = newItemRatesOf(
      [
        ...starts('Garden', start + 100, [1, 2, 3, 4, 10]),
        ...starts('Tools', start + 200, [0.5, 0.5]),
        // Selling from the history's first weeks: already listed, not new.
        ...starts('Garden', start + 5, [50, 50, 50]),
        // Its first four weeks are not over yet.
        ...starts('Garden', end - 10, [40]),
      ],
      start,
      end,
    );
    expect(rates).toEqual({ Garden: [1, 2, 3, 4, 10], '*': [0.5, 0.5, 1, 2, 3, 4, 10] });
  });

  it('keeps 21 quantiles of a large group', () => {
    const rates = newItemRatesOf(starts(null, start + 60, Array.from({ length: 201 }, (_, i) => i / 10)), start, end);
    expect(rates['*']).toEqual(Array.from({ length: 21 }, (_, i) => i));
  });

  it('stores them with the calendar', () => {
    const calendar = catalogueCalendar(new Map([['Garden', { firstDay: start, totals: new Float64Array(700).fill(30) }]]), starts('Garden', start + 100, [1, 2, 3, 4, 5]));
    expect(calendar.newItemRates).toEqual({ Garden: [1, 2, 3, 4, 5], '*': [1, 2, 3, 4, 5] });
  });

  it("counts from the catalogue's first sale, not from the start of the window read", () => {
    // A shop whose sales begin 500 days into the two-year window: its range, selling from that day,
    // is not five launches; a product that started 100 days after the shop's first sale is one.
    const totals = new Float64Array(730);
    totals.fill(30, 500);
    const range = starts('Garden', start + 500, [4, 4, 5, 6, 6]);
    expect(catalogueCalendar(new Map([['Garden', { firstDay: start, totals }]]), range).newItemRates).toEqual({});
    const launched = starts('Garden', start + 600, [1, 2, 3, 4, 5]);
    expect(catalogueCalendar(new Map([['Garden', { firstDay: start, totals }]]), [...range, ...launched]).newItemRates).toEqual({ Garden: [1, 2, 3, 4, 5], '*': [1, 2, 3, 4, 5] });
  });
});

// ADR 0171: a Manchester wholesaler closed on 25 and 26 Dec every year (learned) says it is also closed
// on Monday 28 Dec 2026 (the substitute bank holiday for the 26th, a Saturday) and on 4 Jan 2027
// (stock-take): dates no history shows.
describe("the shop's own closed dates", () => {
  const learned = { closedDates: ['12-25', '12-26'], closedHolidays: [], closedWeekdays: [0] };
  const calendar = { ...learned, closedOn: ['2026-12-28', '2027-01-04', '2025-06-02'] };

  it('are closed dates of the forecast window, and no delivery arrives on them', () => {
    expect(closedDatesBetween(calendar, '2026-12-01', 40)).toEqual(['2026-12-25', '2026-12-26', '2026-12-28', '2027-01-04']);
    expect(closedDatesBetween({ closedDates: [], closedOn: ['2026-12-28'] }, '2026-12-01', 40)).toEqual(['2026-12-28']);
    expect(firstOpenDayFrom(calendar, '2026-12-25')).toBe('2026-12-29'); // Fri 25, Sat 26, Sun 27, Mon 28 closed
    expect(firstOpenDayFrom(calendar, '2027-01-04')).toBe('2027-01-05');
  });

  it('are forecast zero with a zero band, the days around them as without', () => {
    const sales = Array.from({ length: 730 }, (_, t) => {
      const ds = formatDay(FIRST + t);
      return { ds, y: HOLIDAYS.has(ds.slice(5)) ? 0 : 8 + ((t * 5) % 3) };
    });
    const input = (closedDates: string[]) => ({ sales, horizon: 60, today: '2026-12-01', closedDates });
    const rowsOf = (result: ProductForecast) => new Map(result.forecast.map((row) => [row.ds, row]));
    const without = rowsOf(forecastOf(input(closedDatesBetween(learned, formatDay(FIRST), 730 + 60))));
    const withShop = rowsOf(forecastOf(input(closedDatesBetween(calendar, formatDay(FIRST), 730 + 60))));
    for (const ds of ['2026-12-28', '2027-01-04']) {
      expect(without.get(ds)?.yhat).toBeGreaterThan(7);
      expect(withShop.get(ds)).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    }
    for (const ds of ['2026-12-24', '2026-12-29', '2027-01-03', '2027-01-05']) expect(withShop.get(ds)).toEqual(without.get(ds));
  });

  // Amendment 2026-12-05: the shop's days are described as the shop's, not as public holidays.
  describe('in the description', () => {
    const sales = Array.from({ length: 730 }, (_, t) => {
      const ds = formatDay(FIRST + t);
      return { ds, y: HOLIDAYS.has(ds.slice(5)) ? 0 : 8 + ((t * 5) % 3) };
    });
    const closedDates = closedDatesBetween(calendar, formatDay(FIRST), 730 + 60);
    const shopClosedDates = [
      { date: '2026-12-28', note: 'Bank holiday (substitute)' },
      { date: '2027-01-04', note: 'Stock-take' },
    ];

    it("are the shop's closed days, by date and note, beside the learned public holidays", () => {
      const result = forecastOf({ sales, horizon: 60, today: '2026-12-01', closedDates, shopClosedDates });
      expect(result.model.patterns).toEqual(expect.arrayContaining(['holidays', 'shop_closed']));
      expect(result.model.description).toMatch(/ Closed on public holidays\. Closed on 28 Dec \(Bank holiday \(substitute\)\) and 4 Jan \(Stock-take\), as the shop's settings say\.$/);
      // Without the shop's list, the same closed days read as before: all public holidays.
      const before = forecastOf({ sales, horizon: 60, today: '2026-12-01', closedDates });
      expect(before.model.patterns).not.toContain('shop_closed');
      expect(before.model.description).toMatch(/ Closed on public holidays\.$/);
      expect(before.forecast).toEqual(result.forecast);
    });

    it('close their days even when the caller left them out of closedDates', () => {
      const learnedOnly = closedDatesBetween(learned, formatDay(FIRST), 730 + 60);
      const result = forecastOf({ sales, horizon: 60, today: '2026-12-01', closedDates: learnedOnly, shopClosedDates });
      expect(result.forecast).toEqual(forecastOf({ sales, horizon: 60, today: '2026-12-01', closedDates }).forecast);
    });

    it('leave the days past the horizon unsaid', () => {
      const result = forecastOf({ sales, horizon: 20, today: '2026-12-01', closedDates, shopClosedDates });
      expect(result.model.patterns).not.toContain('shop_closed');
      expect(result.model.description).not.toContain("shop's settings");
    });

    it.each([
      ['no date', [{ note: 'Stock-take' }]],
      ['a date written otherwise', [{ date: '04/01/2027' }]],
      ['a note that is no text', [{ date: '2027-01-04', note: 4 }]],
      ['no list', '2027-01-04'],
    ])('are refused with %s', (_name, given) => {
      expect(forecastProduct({ sales, shopClosedDates: given as never })).toEqual({ error: 'shopClosedDates must be a list of { date: YYYY-MM-DD, note?: text }.', code: 'invalid_input' });
    });
  });
});

describe('firstOpenDayFrom', () => {
  // A shop closed on Sundays, on 25/26 Dec and on Easter Monday.
  const calendar = { closedDates: ['12-25', '12-26'], closedHolidays: ['easter_monday' as const], closedWeekdays: [0] };
  it('keeps an open day, and moves a closed one to the next open day', () => {
    expect(firstOpenDayFrom(calendar, '2026-12-04')).toBe('2026-12-04'); // Friday
    expect(firstOpenDayFrom(calendar, '2026-12-06')).toBe('2026-12-07'); // Sunday → Monday
    expect(firstOpenDayFrom(calendar, '2027-12-25')).toBe('2027-12-27'); // Sat 25, Sun 26 closed both ways
    expect(firstOpenDayFrom(calendar, '2027-03-28')).toBe('2027-03-30'); // Easter Sunday, then Easter Monday
  });
  it('leaves the day alone when the calendar closes every day', () => {
    expect(firstOpenDayFrom({ closedDates: [], closedWeekdays: [0, 1, 2, 3, 4, 5, 6] }, '2026-12-06')).toBe('2026-12-06');
  });
});

// ADR 0188: holidays that move with the weekday, and a fixed holiday's substitute day.
const weekdayOfDay = (day: number) => new Date(day * 86_400_000).getUTCDay();
/** England's bank holidays (gov.uk) from December 2021 to November 2026, substitutes included, and the Christmas and New Year's Days they stand in for. */
const ENGLAND_BANK_HOLIDAYS = new Set([
  ...['2021-12-25', '2021-12-26', '2022-01-01', '2022-12-25', '2023-01-01'],
  ...['2021-12-27', '2021-12-28', '2022-01-03', '2022-04-15', '2022-04-18', '2022-05-02', '2022-06-02', '2022-06-03', '2022-08-29', '2022-09-19', '2022-12-26', '2022-12-27'],
  ...['2023-01-02', '2023-04-07', '2023-04-10', '2023-05-01', '2023-05-08', '2023-05-29', '2023-08-28'],
  ...['2024-12-25', '2024-12-26', '2025-01-01', '2025-04-18', '2025-04-21', '2025-05-05', '2025-05-26', '2025-08-25', '2025-12-25', '2025-12-26'],
  ...['2026-01-01', '2026-04-03', '2026-04-06', '2026-05-04', '2026-05-25', '2026-08-31'],
]);
/** The United States' federal holidays a shop closes on: New Year, Memorial Day, 4 July, Labor Day, Thanksgiving, Christmas. */
const US_CLOSURES = new Set(['2024-12-25', '2025-01-01', '2025-05-26', '2025-07-04', '2025-09-01', '2025-11-27', '2025-12-25', '2026-01-01', '2026-05-25', '2026-07-04', '2026-09-07', '2026-11-26']);

/** A shop's daily units from `from` for `days` days: 15–40 a day (times `scale`), nothing on the `closed` dates and, when `closedOnSundays`, on Sundays. */
function movingHolidayShop(from: string, days: number, closed: ReadonlySet<string>, { scale = 1, closedOnSundays = true } = {}): DailyTotals {
  const firstDay = dayNumber(from);
  const totals = Float64Array.from({ length: days }, (_, t) => {
    const day = firstDay + t;
    const ds = formatDay(day);
    return closed.has(ds) || (closedOnSundays && weekdayOfDay(day) === 0) ? 0 : Math.round((15 + ((t * 37) % 26)) * scale);
  });
  return { firstDay, totals };
}

describe('public holidays that move with the weekday (ADR 0188)', () => {
  const ukShop = () => movingHolidayShop('2024-12-01', 730, ENGLAND_BANK_HOLIDAYS);

  it("finds a UK shop's early May, spring and summer bank holidays, and no month-day of theirs", () => {
    const calendar = catalogueCalendar(new Map([['Hardware', ukShop()]]));
    expect(calendar.closedNthWeekdays).toEqual([
      { month: 5, weekday: 1, nth: 1 },
      { month: 5, weekday: 1, nth: 'last' },
      { month: 8, weekday: 1, nth: 'last' },
    ]);
    expect(calendar).toMatchObject({ closedDates: ['01-01', '12-25', '12-26'], closedHolidays: ['easter_monday', 'good_friday'], closedWeekdays: [0], closedSubstitutes: [] });
    // 2027: Good Friday 26 March, Easter Monday 29 March, bank holidays on 3 May, 31 May and 30 August.
    expect(closedDatesBetween(calendar, '2026-12-01', 365)).toEqual(['2026-12-25', '2026-12-26', '2027-01-01', '2027-03-26', '2027-03-29', '2027-05-03', '2027-05-31', '2027-08-30']);
    expect(firstOpenDayFrom(calendar, '2027-08-29')).toBe('2027-08-31'); // Sunday, then the bank holiday
  });

  it("reads one year of them as the holidays, not as next year's same dates", () => {
    // 25 August 2025 was the summer bank holiday; 25 August 2026 is a Tuesday.
    const calendar = catalogueCalendar(new Map([['Hardware', movingHolidayShop('2024-12-01', 365, ENGLAND_BANK_HOLIDAYS)]]));
    expect(calendar.closedNthWeekdays).toHaveLength(3);
    expect(calendar.closedDates).toEqual(['01-01', '12-25', '12-26']);
  });

  it("forecasts a product zero on 2027's bank holidays, an ordinary day around them, and names them", () => {
    const shop = ukShop();
    const calendar = catalogueCalendar(new Map([['Hardware', shop]]));
    const sales = Array.from(shop.totals, (units, t) => ({ ds: formatDay(shop.firstDay + t), y: Math.round(units / 5) }));
    const closedDates = closedDatesBetween(calendar, formatDay(shop.firstDay), shop.totals.length + 365);
    const result = forecastOf({ sales, horizon: 365, today: '2026-12-01', closedDates, closedWeekdays: calendar.closedWeekdays!, closedNthWeekdays: calendar.closedNthWeekdays! });
    const rows = new Map(result.forecast.map((row) => [row.ds, row]));
    for (const ds of ['2027-05-03', '2027-05-31', '2027-08-30']) expect(rows.get(ds)).toMatchObject({ yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 });
    for (const ds of ['2027-05-04', '2027-05-10', '2027-05-24', '2027-06-01', '2027-08-31']) expect(rows.get(ds)?.yhat).toBeGreaterThan(2);
    expect(result.model.patterns).toContain('holidays');
    expect(result.model.description).toContain(
      'Closed on the first Monday of May (early May bank holiday), the last Monday of May (spring bank holiday or Memorial Day), the last Monday of August (summer bank holiday) and other public holidays.',
    );
    // Ninety days from 1 March: Easter and two of the bank holidays ahead.
    const spring = forecastOf({ sales: sales.slice(0, -274), horizon: 90, today: '2026-03-01', closedDates, closedNthWeekdays: calendar.closedNthWeekdays! });
    expect(spring.model.description).toMatch(/ Closed on the first Monday of May \(early May bank holiday\), the last Monday of May \(spring bank holiday or Memorial Day\) and other public holidays\.$/);
  });

  it("finds a US shop's Memorial Day, Labor Day and Thanksgiving", () => {
    const shop = movingHolidayShop('2024-12-01', 730, US_CLOSURES, { closedOnSundays: false });
    const calendar = catalogueCalendar(new Map([['Hardware', shop]]));
    expect(calendar.closedNthWeekdays).toEqual([
      { month: 5, weekday: 1, nth: 'last' },
      { month: 9, weekday: 1, nth: 1 },
      { month: 11, weekday: 4, nth: 4 },
    ]);
    expect(calendar).toMatchObject({ closedDates: ['01-01', '07-04', '12-25'], closedHolidays: [], closedWeekdays: [] });
    // 2027: 31 May, 6 September, 25 November.
    expect(closedDatesBetween(calendar, '2027-01-02', 360)).toEqual(['2027-05-31', '2027-07-04', '2027-09-06', '2027-11-25', '2027-12-25']);
  });

  it('finds none for a shop open on them, nor when one year traded on one', () => {
    expect(catalogueCalendar(new Map([['Hardware', shopTotals()]]))).toMatchObject({ closedNthWeekdays: [], closedSubstitutes: [] });
    const christmas = new Set(['2024-12-25', '2024-12-26', '2025-12-25', '2025-12-26']);
    expect(catalogueCalendar(new Map([['Hardware', movingHolidayShop('2024-12-01', 730, christmas)]]))).toMatchObject({ closedNthWeekdays: [], closedSubstitutes: [], closedDates: ['12-25', '12-26'] });
    const shop = ukShop();
    shop.totals[dayNumber('2026-08-31') - shop.firstDay] = 30;
    expect(closedNthWeekdays(shop).map(({ month, nth }) => `${month}-${nth}`)).toEqual(['5-1', '5-last']);
    // Nor its month-days: 25 August 2025 and 31 August 2026 were each one year's bank holiday.
    expect(closedMonthDays(shop).has('08-25')).toBe(false);
  });

  it('finds none in a shop too small for its empty days to say anything, and adds up two years of a small one', () => {
    // About 2–6 units a day: no year counts.
    expect(closedNthWeekdays(movingHolidayShop('2024-12-01', 730, ENGLAND_BANK_HOLIDAYS, { scale: 0.15 }))).toEqual([]);
    // About 5–10: one year of it is not enough, two years that agree are.
    const small = movingHolidayShop('2024-12-01', 730, ENGLAND_BANK_HOLIDAYS, { scale: 0.3 });
    expect(closedNthWeekdays({ firstDay: small.firstDay, totals: small.totals.slice(365) })).toEqual([]);
    expect(closedNthWeekdays(small)).toHaveLength(3);
  });

  it("lists a rule's day of each year: the fourth Thursday of November 2024 was its last, the last Monday of October 2026 its fourth", () => {
    expect(closedDatesBetween({ closedDates: [], closedNthWeekdays: [{ month: 11, weekday: 4, nth: 4 }] }, '2024-11-01', 30)).toEqual(['2024-11-28']);
    expect(closedDatesBetween({ closedDates: [], closedNthWeekdays: [{ month: 10, weekday: 1, nth: 'last' }] }, '2026-10-01', 31)).toEqual(['2026-10-26']);
  });

  it.each([
    ['a month 13', [{ month: 13, weekday: 1, nth: 1 }]],
    ['a fifth Monday', [{ month: 5, weekday: 1, nth: 5 }]],
    ['a weekday 7', [{ month: 5, weekday: 7, nth: 'last' }]],
    ['no list', { month: 5, weekday: 1, nth: 1 }],
    ['a day of the month with a second Monday', [{ month: 5, weekday: 1, nth: 2, onOrBefore: 24 }]],
    ['31 April', [{ month: 4, weekday: 1, nth: 'last', onOrBefore: 31 }]],
    ['a day before the 7th', [{ month: 5, weekday: 1, nth: 'last', onOrBefore: 6 }]],
    ['an offset of a week', [{ month: 11, weekday: 4, nth: 4, offset: 7 }]],
    ['an offset of half a day', [{ month: 11, weekday: 4, nth: 4, offset: 0.5 }]],
  ])('refuses weekday-of-month closures with %s', (_name, given) => {
    expect(forecastProduct({ sales: [{ ds: '2026-01-01', y: 1 }], closedNthWeekdays: given as never })).toEqual({
      error: "closedNthWeekdays must be a list of { month: 1 to 12, weekday: 0 (Sunday) to 6, nth: 1 to 4 or 'last', onOrBefore?: 7 to the month's last day (with 'last'), offset?: -6 to 6 days }.",
      code: 'invalid_input',
    });
  });
});

describe('the day after Thanksgiving and Victoria Day (ADR 0188, amendment 2026-12-06)', () => {
  // Three years of a shop, November 2023 to November 2026, closed on Sundays, the `closed` dates and 25 December and 1 January.
  const shopClosedOn = (closed: string[]) => movingHolidayShop('2023-11-01', dayNumber('2026-12-01') - dayNumber('2023-11-01'), new Set([...closed, '2023-12-25', '2024-01-01', '2024-12-25', '2025-01-01', '2025-12-25', '2026-01-01']));
  /** A product of the shop (a fifth of its units) forecast for the year from 1 December 2026 with the shop's calendar. */
  const forecastWith = (shop: DailyTotals, calendar: ReturnType<typeof catalogueCalendar>) => {
    const sales = Array.from(shop.totals, (units, t) => ({ ds: formatDay(shop.firstDay + t), y: Math.round(units / 5) }));
    const closedDates = closedDatesBetween(calendar, formatDay(shop.firstDay), shop.totals.length + 365);
    const result = forecastOf({ sales, horizon: 365, today: '2026-12-01', closedDates, closedWeekdays: calendar.closedWeekdays!, closedNthWeekdays: calendar.closedNthWeekdays! });
    return { rows: new Map(result.forecast.map((row) => [row.ds, row])), model: result.model };
  };
  const closedRow = { yhat: 0, yhat_lower: 0, yhat_upper: 0, yhat_lower_80: 0, yhat_upper_80: 0 };

  it('learns a US wholesaler shut on Thanksgiving and the Friday after it, and forecasts zero on both next year', () => {
    // 1 November 2024 was a Friday: that year the Friday after Thanksgiving (the 29th) was the fifth Friday.
    const shop = shopClosedOn(['2023-11-23', '2023-11-24', '2024-11-28', '2024-11-29', '2025-11-27', '2025-11-28', '2026-11-26', '2026-11-27']);
    const calendar = catalogueCalendar(new Map([['Office supplies', shop]]));
    expect(calendar.closedNthWeekdays).toEqual([
      { month: 11, weekday: 4, nth: 4 },
      { month: 11, weekday: 4, nth: 4, offset: 1 },
    ]);
    // No month-day of theirs: 27 or 29 November is not closed every year.
    expect(calendar).toMatchObject({ closedDates: ['01-01', '12-25'], closedHolidays: [], closedWeekdays: [0], closedSubstitutes: [] });
    const { rows, model } = forecastWith(shop, calendar);
    for (const ds of ['2027-11-25', '2027-11-26']) expect(rows.get(ds), ds).toMatchObject(closedRow);
    for (const ds of ['2027-11-19', '2027-11-24', '2027-11-27', '2027-11-29']) expect(rows.get(ds)?.yhat, ds).toBeGreaterThan(2);
    expect(model.description).toContain(
      'Closed on the fourth Thursday of November (Thanksgiving), the Friday after the fourth Thursday of November (day after Thanksgiving) and other public holidays.',
    );
    // 2030: 1 November a Friday again; the fourth Friday (the 22nd) stays open.
    expect(closedDatesBetween(calendar, '2030-11-01', 30)).toEqual(['2030-11-28', '2030-11-29']);
  });

  it('learns a Canadian shop shut on Victoria Day and Thanksgiving in October, and forecasts zero on both next year', () => {
    // Victoria Day: 20 May 2024 (also Whit Monday), 19 May 2025, 18 May 2026; Thanksgiving: 14, 13 and 12 October.
    const shop = shopClosedOn(['2024-05-20', '2025-05-19', '2026-05-18', '2024-10-14', '2025-10-13', '2026-10-12']);
    const calendar = catalogueCalendar(new Map([['Hardware', shop]]));
    expect(calendar.closedNthWeekdays).toEqual([
      { month: 5, weekday: 1, nth: 'last', onOrBefore: 24 },
      { month: 10, weekday: 1, nth: 2 },
    ]);
    expect(calendar).toMatchObject({ closedDates: ['01-01', '12-25'], closedHolidays: [], closedSubstitutes: [] });
    // 2027: Victoria Day on the 24th itself, the fourth Monday; the last Monday of May (31st) open.
    expect(closedDatesBetween(calendar, '2027-05-01', 31)).toEqual(['2027-05-24']);
    const { rows, model } = forecastWith(shop, calendar);
    for (const ds of ['2027-05-24', '2027-10-11']) expect(rows.get(ds), ds).toMatchObject(closedRow);
    for (const ds of ['2027-05-17', '2027-05-25', '2027-05-31', '2027-10-12']) expect(rows.get(ds)?.yhat, ds).toBeGreaterThan(2);
    expect(model.description).toContain('Closed on the last Monday on or before 24 May (Victoria Day), the second Monday of October (Thanksgiving in Canada or Columbus Day) and other public holidays.');
  });

  it('finds neither in a shop open on them, nor when one year traded on one', () => {
    expect(closedNthWeekdays(shopClosedOn([]))).toEqual([]);
    // Open on the Friday after Thanksgiving 2025 (Black Friday, for a shop): Thanksgiving alone.
    const shop = shopClosedOn(['2023-11-23', '2023-11-24', '2024-11-28', '2024-11-29', '2025-11-27', '2026-11-26', '2026-11-27']);
    expect(closedNthWeekdays(shop)).toEqual([{ month: 11, weekday: 4, nth: 4 }]);
  });
});

describe("a fixed holiday's substitute day (ADR 0188)", () => {
  // December 2021 to November 2023: Christmas on a Saturday, New Year's Day on a Saturday, then Christmas and
  // New Year's Day on Sundays. The shop closes on England's Christmas and New Year bank holidays.
  const christmasAndNewYear = new Set([...ENGLAND_BANK_HOLIDAYS].filter((ds) => ['12', '01'].includes(ds.slice(5, 7))));
  const shop = () => movingHolidayShop('2021-12-01', 730, christmasAndNewYear);

  it('closes the weekday after a Christmas or Boxing Day on a weekend, and not its date in other years', () => {
    const calendar = catalogueCalendar(new Map([['Hardware', shop()]]));
    expect(calendar.closedSubstitutes).toEqual(['12-25', '12-26']);
    // 27 December was a substitute in both years: no date of its own (before, a closure every 27 December).
    // 2 January 2023 (New Year's Day's substitute) is read as a holiday of its own: one year cannot tell it
    // from a Scottish shop's, so New Year's Day has no substitute.
    expect(calendar.closedDates).toEqual(['01-01', '01-02', '12-25', '12-26']);
    // Christmas 2023 on a Monday: no substitute, 27 December open; 2027 on a Saturday: Monday 27 and Tuesday 28 closed.
    expect(closedDatesBetween(calendar, '2023-12-20', 10)).toEqual(['2023-12-25', '2023-12-26']);
    expect(closedDatesBetween(calendar, '2027-12-20', 10)).toEqual(['2027-12-25', '2027-12-26', '2027-12-27', '2027-12-28']);
    expect(firstOpenDayFrom(calendar, '2027-12-25')).toBe('2027-12-29');
  });

  it('keeps a date a shop closes every year for its week off, also in a year it was a substitute', () => {
    // Closed from Christmas Eve to 2 January, every year.
    const weekOff = (ds: string) => ds.slice(5) >= '12-24' || ds.slice(5) <= '01-02';
    const { firstDay, totals } = movingHolidayShop('2024-12-01', 1095, new Set());
    totals.forEach((_, t) => {
      if (weekOff(formatDay(firstDay + t))) totals[t] = 0;
    });
    const calendar = catalogueCalendar(new Map([['Hardware', { firstDay, totals }]]));
    expect(calendar.closedDates).toEqual(['01-01', '01-02', '12-24', '12-25', '12-26', '12-27', '12-28', '12-29', '12-30', '12-31']);
  });

  it('needs the substitute closed in every year that had one', () => {
    const { firstDay, totals } = shop();
    totals[dayNumber('2022-12-27') - firstDay] = 30;
    expect(catalogueCalendar(new Map([['Hardware', { firstDay, totals }]])).closedSubstitutes).toEqual(['12-26']);
  });
});

// ADR 0203 F4: a Lyon épicerie closed on Mondays, 25 December and 1 January, and three weeks in August
// (Sunday 3 to Sunday 24 August 2025, Sunday 2 to Sunday 23 August 2026), its congés typed in Settings → Shop.
describe("an épicerie's three weeks of congés in August (ADR 0203 F4)", () => {
  const from = dayNumber('2024-12-03');
  const congés = [...datesFrom('2025-08-03', 22), ...datesFrom('2026-08-02', 22)];
  const holidays = ['2024-12-25', '2025-01-01', '2025-12-25', '2026-01-01'];
  const closedOn = [...congés, ...holidays];
  // Sunday mornings quieter, Saturdays busiest, December busier; flat from June to October.
  const weekdayShare = [0.5, 0, 1, 0.9, 1, 1.1, 1.6];
  const shopClosedOn = (closed: readonly string[]) => {
    const closedDays = new Set(closed);
    const totals = Float64Array.from({ length: 734 }, (_, t) => {
      const ds = formatDay(from + t);
      if (closedDays.has(ds)) return 0;
      const december = ds.slice(5, 7) === '12' ? (ds.slice(8) >= '18' ? 1.8 : 1.3) : 1;
      return Math.round(60 * weekdayShare[new Date((from + t) * 86_400_000).getUTCDay()]! * december * (1 + (((t * 37) % 11) - 5) / 100));
    });
    return new Map<string | null, DailyTotals>([['Épicerie', { firstDay: from, totals }]]);
  };
  const shop = shopClosedOn(closedOn);
  const at = (profile: number[], date: string) => profile[dayOfLeapYear(dayNumber(date))]!;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  // The open weeks around the congés: the second half of July, the first fortnight of September.
  const openAround = [...datesFrom('2024-07-13', 17), ...datesFrom('2024-09-01', 14)];
  const reopened = datesFrom('2024-08-25', 7);

  function datesFrom(first: string, days: number): string[] {
    return Array.from({ length: days }, (_, k) => formatDay(dayNumber(first) + k));
  }

  it('learns all 22 days of the congés, also the four that fell on a Monday in one of the two years', () => {
    // 10, 11, 17 and 18 August: a Monday (no evidence) in one year, in the other their fortnight either side mostly the congés' own empty days.
    const congésMonthDays = datesFrom('2025-08-03', 22).map((ds) => ds.slice(5));
    expect(catalogueCalendar(shop).closedDates).toEqual(['01-01', ...congésMonthDays, '12-25']);
    // A shop open through August closes none of it; nor does one whose three weeks are only slow (a fifth of its trade, never empty).
    expect(catalogueCalendar(shopClosedOn(holidays)).closedDates).toEqual(['01-01', '12-25']);
    const slow = shopClosedOn(holidays).get('Épicerie')!;
    for (const ds of congés) slow.totals[dayNumber(ds) - from] = Math.round(slow.totals[dayNumber(ds) - from]! / 5);
    expect(catalogueCalendar(new Map([['Épicerie', slow]])).closedDates).toEqual(['01-01', '12-25']);
  });

  it('keeps the week after the reopening at the level of the open weeks around the congés, typed or learned', () => {
    for (const shopDays of [closedOn, []]) {
      const profile = catalogueCalendar(shop, [], shopDays).yearlyProfiles[CATALOGUE_PROFILE]!;
      const around = mean(openAround.map((ds) => at(profile, ds)));
      for (const ds of [...reopened, ...openAround]) expect(Math.abs(at(profile, ds) / around - 1), ds).toBeLessThan(0.03);
    }
  });

  it('fills the congés the shop typed across, and reads next summer’s open days as a shop open all August would', () => {
    const typed = catalogueCalendar(shop, [], closedOn);
    const profile = typed.yearlyProfiles[CATALOGUE_PROFILE]!;
    const around = mean(openAround.map((ds) => at(profile, ds)));
    for (const ds of datesFrom('2024-08-03', 22)) expect(Math.abs(at(profile, ds) / around - 1), ds).toBeLessThan(0.03);
    // The same shop had it traded through August: its open days' index is the same, not raised by a month of no demand.
    const openAllAugust = catalogueCalendar(shopClosedOn(holidays), [], holidays).yearlyProfiles[CATALOGUE_PROFILE]!;
    for (const ds of [...reopened, ...openAround]) expect(Math.abs(at(profile, ds) / at(openAllAugust, ds) - 1), ds).toBeLessThan(0.02);
    // Learned alone, the congés are filled across too, their Monday-in-one-year days with them.
    const learned = catalogueCalendar(shop).yearlyProfiles[CATALOGUE_PROFILE]!;
    for (const ds of ['2024-08-10', '2024-08-11', '2024-08-17', '2024-08-18']) expect(Math.abs(at(learned, ds) / around - 1), ds).toBeLessThan(0.03);
    // The typed days are not kept in the calendar: the server adds the shop's current list to each run's.
    expect(typed.closedOn).toBeUndefined();
  });
});
