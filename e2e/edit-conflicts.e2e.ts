// Two people editing one row at once (QA F8, ADR 0168): the second save is refused with who saved
// first and when, what the second person typed stays in the form beside the first person's values,
// and Reload (from the keyboard) shows the row as it is now.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations } from './support/axe.ts';
import { signIn, useBrowser } from './support/browser.ts';
import { demoUser } from './support/context.ts';

const browser = useBrowser({ locale: 'en-GB' });

/** A call to the records API as the demo user, outside the pages. */
async function asDemoUser(path: string, body: unknown): Promise<Response> {
  const json = { 'content-type': 'application/json' };
  const { access } = (await (await fetch(`${browser.baseUrl}/api/token/`, { method: 'POST', headers: json, body: JSON.stringify(demoUser) })).json()) as { access: string };
  return fetch(`${browser.baseUrl}/api/records/tables/${path}`, { method: 'POST', headers: { ...json, authorization: `Bearer ${access}` }, body: JSON.stringify(body) });
}

async function openTable(page: Page, name: string): Promise<void> {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Data', exact: true }).click();
  await page.getByRole('treeitem', { name, exact: true }).click();
  await page.getByTestId('table-title').filter({ hasText: name }).waitFor();
  await page.getByTestId('data-grid').waitFor();
}

const phoneCell = (page: Page) => page.getByTestId('data-grid').locator('[data-row-id="1"] [data-column="phone"]');
const phoneField = (page: Page) => page.getByTestId('row-form').getByRole('textbox', { name: 'Phone' });

describe('two people editing one row', () => {
  it('refuses the second save, keeps what was typed, shows the first save and reloads it', async () => {
    const name = `Suppliers ${randomBytes(3).toString('hex')}`;
    const created = await asDemoUser('create/', { name, folder: 'Tests', columns: [{ key: 'name', type: 'CharField', max_length: 50, required: true }, { key: 'phone', type: 'CharField', max_length: 30 }] });
    expect(created.status).toBe(201);
    expect((await asDemoUser(`${encodeURIComponent(name)}/rows/add/`, { name: 'Pennine Pots', phone: '0161 000' })).status).toBe(201);

    const first = browser.page;
    const secondContext = await browser.browser.newContext({ baseURL: browser.baseUrl, locale: 'en-GB' });
    secondContext.setDefaultTimeout(30_000);
    try {
      const second = await secondContext.newPage();
      await openTable(first, name);
      await openTable(second, name);

      // Both open the row; the first saves.
      await phoneCell(second).dblclick();
      await phoneField(second).waitFor();
      await phoneCell(first).dblclick();
      await phoneField(first).fill('0161 222');
      await first.getByTestId('row-form').getByRole('button', { name: 'Save' }).click();
      await first.getByTestId('row-form').waitFor({ state: 'detached' });
      await phoneCell(first).filter({ hasText: '0161 222' }).waitFor();

      // The second, on the row as it opened it, is refused: nothing of theirs is lost, nothing of the first is overwritten.
      await phoneField(second).fill('0161 333');
      await second.getByTestId('row-form').getByRole('button', { name: 'Save' }).click();
      const error = second.getByTestId('row-form-error');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^This row was changed by demo at \d\d:\d\d after you opened it\. Reload to see their change, then edit again\./);
      expect(await phoneField(second).inputValue()).toBe('0161 333');
      expect(await second.getByRole('list', { name: 'The values saved meanwhile' }).getByRole('listitem').allTextContents()).toEqual(['Phone: 0161 222']);
      // The grid behind the form shows the first person's save.
      await phoneCell(second).filter({ hasText: '0161 222' }).waitFor();
      expect(await axeViolations(second, '[role="dialog"]'), 'row form refused as stale').toEqual([]);

      // Reload from the keyboard: the row as it is now, and a save from there goes through.
      await error.getByRole('button', { name: 'Reload' }).focus();
      await second.keyboard.press('Enter');
      await error.waitFor({ state: 'detached' });
      expect(await phoneField(second).inputValue()).toBe('0161 222');
      await phoneField(second).fill('0161 333');
      await second.getByTestId('row-form').getByRole('button', { name: 'Save' }).click();
      await second.getByTestId('row-form').waitFor({ state: 'detached' });
      await phoneCell(second).filter({ hasText: '0161 333' }).waitFor();
    } finally {
      await secondContext.close();
    }
  });
});
