// With "Create products for unknown codes": which of the file's columns new products take their
// name and category from (the mapping's new_products; pre-filled from the server's proposal,
// clearable), and the products the file's first records would create, by name.
import { Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PreviewFileResponse } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { useImportStore } from '../../stores/import.ts';
import { newProductColumnOptions } from './preview.ts';

/** Fields with their own label; any other text field of products is named by its key. */
const LABELLED_FIELDS = ['name', 'category'];

export function NewProductColumns({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const { draft, isUploading } = useImportStore(useShallow((state) => ({ draft: state.draft, isUploading: state.isUploading })));
  const { setOptions } = useImportStore.getState();
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
          const options = [{ value: '', label: none }, ...preview.header.map((name) => ({ value: name, label: name }))];
          return (
            <NativeSelect
              key={field}
              label={LABELLED_FIELDS.includes(field) ? t(`import.builder.newProducts.${field}`) : t('import.builder.newProducts.field', { field: field.replaceAll('_', ' ') })}
              data-new-product-field={field}
              value={column}
              disabled={isUploading}
              onChange={(event) => void setOptions(newProductColumnOptions(draft, field, event.currentTarget.value || null))}
              data={column && !preview.header.includes(column) ? [...options, { value: column, label: t('import.builder.notInFile', { column }) }] : options}
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
