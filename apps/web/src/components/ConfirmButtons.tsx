// The buttons of a confirmation dialog whose action cannot simply be taken back (an undo, a removal,
// a reset): the safe choice first and focused, so Enter right after opening does nothing.
import { Button, Group } from '@mantine/core';
import { BusyButton } from './busy-button/BusyButton.tsx';

type Props = { cancelLabel: string; confirmLabel: string; busy: boolean; onCancel: () => void; onConfirm: () => void };

export function ConfirmButtons({ cancelLabel, confirmLabel, busy, onCancel, onConfirm }: Props) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} data-autofocus>
        {cancelLabel}
      </Button>
      <BusyButton color="red.9" busy={busy} onClick={onConfirm}>
        {confirmLabel}
      </BusyButton>
    </Group>
  );
}
