// With "Create products for unknown codes": which of the file's columns (an endpoint's paths, in Try
// the endpoint) new products take their name, category and other text fields from (the mapping's
// new_products; pre-filled from the server's proposal, clearable, every field it proposes shown),
// and the products the first records would create, by name.
import { Checkbox, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { EntityMapping, PreviewFileResponse } from '@stockwise/contract';
import { createMissingOptions, newProductColumnOptions, type MappingOptions } from './preview.ts';

/** Fields with their own label; any other text field of products is named by its key. */
const LABELLED_FIELDS = ['name', 'category'];

type NewProductsPreview = Pick<PreviewFileResponse, 'proposed_new_products' | 'proposed_joined_columns' | 'new_products' | 'new_product_count'>;

type NewProductProps = {
  preview: NewProductsPreview;
  draft: EntityMapping | null;
  disabled: boolean;
  onOptions: (options: MappingOptions) => void;
};

/** "Create products for unknown codes", its fields taken from the proposal when ticked. */
export function CreateMissingChoice({ preview, draft, disabled, onOptions }: NewProductProps) {
  const { t } = useTranslation();
  return (
    <Checkbox
      label={t('import.builder.createMissing')}
      checked={draft?.create_missing_products === true}
      disabled={disabled}
      onChange={(event) => onOptions(createMissingOptions(draft, event.currentTarget.checked, preview))}
    />
  );
}

/** `columns`: the file's header, or the paths of the endpoint's records. */
export function NewProductColumns({ preview, columns, draft, disabled, onOptions }: NewProductProps & { columns: string[] }) {
  const { t } = useTranslation();
  const fields = Object.keys(preview.proposed_new_products ?? {});
  if (!fields.length) return null;
  const newProducts = preview.new_products ?? [];
  const more = (preview.new_product_count ?? 0) - newProducts.length;
  return (
    <Stack gap={4} data-testid="new-product-columns">
      <Group gap="md" align="flex-end">
        {fields.map((field) => {
          const column = draft?.new_products?.[field] ?? '';
          // Without a column a new product is named by its code; its other fields stay empty.
          const none = field === 'name' ? t('import.builder.newProducts.fromCode') : t('import.builder.noColumn');
          const options = [{ value: '', label: none }, ...columns.map((name) => ({ value: name, label: name }))];
          return (
            <NativeSelect
              key={field}
              label={LABELLED_FIELDS.includes(field) ? t(`import.builder.newProducts.${field}`) : t('import.builder.newProducts.field', { field: field.replaceAll('_', ' ') })}
              data-new-product-field={field}
              value={column}
              disabled={disabled}
              onChange={(event) => onOptions(newProductColumnOptions(draft, field, event.currentTarget.value || null))}
              data={column && !columns.includes(column) ? [...options, { value: column, label: t('import.builder.notInFile', { column }) }] : options}
              w={260}
            />
          );
        })}
      </Group>
      {newProducts.length ? (
        <Text size="sm" data-testid="new-products-preview">
          {t('import.builder.newProducts.preview', {
            count: preview.new_product_count ?? newProducts.length,
            products: newProducts.map(({ code, values }) => (values['name'] && values['name'] !== code ? `${code} ${values['name']}` : code)).join(', '),
          })}
          {more > 0 ? ` ${t('import.builder.newProducts.more', { count: more })}` : ''}
        </Text>
      ) : null}
    </Stack>
  );
}
