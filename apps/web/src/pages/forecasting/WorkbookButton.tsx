// An export the server writes — "Export … Excel" (exceljs stays out of the browser, docs/adr/0161),
// or the report's CSV of its whole list (ADR 0072, amendment 2026-12-04) — saved by the browser; a
// refusal is said under the button.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Text } from '@mantine/core';
import { normalizeError } from '../../api/errors.ts';
import { saveFile } from '../../components/save-file.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

type WorkbookButtonProps = {
  label: string;
  fileName: string;
  fetchFile: () => Promise<Blob>;
  testId: string;
  disabled?: boolean;
  /** The words of a failed download, naming the file kind. */
  failure?: 'forecasting.export.excelFailed' | 'forecasting.export.csvFailed';
};

export function WorkbookButton({ label, fileName, fetchFile, testId, disabled = false, failure: failureKey = 'forecasting.export.excelFailed' }: WorkbookButtonProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      saveFile(fileName, await fetchFile());
    } catch (error) {
      setFailure(t(failureKey, { reason: normalizeError(error).message }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <BusyButton variant="default" size="xs" busy={busy} disabled={disabled} onClick={() => void download()} data-testid={testId}>
        {label}
      </BusyButton>
      {failure ? (
        <Text size="xs" c="red.9" role="alert">
          {failure}
        </Text>
      ) : null}
    </>
  );
}
