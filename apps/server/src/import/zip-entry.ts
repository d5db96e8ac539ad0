// Reads one entry of a zip file through the zip's central directory, leaving the rest unread: how
// the workbook part of an .xlsx is known before the workbook is streamed (source.ts). Stored and
// deflated entries only. Anything this cannot read so (a ZIP64 archive, a truncated or odd file, an
// entry that is missing or larger than asked for) answers null, and the caller streams the file
// without it: the streaming reader then names what is wrong with the file.
import { open, type FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

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

/** `length` bytes at `position`, or null when the file ends before. */
async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return bytesRead === length ? buffer : null;
}

/** The entry named `name`, uncompressed, when it is at most `maxBytes`; else null. */
export async function readZipEntry(path: string, name: string, maxBytes: number): Promise<Buffer | null> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, END_OF_DIRECTORY_BYTES + MAX_ZIP_COMMENT_BYTES);
    const tail = await readAt(file, size - tailLength, tailLength);
    if (!tail) return null;
    // The end record is the last one whose signature is found (a comment of up to 64 KiB may follow it).
    let end = tail.length - END_OF_DIRECTORY_BYTES;
    while (end >= 0 && tail.readUInt32LE(end) !== END_OF_DIRECTORY) end -= 1;
    if (end < 0) return null;
    const entries = tail.readUInt16LE(end + 10);
    const directoryBytes = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset === ZIP64_MARK || directoryOffset + directoryBytes > size) return null;
    const directory = await readAt(file, directoryOffset, directoryBytes);
    if (!directory) return null;
    for (let at = 0, seen = 0; seen < entries && at + DIRECTORY_ENTRY_BYTES <= directory.length; seen += 1) {
      if (directory.readUInt32LE(at) !== DIRECTORY_ENTRY) return null;
      const method = directory.readUInt16LE(at + 10);
      const compressedBytes = directory.readUInt32LE(at + 20);
      const uncompressedBytes = directory.readUInt32LE(at + 24);
      const nameBytes = directory.readUInt16LE(at + 28);
      const localOffset = directory.readUInt32LE(at + 42);
      const entryName = directory.toString('utf8', at + DIRECTORY_ENTRY_BYTES, at + DIRECTORY_ENTRY_BYTES + nameBytes);
      at += DIRECTORY_ENTRY_BYTES + nameBytes + directory.readUInt16LE(at + 30) + directory.readUInt16LE(at + 32);
      if (entryName !== name) continue;
      // A deflated entry is never much larger than its content: a bigger compressed size is a bad file.
      if (uncompressedBytes > maxBytes || compressedBytes > maxBytes || localOffset === ZIP64_MARK || localOffset + compressedBytes > size) return null;
      const local = await readAt(file, localOffset, LOCAL_HEADER_BYTES);
      if (!local || local.readUInt32LE(0) !== LOCAL_HEADER) return null;
      const data = await readAt(file, localOffset + LOCAL_HEADER_BYTES + local.readUInt16LE(26) + local.readUInt16LE(28), compressedBytes);
      if (!data) return null;
      if (method === STORED) return data;
      if (method !== DEFLATED) return null;
      return await inflate(data, { maxOutputLength: maxBytes }).catch(() => null);
    }
    return null;
  } finally {
    await file.close();
  }
}
