// Multipart uploads for the import tests: parts in the order given (the spec lists the file first),
// through fetch's FormData, so what the server reads is what a browser sends.
import type { TestServer } from './test-server.ts';

export type UploadPart = { name: string; value: string } | { name: 'file'; fileName: string; content: string | Uint8Array; type?: string };

export async function postMultipart(server: TestServer, route: string, token: string, parts: UploadPart[]) {
  const form = new FormData();
  for (const part of parts) {
    if ('fileName' in part) form.append(part.name, new Blob([part.content], { type: part.type ?? 'text/csv' }), part.fileName);
    else form.append(part.name, part.value);
  }
  const response = await fetch(`${server.url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Not JSON: tests read the status.
  }
  return { status: response.status, json };
}

/** A file import: the file first (the spec's order) unless `fieldsFirst`. */
export function importFile(server: TestServer, token: string, options: { fileName: string; content: string | Uint8Array; type?: string; mapping: unknown; entityType: string; fieldsFirst?: boolean; extra?: Record<string, string> }) {
  const file: UploadPart = { name: 'file', fileName: options.fileName, content: options.content, ...(options.type ? { type: options.type } : {}) };
  const fields: UploadPart[] = [
    { name: 'mapping_config', value: JSON.stringify(options.mapping) },
    { name: 'entity_type', value: options.entityType },
    ...Object.entries(options.extra ?? {}).map(([name, value]) => ({ name, value })),
  ];
  return postMultipart(server, '/api/records/process-file/', token, options.fieldsFirst ? [...fields, file] : [file, ...fields]);
}
