// Reads a zip file through its central directory: every entry is addressable, whatever order the
// writer stored them in. An .xlsx is read so (source.ts): the workbook, its shared strings and its
// styles first, then the chosen sheet streamed. exceljs' own streaming reader takes the entries in
// stored order through unzipper's Parse, which at times loses entries when the reader awaits
// between them (exceljs#2790, #3064; seen here under load as dates read as numbers and a sheet
// "not found"). Stored and deflated entries only; a ZIP64 archive, a truncated or odd file answers
// null, and the caller names the file unreadable.
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { pipeline, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createInflateRaw, inflateRaw } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const END_OF_DIRECTORY_BYTES = 22;
const DIRECTORY_ENTRY_BYTES = 46;
const LOCAL_HEADER_BYTES = 30;
const MAX_ZIP_COMMENT_BYTES = 0xffff;
/** A 32-bit size or offset with every bit set: the real value is in a ZIP64 record. */
const ZIP64_MARK = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;

const inflate = promisify(inflateRaw);

type Entry = { method: number; compressedBytes: number; uncompressedBytes: number; localOffset: number };

export type ZipDirectory = {
  has(name: string): boolean;
  /** The entry uncompressed when it is at most `maxBytes`; else null. */
  read(name: string, maxBytes: number): Promise<Buffer | null>;
  /** The entry's content as a stream (inflated as it is read); null when it is not there or cannot be read. */
  stream(name: string): Promise<Readable | null>;
};

/** `length` bytes at `position`, or null when the file ends before. */
async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return bytesRead === length ? buffer : null;
}

async function readEntries(file: FileHandle, size: number): Promise<Map<string, Entry> | null> {
  const tailLength = Math.min(size, END_OF_DIRECTORY_BYTES + MAX_ZIP_COMMENT_BYTES);
  const tail = await readAt(file, size - tailLength, tailLength);
  if (!tail) return null;
  // The end record is the last one whose signature is found (a comment of up to 64 KiB may follow it).
  let end = tail.length - END_OF_DIRECTORY_BYTES;
  while (end >= 0 && tail.readUInt32LE(end) !== END_OF_DIRECTORY) end -= 1;
  if (end < 0) return null;
  const count = tail.readUInt16LE(end + 10);
  const directoryBytes = tail.readUInt32LE(end + 12);
  const directoryOffset = tail.readUInt32LE(end + 16);
  if (directoryOffset === ZIP64_MARK || directoryOffset + directoryBytes > size) return null;
  const directory = await readAt(file, directoryOffset, directoryBytes);
  if (!directory) return null;
  const entries = new Map<string, Entry>();
  for (let at = 0; entries.size < count && at + DIRECTORY_ENTRY_BYTES <= directory.length; ) {
    if (directory.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
    const nameBytes = directory.readUInt16LE(at + 28);
    const name = directory.toString('utf8', at + DIRECTORY_ENTRY_BYTES, at + DIRECTORY_ENTRY_BYTES + nameBytes);
    const entry = { method: directory.readUInt16LE(at + 10), compressedBytes: directory.readUInt32LE(at + 20), uncompressedBytes: directory.readUInt32LE(at + 24), localOffset: directory.readUInt32LE(at + 42) };
    // A deflated entry is never much larger than its content: a compressed size past the file is a bad file.
    if (entry.localOffset === ZIP64_MARK || entry.compressedBytes === ZIP64_MARK || entry.localOffset + entry.compressedBytes > size) return null;
    if (!entries.has(name)) entries.set(name, entry);
    at += DIRECTORY_ENTRY_BYTES + nameBytes + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
  }
  return entries.size === count ? entries : null;
}

/** The zip's directory, or null when the file is not a zip this can read. */
export async function readZipDirectory(path: string): Promise<ZipDirectory | null> {
  const file = await open(path, 'r');
  let entries: Map<string, Entry> | null;
  try {
    entries = await readEntries(file, (await file.stat()).size);
  } finally {
    await file.close();
  }
  if (!entries) return null;
  const known = entries;

  /** Where the entry's data starts (after its local header), or null when the header is not there. */
  async function dataStart(entry: Entry): Promise<number | null> {
    const handle = await open(path, 'r');
    try {
      const local = await readAt(handle, entry.localOffset, LOCAL_HEADER_BYTES);
      if (!local || local.readUInt32LE(0) !== LOCAL_HEADER) return null;
      return entry.localOffset + LOCAL_HEADER_BYTES + local.readUInt16LE(26) + local.readUInt16LE(28);
    } finally {
      await handle.close();
    }
  }

  return {
    has: (name) => known.has(name),
    async read(name, maxBytes) {
      const entry = known.get(name);
      if (!entry || entry.uncompressedBytes > maxBytes || entry.compressedBytes > maxBytes || (entry.method !== STORED && entry.method !== DEFLATED)) return null;
      const start = await dataStart(entry);
      if (start === null) return null;
      const handle = await open(path, 'r');
      try {
        const data = await readAt(handle, start, entry.compressedBytes);
        if (!data) return null;
        if (entry.method === STORED) return data;
        return await inflate(data, { maxOutputLength: maxBytes }).catch(() => null);
      } finally {
        await handle.close();
      }
    },
    async stream(name) {
      const entry = known.get(name);
      if (!entry || (entry.method !== STORED && entry.method !== DEFLATED)) return null;
      const start = await dataStart(entry);
      if (start === null) return null;
      // An empty range cannot be asked of createReadStream (its `end` is inclusive).
      if (entry.compressedBytes === 0) return Readable.from([]);
      const raw = createReadStream(path, { start, end: start + entry.compressedBytes - 1 });
      if (entry.method === STORED) return raw;
      // An error of the file or of the inflation reaches the reader as the stream's error.
      return pipeline(raw, createInflateRaw(), () => {});
    },
  };
}
