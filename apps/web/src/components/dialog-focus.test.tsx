// Focus back to a dialog's opener when the dialog (mounted only while open) closes: the button that
// opened it, or the menu button of a menu item that is gone by then.
import { afterEach, describe, expect, it } from 'vitest';
import { useRef, useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { focusReturnTarget, useDialogFocusReturn } from './dialog-focus.ts';

afterEach(cleanup);

function Screen() {
  const [open, setOpen] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const [hasTable, setHasTable] = useState(true);
  const rememberOpener = useDialogFocusReturn(open, () => document.getElementById('pane'));
  const openDialog = () => {
    rememberOpener();
    setMenuOpen(false);
    setOpen(true);
  };
  return (
    <>
      <button onClick={openDialog}>New folder</button>
      {hasTable ? (
        <button id="actions" onClick={() => setMenuOpen(true)}>
          Actions
        </button>
      ) : null}
      <section id="pane" tabIndex={-1} aria-label="Table" />
      {menuOpen ? (
        <div role="menu" aria-labelledby="actions">
          <button role="menuitem" onClick={openDialog}>
            Move
          </button>
        </div>
      ) : null}
      {open ? (
        <div role="dialog" onKeyDown={(event) => event.key === 'Escape' && setOpen(false)}>
          <input aria-label="Folder path" autoFocus />
          <button
            onClick={() => {
              setHasTable(false);
              setOpen(false);
            }}
          >
            Delete table
          </button>
        </div>
      ) : null}
    </>
  );
}

/** A log whose Undo button goes only when the log reloads, after its dialog has closed. */
function ReloadingLog() {
  const [open, setOpen] = useState(false);
  const [reloaded, setReloaded] = useState(false);
  const undone = useRef(false);
  const rememberOpener = useDialogFocusReturn(open, () => document.getElementById('log-title'), () => undone.current);
  return (
    <>
      <h2 id="log-title" tabIndex={-1}>
        Import log
      </h2>
      {reloaded ? null : (
        <button
          onClick={() => {
            rememberOpener();
            setOpen(true);
          }}
        >
          Undo
        </button>
      )}
      <button onClick={() => setReloaded(true)}>Reload</button>
      {open ? (
        <div role="dialog">
          <button onClick={() => (undone.current = true)}>Undo it</button>
          <button onClick={() => setOpen(false)}>Close</button>
        </div>
      ) : null}
    </>
  );
}

describe('dialog focus return', () => {
  it('gives the focus back to the button that opened the dialog', () => {
    render(<Screen />);
    const opener = screen.getByRole('button', { name: 'New folder' });
    opener.focus();
    fireEvent.click(opener);
    expect(document.activeElement).toBe(screen.getByLabelText('Folder path'));
    fireEvent.keyDown(screen.getByLabelText('Folder path'), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("gives it to the menu's button when a menu item, gone once the menu closed, opened the dialog", () => {
    render(<Screen />);
    fireEvent.click(screen.getByRole('button', { name: 'Actions' }));
    const item = screen.getByRole('menuitem', { name: 'Move' });
    item.focus();
    expect(focusReturnTarget(item)).toBe(screen.getByRole('button', { name: 'Actions' }));
    fireEvent.click(item);
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.keyDown(screen.getByLabelText('Folder path'), { key: 'Escape' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Actions' }));
  });

  it('gives it to the fallback when the dialog removed its opener (a table deleted from its own menu)', () => {
    render(<Screen />);
    fireEvent.click(screen.getByRole('button', { name: 'Actions' }));
    const item = screen.getByRole('menuitem', { name: 'Move' });
    item.focus();
    fireEvent.click(item);
    fireEvent.click(screen.getByRole('button', { name: 'Delete table' }));
    expect(screen.queryByRole('button', { name: 'Actions' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Table' }));
  });

  it('gives it to the fallback at once when the opener is still there but about to go (a log reloading after an undo)', () => {
    render(<ReloadingLog />);
    const undo = screen.getByRole('button', { name: 'Undo' });
    undo.focus();
    fireEvent.click(undo);
    fireEvent.click(screen.getByRole('button', { name: 'Undo it' }));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Import log' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it('has no target when nothing had the focus', () => {
    expect(focusReturnTarget(null)).toBeNull();
  });
});
