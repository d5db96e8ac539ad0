// The Settings screen (route /app/settings): data integration (spec §2: choose a file and a
// mapping, preview the first five rows, submit), the import log, integrations and, for
// administrators, the shop's currency, the demo data's removal, the import entities' configuration
// and the users.
import './mantine-styles.ts';
import { useEffect } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PREVIEW_ROWS } from '@stockwise/contract';
import { useSessionStore } from '../../stores/session.ts';
import { useCan } from '../../stores/role.ts';
import { useImportStore } from '../../stores/import.ts';
import { ImportForm } from './ImportForm.tsx';
import { ImportEntitiesPanel } from './ImportEntitiesPanel.tsx';
import { ImportLog } from './ImportLog.tsx';
import { IntegrationsPanel } from './IntegrationsPanel.tsx';
import { DemoDataPanel } from './DemoDataPanel.tsx';
import { ShopPanel } from './ShopPanel.tsx';
import { UsersPanel } from './UsersPanel.tsx';

export default function SettingsPage() {
  const { t } = useTranslation();
  const sessionReady = useSessionStore((state) => !state.isLoading && state.isLoggedIn);
  const { loadMappings, loadLogs } = useImportStore.getState();
  const canImport = useCan('editor');
  const isAdmin = useCan('admin');

  // Spec §5: nothing is fetched until the session has loaded and the user is logged in.
  useEffect(() => {
    if (!sessionReady) return;
    void loadMappings();
    void loadLogs();
  }, [sessionReady, loadMappings, loadLogs]);

  return (
    <Stack gap="md" pb="xl">
      <Title order={1}>{t('nav.settings')}</Title>
      {isAdmin && <DemoDataPanel />}
      {isAdmin && <ShopPanel />}
      <Paper withBorder p="md" component="section" aria-labelledby="data-integration-title">
        <Stack gap="md">
          <div>
            <Title order={2} size="h3" id="data-integration-title">
              {t('import.title')}
            </Title>
            <Text c="dimmed">{t('import.intro', { count: PREVIEW_ROWS })}</Text>
          </div>
          {canImport ? <ImportForm /> : <Text data-testid="import-viewer-note">{t('import.viewerNote')}</Text>}
        </Stack>
      </Paper>
      <Paper withBorder p="md" component="section">
        <ImportLog />
      </Paper>
      {isAdmin && <ImportEntitiesPanel />}
      <Paper withBorder p="md" component="section" aria-labelledby="integrations-title">
        <IntegrationsPanel />
      </Paper>
      {isAdmin && (
        <Paper withBorder p="md" component="section" aria-labelledby="users-title" data-testid="users-panel">
          <UsersPanel />
        </Paper>
      )}
    </Stack>
  );
}
