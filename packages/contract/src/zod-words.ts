import { z } from 'zod';

type LimitIssue = { code: string; origin?: string; maximum?: number | bigint; minimum?: number | bigint; inclusive?: boolean };

const UNITS: Record<string, [one: string, many: string]> = { string: ['character', 'characters'], array: ['item', 'items'], set: ['item', 'items'] };

const counted = (origin: string, limit: number | bigint) => {
  const [one, many] = UNITS[origin] ?? ['', ''];
  return one ? `${limit} ${limit === 1 || limit === 1n ? one : many}` : `${limit}`;
};

/**
 * A range rule a field broke, in the words people read in a 400 ("forecast_days: Must be at most
 * 365."), not zod's ("Too big: expected number to be <=365"); undefined leaves zod's own words (a
 * schema's own message always wins).
 */
export function limitWords(issue: LimitIssue): string | undefined {
  const origin = issue.origin ?? '';
  if (!['number', 'int', 'bigint', 'string', 'array', 'set'].includes(origin)) return undefined;
  if (issue.code === 'too_big' && issue.maximum !== undefined) {
    return issue.inclusive === false ? `Must be less than ${counted(origin, issue.maximum)}.` : `Must be at most ${counted(origin, issue.maximum)}.`;
  }
  if (issue.code === 'too_small' && issue.minimum !== undefined) {
    if (origin === 'string' && Number(issue.minimum) === 1) return 'This field may not be blank.';
    if (issue.inclusive === false) return `Must be more than ${counted(origin, issue.minimum)}.`;
    return Number(issue.minimum) === 0 && origin !== 'string' && origin !== 'array' && origin !== 'set' ? 'Must be 0 or more.' : `Must be at least ${counted(origin, issue.minimum)}.`;
  }
  return undefined;
}

z.config({ customError: (issue) => limitWords(issue) });
