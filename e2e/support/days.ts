// Days as the app writes them, day first ("5 Dec", "5 Dec 2026"; packages/contract dates.ts), spelled
// out here rather than with the app's own code or Intl's en-GB, which writes September "Sept".
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const isoOf = (day: string | Date) => (typeof day === 'string' ? day : day.toISOString().slice(0, 10));

/** A day (YYYY-MM-DD, or a Date's UTC day) without its year: "5 Dec". */
export const dayOfMonth = (day: string | Date) => {
  const iso = isoOf(day);
  return `${Number(iso.slice(8, 10))} ${MONTHS[Number(iso.slice(5, 7)) - 1]}`;
};

/** A day with its year: "5 Dec 2026". */
export const fullDay = (day: string | Date) => `${dayOfMonth(day)} ${isoOf(day).slice(0, 4)}`;
