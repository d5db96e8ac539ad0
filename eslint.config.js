import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', 'data/**', '.bench-data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // A busy button keeps the focus (ADR 0196, F2): Mantine's `loading` disables the button, and the
    // focus of a disabled element falls to <body>. Work that takes a moment goes through BusyButton.
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/components/busy-button/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXOpeningElement[name.name=/^(Button|ActionIcon)$/] > JSXAttribute[name.name='loading']",
          message: 'A loading button loses the focus: use BusyButton (components/busy-button) with busy={…}.',
        },
      ],
    },
  },
  {
    // One folder per feature (DESIGN.md): a page does not reach into another page's folder; what two
    // screens share lives in components/, stores/ or packages/contract. The dashboard shows pinned
    // reports with the reports' own chart and result table, the one dependency between screens (docs/architecture.md).
    files: ['apps/web/src/pages/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`^\.\./(?!\.|reports/(?:ReportChart|ResultGrid)\.tsx$)[^/]+/`,
              message: "Another page's module: move what both screens use to components/, stores/ or packages/contract.",
            },
          ],
        },
      ],
    },
  },
);
