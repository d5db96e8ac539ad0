// The dates a table's rule limits (packages/contract date-rules.ts), for the server's writes.
import { dateRuleChecker, dateRuleOf, dateRuleProblem } from '@stockwise/contract';

/**
 * The column of `table` (by its database name) whose dates a rule limits, and why `day` breaks it
 * (null when it does not); `checker` answers the same for many days against one `now` (a file's lines).
 */
export function datedColumn(table: string): { column: string; problem(day: string, now?: Date): string | null; checker(now: Date): (day: string) => string | null } | undefined {
  const rule = dateRuleOf(table);
  return rule && { column: rule.column, problem: (day, now) => dateRuleProblem(rule.kind, day, now), checker: (now) => dateRuleChecker(rule.kind, now) };
}
