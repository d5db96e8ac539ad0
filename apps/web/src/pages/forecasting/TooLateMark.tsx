// The lists' mark for an order that can no longer arrive in time (QA4 #23), as the product panel says
// it: even ordered today it arrives after the stock is expected to run out.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** `urgencyDays` below zero: an order placed today arrives that many days after the expected stockout. */
export function TooLateMark({ urgencyDays }: { urgencyDays: number }) {
  const { t } = useTranslation();
  if (urgencyDays >= 0) return null;
  const explanation = t('forecasting.tooLate.explanation', { count: -urgencyDays });
  return (
    <Badge color="red.9" variant="filled" autoContrast size="sm" ml={6} tt="none" title={explanation} data-testid="too-late">
      {t('forecasting.tooLate.label')}
    </Badge>
  );
}
