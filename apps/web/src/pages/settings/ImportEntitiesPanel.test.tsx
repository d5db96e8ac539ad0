// Settings → Import entities against a loopback HTTP server playing /api/yaml/config/, the tables'
// columns and /api/yaml/update-entity/ as docs/api.md words them: each entity shows its table and
// key, its repeated-keys choice, description and default mappings; a mapping row is edited, added
// and removed by keyboard and saved at the version read (If-Match), the next save at the version the
// save gave. A configuration refused is shown as spec §5 words it, the typed values kept; a save over
// another administrator's since shows their sentence and Reload shows their entity (ADR 0179). An
// entity that differs from the configuration file's version offers Reset to default: a dialog lists
// what changes (the safe choice focused), and the reset goes at the version read, through
// /api/yaml/reset-entity/, or is refused with Reload as a save is (ADR 0181).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { sendJson, type Loopback } from '../../test/loopback.ts';
import { startLoopbackApi } from '../../test/loopback-api.ts';
import type { ConfigEntity } from '@stockwise/contract';
import { ImportEntitiesPanel } from './ImportEntitiesPanel.tsx';

let loopback: Loopback;
/** What the server holds: the entities, each with its version. */
let stored: ConfigEntity[];
/** Each update-entity body and its If-Match, in order. */
let saves: { body: { entity_name: string; config: Record<string, unknown> }; ifMatch: string | undefined }[];
/** Each reset-entity body and its If-Match, in order. */
let resets: { body: { entity_name: string }; ifMatch: string | undefined }[];

const salesColumns = [
  { key: 'id', label: 'ID', type: 'AutoField', read_only: true },
  { key: 'product_id', label: 'Product', type: 'ForeignKey', read_only: false },
  { key: 'date', label: 'Date', type: 'DateField', read_only: false },
  { key: 'quantity', label: 'Quantity', type: 'DecimalField', read_only: false },
];
/** The sales entity as the configuration file has it. */
const salesInFile = () => ({
  table: 'sales',
  key: ['product_id', 'date'],
  repeated_keys: 'sum' as const,
  description: 'Daily unit sales per product.',
  field_mappings: { product_id: 'product_code', date: 'date', quantity: 'quantity' },
});
const sales = (): ConfigEntity => ({
  name: 'sales',
  ...salesInFile(),
  // In the order PostgreSQL's jsonb keeps keys (shorter first): the panel shows them in the table's.
  field_mappings: { date: 'date', quantity: 'quantity', product_id: 'product_code' },
  version: '0',
  file_config: salesInFile(),
});
/** The sales entity as another administrator saved it: the file's repeated keys and description gone, a mapping changed and one dropped. */
const brokenSales = (): ConfigEntity => ({ name: 'sales', table: 'sales', key: ['product_id', 'date'], field_mappings: { product_id: 'Artikel', date: 'date' }, version: '3', file_config: salesInFile() });
/** The refusal of a write over another administrator's save since, as the server words it. */
const conflict = (current: ConfigEntity, then: string) => ({
  code: 'edit_conflict',
  detail: `This entity's configuration was changed by sam at 14:02 after you opened it. Reload to see their change, then ${then}.`,
  current,
  changed_by: 'sam',
  changed_at: '2026-12-05T14:02:00.000Z',
});

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopbackApi((request, body, response) => {
    const path = request.url?.split('?')[0];
    if (path === '/api/yaml/config/') return sendJson(response, 200, { success: true, content: { tables: {}, mappings: {}, queries: {}, inventory: { entities: stored } } });
    if (path === '/api/records/tables/sales/variation-columns/') return sendJson(response, 200, { columns: salesColumns });
    if (request.method !== 'POST' || (path !== '/api/yaml/update-entity/' && path !== '/api/yaml/reset-entity/')) return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
    const ifMatch = typeof request.headers['if-match'] === 'string' ? request.headers['if-match'] : undefined;
    const write = JSON.parse(body) as (typeof saves)[number]['body'];
    const current = stored.find((entity) => entity.name === write.entity_name);
    if (!current) return sendJson(response, 404, { detail: 'no entity', code: 'not_found' });
    const keep = (entity: ConfigEntity) => (stored = stored.map((other) => (other.name === entity.name ? entity : other)));
    if (path === '/api/yaml/reset-entity/') {
      resets.push({ body: write, ifMatch });
      if (ifMatch !== `"${current.version}"`) return sendJson(response, 409, conflict(current, 'reset it if you still mean to'));
      if (!current.file_config) return sendJson(response, 400, { code: 'validation_error', detail: 'not in the file' });
      const reset = { name: current.name, ...current.file_config, version: String(Number(current.version) + 1), file_config: current.file_config };
      keep(reset);
      return sendJson(response, 200, { success: true, message: `Entity '${reset.name}' set back to the configuration file's version.`, entity: reset });
    }
    saves.push({ body: write, ifMatch });
    if (ifMatch !== `"${current.version}"`) return sendJson(response, 409, conflict(current, 'edit again'));
    const mappings = (write.config['field_mappings'] ?? {}) as Record<string, string>;
    const unknownTarget = Object.keys(mappings).find((field) => !salesColumns.some((column) => column.key === field));
    if (unknownTarget) return sendJson(response, 400, { code: 'validation_error', detail: `Invalid configuration: field_mappings target '${unknownTarget}' is not a column of 'sales'.` });
    const saved = { ...(write.config as Omit<ConfigEntity, 'name' | 'version' | 'file_config'>), name: current.name, version: String(Number(current.version) + 1), file_config: current.file_config };
    keep(saved);
    return sendJson(response, 200, { success: true, message: `Entity '${saved.name}' updated.`, entity: saved });
  });
});
afterAll(() => loopback.close());
beforeEach(() => {
  stored = [sales()];
  saves = [];
  resets = [];
});
afterEach(cleanup);

const renderPanel = () => render(<MantineProvider env="test"><ImportEntitiesPanel /></MantineProvider>);
const form = () => screen.getByTestId('entity-sales');
const inForm = () => within(form());
const target = (row: number) => inForm().getByRole('combobox', { name: `Field of mapping ${row}` }) as HTMLInputElement;
const source = (row: number) => inForm().getByRole('textbox', { name: `Column in the file of mapping ${row}` }) as HTMLInputElement;
const saveButton = () => inForm().getByRole('button', { name: 'Save sales' }) as HTMLButtonElement;
const resetButton = () => inForm().queryByRole('button', { name: 'Reset sales to default' });
const dialog = () => screen.getByRole('dialog', { name: 'Reset sales to default?' });
/** Reset to default pressed as a click or a key does: focused first, as the browser does. */
const openReset = async () => {
  const button = await waitFor(() => resetButton() as HTMLButtonElement);
  button.focus();
  fireEvent.click(button);
  return screen.findByRole('dialog', { name: 'Reset sales to default?' });
};
/** The dialog's list of changes, a row each: setting · now · after the reset. */
const listedChanges = () => within(screen.getByTestId('entity-sales-reset-changes')).getAllByRole('row').slice(1).map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent).join(' · '));
/** Each mapping row as "field → column". */
const mappingRows = () => inForm().getAllByRole('row').slice(1).map((row) => `${(within(row).getByRole('combobox') as HTMLInputElement).value} → ${(within(row).getByRole('textbox') as HTMLInputElement).value}`);
const loaded = async () => {
  renderPanel();
  await screen.findByTestId('entity-sales');
  // The field options come with the table's columns.
  await waitFor(() => expect(target(1).value).toBe('Product (product_id)'));
};
/** A field typed into a row's box and taken with the arrows and Enter. */
const chooseField = async (row: number, typed: string, option: string) => {
  target(row).focus();
  fireEvent.change(target(row), { target: { value: typed } });
  await screen.findByRole('option', { name: option });
  fireEvent.keyDown(target(row), { key: 'ArrowDown', code: 'ArrowDown' });
  fireEvent.keyDown(target(row), { key: 'Enter', code: 'Enter' });
  await waitFor(() => expect(target(row).value).toBe(option));
};

describe('the Import entities panel', () => {
  it("shows each entity with its table and key read-only, its repeated keys, description and default mappings in the table's column order, nothing to save yet", async () => {
    await loaded();
    expect(screen.getByTestId('entity-sales-table').textContent).toBe('Table sales · key product_id, date (rows are matched on the key; both are set in config/stockwise.yaml)');
    expect((inForm().getByRole('combobox', { name: 'Rows of one file sharing a key' }) as HTMLInputElement).value).toBe('Add up their quantities (sum)');
    expect((inForm().getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).value).toBe('Daily unit sales per product.');
    expect(mappingRows()).toEqual(['Product (product_id) → product_code', 'Date (date) → date', 'Quantity (quantity) → quantity']);
    expect(saveButton().disabled).toBe(true);
  });

  it('says so when no entity is configured', async () => {
    stored = [];
    renderPanel();
    expect((await screen.findByTestId('entities-empty')).textContent).toBe('No import entities are configured: add them under inventory.entities in config/stockwise.yaml.');
  });

  it("edits a row's file column, swaps a field by keyboard, and saves at the version read; the next save goes at the version the save gave", async () => {
    await loaded();
    fireEvent.change(source(1), { target: { value: ' Artikelnummer ' } });
    // Quantity is taken by row 3: remove it, then give row 2 the field freed.
    fireEvent.click(inForm().getByRole('button', { name: 'Remove mapping 3 (quantity)' }));
    await waitFor(() => expect(document.activeElement).toBe(inForm().getByRole('button', { name: 'Add mapping' })));
    await chooseField(2, 'quan', 'Quantity (quantity)');
    fireEvent.change(source(2), { target: { value: 'Menge' } });
    fireEvent.click(saveButton());
    expect((await screen.findByTestId('entity-sales-saved')).textContent).toBe('Saved.');
    expect(saves).toEqual([
      {
        body: { entity_name: 'sales', config: { table: 'sales', key: ['product_id', 'date'], repeated_keys: 'sum', description: 'Daily unit sales per product.', field_mappings: { product_id: 'Artikelnummer', quantity: 'Menge' } } },
        ifMatch: '"0"',
      },
    ]);
    expect(mappingRows()).toEqual(['Product (product_id) → Artikelnummer', 'Quantity (quantity) → Menge']);
    expect(saveButton().disabled).toBe(true);

    // A row added by keyboard: its field box takes the focus; only the fields still free are offered.
    fireEvent.click(inForm().getByRole('button', { name: 'Add mapping' }));
    await waitFor(() => expect(document.activeElement).toBe(target(3)));
    expect(screen.queryByTestId('entity-sales-saved')).toBeNull();
    fireEvent.change(target(3), { target: { value: '' } });
    await screen.findByRole('option', { name: 'Date (date)' });
    expect(screen.queryByRole('option', { name: 'Product (product_id)' })).toBeNull();
    expect(screen.queryByRole('option', { name: 'ID (id)' })).toBeNull();
    await chooseField(3, 'date', 'Date (date)');
    fireEvent.change(source(3), { target: { value: 'Datum' } });
    fireEvent.click(saveButton());
    await screen.findByTestId('entity-sales-saved');
    expect(saves.map((save) => save.ifMatch)).toEqual(['"0"', '"1"']);
    expect(stored[0]?.field_mappings).toEqual({ product_id: 'Artikelnummer', quantity: 'Menge', date: 'Datum' });
  });

  it('names the field a new row lacks and sends nothing', async () => {
    await loaded();
    fireEvent.click(inForm().getByRole('button', { name: 'Add mapping' }));
    fireEvent.click(saveButton());
    expect(await inForm().findByText('Choose the field this column fills.')).toBeTruthy();
    expect(inForm().getByText('Type the column of the file.')).toBeTruthy();
    expect(target(4).getAttribute('aria-invalid')).toBe('true');
    expect(saves).toEqual([]);
  });

  it("shows a configuration the server refuses as 'Invalid configuration: ' and its reason, the typed values kept", async () => {
    // A field the table no longer has (a column dropped since): still shown, and refused on save.
    stored = [{ ...sales(), field_mappings: { ...sales().field_mappings, discount: 'Rabatt' } }];
    await loaded();
    expect(mappingRows()).toContain('discount → Rabatt');
    fireEvent.change(inForm().getByRole('textbox', { name: 'Description' }), { target: { value: 'Till lines, added up.' } });
    fireEvent.click(saveButton());
    expect((await screen.findByTestId('entity-sales-error')).textContent).toBe("Invalid configuration: field_mappings target 'discount' is not a column of 'sales'.");
    expect(screen.queryByTestId('entity-sales-reload')).toBeNull();
    expect((inForm().getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).value).toBe('Till lines, added up.');
    expect(mappingRows()).toContain('discount → Rabatt');
    expect(stored[0]?.version).toBe('0');
  });

  it("refuses a save over another administrator's since with their sentence, the edit kept until Reload shows theirs; then saves at their version", async () => {
    await loaded();
    stored = [{ ...sales(), repeated_keys: 'refuse', field_mappings: { product_id: 'SKU', date: 'Day', quantity: 'Qty' }, version: '4' }];
    fireEvent.change(source(1), { target: { value: 'Artikelnummer' } });
    fireEvent.click(saveButton());
    expect((await screen.findByTestId('entity-sales-error')).textContent).toContain("This entity's configuration was changed by sam at 14:02 after you opened it.");
    expect(source(1).value).toBe('Artikelnummer');

    fireEvent.click(screen.getByTestId('entity-sales-reload'));
    await waitFor(() => expect(mappingRows()).toEqual(['Product (product_id) → SKU', 'Date (date) → Day', 'Quantity (quantity) → Qty']));
    expect(screen.queryByTestId('entity-sales-error')).toBeNull();
    expect((inForm().getByRole('combobox', { name: 'Rows of one file sharing a key' }) as HTMLInputElement).value).toBe('Refuse the file (refuse)');
    fireEvent.change(source(1), { target: { value: 'Artikelnummer' } });
    fireEvent.click(saveButton());
    await screen.findByTestId('entity-sales-saved');
    expect(saves.map((save) => save.ifMatch)).toEqual(['"0"', '"4"']);
    expect(stored[0]).toMatchObject({ version: '5', repeated_keys: 'refuse', field_mappings: { product_id: 'Artikelnummer', date: 'Day', quantity: 'Qty' } });
  });

  it('offers no reset for an entity as in the configuration file, nor for one the file does not have', async () => {
    stored = [sales(), { name: 'returns', table: 'sales', key: ['product_id', 'date'], field_mappings: { product_id: 'Code' }, version: '2', file_config: null }];
    await loaded();
    expect(resetButton()).toBeNull();
    expect(within(screen.getByTestId('entity-returns')).queryByRole('button', { name: 'Reset returns to default' })).toBeNull();
  });

  it('offers the reset once a save makes the entity differ from the file, and a Cancel changes nothing, the focus back on the button', async () => {
    await loaded();
    fireEvent.change(source(3), { target: { value: 'Menge' } });
    expect(resetButton()).toBeNull();
    fireEvent.click(saveButton());
    await screen.findByTestId('entity-sales-saved');
    await openReset();
    // The safe choice has the focus: Enter right after opening resets nothing.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog()).getByRole('button', { name: 'Keep the current settings' })));
    expect(listedChanges()).toEqual(['Quantity (quantity) · “Menge” · “quantity”']);
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Keep the current settings' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(resetButton()));
    expect(resets).toEqual([]);
    expect(source(3).value).toBe('Menge');
  });

  it("lists every setting that changes, says unsaved edits go too, and resets at the version read: the file's version shown, the button gone, the focus on what it did", async () => {
    stored = [brokenSales()];
    await loaded();
    fireEvent.change(inForm().getByRole('textbox', { name: 'Description' }), { target: { value: 'Typed, not saved' } });
    await openReset();
    expect(within(dialog()).getByText(/^sales goes back to its version in the configuration file/)).toBeTruthy();
    expect(listedChanges()).toEqual([
      'Rows of one file sharing a key · Keep the last row (last) · Add up their quantities (sum)',
      'Description · none · “Daily unit sales per product.”',
      'Product (product_id) · “Artikel” · “product_code”',
      'Quantity (quantity) · not mapped · “quantity”',
    ]);
    expect(screen.getByTestId('entity-sales-reset-unsaved').textContent).toBe('Your changes in this form that are not saved are discarded too.');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Reset to default' }));

    const done = await screen.findByTestId('entity-sales-reset-done');
    expect(done.textContent).toBe("Reset to the configuration file's version.");
    expect(resets).toEqual([{ body: { entity_name: 'sales' }, ifMatch: '"3"' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(done));
    expect(mappingRows()).toEqual(['Product (product_id) → product_code', 'Date (date) → date', 'Quantity (quantity) → quantity']);
    expect((inForm().getByRole('textbox', { name: 'Description' }) as HTMLTextAreaElement).value).toBe('Daily unit sales per product.');
    expect((inForm().getByRole('combobox', { name: 'Rows of one file sharing a key' }) as HTMLInputElement).value).toBe('Add up their quantities (sum)');
    expect(resetButton()).toBeNull();
    expect(saveButton().disabled).toBe(true);

    // The next save goes at the version the reset gave.
    fireEvent.change(source(1), { target: { value: 'SKU' } });
    expect(screen.queryByTestId('entity-sales-reset-done')).toBeNull();
    fireEvent.click(saveButton());
    await screen.findByTestId('entity-sales-saved');
    expect(saves.map((save) => save.ifMatch)).toEqual(['"4"']);
  });

  it("refuses a reset over another administrator's save since with their sentence and Reload, which shows theirs", async () => {
    stored = [brokenSales()];
    await loaded();
    stored = [{ ...brokenSales(), field_mappings: { product_id: 'EAN', date: 'date', quantity: 'Stück' }, version: '4' }];
    fireEvent.click(within(await openReset()).getByRole('button', { name: 'Reset to default' }));
    expect((await screen.findByTestId('entity-sales-error')).textContent).toContain("This entity's configuration was changed by sam at 14:02 after you opened it. Reload to see their change, then reset it if you still mean to.");
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mappingRows()).toEqual(['Product (product_id) → Artikel', 'Date (date) → date']);
    fireEvent.click(screen.getByTestId('entity-sales-reload'));
    await waitFor(() => expect(mappingRows()).toEqual(['Product (product_id) → EAN', 'Date (date) → date', 'Quantity (quantity) → Stück']));
    // Their version differs from the file as well: the reset is still offered, now at their version.
    await openReset();
    expect(listedChanges()).toContain('Product (product_id) · “EAN” · “product_code”');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Reset to default' }));
    await screen.findByTestId('entity-sales-reset-done');
    expect(resets.map((reset) => reset.ifMatch)).toEqual(['"3"', '"4"']);
  });
});
