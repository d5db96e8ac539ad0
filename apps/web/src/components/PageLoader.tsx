import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Shown while a page's code loads. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center p="xl" role="status" aria-label={t('app.loading')}>
      <Loader size="sm" />
    </Center>
  );
}
