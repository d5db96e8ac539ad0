// A running run's retry of a failing endpoint, as Airbyte shows its attempts: which try comes, of
// how many, in how many seconds, and why the last one failed. The server writes it on the run's log
// entry (the one place it is kept); the web polls it and counts the wait down between polls.
import { useEffect, useState } from 'react';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RetryProgress } from '@stockwise/contract';

/** Seconds until `retryAt`, counted down each second while it is ahead. */
function useSecondsUntil(retryAt: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (retryAt === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [retryAt]);
  return retryAt === null ? 0 : Math.max(0, Math.ceil((Date.parse(retryAt) - now) / 1000));
}

export function RetryProgressText({ progress, testId }: { progress: RetryProgress | null; testId: string }) {
  const { t } = useTranslation();
  const seconds = useSecondsUntil(progress?.retry_at ?? null);
  if (!progress) return null;
  const values = { try: progress.try, tries: progress.tries, previous: progress.try - 1, seconds, reason: progress.reason };
  const key = progress.retry_at === null ? 'underWay' : seconds > 0 ? 'waiting' : 'starting';
  return (
    <Text size="xs" mt={4} lineClamp={3} title={progress.reason} data-testid={testId}>
      {t(`integrations.retry.${key}`, values)}
    </Text>
  );
}
