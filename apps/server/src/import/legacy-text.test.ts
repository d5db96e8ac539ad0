// A till's or Excel's "CSV" saved as Windows-1252 (ü as one byte, no BOM): read as such wherever
// its first non-ASCII byte falls, also at a chunk's end; a file that is UTF-8 before a bad byte is
// still refused naming the row.
import { describe, expect, it } from 'vitest';
import { openSource } from './source.ts';

/** Every record of `bytes` read as a CSV upload arriving in chunks of `size` bytes, or the error's message. */
async function readChunked(bytes: Buffer, size: number): Promise<string[][] | string> {
  async function* chunks() {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  }
  try {
    const source = await openSource({ stream: chunks() }, 'kasse.csv', 'text/csv');
    const records: string[][] = [];
    for await (const batch of source.batches) for (const { cells } of batch) records.push((cells ?? []).map(String));
    return [source.header() ?? [], ...records];
  } catch (error) {
    return (error as Error).message;
  }
}

const cp1252 = (text: string) => Buffer.from(Array.from(text, (c) => ({ ü: 0xfc, ä: 0xe4, ß: 0xdf, é: 0xe9, '€': 0x80, '°': 0xb0 })[c] ?? c.charCodeAt(0)));

describe('Windows-1252 CSV', () => {
  const file = 'Artikelnr;Bezeichnung;Menge\nX-9;Thermometer Café°C;4\nGAR-1030;Pflanzkübel;1\nHW-7;Gewächshaus 3€;2\nGAR-1;Weiß;3\n';

  it.each([1, 2, 7, 31, 1 << 16])('reads the names as written, in chunks of %i bytes', async (size) => {
    expect(await readChunked(cp1252(file), size)).toEqual([
      ['Artikelnr', 'Bezeichnung', 'Menge'],
      ['X-9', 'Thermometer Café°C', '4'],
      ['GAR-1030', 'Pflanzkübel', '1'],
      ['HW-7', 'Gewächshaus 3€', '2'],
      ['GAR-1', 'Weiß', '3'],
    ]);
  });

  it('reads the first non-ASCII byte when it ends a chunk and the file', async () => {
    const ending = cp1252('code;name\nX-1;Gew\u00e4');
    expect(await readChunked(ending, ending.length)).toEqual([['code', 'name'], ['X-1', 'Gewä']]);
  });

  it('refuses a UTF-8 file with a bad byte after its first umlaut, naming the row', async () => {
    const mixed = Buffer.concat([Buffer.from('code;name\nX-1;Grüße\nX-2;Caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(await readChunked(mixed, 1 << 16)).toBe('The file is not valid UTF-8 text (row 3). Save it as UTF-8.');
  });
});
