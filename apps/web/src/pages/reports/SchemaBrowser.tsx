// The readable tables and views with their columns; a click inserts the name into the SQL.
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReadableRelation } from '@stockwise/contract';
import classes from './ReportsPage.module.css';

/** A name as SQL needs it: plain lower-case names as they are, others double-quoted. */
export const sqlName = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`);

export function SchemaBrowser({ schema, onInsert }: { schema: ReadableRelation[]; onInsert: (text: string) => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Title order={3} size="h5">
        {t('reports.schema.heading')}
      </Title>
      <div className={classes.schema} data-testid="schema-browser">
        {schema.map((relation) => (
          <details key={relation.name}>
            <summary title={relation.description}>
              {relation.name}{' '}
              <Text span size="xs" c="gray.7">
                {relation.kind}
              </Text>
            </summary>
            <Stack gap={0} pl="md">
              <button type="button" className={classes.column} aria-label={t('reports.schema.insert', { name: relation.name })} onClick={() => onInsert(sqlName(relation.name))}>
                ↳ {relation.name}
              </button>
              {relation.columns.map((column) => (
                <button type="button" key={column.name} className={classes.column} aria-label={t('reports.schema.insert', { name: column.name })} onClick={() => onInsert(sqlName(column.name))}>
                  {column.name}{' '}
                  <Text span size="xs" c="gray.7">
                    {column.type}
                  </Text>
                </button>
              ))}
            </Stack>
          </details>
        ))}
      </div>
    </Stack>
  );
}
