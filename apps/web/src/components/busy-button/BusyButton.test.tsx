// A busy button keeps the focus (ADR 0196, F2): Mantine's plain `loading` disables the button, and
// a browser moves the focus of a disabled element to <body>. jsdom keeps it there regardless, so the
// test also reads what makes a browser drop it: the element must not match `:disabled` while busy.
// A button's Enter or Space is a click on it (the browser's activation); e2e presses the real keys.
import { afterEach, beforeAll, expect, it } from 'vitest';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { renderInForm } from '../../test/in-form.tsx';
import { stubBrowserLayout } from '../../test/jsdom.ts';
import { BusyButton } from './BusyButton.tsx';

beforeAll(stubBrowserLayout);
afterEach(cleanup);

function Runner({ runs }: { runs: Array<() => void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <BusyButton
      busy={busy}
      onClick={() => {
        setBusy(true);
        runs.push(() => setBusy(false));
      }}
    >
      Run
    </BusyButton>
  );
}

it('stays focused and announced busy while its work runs, ignores a second press, and clears the marks after', () => {
  const runs: Array<() => void> = [];
  render(
    <MantineProvider>
      <Runner runs={runs} />
    </MantineProvider>,
  );
  const run = screen.getByRole('button', { name: 'Run' });
  expect(run.getAttribute('aria-busy')).toBeNull();
  run.focus();
  fireEvent.click(run);
  expect(runs).toHaveLength(1);
  expect(run.matches(':disabled')).toBe(false);
  expect(run.getAttribute('aria-disabled')).toBe('true');
  expect(run.getAttribute('aria-busy')).toBe('true');
  expect(run.hasAttribute('data-loading')).toBe(true);
  expect(document.activeElement).toBe(run);
  expect(screen.getByRole('button', { name: 'Run' })).toBe(run);

  fireEvent.click(run);
  expect(runs).toHaveLength(1);

  act(() => runs[0]!());
  expect(run.getAttribute('aria-disabled')).toBeNull();
  expect(run.getAttribute('aria-busy')).toBeNull();
  expect(run.hasAttribute('data-loading')).toBe(false);
  expect(document.activeElement).toBe(run);
  fireEvent.click(run);
  expect(runs).toHaveLength(2);
});

it('does not submit its form while busy, and is really disabled only when told so', () => {
  let submits = 0;
  const view = renderInForm(<BusyButton type="submit" busy>Save</BusyButton>, () => (submits += 1));
  const save = screen.getByRole('button', { name: 'Save' });
  save.focus();
  fireEvent.click(save);
  expect(submits).toBe(0);
  expect(document.activeElement).toBe(save);

  view.rerender(
    <MantineProvider>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submits += 1;
        }}
      >
        <BusyButton type="submit">Save</BusyButton>
        <BusyButton disabled>Nothing to save</BusyButton>
      </form>
    </MantineProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(submits).toBe(1);
  const idle = screen.getByRole('button', { name: 'Nothing to save' });
  expect(idle.matches(':disabled')).toBe(true);
  expect(idle.getAttribute('aria-busy')).toBeNull();
});
