// "Export … Excel" beside a CSV export: the server writes the workbook (exceljs stays out of the
// browser, docs/adr/0161), the browser saves it; a refusal is said under the button.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Text } from '@mantine/core';
import { normalizeError } from '../../api/errors.ts';
import { saveFile } from '../../components/save-file.ts';

export function WorkbookButton({ label, fileName, fetchFile, testId, disabled = false }: { label: string; fileName: string; fetchFile: () => Promise<Blob>; testId: string; disabled?: boolean }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setFailure(null);
    try {
      saveFile(fileName, await fetchFile());
    } catch (error) {
      setFailure(t('forecasting.export.excelFailed', { reason: normalizeError(error).message }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="default" size="xs" loading={busy} disabled={disabled} onClick={() => void download()} data-testid={testId}>
        {label}
      </Button>
      {failure ? (
        <Text size="xs" c="red.9" role="alert">
          {failure}
        </Text>
      ) : null}
    </>
  );
}
