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

  /**
   * Hands every piece, in order, to `sink`, reading the next while the sink takes the last. Two
   * buffers take turns: a new 2 MB buffer per piece was external memory the garbage collector
   * reclaimed late (RSS grew with the file).
   */
  async replay(sink: PieceSink): Promise<void> {
    const largest = Math.max(0, ...this.#pieces.map((p) => p.length));
    const buffers = [Buffer.allocUnsafe(largest), Buffer.allocUnsafe(largest)] as const;
    const file = await open(this.#path, 'r');
    try {
      let sinking: Promise<void> = Promise.resolve();
      for (const [at, { offset, length }] of this.#pieces.entries()) {
        const buffer = buffers[at % 2] as Buffer;
        // The buffer read into was handed to the sink two pieces ago, which has finished with it.
        await file.read(buffer, 0, length, offset);
        await sinking;
        sinking = sink([buffer.subarray(0, length)]);
        sinking.catch(() => {});
      }
      await sinking;
    } finally {
      await file.close();
    }
  }
}
