// Undo of a sales (ADR 0174) or stock count (ADR 0175) file's import from the Import log: the dialog
// says what will happen in numbers ("Put back the sales of 340 product-days (1–14 Nov 2026) as they
// were before this file"; "Put back 412 stock counts (…) as they were before this file. Remove the
// 30 counts it added."), the safe choice has the focus, and then it shows the server's answer —
// what the undo did, or why it was refused (a later import wrote the same rows: undo that one first).
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDayRange, type StockWritten } from '@stockwise/contract';
import { normalizeError } from '../../api/errors.ts';
import { undoImport, type ImportLogSummary, type ImportResult } from '../../api/import.ts';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import { ConfirmButtons } from '../../components/ConfirmButtons.tsx';
import { useImportStore } from '../../stores/import.ts';
import { formatCount } from './format.ts';

type Outcome = { undone: boolean; message: string };
type TFunction = ReturnType<typeof useTranslation>['t'];

/** What undoing a stock count import will do, in numbers (ADR 0175). */
function stockCountsConfirmation(t: TFunction, written: StockWritten): string {
  const range = written.first_day && written.last_day ? formatDayRange(written.first_day, written.last_day) : '';
  const unchanged = written.counts - written.replaced - written.added;
  const sentences = written.replaced
    ? [t('import.undo.stockRestore', { count: written.replaced, counts: formatCount(written.replaced), range }), ...(written.added ? [t('import.undo.stockRemove', { count: written.added, counts: formatCount(written.added) })] : [])]
    : written.added
      ? [t('import.undo.stockRemoveOnly', { count: written.added, counts: formatCount(written.added), range })]
      : [t('import.undo.stockNothing')];
  if (written.replaced || written.added) {
    if (unchanged > 0) sentences.push(t('import.undo.stockUnchanged', { count: unchanged, counts: formatCount(unchanged) }));
    sentences.push(t('import.undo.stockOnHand'));
  }
  return sentences.join(' ');
}

/** An import as its undo names it: the log entry, or the import's answer just given (UndoThisImport). */
type UndoableImport = Pick<ImportLogSummary, 'id' | 'fileName' | 'details'>;

/** The confirmation of `entry`'s undo, then its outcome; `onUndone` once the server undid it. */
export function UndoImportDialog({ entry, onClose, onUndone }: { entry: UndoableImport; onClose: () => void; onUndone: () => void }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // The button pressed is gone once the answer is shown: the focus goes to Close beside it.
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (outcome) close.current?.focus();
  }, [outcome]);
  const written = entry.details.sales_written;
  const counted = entry.details.stock_written;
  const created = entry.details.counts?.created_references ?? 0;
  const undo = () => {
    setBusy(true);
    undoImport(entry.id).then(
      (answer) => {
        setOutcome({ undone: true, message: answer.message });
        setBusy(false);
        onUndone();
      },
      (failure: unknown) => {
        setOutcome({ undone: false, message: normalizeError(failure).message });
        setBusy(false);
      },
    );
  };
  return (
    <Modal opened onClose={onClose} title={t('import.undo.title', { file: entry.fileName })} closeButtonProps={{ 'aria-label': t('import.undo.close') }}>
      {outcome ? (
        <Stack>
          <Alert color={outcome.undone ? 'teal' : 'red'} role={outcome.undone ? 'status' : 'alert'} data-testid="undo-outcome">
            {outcome.message}
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose} ref={close}>
              {t('import.undo.close')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text data-testid="undo-confirm">
            {counted
              ? stockCountsConfirmation(t, counted)
              : written
                ? t('import.undo.confirm', { days: formatCount(written.product_days), count: written.product_days, range: formatDayRange(written.first_day, written.last_day) })
                : t('import.undo.confirmUnknown')}
            {created ? ` ${t('import.undo.productsKept', { count: created, products: formatCount(created) })}` : ''}
          </Text>
          <ConfirmButtons cancelLabel={t('import.undo.cancel')} confirmLabel={t('import.undo.confirmButton')} busy={busy} onCancel={onClose} onConfirm={undo} />
        </Stack>
      )}
    </Modal>
  );
}

/**
 * The import's answer offers its undo where it replaced its mapping's earlier sales (ADR 0164's
 * "one mapping, two tills"): staff who imported till 2's file under till 1's mapping put till 1's
 * totals back exactly, there and then. And after every stock count import (ADR 0175): a count file
 * of the wrong week or branch looks like any other, and changes on hand at once.
 */
export function UndoThisImport({ result, fileName }: { result: ImportResult; fileName: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [undone, setUndone] = useState(false);
  // Undone from the Import log meanwhile: the log's entry says so, and this offer goes with it.
  const undoneInLog = useImportStore((state) => state.logs.some((entry) => entry.id === result.import_id && entry.undone !== null));
  const rememberOpener = useDialogFocusReturn(open, () => document.querySelector<HTMLElement>('[data-testid="import-result-title"]'));
  if (!result.sales_written && !result.stock_written) return null;
  const entry: UndoableImport = { id: result.import_id, fileName, details: { counts: result.counts, ...(result.sales_written ? { sales_written: result.sales_written } : {}), ...(result.stock_written ? { stock_written: result.stock_written } : {}) } };
  return (
    <>
      {undone || undoneInLog ? null : (
        <Button
          mt="xs"
          size="xs"
          variant="default"
          onClick={() => {
            rememberOpener();
            setOpen(true);
          }}
        >
          {t('import.undo.thisImport', { file: fileName })}
        </Button>
      )}
      {open ? (
        <UndoImportDialog
          entry={entry}
          onClose={() => setOpen(false)}
          onUndone={() => {
            setUndone(true);
            void useImportStore.getState().loadLogs();
          }}
        />
      ) : null}
    </>
  );
}
