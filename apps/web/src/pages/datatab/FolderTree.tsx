// The left pane's folder tree (WAI-ARIA tree): arrows move, Right/Left open and close folders,
// Enter or Space chooses a table; each table has a menu to move or delete it.
import { memo, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Menu, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TableSummary } from '@stockwise/contract';
import { buildTree, tableId, visibleItems, type VisibleItem } from './tree.ts';
import { domIdOf } from '../../components/dom-id.ts';
import classes from './DataPage.module.css';

type FolderTreeProps = {
  folders: readonly string[];
  tables: readonly TableSummary[];
  selected: TableSummary | null;
  /** The role may move and delete tables (admin): each table then has an actions menu. */
  canManage: boolean;
  onSelect: (table: TableSummary) => void;
  onMove: (table: TableSummary) => void;
  onDelete: (table: TableSummary) => void;
};

export const FolderTree = memo(function FolderTree({ folders, tables, selected, canManage, onSelect, onMove, onDelete }: FolderTreeProps) {
  const { t } = useTranslation();
  const tree = useMemo(() => buildTree(folders, tables), [folders, tables]);
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const items = useMemo(() => visibleItems(tree, collapsed), [tree, collapsed]);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const selectedId = selected ? tableId(selected) : null;
  const activeId = items.some((item) => item.node.id === focusedId) ? focusedId : (selectedId ?? items[0]?.node.id ?? null);

  const toggle = (id: string, open?: boolean) =>
    setCollapsed((current) => {
      const next = new Set(current);
      const shouldOpen = open ?? next.has(id);
      if (shouldOpen) next.delete(id);
      else next.add(id);
      return next;
    });

  const focusItem = (id: string | undefined) => {
    if (!id) return;
    setFocusedId(id);
    document.getElementById(domId(id))?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>, item: VisibleItem, index: number) => {
    if (event.target !== event.currentTarget) return;
    const { node } = item;
    switch (event.key) {
      case 'ArrowDown':
        focusItem(items[index + 1]?.node.id);
        break;
      case 'ArrowUp':
        focusItem(items[index - 1]?.node.id);
        break;
      case 'Home':
        focusItem(items[0]?.node.id);
        break;
      case 'End':
        focusItem(items.at(-1)?.node.id);
        break;
      case 'ArrowRight':
        if (node.kind !== 'folder') return;
        if (collapsed.has(node.id)) toggle(node.id, true);
        else focusItem(node.children[0]?.id);
        break;
      case 'ArrowLeft':
        if (node.kind === 'folder' && !collapsed.has(node.id)) toggle(node.id, false);
        else focusItem(item.parentId ?? undefined);
        break;
      case 'Enter':
      case ' ':
        if (node.kind === 'folder') toggle(node.id);
        else onSelect(node.table);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <ul role="tree" aria-label={t('datatab.tree.label')} className={classes.tree} data-testid="table-tree">
      {items.map((item, index) => {
        const { node } = item;
        // What folders and tables share: position in the tree, roving focus, indentation, keys.
        const itemProps = {
          id: domId(node.id),
          role: 'treeitem',
          'aria-level': item.depth,
          tabIndex: node.id === activeId ? 0 : -1,
          className: classes.treeItem,
          style: { paddingInlineStart: `${(item.depth - 1) * 16 + 8}px` },
          onKeyDown: (event: KeyboardEvent<HTMLLIElement>) => onKeyDown(event, item, index),
        };
        if (node.kind === 'folder') {
          const open = !collapsed.has(node.id);
          return (
            <li
              key={node.id}
              {...itemProps}
              aria-expanded={open}
              aria-label={node.name}
              onClick={() => {
                setFocusedId(node.id);
                toggle(node.id);
              }}
              data-folder={node.path}
            >
              <span aria-hidden className={classes.treeIcon}>
                {open ? '▾' : '▸'}
              </span>
              <span className={classes.treeLabel}>{node.name}</span>
            </li>
          );
        }
        const table = node.table;
        const isSelected = node.id === selectedId;
        return (
          <li
            key={node.id}
            {...itemProps}
            aria-selected={isSelected}
            aria-label={table.name}
            data-selected={isSelected || undefined}
            onClick={() => {
              setFocusedId(node.id);
              onSelect(table);
            }}
            data-table={table.name}
          >
            <span aria-hidden className={classes.treeIcon}>
              ▦
            </span>
            <span className={classes.treeLabel}>{table.name}</span>
            {canManage && <TableActionsMenu table={table} onMove={onMove} onDelete={onDelete} />}
          </li>
        );
      })}
    </ul>
  );
});

/**
 * A table's actions (WAI-ARIA menu button, ADR 0196 F3): opened with Enter, Space or a click, the
 * focus is on the first item (not on Mantine's invisible placeholder, from which Tab went nowhere);
 * arrows move, Escape or Tab closes the menu back on its button.
 */
function TableActionsMenu({ table, onMove, onDelete }: { table: TableSummary; onMove: (table: TableSummary) => void; onDelete: (table: TableSummary) => void }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <Menu position="bottom-end" withinPortal opened={opened} onChange={setOpened} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton
          ref={button}
          className={classes.treeMenuButton}
          aria-label={t('datatab.tree.tableActions', { name: table.name })}
          onClick={(event) => event.stopPropagation()}
          onKeyDown={(event) => event.stopPropagation()}
        >
          ⋯
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown
        onKeyDown={(event) => {
          if (event.key !== 'Tab') return;
          event.preventDefault();
          setOpened(false);
          button.current?.focus();
        }}
      >
        <Menu.Item onClick={() => onMove(table)}>{t('datatab.tree.move')}</Menu.Item>
        {/* Mantine's default red is 3.2:1 on white; its darkest meets WCAG AA's 4.5:1, as the dialogs' danger buttons (ADR 0196 F5). */}
        <Menu.Item color="red.9" onClick={() => onDelete(table)}>
          {t('datatab.tree.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

const domId = (id: string) => domIdOf('datatab-tree', id);
