import type { CSSVariablesResolver } from '@mantine/core';

/**
 * WCAG 2 AA contrast (4.5:1) on every screen (ADR 0163): Mantine's dimmed gray (#868e96), its
 * blue links and filled buttons (#228be6) and its error red (#fa5252) fall short on white, so the
 * app uses darker shades of the same hues. Light alerts' titles (blue-6, yellow-6 on their tinted
 * backgrounds) fall short too; yellow has no shade dark enough, so its text is dark.
 */
export const readableContrast: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    '--mantine-primary-color-filled': 'var(--mantine-color-blue-8)',
    '--mantine-primary-color-filled-hover': 'var(--mantine-color-blue-9)',
    '--mantine-color-blue-filled': 'var(--mantine-color-blue-8)',
    '--mantine-color-blue-filled-hover': 'var(--mantine-color-blue-9)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-teal-light-color': 'var(--mantine-color-teal-9)',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    '--mantine-color-blue-light-color': 'var(--mantine-color-blue-9)',
    '--mantine-color-yellow-light-color': 'var(--mantine-color-dark-7)',
  },
  dark: {},
});
