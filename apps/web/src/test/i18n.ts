// Tests use the real locale file.
import common from '../../public/locales/en/common.json';
import { i18n, initI18nWithResources } from '../i18n.ts';

export async function initTestI18n(): Promise<void> {
  if (i18n.isInitialized) return;
  await initI18nWithResources({ en: { common } });
}

export { common };
