import { Alert, Anchor, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** What an account with a starting password an administrator gave sees until it has chosen its own. */
export function ChoosePassword() {
  const { t } = useTranslation();
  return (
    <>
      <Title order={1} mb="lg">
        {t('startingPassword.title')}
      </Title>
      <Alert color="blue" data-testid="choose-password" maw={640}>
        {t('startingPassword.description')}{' '}
        <Anchor component={Link} to="/profile" c="blue.9" fw={600}>
          {t('startingPassword.link')}
        </Anchor>
      </Alert>
    </>
  );
}
