// The Settings screen (route /app/settings): data integration (spec §2: choose a file and a
// mapping, preview the first five rows, submit), the import log, integrations and, for
// administrators, the shop's currency, the demo data's removal, the import entities' configuration
// and the users.
import './mantine-styles.ts';
import { useEffect, useState } from 'react';
import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
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

/** A settings section a link of the page's contents leads to: the id of its heading and its title's text key. */
interface SettingsSection {
  headingId: string;
  titleKey: string;
  shown: boolean;
}

/**
 * Links to the screen's sections, in their order: an administrator's Settings is seven panels, and
 * the one wanted (Users, say) is several screens down. Plain in-page links, so the browser's own
 * scrolling and focus apply and the address (#users-title) can be shared.
 */
function SettingsContents({ sections }: { sections: SettingsSection[] }) {
  const { t } = useTranslation();
  return (
    <Group component="nav" aria-label={t('nav.settingsContents')} gap="md" data-testid="settings-contents">
      {sections
        .filter((section) => section.shown)
        .map((section) => (
          <Anchor key={section.headingId} href={`#${section.headingId}`} size="sm">
            {t(section.titleKey)}
          </Anchor>
        ))}
    </Group>
  );
}

/** The page keeps an address's section in view until it has not grown for this long (its panels have loaded)… */
const SECTION_SETTLED_MS = 4000;
/** …or this long at most. */
const FOLLOW_SECTION_MAX_MS = 15000;

/**
 * Opens the page at the section an address names (…/settings#users-title). The browser scrolls to
 * it only if it is on the page when the page loads, and this screen's code arrives after that; the
 * panels above it then grow as their data comes, pushing it down. So it is scrolled to again each
 * time the page grows, until the page settles or the user scrolls or presses a key themselves.
 */
function useFollowAddressSection(isAdmin: boolean) {
  useEffect(() => {
    const headingId = decodeURIComponent(window.location.hash.slice(1));
    if (!headingId) return;
    let settled = 0;
    const stop = () => {
      growth.disconnect();
      window.clearTimeout(settled);
      window.clearTimeout(longest);
      userMoves.forEach((move) => window.removeEventListener(move, stop));
    };
    const follow = () => {
      document.getElementById(headingId)?.scrollIntoView();
      window.clearTimeout(settled);
      settled = window.setTimeout(stop, SECTION_SETTLED_MS);
    };
    const growth = new ResizeObserver(follow);
    const longest = window.setTimeout(stop, FOLLOW_SECTION_MAX_MS);
    const userMoves = ['wheel', 'keydown', 'pointerdown', 'touchstart'];
    userMoves.forEach((move) => window.addEventListener(move, stop, { passive: true }));
    growth.observe(document.body);
    follow();
    return stop;
  }, [isAdmin]);
}

export default function SettingsPage() {
  const { t } = useTranslation();
  const sessionReady = useSessionStore((state) => !state.isLoading && state.isLoggedIn);
  const { loadMappings, loadLogs } = useImportStore.getState();
  const canImport = useCan('editor');
  const isAdmin = useCan('admin');
  // A shop without the demo products has no Demo data panel: the contents leave its link out.
  const [demoDataShown, setDemoDataShown] = useState(false);

  // Spec §5: nothing is fetched until the session has loaded and the user is logged in.
  useEffect(() => {
    if (!sessionReady) return;
    void loadMappings();
    void loadLogs();
  }, [sessionReady, loadMappings, loadLogs]);

  useFollowAddressSection(isAdmin);

  return (
    <Stack gap="md" pb="xl">
      <Title order={1}>{t('nav.settings')}</Title>
      <SettingsContents
        sections={[
          { headingId: 'demo-data-title', titleKey: 'demoData.title', shown: isAdmin && demoDataShown },
          { headingId: 'shop-title', titleKey: 'shop.title', shown: isAdmin },
          { headingId: 'data-integration-title', titleKey: 'import.title', shown: true },
          { headingId: 'import-log-title', titleKey: 'import.log.title', shown: true },
          { headingId: 'entities-title', titleKey: 'entities.title', shown: isAdmin },
          { headingId: 'integrations-title', titleKey: 'integrations.title', shown: true },
          { headingId: 'users-title', titleKey: 'users.title', shown: isAdmin },
        ]}
      />
      {isAdmin && <DemoDataPanel onShownChange={setDemoDataShown} />}
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
