// Receives a multipart upload (process-file and preview-file): its fields, in any order around the
// file, and the file spooled to a temporary file on disk — never held in memory, and never with a
// database connection or transaction open, so a stalled or cut-off upload holds nothing but its
// own socket. Limits: the size cap (413, before a byte is read when Content-Length says so), the
// parts, fields and field sizes of @fastify/multipart (400/413), an idle and a total time
// (UPLOAD_IDLE_TIMEOUT_SECONDS, UPLOAD_TOTAL_TIMEOUT_SECONDS: 408).
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline as streamPipeline, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, validationError } from '../http/errors.ts';

export type UploadLimits = { maxBytes: number; idleMs: number; totalMs: number };

/** `cut`: only the file's head was kept (keepBytes), the rest was not read. */
export type ReceivedFile = { path: string; fileName: string; mimeType: string; bytes: number; cut: boolean };
/** The upload; `file` when it was spooled, `consumed` when a consumer read it as it arrived. */
export type ReceivedUpload<T = never> = { fields: Record<string, string>; file: ReceivedFile | null; consumed: T | null; bytes: number; head: Buffer };

/** The file part as it arrives (bytes counted, the first ones kept for the log). */
export type ArrivingFile = { stream: AsyncIterable<Buffer>; fileName: string; mimeType: string };

export type UploadHooks<T> = {
  /** The file part begins (with the fields sent before it). */
  onFileStart?(fields: Record<string, string>, fileName: string): Promise<void> | void;
  /** Bytes of the file received so far. */
  onBytes?(bytes: number): void;
  /** Stop reading the file after this many bytes (the preview reads only the head of a CSV or JSON file). */
  keepBytes?(fields: Record<string, string>, fileName: string): number | null;
  /**
   * Reads the file as it arrives instead of spooling it (an import whose fields came first):
   * answers null, without touching the stream, when it cannot. `directory` is the upload's own
   * temporary directory.
   */
  consumeFile?(fields: Record<string, string>, file: ArrivingFile, directory: string): Promise<T | null>;
};

/** The first bytes of an upload kept for the import log (spec §9: files under 500,000 bytes). */
export const KEPT_HEAD_BYTES = 500_000;

export const tooLarge = () => new AppError('payload_too_large', 'The file is larger than the upload limit.');

/** Refuses an upload whose declared length is over the cap before reading any of it. */
export function refuseDeclaredOversize(request: FastifyRequest, limits: UploadLimits): void {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) throw tooLarge();
}

class UploadTimeout extends AppError {
  constructor(detail: string) {
    super('request_timeout', detail);
  }
}

/** Multipart errors of @fastify/multipart and busboy, as the 4xx they are (never a 500). */
export function asUploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const { code, message } = error as { code?: string; message?: string };
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      // Two files chosen at once: the import reads one; each goes in its own upload.
      return validationError('The upload holds more than one file: an import takes one file; import each file on its own.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('payload_too_large', 'The upload has more parts than allowed: send the file and at most ten fields.');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return validationError('The upload is not multipart/form-data.');
    case 'FST_PROTO_VIOLATION':
      return validationError('A field name is not allowed.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return validationError('A field declared as JSON is not valid JSON.');
    case 'FST_MP_PREMATURE_CLOSE':
    case 'ERR_STREAM_PREMATURE_CLOSE':
    case 'ECONNRESET':
      return validationError('The upload was cut off before it was complete; nothing was imported.');
    default:
      break;
  }
  if (typeof message === 'string' && /multipart|boundary|Unexpected end of (form|file)|Malformed part header/i.test(message)) {
    return validationError(`The upload is not valid multipart/form-data: ${message}.`);
  }
  return error;
}

/**
 * Reads every part of the request: fields as text (a JSON-typed field as its JSON), the first
 * `file` part to a consumer or a temporary file (other file parts are drained). `dispose`
 * removes the temporary directory.
 */
export async function receiveUpload<T = never>(request: FastifyRequest, limits: UploadLimits, hooks: UploadHooks<T> = {}): Promise<ReceivedUpload<T> & { dispose(): Promise<void> }> {
  const fields: Record<string, string> = {};
  let directory: string | null = null;
  const dispose = async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  };
  let file: ReceivedFile | null = null;
  let consumed: T | null = null;
  let seenFile = false;
  let bytes = 0;
  let cut = false;
  const head: Buffer[] = [];
  let headBytes = 0;
  let current: (NodeJS.ReadableStream & { destroy?(error?: Error): void }) | null = null;
  let filePart: { file: { truncated: boolean } } | null = null;
  let timedOut: UploadTimeout | null = null;
  let idle: NodeJS.Timeout | undefined;
  const expire = (error: UploadTimeout) => {
    timedOut = error;
    current?.destroy?.(error);
    // Wakes a parts() iterator waiting for a part that will never come (@fastify/multipart listens for this).
    if (request.raw.listenerCount('error') > 0) request.raw.emit('error', error);
  };
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => expire(new UploadTimeout(`The upload stalled: nothing arrived for ${Math.round(limits.idleMs / 1000)} s, so it was stopped and nothing was imported.`)), limits.idleMs);
  };
  const total = setTimeout(() => expire(new UploadTimeout(`The upload took longer than ${Math.round(limits.totalMs / 1000)} s, so it was stopped and nothing was imported.`)), limits.totalMs);
  request.raw.on('data', touch);
  touch();
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw new AppError('payload_too_large', `The field '${part.fieldname}' is too long.`);
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || seenFile) {
        part.file.resume();
        continue;
      }
      seenFile = true;
      const fileName = part.filename || 'upload';
      await hooks.onFileStart?.(fields, fileName);
      directory ??= await mkdtemp(path.join(tmpdir(), 'stockwise-upload-'));
      const keep = hooks.keepBytes?.(fields, fileName) ?? null;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          const wanted = keep === null ? chunk : chunk.subarray(0, Math.max(0, keep - bytes));
          cut ||= wanted.length < chunk.length;
          bytes += wanted.length;
          if (headBytes < KEPT_HEAD_BYTES) {
            head.push(wanted);
            headBytes += wanted.length;
          }
          hooks.onBytes?.(bytes);
          callback(null, wanted.length ? wanted : undefined);
        },
      });
      current = part.file;
      filePart = part;
      // pipeline, not pipe: a part that closes early (a cut-off upload) must fail the reader too.
      const counted = streamPipeline(part.file, counter, () => undefined);
      consumed = (await hooks.consumeFile?.(fields, { stream: counted, fileName, mimeType: part.mimetype }, directory)) ?? null;
      if (consumed === null) {
        const spooled = path.join(directory, 'upload');
        await pipeline(counted, createWriteStream(spooled));
        file = { path: spooled, fileName, mimeType: part.mimetype, bytes, cut };
      }
      current = null;
      if (part.file.truncated) throw tooLarge();
    }
  } catch (error) {
    await dispose();
    // A file cut off at the size limit also breaks its last record: the limit is the real reason.
    throw timedOut ?? (filePart?.file.truncated ? tooLarge() : asUploadError(error));
  } finally {
    clearTimeout(idle);
    clearTimeout(total);
    request.raw.off('data', touch);
  }
  if (timedOut) {
    await dispose();
    throw timedOut;
  }
  return { fields, file, consumed, bytes, head: Buffer.concat(head), dispose };
}
