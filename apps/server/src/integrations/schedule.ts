// When an integration runs: its frequency as a cron expression (in the integration's time zone),
// checked by cron-parser, and the next time it fires. pg-boss keeps one schedule per enabled integration (service.ts) and fires
// it at most once a minute, so custom expressions have five fields (no seconds).
import { CronExpressionParser } from 'cron-parser';
import { frequencyCron, type ScheduleFrequency } from '@stockwise/contract';

export function scheduleCron(frequency: ScheduleFrequency, custom: string | null): string {
  return frequency === 'custom' ? (custom ?? '') : frequencyCron[frequency];
}

/** Null when `expression` is a five-field cron expression cron-parser reads, else why not. */
export function cronProblem(expression: string): string | null {
  const fields = expression.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5) return 'A cron expression has five fields: minute, hour, day of month, month, day of week.';
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
    return null;
  } catch (error) {
    return `Not a valid cron expression: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export function nextRunTime(cron: string, after: Date, timeZone: string): Date | null {
  try {
    return CronExpressionParser.parse(cron, { tz: timeZone, currentDate: after }).next().toDate();
  } catch {
    return null;
  }
}
