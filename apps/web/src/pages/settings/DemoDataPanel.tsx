// Settings → Demo data (administrators, while the demo shop's products are here): the made-up
// products are in every total, list, forecast and answer until removed, so a shop removes them
// before its own data goes in (ADR 0165). Shown only while there is something to remove.
import { useEffect, useState } from 'react';
import { Alert, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DemoDataResponse } from '@stockwise/contract';
import { fetchDemoData, removeDemoData } from '../../api/demo.ts';
import { normalizeError } from '../../api/errors.ts';
import { useDialogFocusReturn } from '../../components/dialog-focus.ts';
import { ConfirmButtons } from '../../components/ConfirmButtons.tsx';

/** `onShownChange`: whether the panel is on the screen, so the page's contents link to it only then. */
export function DemoDataPanel({ onShownChange }: { onShownChange?: (shown: boolean) => void }) {
  const { t } = useTranslation();
  const [demo, setDemo] = useState<DemoDataResponse | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [removed, setRemoved] = useState<string | null>(null);
  const rememberDialogOpener = useDialogFocusReturn(confirming);
  const shown = removed === null && demo !== null && demo.products > 0;
  useEffect(() => onShownChange?.(shown), [shown, onShownChange]);

  useEffect(() => {
    // Nothing to say when it cannot be read: the panel is an offer, not a screen of its own.
    fetchDemoData().then(setDemo, () => setDemo(null));
  }, []);

  const remove = () => {
    setBusy(true);
    setError(null);
    removeDemoData().then(
      (answer) => {
        setRemoved(answer.message);
        setDemo(null);
        setConfirming(false);
        setBusy(false);
      },
      (failure: unknown) => {
        setError(normalizeError(failure).message);
        setConfirming(false);
        setBusy(false);
      },
    );
  };

  if (removed) {
    return (
      <Alert color="green" role="status" data-testid="demo-data-removed">
        {removed}
      </Alert>
    );
  }
  if (!demo || demo.products === 0) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="demo-data-title" data-testid="demo-data-panel">
      <Stack gap="sm">
        <Title order={2} size="h3" id="demo-data-title">
          {t('demoData.title')}
        </Title>
        <Text>{t('demoData.intro', { products: demo.products.toLocaleString('en'), sales: demo.sales_rows.toLocaleString('en') })}</Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group>
          <Button
            color="red.9"
            variant="outline"
            onClick={() => {
              rememberDialogOpener();
              setConfirming(true);
            }}
          >
            {t('demoData.remove')}
          </Button>
        </Group>
      </Stack>
      {confirming && (
        <Modal opened onClose={() => setConfirming(false)} title={t('demoData.confirmTitle')} closeButtonProps={{ 'aria-label': t('demoData.cancel') }}>
          <Stack>
            <Text>{t('demoData.confirm', { products: demo.products.toLocaleString('en') })}</Text>
            <ConfirmButtons cancelLabel={t('demoData.cancel')} confirmLabel={t('demoData.confirmRemove')} busy={busy} onCancel={() => setConfirming(false)} onConfirm={remove} />
          </Stack>
        </Modal>
      )}
    </Paper>
  );
}
