import { EmptyState, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** An honest placeholder for a screen a later issue fills in: its title and what it will hold. */
export function ComingSoonPage({ page }: { page: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Title order={1} mb="lg">
        {t(`pages.${page}.title`)}
      </Title>
      <EmptyState
        title={t('pages.comingSoon')}
        description={t(`pages.${page}.description`)}
        data-testid="coming-soon"
      />
    </>
  );
}
