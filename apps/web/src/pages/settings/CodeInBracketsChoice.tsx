// "Read the product code in the brackets" (a mapping's code_in_brackets, ADR 0198): an ERP's
// export names a line's product "[FURN_7800] Desk Combination"; shown where the proposal or the
// draft has it, a native checkbox to turn it off (and on again).
import { Checkbox } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PreviewFileResponse } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { useImportStore } from '../../stores/import.ts';

export function CodeInBracketsChoice({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const { draft, isUploading } = useImportStore(useShallow((state) => ({ draft: state.draft, isUploading: state.isUploading })));
  if (!preview.proposed_code_in_brackets && !draft?.code_in_brackets) return null;
  return (
    <Checkbox
      label={t('import.builder.codeInBrackets')}
      description={t('import.builder.codeInBracketsHint')}
      data-testid="code-in-brackets"
      checked={draft?.code_in_brackets === true}
      disabled={isUploading}
      onChange={(event) => void useImportStore.getState().setOptions({ code_in_brackets: event.currentTarget.checked || undefined })}
    />
  );
}
