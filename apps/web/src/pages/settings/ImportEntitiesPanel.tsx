// Settings → Import entities (administrators; ADR 0179): each inventory entity of the configuration
// (GET /api/yaml/config/) with its editor — what an import does with rows sharing the key, the
// description and the default field mappings the import screen proposes — saved through
// POST /api/yaml/update-entity/, which only administrators may call.
import { useEffect, useState } from 'react';
import { Alert, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ConfigEntity } from '@stockwise/contract';
import { configEntitiesOf, fetchConfig } from '../../api/import.ts';
import { normalizeError } from '../../api/errors.ts';
import { EntityEditor } from './EntityEditor.tsx';

export function ImportEntitiesPanel() {
  const { t } = useTranslation();
  const [entities, setEntities] = useState<ConfigEntity[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    fetchConfig().then(
      (answer) => {
        if (!live) return;
        if (answer.success) setEntities(configEntitiesOf(answer.content));
        else setError(answer.message);
      },
      (failure: unknown) => live && setError(normalizeError(failure).message),
    );
    return () => {
      live = false;
    };
  }, []);

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="entities-title" data-testid="entities-panel">
      <Stack gap="md">
        <div>
          <Title order={2} size="h3" id="entities-title">
            {t('entities.title')}
          </Title>
          <Text c="dimmed">{t('entities.intro')}</Text>
        </div>
        {error && (
          <Alert color="red" role="alert" data-testid="entities-load-error">
            {error}
          </Alert>
        )}
        {entities === null && !error && <Loader size="sm" role="status" aria-label={t('entities.loading')} />}
        {entities?.length === 0 && <Text data-testid="entities-empty">{t('entities.none')}</Text>}
        {entities?.map((entity) => (
          <Paper key={entity.name} withBorder p="sm">
            <EntityEditor initial={entity} />
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}
