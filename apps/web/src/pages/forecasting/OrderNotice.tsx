// What an order recorded from the lists came to (ADR 0182): "Recorded: 32 Desk Lamp Pro arriving 12
// Dec. Updating its advice…", then the advice as it is now. A polite live region that is always
// there, so each sentence is read out; it keeps the sentence until closed or replaced (no timeout to
// race a reader). When the order's row has left the list, the focus — gone with it — comes here.
import { useEffect, useRef } from 'react';
import { Notification } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useForecastingStore } from '../../stores/forecasting.ts';

export function OrderNotice() {
  const { t } = useTranslation();
  const notice = useForecastingStore((state) => state.orderNotice);
  const dismiss = useForecastingStore((state) => state.dismissOrderNotice);
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (notice?.settled && (document.activeElement === document.body || !document.activeElement)) region.current?.focus();
  }, [notice]);
  return (
    // Over the page's corner, above the assistant's bar: the lists do not move under the pointer when it comes.
    <div
      ref={region}
      role="status"
      aria-label={t('forecasting.recordOrder.noticeLabel')}
      tabIndex={-1}
      data-testid="order-notice"
      style={{ position: 'fixed', right: 16, bottom: 'calc(var(--shell-reserved-bottom, 0px) + 16px)', width: 'min(440px, calc(100vw - 32px))', zIndex: 150, outline: 'none' }}
    >
      {notice ? (
        <Notification
          role="none"
          color={notice.failed ? 'orange.8' : 'teal.8'}
          loading={!notice.settled}
          loaderProps={{ 'aria-hidden': true }}
          withBorder
          onClose={dismiss}
          closeButtonProps={{ 'aria-label': t('forecasting.recordOrder.dismiss') }}
        >
          <span data-testid="order-notice-text">{notice.text}</span>
        </Notification>
      ) : null}
    </div>
  );
}
