// "What does each value mean?": when the preview or the import refuses a file's values as none of a
// column's allowed values (a German shop's `geplant` for a delivery's status), or as neither yes nor
// no (an Odoo shop's own product type in Not stocked), one select per value of the allowed values; Apply puts the answers in the mapping's value maps and reads the preview
// again (docs/adr/0011-real-data-in.md, value maps).
import { useState } from 'react';
import { Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { useImportStore } from '../../stores/import.ts';
import { valuesToMap, type ValueMeanings as Meanings } from './preview.ts';

const TITLE_ID = 'value-meanings-title';

export function ValueMeanings() {
  const { t } = useTranslation();
  const { previewData, refusedChoices, draft, isLoading, isUploading } = useImportStore(
    useShallow((state) => ({ previewData: state.previewData, refusedChoices: state.refusedChoices, draft: state.draft, isLoading: state.isLoading, isUploading: state.isUploading })),
  );
  const mapValues = useImportStore((state) => state.mapValues);
  const [meanings, setMeanings] = useState<Meanings>({});
  const fields = valuesToMap(previewData?.targets ?? [], draft, previewData?.refused_choices, refusedChoices);
  if (!fields.length) return null;
  const answered = fields.some((entry) => entry.values.some((value) => meanings[entry.field]?.[value]));
  const choose = (field: string, value: string, meant: string) => setMeanings((current) => ({ ...current, [field]: { ...current[field], [value]: meant } }));
  return (
    <Paper withBorder p="md" maw={760} component="section" aria-labelledby={TITLE_ID} data-testid="value-meanings">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setMeanings({});
          void mapValues(meanings);
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h5" id={TITLE_ID}>
            {t('import.values.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('import.values.intro')}
          </Text>
          {fields.map((entry) => (
            <SimpleGrid key={entry.field} cols={{ base: 1, sm: 2 }} spacing="sm" data-field={entry.field}>
              {entry.values.map((value) => (
                <NativeSelect
                  key={value}
                  label={t('import.values.means', { value, field: entry.label })}
                  value={meanings[entry.field]?.[value] ?? ''}
                  disabled={isUploading}
                  onChange={(event) => choose(entry.field, value, event.currentTarget.value)}
                  data={[{ value: '', label: t('import.values.unanswered') }, ...(entry.yesNo ? entry.choices.map((choice) => ({ value: choice, label: t(choice === 'true' ? 'import.values.yes' : 'import.values.no') })) : entry.choices)]}
                />
              ))}
            </SimpleGrid>
          ))}
          <Group>
            <Button type="submit" disabled={!answered || isUploading || isLoading}>
              {t('import.values.apply')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
