// The products' Supplier field of the row form (ADR 0186): free text, with the suppliers the
// products already name offered as it is typed (arrows and Enter take one), so a buyer picks "ACME"
// as the other products spell it rather than starting a twin. The server stores the spelling
// already used either way; the suggestions only save the typing.
import { useEffect, useState, type ReactNode } from 'react';
import { Autocomplete } from '@mantine/core';
import { fetchSuppliers } from '../../api/suppliers.ts';

/** The most suppliers the list shows at once: typing narrows a long list. */
export const SUGGESTED_SUPPLIERS = 50;

type SupplierFieldProps = {
  label: string;
  withAsterisk: boolean;
  error: ReactNode;
  name: string;
  'data-autofocus': true | undefined;
  /** The field's length counter near its limit. */
  description: ReactNode;
  value: string;
  onChange: (value: string) => void;
};

export function SupplierField({ value, onChange, ...field }: SupplierFieldProps) {
  const [suppliers, setSuppliers] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    fetchSuppliers().then(
      (list) => live && setSuppliers(list.suppliers.map((known) => known.supplier)),
      // Suggestions only: without them the field is typed as any text field is.
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  return <Autocomplete {...field} inputWrapperOrder={['label', 'input', 'description', 'error']} data={suppliers} limit={SUGGESTED_SUPPLIERS} value={value} onChange={onChange} data-testid="supplier-field" />;
}
