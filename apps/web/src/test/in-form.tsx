// A part of the integration editor rendered inside a form, as the editor holds it: a test counts
// the submits its keys and buttons cause (Enter in "Try the endpoint" or the Basic auth helper
// must not save the integration).
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';

export function renderInForm(children: ReactNode, onSubmit: () => void) {
  return render(
    <MantineProvider>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </MantineProvider>,
  );
}
