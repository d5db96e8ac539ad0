// COPY text typed while an upload arrives, kept in a file (never in memory) until the import's
// transaction replays it, piece by piece, into the staging table.
import { createWriteStream, type WriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { once } from 'node:events';
import type { PieceSink } from './writer.ts';

export class PieceFile {
  readonly #path: string;
  readonly #out: WriteStream;
  readonly #pieces: { offset: number; length: number }[] = [];
  #offset = 0;

  private constructor(path: string, out: WriteStream) {
    this.#path = path;
    this.#out = out;
  }

  static async create(path: string): Promise<PieceFile> {
    const out = createWriteStream(path);
    await once(out, 'open');
    return new PieceFile(path, out);
  }

  /** Appends a piece (its chunks, in order). */
  readonly sink: PieceSink = async (piece) => {
    let length = 0;
    for (const chunk of piece) {
      length += chunk.length;
      if (!this.#out.write(chunk)) await once(this.#out, 'drain');
    }
    this.#pieces.push({ offset: this.#offset, length });
    this.#offset += length;
  };

  async close(): Promise<void> {
    if (this.#out.closed) return;
    this.#out.end();
    await once(this.#out, 'close');
  }

  /** Hands every piece, in order, to `sink` (reading the next while the sink takes the last). */
  async replay(sink: PieceSink): Promise<void> {
    const file = await open(this.#path, 'r');
    try {
      let sinking: Promise<void> = Promise.resolve();
      for (const { offset, length } of this.#pieces) {
        const buffer = Buffer.allocUnsafe(length);
        await file.read(buffer, 0, length, offset);
        await sinking;
        sinking = sink([buffer]);
        sinking.catch(() => {});
      }
      await sinking;
    } finally {
      await file.close();
    }
  }
}
