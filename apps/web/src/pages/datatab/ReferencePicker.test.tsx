// The row form's ForeignKey picker against a real loopback HTTP server playing `related-rows`: what
// is typed is asked of the server, the row is chosen with the keyboard and its id is the value; an
// edited row starts with its product's label; an answer overtaken by a later search is dropped.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { useState } from 'react';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { sendJson, type Loopback } from '../../test/loopback.ts';
import { startLoopbackApi } from '../../test/loopback-api.ts';
import { ReferencePicker } from './ReferencePicker.tsx';

const catalogue = [
  { id: 7, label: 'MUG-01 — Enamel mug' },
  { id: 9, label: 'CUP-02 — Mug tree' },
  { id: 12, label: 'PAN-03 — Frying pan' },
];

let loopback: Loopback;
let searches: string[] = [];
/** A search answered only when released (to overtake its answer with a later one), and when its answer has gone out. */
let held: { search: string; release?: () => void; sent?: Promise<void> } | null = null;

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
  loopback = await startLoopbackApi(async (request, _body, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    if (url.pathname !== '/api/records/tables/sales/related-rows/product_id/') return sendJson(response, 404, { detail: 'no route', code: 'not_found' });
    const search = url.searchParams.get('search') ?? '';
    searches.push(search);
    if (search === 'broken') return sendJson(response, 500, { detail: 'Internal server error (error id abc).', code: 'internal_error' });
    if (held?.search === search) {
      const holding = held;
      holding.sent = new Promise((sent) => response.on('finish', () => sent()));
      await new Promise<void>((release) => (holding.release = release));
    }
    const results = catalogue.filter((row) => row.label.toLowerCase().includes(search.toLowerCase()));
    return sendJson(response, 200, { results: results.slice(0, 2), more: results.length > 2 });
  });
});
afterAll(() => loopback.close());
beforeEach(() => {
  searches = [];
  held = null;
});
afterEach(cleanup);

/** The picker in a form that keeps its value, as the row form does. */
function Form({ initial = '', initialLabel = null }: { initial?: string; initialLabel?: string | null }) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider env="test">
      <ReferencePicker tableName="sales" columnKey="product_id" label="Product" required error={undefined} value={value} valueLabel={initialLabel} onChange={setValue} autofocus={false} />
      <output data-testid="value">{value}</output>
    </MantineProvider>
  );
}

const box = () => screen.getByRole('combobox', { name: 'Product' });
const type = (text: string) => {
  box().focus();
  fireEvent.change(box(), { target: { value: text } });
};

describe('the ForeignKey picker', () => {
  it('asks the server for what is typed and takes the row chosen with the arrows and Enter, by id', async () => {
    render(<Form />);
    type('mug');
    await screen.findByRole('option', { name: 'MUG-01 — Enamel mug' });
    expect(searches).toEqual(['mug']);
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['MUG-01 — Enamel mug', 'CUP-02 — Mug tree']);
    fireEvent.keyDown(box(), { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(box(), { key: 'ArrowDown', code: 'ArrowDown' });
    fireEvent.keyDown(box(), { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('value').textContent).toBe('9'));
    expect(box()).toHaveProperty('value', 'CUP-02 — Mug tree');
    // The label written into the box is not a search.
    expect(searches).toEqual(['mug']);
  });

  it("starts an edited row with its product's label, and says so when more rows match than it shows", async () => {
    render(<Form initial="12" initialLabel="PAN-03 — Frying pan" />);
    expect(box()).toHaveProperty('value', 'PAN-03 — Frying pan');
    expect(searches).toEqual([]);
    box().focus();
    fireEvent.keyDown(box(), { key: 'ArrowDown', code: 'ArrowDown' });
    // Opened without typing: the first rows of all, the chosen one kept among them.
    await screen.findByRole('option', { name: 'MUG-01 — Enamel mug' });
    expect(searches).toEqual(['']);
    expect(screen.getByRole('group', { name: 'The first 2 matches: type more to narrow them' })).toBeTruthy();
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['MUG-01 — Enamel mug', 'CUP-02 — Mug tree', 'PAN-03 — Frying pan']);
    expect(screen.getByTestId('value').textContent).toBe('12');
  });

  it('shows only the answer to the latest search, and says when the search failed', async () => {
    held = { search: 'mug' };
    render(<Form />);
    type('mug');
    await waitFor(() => expect(searches).toEqual(['mug']));
    type('pan');
    await screen.findByRole('option', { name: 'PAN-03 — Frying pan' });
    held.release?.();
    await held.sent;
    // The mugs arrive after the pans: given the client a moment to (wrongly) show them.
    await act(() => new Promise((settled) => setTimeout(settled, 100)));
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['PAN-03 — Frying pan']);

    type('broken');
    await screen.findByText(/^Could not search the rows/);
  });
});
