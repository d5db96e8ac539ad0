// The left pane's tree: folders nested by '/' paths, tables under their folder, unfiled tables at
// the root; and the flat list of visible items that keyboard navigation walks.
import type { TableSummary } from '@stockwise/contract';

export type FolderNode = { kind: 'folder'; id: string; path: string; name: string; children: TreeNode[] };
export type TableNode = { kind: 'table'; id: string; table: TableSummary };
export type TreeNode = FolderNode | TableNode;

export const folderId = (path: string) => `folder:${path}`;
export const tableId = (table: Pick<TableSummary, 'encodedName'>) => `table:${table.encodedName}`;

const byName = (a: TreeNode, b: TreeNode) => {
  if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
  const nameOf = (node: TreeNode) => (node.kind === 'folder' ? node.name : node.table.name);
  return nameOf(a).localeCompare(nameOf(b));
};

export function buildTree(folders: readonly string[], tables: readonly TableSummary[]): TreeNode[] {
  const root: TreeNode[] = [];
  const nodes = new Map<string, FolderNode>();
  const ensure = (path: string): TreeNode[] => {
    const segments = path.split('/').map((s) => s.trim()).filter(Boolean);
    let children = root;
    for (let depth = 1; depth <= segments.length; depth++) {
      const current = segments.slice(0, depth).join('/');
      let node = nodes.get(current);
      if (!node) {
        node = { kind: 'folder', id: folderId(current), path: current, name: segments[depth - 1] ?? current, children: [] };
        nodes.set(current, node);
        children.push(node);
      }
      children = node.children;
    }
    return children;
  };
  for (const folder of folders) ensure(folder);
  for (const table of tables) ensure(table.folder).push({ kind: 'table', id: tableId(table), table });
  const sort = (list: TreeNode[]) => {
    list.sort(byName);
    for (const node of list) if (node.kind === 'folder') sort(node.children);
  };
  sort(root);
  return root;
}

export type VisibleItem = { node: TreeNode; depth: number; parentId: string | null };

/** Items in display order, skipping the contents of collapsed folders. */
export function visibleItems(tree: readonly TreeNode[], collapsed: ReadonlySet<string>): VisibleItem[] {
  const items: VisibleItem[] = [];
  const walk = (list: readonly TreeNode[], depth: number, parentId: string | null) => {
    for (const node of list) {
      items.push({ node, depth, parentId });
      if (node.kind === 'folder' && !collapsed.has(node.id)) walk(node.children, depth + 1, node.id);
    }
  };
  walk(tree, 1, null);
  return items;
}

/** 'Sales #3' is a variation (copy) of 'Sales' (spec §3 Table name info). */
export const isVariationName = (name: string) => / #\d+$/.test(name);
