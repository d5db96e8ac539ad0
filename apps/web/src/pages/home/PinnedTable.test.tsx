// A pinned chart's table (ADR 0196, amendment 2026-12-07): a disclosure button opens and closes it
// with Enter or Space as a click, says so in aria-expanded, points to it with aria-controls and keeps
// the focus; the table is named by the report and shows the whole category paths the axis shortens.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { PinnedTable } from './DashboardPage.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

describe("a pinned chart's table", () => {
  it('opens and closes under its button, which keeps the focus and says whether it is open', () => {
    render(
      <MantineProvider>
        <PinnedTable
          columns={[
            { name: 'category', type: 'text', db_type: 'text' },
            { name: 'stock', type: 'number', db_type: 'int4' },
          ]}
          rows={[{ category: 'All / Office / Chairs', stock: 3 }]}
          moneyFields={[]}
          title="Chairs"
        />
      </MantineProvider>,
    );
    const toggle = screen.getByRole('button', { name: 'Table of the figures' });
    toggle.focus();
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('table')).toBeNull();
    const panel = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(panel?.hidden).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(panel?.hidden).toBe(false);
    expect(panel?.contains(screen.getByRole('table', { name: 'Chairs: its figures' }))).toBe(true);
    expect(document.activeElement).toBe(toggle);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('table')).toBeNull();
    expect(document.activeElement).toBe(toggle);
  });
});
