import { describe, expect, it } from 'vitest';
import type { TableSummary } from '@stockwise/contract';
import { buildTree, isVariationName, visibleItems, type TreeNode } from './tree.ts';

const table = (name: string, folder: string): TableSummary => ({ name, folder, encodedName: name.replace(/\W/g, '_'), displayName: name });
const outline = (nodes: readonly TreeNode[]): unknown[] =>
  nodes.map((node) => (node.kind === 'folder' ? { [node.name]: outline(node.children) } : node.table.name));

describe('buildTree', () => {
  it('nests folders by path, puts tables under their folder and unfiled tables at the root', () => {
    const tree = buildTree(['Inventory', 'Archive/2025', 'Empty'], [table('sales', 'Inventory'), table('old', 'Archive/2025'), table('loose', ''), table('deep', 'New/Sub')]);
    expect(outline(tree)).toEqual([{ Archive: [{ '2025': ['old'] }] }, { Empty: [] }, { Inventory: ['sales'] }, { New: [{ Sub: ['deep'] }] }, 'loose']);
  });

  it('lists the visible items, skipping collapsed folders', () => {
    const tree = buildTree(['A/B'], [table('t1', 'A/B'), table('t2', 'A')]);
    expect(visibleItems(tree, new Set()).map((item) => [item.node.id, item.depth])).toEqual([
      ['folder:A', 1],
      ['folder:A/B', 2],
      ['table:t1', 3],
      ['table:t2', 2],
    ]);
    expect(visibleItems(tree, new Set(['folder:A/B'])).map((item) => item.node.id)).toEqual(['folder:A', 'folder:A/B', 'table:t2']);
  });

  it("recognises a variation's name", () => {
    expect(isVariationName('Sales #2')).toBe(true);
    expect(isVariationName('Sales#2')).toBe(false);
    expect(isVariationName('Sales')).toBe(false);
  });
});
