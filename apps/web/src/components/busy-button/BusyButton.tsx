// The one button for work that takes a moment (ADR 0196, F2). Mantine's `loading` makes the button
// `disabled` while busy, and a disabled element loses the focus: pressed with Enter, the focus fell
// to <body> (out of a dialog too) and a screen reader lost its place. This button looks the same
// (Mantine's loader over a hidden label, which still names it) but stays focusable while busy:
// `aria-disabled` and `aria-busy` say so, and a click, Enter or Space (or the form submit it would
// start) is ignored until the work ends.
import { forwardRef, type ComponentPropsWithoutRef, type MouseEvent } from 'react';
import { Button, type ButtonProps } from '@mantine/core';

type ElementProps = Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps | 'children'>;
type BusyProps = { busy?: boolean };

export type BusyButtonProps = Omit<ButtonProps, 'loading'> & ElementProps & BusyProps;

// Mantine passes `disabled` as "disabled or loading"; the element keeps only the real one.
const FocusableButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'> & BusyProps>(function FocusableButton(
  { busy = false, disabled, onClick, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      {...rest}
      disabled={busy ? undefined : disabled}
      aria-disabled={busy || undefined}
      aria-busy={busy || undefined}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        if (busy) {
          // Also stops a submit button's form submit, implicit submission (Enter in a field) included.
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
    />
  );
});

export const BusyButton = forwardRef<HTMLButtonElement, BusyButtonProps>(function BusyButton({ busy = false, ...props }, ref) {
  return <Button {...props} ref={ref} component={FocusableButton} busy={busy} loading={busy} />;
});
