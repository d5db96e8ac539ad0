// The Import screen (Settings → Data integration) as the file-walk specs drive it: a file chosen
// for an entity and previewed, and which column a field's select has chosen.
import type { Page } from 'playwright-core';
import { signIn } from './browser.ts';

/** Signs in (unless `signedIn`), opens Data integration, chooses the entity and the file, and waits for the preview's rows. */
export async function previewImportFile(page: Page, entity: string, path: string, { signedIn = false } = {}): Promise<void> {
  if (!signedIn) await signIn(page);
  await page.goto('/app/settings');
  await page.getByRole('heading', { name: 'Data integration', level: 2 }).waitFor();
  await page.getByLabel('Import into', { exact: true }).selectOption({ label: entity });
  await page.getByLabel('File (CSV, JSON or .xlsx)').setInputFiles(path);
  await page.getByTestId('preview-row').first().waitFor();
}

/** The text of the option a select (by its whole label) has chosen. */
export const chosenOption = (page: Page, label: string) => page.getByLabel(label, { exact: true }).evaluate((select) => (select as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
