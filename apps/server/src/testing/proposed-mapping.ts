// The file-walk tests' Import screen (ADR 0198, 0201): its calls, and a CSV line's cells; the mapping it
// starts from is the contract's mappingFromProposal, as the web's.
import { expect } from 'vitest';
import type { PreviewFileResponse } from '@stockwise/contract';
import type { TestServer } from './test-server.ts';
import { importFile, postMultipart, type UploadPart } from './uploads.ts';

/** A CSV line's cells (quoted cells such as "1,250.00" kept whole, their quotes taken off). */
export const cellsOf = (line: string) => line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((cell) => cell.replace(/^"|"$/g, ''));

/**
 * The Import screen's two calls for a file, as a signed-in user makes them: the preview (with a
 * mapping or none) and the import with a mapping, each expected to answer 200. `name`: the
 * mappings are saved as `<name>-<entity>`.
 */
export function importScreen(editor: { server: () => TestServer; user: () => { access: string } }, name: string) {
  return {
    preview: async (content: string | Uint8Array, entityType: string, mapping?: unknown) => {
      const parts: UploadPart[] = [{ name: 'entity_type', value: entityType }, ...(mapping ? [{ name: 'mapping_config', value: JSON.stringify(mapping) }] : []), { name: 'file' as const, fileName: 'export.csv', content }];
      const result = await postMultipart(editor.server(), '/api/records/preview-file/', editor.user().access, parts);
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      return result.json as PreviewFileResponse;
    },
    importAs: async (content: string | Uint8Array, entityType: string, mapping: unknown) => {
      const result = await importFile(editor.server(), editor.user().access, { fileName: `${entityType}.csv`, content, entityType, mapping, extra: { mapping_name: `${name}-${entityType}` } });
      expect(result.status, JSON.stringify(result.json)).toBe(200);
      return result.json as { message: string; counts: Record<string, number> };
    },
  };
}
