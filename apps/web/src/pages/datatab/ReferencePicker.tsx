// A ForeignKey field of the row form: the row it refers to is chosen by its code or name (a sale's
// product as `MUG-01 — Enamel mug`), never typed as an internal id. The rows are asked of the server
// as the user types (a catalogue may hold 50,000 products), a page at a time.
import { useCallback, useMemo, useRef, useState } from 'react';
import { Loader, Select, type ComboboxData } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { RelatedRow } from '@stockwise/contract';
import { searchRelatedRows } from '../../api/tables.ts';
import { normalizeError } from '../../api/errors.ts';
import { withDetail } from '../../stores/tables.ts';

export const referenceSearchDebounceMs = 250;

type ReferencePickerProps = {
  /** The table whose row the form writes, and the ForeignKey column. */
  tableName: string;
  columnKey: string;
  label: string;
  required: boolean;
  error: string | undefined;
  /** The id of the row referred to, as form text ('' for none). */
  value: string;
  /** How that row is known (`code — name`, from the grid's page), when it is. */
  valueLabel: string | null;
  onChange: (id: string) => void;
  autofocus: boolean;
};

/** The options as Select takes them: the rows found, under a heading saying to type more when others match too. */
export function pickerOptions(found: readonly RelatedRow[], more: string | null, chosen: RelatedRow | null): ComboboxData {
  const items = found.map((row) => ({ value: String(row.id), label: row.label }));
  // The chosen row stays an option until a search replaces the list, so its label shows in the box.
  if (chosen && !items.some((item) => item.value === String(chosen.id))) items.push({ value: String(chosen.id), label: chosen.label });
  return more && items.length > 0 ? [{ group: more, items }] : items;
}

export function ReferencePicker({ tableName, columnKey, label, required, error, value, valueLabel, onChange, autofocus }: ReferencePickerProps) {
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<RelatedRow | null>(() => (value ? { id: Number(value), label: valueLabel ?? value } : null));
  const [search, setSearch] = useState(chosen?.label ?? '');
  const [found, setFound] = useState<{ rows: RelatedRow[]; more: boolean } | null>(null);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Only the answer to the latest search is shown (an earlier one may come back later).
  const latest = useRef(0);
  // What the box holds right now: typing opens the list before the state has it.
  const typed = useRef(search);

  const load = useCallback(
    async (text: string) => {
      const mine = ++latest.current;
      setLoading(true);
      setFailure(null);
      try {
        const answer = await searchRelatedRows(tableName, columnKey, text.trim());
        if (mine === latest.current) setFound({ rows: answer.results, more: answer.more });
      } catch (caught) {
        if (mine !== latest.current) return;
        // The rows of an earlier search would pass for this one's.
        setFound({ rows: [], more: false });
        setFailure(withDetail(t('datatab.referencePicker.failed'), normalizeError(caught)));
      } finally {
        if (mine === latest.current) setLoading(false);
      }
    },
    [tableName, columnKey, t],
  );
  const searchSoon = useDebouncedCallback((text: string) => void load(text), referenceSearchDebounceMs);

  const data = useMemo(
    () => pickerOptions(found?.rows ?? [], found?.more ? t('datatab.referencePicker.more', { count: found.rows.length }) : null, found && search !== chosen?.label ? null : chosen),
    [found, chosen, search, t],
  );

  return (
    <Select
      label={label}
      withAsterisk={required}
      error={error}
      placeholder={t('datatab.referencePicker.placeholder')}
      searchable
      clearable={!required}
      allowDeselect={false}
      openOnFocus={false}
      data={data}
      value={value === '' ? null : value}
      searchValue={search}
      onSearchChange={(text) => {
        typed.current = text;
        setSearch(text);
        // Mantine writes the chosen row's label into the box: not something to search for.
        if (text !== chosen?.label) searchSoon(text);
      }}
      onDropdownOpen={() => {
        // Opened without typing: the first rows. Typed text is searched for once the typing pauses.
        if (found === null && !loading && typed.current === (chosen?.label ?? '')) void load('');
      }}
      // The server has filtered the rows already.
      filter={({ options }) => options}
      onChange={(id, option) => {
        setChosen(id === null || option === null ? null : { id: Number(id), label: option.label });
        onChange(id ?? '');
      }}
      nothingFoundMessage={failure ?? t(loading ? 'datatab.referencePicker.searching' : 'datatab.referencePicker.nothingFound')}
      rightSection={loading ? <Loader size="xs" /> : undefined}
      maxDropdownHeight={280}
      // As wide as its rows' labels (a product's name is longer than the field), within reason.
      comboboxProps={{ width: 'max-content', position: 'bottom-start' }}
      styles={{ dropdown: { minWidth: '16rem', maxWidth: 'min(32rem, 90vw)' } }}
      title={chosen?.label}
      data-autofocus={autofocus || undefined}
      data-testid={`reference-picker-${columnKey}`}
    />
  );
}
