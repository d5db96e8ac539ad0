// Before importing sales: the totals the mapping imported before on the file's days, which the
// import would replace (a file imported again must not double), and a way to import under a new
// mapping name instead, for another till's file, so both tills' sales add up (ADR 0164's amendment
// of 2026-12-05, "one mapping, two tills").
import { useEffect, useRef, useState } from 'react';
import { Alert, Group, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PreviewFileResponse } from '@stockwise/contract';
import { useShallow } from 'zustand/react/shallow';
import { mappingNameUsed, useImportStore } from '../../stores/import.ts';
import { BusyButton } from '../../components/busy-button/BusyButton.tsx';

/** "Till sales (2)", or the first of (3), (4) … no saved mapping has. */
export function nextMappingName(name: string, taken: readonly string[]): string {
  const base = name.replace(/ \(\d+\)$/, '');
  for (let at = 2; ; at += 1) if (!taken.includes(`${base} (${at})`)) return `${base} (${at})`;
}

export function ReplacesSales({ preview }: { preview: PreviewFileResponse }) {
  const { t } = useTranslation();
  const state = useImportStore(
    useShallow((s) => ({ selectedMapping: s.selectedMapping, mappingConfig: s.mappingConfig, savedAs: s.savedAs, entityType: s.entityType, draft: s.draft, availableMappings: s.availableMappings, isUploading: s.isUploading, isSaving: s.isSaving, saveError: s.saveError })),
  );
  const saveDraft = useImportStore((s) => s.saveDraft);
  const warned = preview.replaces_sales;
  const [name, setName] = useState(() => (state.selectedMapping ? nextMappingName(state.selectedMapping, state.availableMappings.map((mapping) => mapping.name)) : ''));
  const [savedHere, setSavedHere] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const status = useRef<HTMLParagraphElement>(null);
  const usedName = mappingNameUsed(state);
  const saved = savedHere !== null && usedName === savedHere;
  // The button that saved is gone: the keyboard's focus goes to what it did (WCAG 2.4.3).
  useEffect(() => {
    if (saved) status.current?.focus();
  }, [saved]);
  if (!warned) return null;
  if (saved) {
    return (
      <Text size="sm" role="status" ref={status} tabIndex={-1} maw={760} data-testid="replaces-sales-saved">
        {t('import.replaces.saved', { name: savedHere, earlier: warned.mapping_name ?? '' })}
      </Text>
    );
  }
  if (warned.mapping_name !== usedName) return null;
  return (
    <Alert color="yellow" maw={760} data-testid="replaces-sales" title={<Text inherit fw={600} component="span">{t('import.replaces.title')}</Text>}>
      <Stack gap="xs">
        <Text size="sm" data-testid="replaces-sales-message">
          {warned.message}
        </Text>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitted(true);
            void saveDraft(name).then(() => {
              if (useImportStore.getState().savedAs === name.trim()) setSavedHere(name.trim());
            });
          }}
        >
          <Group gap="sm" align="flex-end">
            <TextInput
              label={t('import.replaces.newName')}
              description={t('import.replaces.newNameHint')}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              error={submitted ? (state.saveError ?? undefined) : undefined}
              maxLength={100}
              w={320}
            />
            <BusyButton type="submit" variant="default" busy={state.isSaving} disabled={state.isUploading || !state.draft}>
              {t('import.replaces.saveAsNew')}
            </BusyButton>
          </Group>
        </form>
      </Stack>
    </Alert>
  );
}
