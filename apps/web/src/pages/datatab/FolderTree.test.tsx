// A table's actions menu from the keyboard (ADR 0196 F3): opened, the focus is on its first item
// (not on an invisible placeholder), and Tab closes it back on its button.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { FolderTree } from './FolderTree.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

const tables = [
  { name: 'products', folder: 'Inventory', encodedName: 'products', displayName: 'products' },
  { name: 'sales', folder: 'Inventory', encodedName: 'sales', displayName: 'sales' },
];

function renderTree(moved: string[]) {
  render(
    <MantineProvider env="test">
      <FolderTree
        folders={['Inventory']}
        tables={tables}
        selected={null}
        canManage
        onSelect={() => undefined}
        onMove={(table) => moved.push(table.name)}
        onDelete={() => undefined}
      />
    </MantineProvider>,
  );
}

/** Enter on the focused menu button: a browser presses a focused button with Enter as a click. */
function openWithEnter(name: string) {
  const button = screen.getByRole('button', { name });
  button.focus();
  fireEvent.click(button);
  return button;
}

describe("a table's actions menu by keyboard", () => {
  it('takes the focus to its first item when it opens, and Enter on it does the action', async () => {
    const moved: string[] = [];
    renderTree(moved);
    openWithEnter('Actions for table products');
    const first = await screen.findByRole('menuitem', { name: 'Move to folder…' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    fireEvent.click(first);
    expect(moved).toEqual(['products']);
  });

  it('closes with Tab back on its button', async () => {
    renderTree([]);
    const button = openWithEnter('Actions for table sales');
    const first = await screen.findByRole('menuitem', { name: 'Move to folder…' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    fireEvent.keyDown(first, { key: 'Tab' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(document.activeElement).toBe(button);
  });
});
