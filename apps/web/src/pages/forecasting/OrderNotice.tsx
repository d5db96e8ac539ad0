// What each order recorded from the lists came to (ADR 0182): "Recorded: 32 Desk Lamp Pro arriving
// 12 Dec. Updating its advice…", then the advice as it is now. One notice per order, stacked oldest
// first in a polite live region that is always there, so each sentence is read out; each stays until
// closed (no timeout to race a reader), and several saved in a row are all there to read (ADR 0182,
// amendment 2026-12-06). When an order's row has left the list, the focus — gone with it — comes here.
import { useEffect, useRef } from 'react';
import { Button, Notification, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useForecastingStore } from '../../stores/forecasting.ts';

export function OrderNotice() {
  const { t } = useTranslation();
  const notices = useForecastingStore((state) => state.orderNotices);
  const dismiss = useForecastingStore((state) => state.dismissOrderNotice);
  const dismissAll = useForecastingStore((state) => state.dismissOrderNotices);
  const region = useRef<HTMLDivElement>(null);
  const settledCount = notices.filter((notice) => notice.settled).length;
  const settledBefore = useRef(settledCount);
  useEffect(() => {
    const newlySettled = settledCount > settledBefore.current;
    settledBefore.current = settledCount;
    if (newlySettled && (document.activeElement === document.body || !document.activeElement)) region.current?.focus();
  }, [settledCount]);
  return (
    // Over the page's corner, above the assistant's bar: the lists do not move under the pointer when one comes.
    <div
      ref={region}
      role="status"
      aria-label={t('forecasting.recordOrder.noticeLabel')}
      tabIndex={-1}
      data-testid="order-notice"
      style={{
        position: 'fixed',
        right: 16,
        bottom: 'calc(var(--shell-reserved-bottom, 0px) + 16px)',
        width: 'min(440px, calc(100vw - 32px))',
        maxHeight: 'calc(100vh - var(--shell-reserved-bottom, 0px) - 96px)',
        overflowY: 'auto',
        zIndex: 150,
        outline: 'none',
      }}
    >
      {notices.length ? (
        <Stack gap="xs">
          {notices.length > 1 ? (
            <Button size="compact-sm" variant="default" style={{ alignSelf: 'flex-end' }} onClick={dismissAll}>
              {t('forecasting.recordOrder.dismissAll', { count: notices.length })}
            </Button>
          ) : null}
          {notices.map((notice) => (
            <Notification
              key={notice.id}
              role="none"
              color={notice.failed ? 'orange.8' : 'teal.8'}
              loading={!notice.settled}
              loaderProps={{ 'aria-hidden': true }}
              withBorder
              onClose={() => dismiss(notice.id)}
              closeButtonProps={{ 'aria-label': t('forecasting.recordOrder.dismiss', { name: notice.name }) }}
            >
              <span data-testid="order-notice-text">{notice.text}</span>
            </Notification>
          ))}
        </Stack>
      ) : null}
    </div>
  );
}
