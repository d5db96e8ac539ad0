// The Reload of a save refused because someone else saved the same thing since it was opened
// (ADR 0168): a real button, described by the line beside it saying what reloading replaces.
import { useId } from 'react';
import { Button, Group, Text } from '@mantine/core';

export function ReloadAfterConflict({ label, hint, onReload, testId }: { label: string; hint: string; onReload: () => void; testId?: string }) {
  const hintId = useId();
  return (
    <Group gap="sm">
      <Button variant="default" size="xs" onClick={onReload} aria-describedby={hintId} data-testid={testId}>
        {label}
      </Button>
      <Text size="xs" id={hintId}>
        {hint}
      </Text>
    </Group>
  );
}
