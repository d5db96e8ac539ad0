import { Alert, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What a self-registered account sees until an administrator approves it (no business data). */
export function AwaitingApproval() {
  const { t } = useTranslation();
  return (
    <>
      <Title order={1} mb="lg">
        {t('approval.title')}
      </Title>
      <Alert color="blue" data-testid="awaiting-approval" maw={640}>
        {t('approval.description')}
      </Alert>
    </>
  );
}
