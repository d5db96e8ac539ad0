// The mapping the Import screen starts a draft from, as the file-walk tests send it (ADR 0198, 0201).
import { expect } from 'vitest';
import { joinedColumnsRead, joinedLeaveOutRead, type PreviewFileResponse } from '@stockwise/contract';
import type { TestServer } from './test-server.ts';
import { importFile, postMultipart, type UploadPart } from './uploads.ts';

/** The proposals a preview or Try the endpoint answers. */
type Proposal = Pick<PreviewFileResponse, 'proposed_mapping' | 'proposed_joined_columns' | 'proposed_joined_leave_out' | 'proposed_value_maps' | 'proposed_row_filters' | 'proposed_skip_rows_without_code' | 'proposed_code_in_brackets' | 'proposed_blank_code_by_name' | 'proposed_new_products' | 'decimal_separator' | 'counted_by_location'>;

/** The mapping the Import screen (and Try the endpoint's draft) starts from: the proposals, as it sends them. */
export function asProposed(proposal: Proposal) {
  // A line without a code known by its name (ADR 0195 F4), read from the column new products are named from.
  const newProducts = proposal.proposed_blank_code_by_name && proposal.proposed_new_products?.name ? { name: proposal.proposed_new_products.name } : undefined;
  // Joined with its variation where proposed (ADR 0201 F6), and only then.
  const joined = joinedColumnsRead(proposal.proposed_joined_columns, newProducts);
  // Square's "Regular" left out of the names it is proposed for (ADR 0201 F8), those joined.
  const leftOut = joinedLeaveOutRead(proposal.proposed_joined_leave_out, joined);
  return {
    field_mappings: Object.fromEntries(Object.entries(proposal.proposed_mapping).filter((entry): entry is [string, string] => entry[1] !== null)),
    ...(joined ? { joined_columns: joined } : {}),
    ...(leftOut ? { joined_leave_out: leftOut } : {}),
    // A kind column's words said as yes or no (ADR 0200's amendment).
    ...(proposal.proposed_value_maps ? { value_maps: proposal.proposed_value_maps } : {}),
    ...(proposal.proposed_row_filters ? { skip_rows_where: proposal.proposed_row_filters } : {}),
    ...(proposal.proposed_skip_rows_without_code ? { skip_rows_without_code: true } : {}),
    ...(proposal.proposed_code_in_brackets ? { code_in_brackets: true } : {}),
    ...(proposal.proposed_blank_code_by_name ? { blank_code_by_name: true, ...(newProducts ? { new_products: newProducts } : {}) } : {}),
    ...(proposal.decimal_separator.detected ? { decimal_separator: proposal.decimal_separator.detected } : {}),
    ...(proposal.counted_by_location ? { repeated_keys: 'sum' } : {}),
  };
}

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
