// axe-core's WCAG 2 A/AA rules run in the page under test; every screen's e2e test calls this.
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

type AxeViolation = { id: string; impact: string | null; help: string; nodes: { target: string[] }[] };

let axeSource: Promise<string> | null = null;

/** The WCAG 2 A and AA violations on the page as it is now, one readable line each; `exclude` leaves parts out (CSS selectors). */
export async function wcagViolations(page: Page, options: { exclude?: string[] } = {}): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: await axeSource });
  const violations = await page.evaluate(async (exclude) => {
    const axe = (window as unknown as { axe: { run: (context: object, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run({ include: [['html']], exclude: exclude.map((selector) => [selector]) }, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  }, options.exclude ?? []);
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 10).join(', ')}`);
}
