// The Data screen's undo and redo: the toolbar's pair of buttons, the line saying what the last save,
// undo or redo came to (with the button to take it back), and Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y.
import { useEffect } from 'react';
import { ActionIcon, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TableSummary } from '@stockwise/contract';
import { describeChange, selectedHistory, useRowHistoryStore } from '../../stores/row-history.ts';
import { keepsOwnUndo, undoShortcut } from './undo-keys.ts';
import classes from './DataPage.module.css';

/** A curved arrow back (undo); mirrored, forward (redo). */
function TurnArrow({ mirrored }: { mirrored?: boolean }) {
  return (
    <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.6" style={mirrored ? { transform: 'scaleX(-1)' } : undefined}>
      <path d="M5 3 2 6l3 3" />
      <path d="M2 6h7.5a4 4 0 0 1 0 8H6" />
    </svg>
  );
}

/** The shortcuts work anywhere on the page but where the focus keeps its own undo (undo-keys.ts). */
export function useUndoShortcuts(enabled: boolean): void {
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const direction = undoShortcut(event);
      if (!direction || event.defaultPrevented || keepsOwnUndo(event.target)) return;
      event.preventDefault();
      void useRowHistoryStore.getState()[direction]();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}

/** Undo and Redo, each named by what it would do ("Undo: Current Stock of HEA-1001 back to 40"). */
export function UndoRedoButtons({ table }: { table: TableSummary }) {
  const { t } = useTranslation();
  const history = useRowHistoryStore((state) => selectedHistory(state.histories, table));
  const isBusy = useRowHistoryStore((state) => state.isBusy);
  const { undo, redo } = useRowHistoryStore.getState();
  const toUndo = history.done.at(-1);
  const toRedo = history.undone.at(-1);
  const undoName = toUndo ? t('datatab.undo.undoLabel', { what: describeChange(toUndo, 'undo') }) : t('datatab.undo.nothingToUndo');
  const redoName = toRedo ? t('datatab.undo.redoLabel', { what: describeChange(toRedo, 'redo') }) : t('datatab.undo.nothingToRedo');
  return (
    <Group gap={4} role="group" aria-label={t('datatab.undo.toolbar')}>
      <ActionIcon variant="default" size="lg" aria-label={undoName} title={undoName} disabled={!toUndo || isBusy} onClick={() => void undo()} data-testid="undo-button">
        <TurnArrow />
      </ActionIcon>
      <ActionIcon variant="default" size="lg" aria-label={redoName} title={redoName} disabled={!toRedo || isBusy} onClick={() => void redo()} data-testid="redo-button">
        <TurnArrow mirrored />
      </ActionIcon>
    </Group>
  );
}

/**
 * What the last save, undo or redo on this table came to, in a live region (read out as it
 * changes), with the button that takes it back; a refused undo says why, in the same place.
 */
export function HistoryNotice({ table }: { table: TableSummary }) {
  const { t } = useTranslation();
  const outcome = useRowHistoryStore((state) => (state.outcome?.table === table.encodedName ? state.outcome : null));
  const isBusy = useRowHistoryStore((state) => state.isBusy);
  const { undo, redo } = useRowHistoryStore.getState();
  return (
    <Group gap="sm" className={outcome ? (outcome.refused ? classes.historyRefused : classes.historyNotice) : classes.visuallyHidden} data-testid="history-notice">
      <span role="status" aria-live="polite" data-testid="history-status">
        {outcome?.text}
      </span>
      {outcome?.offer && (
        <Button size="compact-sm" variant="default" disabled={isBusy} onClick={() => void (outcome.offer === 'undo' ? undo() : redo())}>
          {t(outcome.offer === 'undo' ? 'datatab.undo.undo' : 'datatab.undo.redo')}
        </Button>
      )}
    </Group>
  );
}
