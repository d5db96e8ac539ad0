// File downloads: a body streamed as it is written, under the name the user will find it by.
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

export type Download = { fileName: string; contentType: string; body: Readable };

/** A download's Content-Disposition: the name as typed (RFC 6266 `filename*`) and a plain-ASCII fallback for old clients. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** Sends a download as it is written (the typed reply knows only the JSON answers). */
export const sendDownload = (reply: FastifyReply, download: Download) => reply.type(download.contentType).header('content-disposition', attachment(download.fileName)).send(download.body);
