// Lines without a product code, on the Import screen and in Try the endpoint alike: what they are
// (counted, named, those known by their name said apart) and "Lines without a product code are
// known by their name" (a mapping's blank_code_by_name, ADR 0195 F4), checked as proposed.
import { LINE_NAME_FIELD } from '@stockwise/contract';
import { Checkbox } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { EntityMapping, PreviewFileResponse } from '@stockwise/contract';
import { blankCodeByNameOptions, type MappingOptions } from './preview.ts';

const matchesProducts = (preview: Pick<PreviewFileResponse, 'targets'>) => preview.targets.some((target) => target.reference?.table === 'products');

/**
 * What the lines without a product code are: counted, and named where the server read their names
 * ("Chunky Cable Cardigan - M", a product sold without a SKU, beside the gift cards; ADR 0195);
 * the lines with nothing in any mapped column (Shopify's image-only lines) counted apart (F5).
 */
export function blankCodesText(preview: Pick<PreviewFileResponse, 'blank_code_lines' | 'blank_code_matched' | 'blank_code_names' | 'empty_lines' | 'targets'>, t: TFunction): string {
  const count = preview.blank_code_lines;
  const empty = preview.empty_lines ? t('import.builder.emptyLines', { count: preview.empty_lines }) : '';
  if (!count) return empty || t('import.builder.skipWithoutCodeHint');
  const matched = Math.min(preview.blank_code_matched ?? 0, count);
  const rest = count - matched;
  const names = preview.blank_code_names ?? [];
  const shown = [...names.map((name) => `“${name}”`), ...(rest > names.length ? ['…'] : [])].join(', ');
  // Those known by their name are imported (ADR 0195 F4): counted first, the others named as still skipped.
  const byName = matched ? t(`import.builder.${matchesProducts(preview) ? 'blankCodesMatched' : 'blankCodesAsCode'}`, { count: matched }) : '';
  const skipped = !rest ? '' : matched ? t(names.length ? 'import.builder.blankCodesRestNamed' : 'import.builder.blankCodesRest', { count: rest, names: shown }) : names.length ? t('import.builder.blankCodesNamed', { count, names: shown }) : t('import.builder.blankCodes', { count });
  return [byName, skipped, empty].filter(Boolean).join(' ');
}

/**
 * Shown where the server offers the option or the draft has it, checked as the draft says. A
 * products file's variant without a SKU takes its name as its code; a sales line is matched to
 * the product whose name reads the same (Lineitem name "Chunky Cable Cardigan - M" is Chunky Cable
 * Cardigan M), read from the draft's new_products.name, else the one proposed.
 */
export function BlankCodeByNameChoice({
  preview,
  draft,
  disabled,
  onOptions,
}: {
  preview: Pick<PreviewFileResponse, 'proposed_blank_code_by_name' | 'proposed_new_products' | 'proposed_joined_columns' | 'proposed_joined_leave_out' | 'targets'>;
  draft: EntityMapping | null;
  disabled: boolean;
  onOptions: (options: MappingOptions) => void;
}) {
  const { t } = useTranslation();
  if (!preview.proposed_blank_code_by_name && !draft?.blank_code_by_name) return null;
  const column = draft?.new_products?.['name'] ?? preview.proposed_new_products?.['name'];
  const matches = matchesProducts(preview) && column;
  // The columns the name is read from, as the draft joins them: "Item + Price Point Name" (ADR 0201 F6).
  const shown = column ? [column, ...(draft?.joined_columns?.[LINE_NAME_FIELD] ?? [])].join(' + ') : column;
  return (
    <Checkbox
      label={matches ? t('import.builder.byName', { column: shown }) : t('import.builder.nameAsCode')}
      description={matches ? t('import.builder.byNameHint') : t('import.builder.nameAsCodeHint')}
      data-testid="blank-code-by-name"
      checked={draft?.blank_code_by_name === true}
      disabled={disabled}
      onChange={(event) => onOptions(blankCodeByNameOptions(draft, event.currentTarget.checked, preview))}
    />
  );
}
