import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Stack p="xl" align="flex-start">
      <Title order={1}>{t('pages.notFound.title')}</Title>
      <Text>{t('pages.notFound.description', { path: pathname })}</Text>
      <Anchor component={Link} to="/">
        {t('pages.notFound.home')}
      </Anchor>
    </Stack>
  );
}
