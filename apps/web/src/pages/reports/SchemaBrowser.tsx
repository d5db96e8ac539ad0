// The readable tables and views with their columns; choosing one inserts the name into the SQL.
// One tab stop (a WAI-ARIA tree with roving focus, as the Data screen's folder tree): Up/Down move,
// Right opens a table and Left closes it, Enter or Space opens a table or inserts a name. Every
// column a tab stop made the plain-words box 121 Tab presses away (QA pass 4).
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ReadableRelation } from '@stockwise/contract';
import { domIdOf } from '../../components/dom-id.ts';
import classes from './ReportsPage.module.css';

/** A name as SQL needs it: plain lower-case names as they are, others double-quoted. */
export const sqlName = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`);

/** A row of the tree as shown: a table (or view), or a name under an open one to insert. */
type SchemaItem = { id: string; table: string; kind: 'table' } | { id: string; table: string; kind: 'name'; name: string; type: string | null; self: boolean };

/** The rows shown: every table, and under each open one its own name, then its columns. */
export function schemaItems(schema: readonly ReadableRelation[], open: ReadonlySet<string>): SchemaItem[] {
  return schema.flatMap((relation): SchemaItem[] => [
    { id: relation.name, table: relation.name, kind: 'table' },
    ...(open.has(relation.name)
      ? [
          { id: `${relation.name}.`, table: relation.name, kind: 'name' as const, name: relation.name, type: null, self: true },
          ...relation.columns.map((column) => ({ id: `${relation.name}.${column.name}`, table: relation.name, kind: 'name' as const, name: column.name, type: column.type, self: false })),
        ]
      : []),
  ]);
}

export function SchemaBrowser({ schema, onInsert }: { schema: ReadableRelation[]; onInsert: (text: string) => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const items = useMemo(() => schemaItems(schema, open), [schema, open]);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const activeId = items.some((item) => item.id === focusedId) ? focusedId : (items[0]?.id ?? null);
  const kindOf = new Map(schema.map((relation) => [relation.name, relation]));

  const setTableOpen = (table: string, opened: boolean) =>
    setOpen((current) => {
      const next = new Set(current);
      if (opened) next.add(table);
      else next.delete(table);
      return next;
    });
  const moveTo = (id: string | undefined) => {
    if (id === undefined) return;
    setFocusedId(id);
    document.getElementById(itemDomId(id))?.focus();
  };
  const choose = (item: SchemaItem) => {
    setFocusedId(item.id);
    if (item.kind === 'table') setTableOpen(item.table, !open.has(item.table));
    else onInsert(sqlName(item.name));
  };

  const keys: Record<string, (item: SchemaItem, index: number) => void> = {
    ArrowDown: (_, index) => moveTo(items[index + 1]?.id),
    ArrowUp: (_, index) => moveTo(items[index - 1]?.id),
    Home: () => moveTo(items[0]?.id),
    End: () => moveTo(items.at(-1)?.id),
    ArrowRight: (item, index) => {
      if (item.kind !== 'table') return;
      if (open.has(item.table)) moveTo(items[index + 1]?.id);
      else setTableOpen(item.table, true);
    },
    ArrowLeft: (item) => {
      if (item.kind === 'table') setTableOpen(item.table, false);
      else moveTo(item.table);
    },
    Enter: choose,
    ' ': choose,
  };
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, item: SchemaItem, index: number) => {
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action(item, index);
  };

  return (
    <Stack gap={4}>
      <Title order={3} size="h5" id={headingId}>
        {t('reports.schema.heading')}
      </Title>
      <ul role="tree" aria-labelledby={headingId} className={classes.schema} data-testid="schema-browser">
        {items.map((item, index) => {
          const shared = {
            id: itemDomId(item.id),
            role: 'treeitem',
            tabIndex: item.id === activeId ? 0 : -1,
            className: classes.schemaItem,
            onClick: () => choose(item),
            onKeyDown: (event: KeyboardEvent<HTMLLIElement>) => onKeyDown(event, item, index),
          };
          if (item.kind === 'table') {
            const relation = kindOf.get(item.table);
            const opened = open.has(item.table);
            return (
              <li key={item.id} {...shared} aria-level={1} aria-expanded={opened} title={relation?.description}>
                <span aria-hidden>{opened ? '▾ ' : '▸ '}</span>
                {item.table}{' '}
                <Text span size="xs" c="gray.7">
                  {relation?.kind}
                </Text>
              </li>
            );
          }
          return (
            <li key={item.id} {...shared} aria-level={2} aria-label={t('reports.schema.insert', { name: item.name })} style={{ paddingInlineStart: 20 }}>
              {item.self ? `↳ ${item.name}` : item.name}{' '}
              {item.type ? (
                <Text span size="xs" c="gray.7">
                  {item.type}
                </Text>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Stack>
  );
}

const itemDomId = (id: string) => domIdOf('schema-item', id);
