// Keys on native controls in jsdom, as a browser answers them: Enter on a focused button clicks it,
// an arrow (or a letter) on a focused closed select changes it at once, firing its change.
import { expect } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';

/** The native select named `name`. */
export const select = (name: string) => screen.getByRole('combobox', { name }) as HTMLSelectElement;

/** Enter on a focused button: the browser clicks it. */
export function pressEnterOn(name: string) {
  const button = screen.getByRole('button', { name });
  button.focus();
  expect(document.activeElement).toBe(button);
  fireEvent.click(button);
}

/** An arrow key on a focused native select: the browser changes it to the next option. */
export function arrowTo(name: string, value: string) {
  const element = select(name);
  element.focus();
  expect(document.activeElement).toBe(element);
  fireEvent.change(element, { target: { value } });
}
