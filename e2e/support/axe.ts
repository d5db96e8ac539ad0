// Runs axe-core's WCAG 2 A and AA rules in the page (optionally inside one element) and returns
// the violations, each as "rule: what is wrong: the elements", so a failure says what to fix.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type AxeViolation = { id: string; help: string; nodes: { target: unknown[]; any?: { message?: string }[] }[] };

export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  // Evaluated over the DevTools protocol, not as a <script> tag: the app's CSP refuses inline scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  // A dialog fading in has blended colours: contrast is judged once transitions have finished.
  // (Endless ones, a loader or the assistant's glow, are left alone.)
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  const violations = await page.evaluate(async (context) => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[]; incomplete: AxeViolation[] }> } }).axe;
    const result = await axe.run(context ? document.querySelector(context) : document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    // axe leaves text drawn in its background's own colour "to review" (it might be hidden on
    // purpose); on these screens it is a label nobody can read, as the report's Delete button was.
    const unreadable = result.incomplete
      .filter((v) => v.id === 'color-contrast')
      .map((v) => ({ ...v, help: `${v.help} (1:1)`, nodes: v.nodes.filter((node) => node.any?.some((check) => check.message?.includes('1:1 contrast ratio'))) }))
      .filter((v) => v.nodes.length > 0);
    return [...result.violations, ...unreadable].map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((node) => node.target.join(' ')) }));
  }, selector ?? null);
  return violations.map((v) => `${v.id}: ${v.help}: ${v.targets.join(', ')}`);
}
