import type { FocusEvent, KeyboardEvent, MouseEvent } from 'react';
import { createTheme, Select, type CSSVariablesResolver } from '@mantine/core';

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

/** Inputs focused by the press of a pointer still held: its release would put the caret where it was let go. */
const focusedByPress = new WeakSet<HTMLInputElement>();

/**
 * A searchable select shows its choice in the box (a product, a supplier, a currency); clicked and
 * typed into, the typing landed inside that text ("KERST-302 — Nordmann kerstamaryllisboom") and
 * nothing was found. Focusing the box selects its text, as a spreadsheet's cell or a browser's
 * address bar does, so what is typed replaces it; Tab did so already. A box that cannot be typed
 * into (a select without search) is left alone.
 */
export const typingReplacesTheChoice = {
  onFocus: (event: FocusEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    if (input.readOnly) return;
    input.select();
    focusedByPress.add(input);
  },
  onMouseUp: (event: MouseEvent<HTMLInputElement>) => {
    if (!focusedByPress.delete(event.currentTarget)) return;
    event.preventDefault();
  },
  onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
    focusedByPress.delete(event.currentTarget);
  },
};

export const appTheme = createTheme({
  components: {
    Select: Select.extend({ defaultProps: typingReplacesTheChoice }),
  },
});
