// The lists' note under an order quantity the supplier's terms shaped (ADR 0183): "2 × 24",
// "supplier's minimum" or "4 × 5 · min. 20" in small print, so a table of orders stays one line of
// figures to read down; the whole of it ("2 cases of 24; 40 needed") on hover and to a screen reader.
import { Text, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReportProduct } from '@stockwise/contract';
import { supplierOrderNote, supplierOrderWords } from './supplier-order-words.ts';

type Order = Pick<ReportProduct, 'orderQuantity' | 'orderMultiple' | 'minOrderQuantity' | 'orderQuantityNeeded' | 'unit'>;

export function SupplierOrderNote({ order }: { order: Order }) {
  const { t } = useTranslation();
  const note = supplierOrderNote(order, order.unit, t);
  if (!note) return null;
  const words = supplierOrderWords(order, order.unit, t) ?? note;
  return (
    <Text component="span" display="block" size="xs" c="gray.7" title={words} data-testid="supplier-order">
      <span aria-hidden>{note}</span>
      <VisuallyHidden>{words}</VisuallyHidden>
    </Text>
  );
}
