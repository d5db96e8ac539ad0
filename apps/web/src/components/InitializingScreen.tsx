import { useTranslation } from 'react-i18next';

// Shown before the texts arrive, so this one message has its English text here as the fallback;
// the locale file holds the same string (app.initializing).
const beforeTextsLoaded = 'Initializing Application...';

/** Full-screen message until the stored session has loaded (spec §2). */
export function InitializingScreen() {
  const { t } = useTranslation();
  return (
    <div
      role="status"
      style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', fontSize: '1.25rem', fontFamily: 'system-ui, sans-serif' }}
    >
      {t('app.initializing', { defaultValue: beforeTextsLoaded })}
    </div>
  );
}
