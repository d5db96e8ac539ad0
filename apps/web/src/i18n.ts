// The one i18next instance: locale en, namespace common, texts loaded over HTTP from
// public/locales/{lng}/{ns}.json (spec §1, §7). The product name is a default variable.
import i18next, { type InitOptions, type Resource } from 'i18next';
import HttpBackend from 'i18next-http-backend';
import { initReactI18next } from 'react-i18next';
import { productName } from './product.ts';

export const defaultLocale = 'en';
export const defaultNamespace = 'common';

export const i18n = i18next.createInstance();

const baseOptions: InitOptions = {
  lng: defaultLocale,
  fallbackLng: defaultLocale,
  supportedLngs: [defaultLocale],
  ns: [defaultNamespace],
  defaultNS: defaultNamespace,
  interpolation: { escapeValue: false, defaultVariables: { product: productName } },
  react: { useSuspense: false },
};

/** Browser start: texts come from /locales/en/common.json. */
export function initI18n(): Promise<unknown> {
  return i18n
    .use(HttpBackend)
    .use(initReactI18next)
    .init({ ...baseOptions, backend: { loadPath: '/locales/{{lng}}/{{ns}}.json' } });
}

/** Tests: the same texts, handed in directly. */
export function initI18nWithResources(resources: Resource): Promise<unknown> {
  return i18n.use(initReactI18next).init({ ...baseOptions, resources });
}
