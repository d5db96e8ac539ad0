// One choice of the shop's settings saved on its own at the version read — the currency, the time
// zone: what was picked (the saved value shows until then), the save's answer, and after a refusal
// as saved meanwhile the settings as they are now, kept until Reload replaces the choice with theirs
// (ADR 0168's amendment "the shop's settings").
import { useState } from 'react';
import { Alert, Stack } from '@mantine/core';
import type { ShopSettings } from '@stockwise/contract';
import { normalizeError } from '../../api/errors.ts';
import { currentOfConflict } from '../../api/versions.ts';
import { ReloadAfterConflict } from '../../components/ReloadAfterConflict.tsx';

/** `saved`: the value as read; `show`: takes the settings a refusal gave, on Reload. */
export function useShopChoice<T>(saved: T, show: (settings: ShopSettings) => void) {
  // Undefined until the administrator picks: the saved value shows, also when it arrives after the panel.
  const [picked, setPicked] = useState<T | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  // Saved by someone else since it was read: the settings as they are now, until Reload.
  const [savedMeanwhile, setSavedMeanwhile] = useState<ShopSettings | null>(null);
  const chosen = picked === undefined ? saved : picked;

  const pick = (value: T) => {
    setPicked(value);
    setDone(null);
  };
  /** Saves the choice (or `value`, picked with it) with `save`, which answers what to tell the administrator. */
  const submit = (save: (value: T) => Promise<string>, value: T = chosen) => {
    setBusy(true);
    setError(null);
    setDone(null);
    setSavedMeanwhile(null);
    save(value).then(
      (message) => {
        setBusy(false);
        setPicked(undefined);
        setDone(message);
      },
      (failure: unknown) => {
        const normalized = normalizeError(failure);
        setBusy(false);
        setError(normalized.message);
        setSavedMeanwhile(currentOfConflict<ShopSettings>(normalized));
      },
    );
  };
  const reload = () => {
    if (savedMeanwhile) show(savedMeanwhile);
    setPicked(undefined);
    setSavedMeanwhile(null);
    setError(null);
  };
  return { chosen, pick, busy, error, done, savedMeanwhile, submit, reload };
}

/** The answer of a save: the refusal (with Reload when saved meanwhile) or what was saved; test ids `<testId>-error`, `-reload`, `-saved`. */
type SaveAnswer = { error: string | null; done: string | null; savedMeanwhile: ShopSettings | null; reload: () => void };

export function ShopChoiceAnswer({ choice, reloadLabel, reloadHint, testId }: { choice: SaveAnswer; reloadLabel: string; reloadHint: string; testId: string }) {
  return (
    <>
      {choice.error && (
        <Alert color="red" role="alert" data-testid={`${testId}-error`}>
          <Stack gap={4}>
            {choice.error}
            {choice.savedMeanwhile && <ReloadAfterConflict label={reloadLabel} hint={reloadHint} onReload={choice.reload} testId={`${testId}-reload`} />}
          </Stack>
        </Alert>
      )}
      {choice.done && (
        <Alert color="green" role="status" data-testid={`${testId}-saved`}>
          {choice.done}
        </Alert>
      )}
    </>
  );
}
