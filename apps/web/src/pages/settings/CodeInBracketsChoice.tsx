// "Read the product code in the brackets" (a mapping's code_in_brackets, ADR 0198): an ERP's
// export names a line's product "[FURN_7800] Desk Combination"; shown where the proposal or the
// draft has it (the Import screen, Try the endpoint), a native checkbox to turn it off (and on again).
import { Checkbox } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EntityMapping, PreviewFileResponse } from '@stockwise/contract';
import type { MappingOptions } from './preview.ts';

export function CodeInBracketsChoice({
  preview,
  draft,
  disabled,
  onOptions,
}: {
  preview: Pick<PreviewFileResponse, 'proposed_code_in_brackets'>;
  draft: EntityMapping | null;
  disabled: boolean;
  onOptions: (options: MappingOptions) => void;
}) {
  const { t } = useTranslation();
  if (!preview.proposed_code_in_brackets && !draft?.code_in_brackets) return null;
  return (
    <Checkbox
      label={t('import.builder.codeInBrackets')}
      description={t('import.builder.codeInBracketsHint')}
      data-testid="code-in-brackets"
      checked={draft?.code_in_brackets === true}
      disabled={disabled}
      onChange={(event) => onOptions({ code_in_brackets: event.currentTarget.checked || undefined })}
    />
  );
}
