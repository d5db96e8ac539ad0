// The Data screen's delete dialogs open with the focus on Cancel (ADR 0196 F4): Enter right after
// opening deletes nothing, as in every other confirmation (ConfirmButtons).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { initTestI18n } from '../../test/i18n.ts';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { DeleteTableDialog } from './TableDialogs.tsx';

beforeAll(async () => {
  await initTestI18n();
  stubBrowserLayout();
});
afterEach(cleanup);

const table = { name: 'suppliers', folder: '', encodedName: 'suppliers', displayName: 'suppliers' };

describe("the Data screen's delete dialogs", () => {
  it('open with the focus on Cancel', async () => {
    render(
      <MantineProvider env="test">
        <DeleteTableDialog table={table} onClose={() => undefined} />
      </MantineProvider>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete table' });
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' })));
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

});
