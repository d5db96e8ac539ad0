// A refusal puts the focus on the first field it names, once, after it shows; editing a field later
// does not pull the focus back to another one that still has an error.
import { afterEach, expect, it } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useFocusFirstInvalid } from './form-focus.ts';

afterEach(cleanup);

function Form() {
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const { formRef, focusFirstInvalid } = useFocusFirstInvalid();
  return (
    <form
      ref={formRef}
      onSubmit={(event) => {
        event.preventDefault();
        setErrors({ username: 'Taken.', password: 'Too short.' });
        focusFirstInvalid();
      }}
    >
      <input aria-label="Role" />
      <input aria-label="Username" aria-invalid={errors.username ? true : undefined} />
      <input aria-label="Password" aria-invalid={errors.password ? true : undefined} onChange={() => setErrors((current) => ({ ...current, password: undefined }))} />
      <button type="submit">Add</button>
    </form>
  );
}

it('focuses the first refused field after a refusal, and leaves the focus alone while a field is edited', () => {
  render(<Form />);
  const add = screen.getByRole('button', { name: 'Add' });
  add.focus();
  fireEvent.click(add);
  expect(document.activeElement).toBe(screen.getByLabelText('Username'));
  const password = screen.getByLabelText('Password');
  password.focus();
  fireEvent.change(password, { target: { value: 'a longer secret' } });
  expect(document.activeElement).toBe(password);
});
