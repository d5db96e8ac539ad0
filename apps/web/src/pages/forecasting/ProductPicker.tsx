// Searchable product picker: the first products page at start, then a debounced server-side search
// on style code and name, so products beyond the first 50 are reachable by typing.
import { useMemo, useState } from 'react';
import { Loader, Select } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../api/forecasting.ts';
import { useForecastingStore } from '../../stores/forecasting.ts';

export const searchDebounceMs = 250;

const labelOf = (product: Pick<Product, 'styleCode' | 'name'>) => `${product.styleCode} — ${product.name}`;

/** `onChoose`: a product was picked (the screen writes it to the URL, and the URL selects it). */
export function ProductPicker({ onChoose }: { onChoose: (styleCode: string) => void }) {
  const { t } = useTranslation();
  const products = useForecastingStore((state) => state.products);
  const isLoading = useForecastingStore((state) => state.isLoadingProducts);
  const selectedCode = useForecastingStore((state) => state.selectedCode);
  const selectedProduct = useForecastingStore((state) => state.selectedProduct);
  const searchProducts = useForecastingStore((state) => state.searchProducts);
  const forecastProduct = useForecastingStore((state) => state.forecast?.product ?? null);
  const [search, setSearch] = useState('');
  const selected = selectedProduct ?? (forecastProduct && forecastProduct.styleCode === selectedCode ? forecastProduct : null);

  const data = useMemo(() => {
    const options = products.map((product) => ({ value: product.styleCode, label: labelOf(product) }));
    // The selected product stays an option (its label shows in the input), after the search results.
    if (selected && !options.some((option) => option.value === selected.styleCode)) options.push({ value: selected.styleCode, label: labelOf(selected) });
    return options;
  }, [products, selected]);

  const selectedLabel = selectedCode ? (data.find((option) => option.value === selectedCode)?.label ?? null) : null;
  const runSearch = useDebouncedCallback((text: string) => void searchProducts(text), searchDebounceMs);

  // Picking a product elsewhere (report row, low-stock row) shows its label in the input.
  const [shownLabel, setShownLabel] = useState<string | null>(null);
  if (selectedLabel !== shownLabel) {
    setShownLabel(selectedLabel);
    if (selectedLabel !== null) setSearch(selectedLabel);
  }

  return (
    <Select
      label={t('forecasting.picker.label')}
      placeholder={t('forecasting.picker.placeholder')}
      searchable
      clearable={false}
      allowDeselect={false}
      data={data}
      value={selectedCode}
      searchValue={search}
      onSearchChange={(text) => {
        setSearch(text);
        // Mantine writes the picked option's label into the search box: not a query.
        if (text === selectedLabel) return;
        runSearch(text);
      }}
      filter={({ options }) => options}
      onChange={(value) => {
        if (value !== null) onChoose(value);
      }}
      nothingFoundMessage={isLoading ? t('forecasting.picker.searching') : t('forecasting.picker.nothingFound')}
      rightSection={isLoading ? <Loader size="xs" /> : undefined}
      maxDropdownHeight={320}
      limit={100}
      w={{ base: '100%', sm: 420 }}
      data-testid="product-picker"
    />
  );
}
