// .xlsx workbooks read as the chosen sheet inflates, without a cell object per cell: the zip's
// central directory (yauzl) opens the workbook, its relations, styles and shared strings first,
// then the sheet's XML is parsed (saxes) row by row into plain values. Memory holds the shared
// strings and one batch of rows whatever the sheet's length, and nothing is spooled to temporary
// files (exceljs' WorkbookReader built a Row and Cell objects per row and peaked at ~340 MiB for a
// 20 MB workbook: docs/performance.md). Values as exceljs gave them: text (rich text joined),
// numbers, booleans, Dates for numbers in a date format (1900 or 1904 date system), error codes
// as text, formulas as their cached result (null without one); a cell without a value is a hole
// in its row.
import path from 'node:path';
import type { Readable } from 'node:stream';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import yauzl from 'yauzl';

/** The workbook cannot be read as one (the caller words it as a 400). */
export class XlsxError extends Error {}

export type Workbook = {
  /** Every worksheet's name, in the workbook's order. */
  sheets: string[];
  /** The rows of a sheet, in batches of at least `batch` rows (the last may be shorter); null when there is no such sheet. */
  rows(sheet: string, batch: number): AsyncGenerator<unknown[][]> | null;
  close(): void;
};

// Shared strings are held whole while the sheet is read: a workbook whose strings alone would
// take hundreds of MB is refused rather than read.
const MAX_SHARED_STRING_CHARS = 64 << 20;

// Number formats built into Excel that show dates or times (exceljs' table: 14–22, 45–47).
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);
/** A format code that shows a date or time: a date letter outside quotes and [brackets] (as exceljs decides). */
const isDateFormat = (code: string) => /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));

const MS_PER_DAY = 86_400_000;
const UNIX_EPOCH_SERIAL = 25_569;
const DATE_1904_OFFSET = 1_462;

/** An element's name without its namespace prefix (`x:row` → `row`). */
const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/** An attribute by its local name (`r:id` is found as `id`), the unprefixed one first. */
function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  const plain = tag.attributes[name];
  if (plain !== undefined) return plain;
  for (const [key, value] of Object.entries(tag.attributes)) if (localName(key) === name) return value;
  return undefined;
}

/** The zero-based column of a cell reference (`C12` → 2), or null when it has none. */
function columnOf(reference: string): number | null {
  let column = 0;
  let at = 0;
  for (; at < reference.length; at++) {
    const code = reference.charCodeAt(at);
    if (code >= 65 && code <= 90) column = column * 26 + (code - 64);
    else if (code >= 97 && code <= 122) column = column * 26 + (code - 96);
    else break;
  }
  return at === 0 ? null : column - 1;
}

type XmlHandlers = { open?(name: string, tag: SaxesTagPlain): void; text?(text: string): void; close?(name: string): void };

function xmlParser(handlers: XmlHandlers): SaxesParser {
  const parser = new SaxesParser({ xmlns: false, position: false });
  if (handlers.open) {
    const open = handlers.open;
    parser.on('opentag', (tag) => open(localName(tag.name), tag as SaxesTagPlain));
  }
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  if (handlers.close) {
    const close = handlers.close;
    parser.on('closetag', (tag) => close(localName(tag.name)));
  }
  return parser;
}

/** Feeds an XML stream to the parser, giving the caller a turn after each chunk. */
async function* feed(stream: Readable, parser: SaxesParser): AsyncGenerator<void> {
  stream.setEncoding('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      parser.write(chunk);
      yield;
    }
    parser.close();
    yield;
  } finally {
    stream.destroy();
  }
}

async function parseWhole(stream: Readable, handlers: XmlHandlers): Promise<void> {
  for await (const _turn of feed(stream, xmlParser(handlers))) void _turn;
}

type Relationship = { id: string; type: string; target: string };

/** A relationship's target as a path in the zip, relative to the part that names it. */
const resolveTarget = (fromPart: string, target: string) => (target.startsWith('/') ? target.slice(1) : path.posix.normalize(path.posix.join(path.posix.dirname(fromPart), target)));

/** Opens a workbook spooled to `file`; its sheets' rows are then read one sheet at a time. */
export async function openWorkbook(file: string): Promise<Workbook> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, opened) => (error ? reject(new XlsxError(error.message)) : resolve(opened))),
  );
  try {
    const entries = await new Promise<Map<string, yauzl.Entry>>((resolve, reject) => {
      const found = new Map<string, yauzl.Entry>();
      zip.on('entry', (entry: yauzl.Entry) => {
        found.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.once('end', () => resolve(found));
      zip.once('error', (error: Error) => reject(new XlsxError(error.message)));
      zip.readEntry();
    });
    const openPart = async (name: string): Promise<Readable | null> => {
      const entry = entries.get(name);
      return entry ? zip.openReadStreamPromise(entry) : null;
    };
    const relationsOf = async (part: string): Promise<Relationship[]> => {
      const stream = await openPart(path.posix.join(path.posix.dirname(part), '_rels', `${path.posix.basename(part)}.rels`));
      const relations: Relationship[] = [];
      if (stream) {
        await parseWhole(stream, {
          open(name, tag) {
            if (name === 'Relationship') relations.push({ id: attribute(tag, 'Id') ?? '', type: attribute(tag, 'Type') ?? '', target: resolveTarget(part, attribute(tag, 'Target') ?? '') });
          },
        });
      }
      return relations;
    };

    const packageRelations = await relationsOf('');
    const workbookPart = packageRelations.find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
    const workbookRelations = await relationsOf(workbookPart);
    const partOfType = (type: string, fallback: string) => workbookRelations.find((r) => r.type.endsWith(`/${type}`))?.target ?? path.posix.join(path.posix.dirname(workbookPart), fallback);

    const sheetParts = new Map<string, string>();
    let date1904 = false;
    const workbookStream = await openPart(workbookPart);
    if (workbookStream) {
      await parseWhole(workbookStream, {
        open(name, tag) {
          if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attribute(tag, 'date1904') ?? '');
          if (name !== 'sheet') return;
          const target = workbookRelations.find((r) => r.id === attribute(tag, 'id'))?.target;
          const sheetName = attribute(tag, 'name');
          if (sheetName !== undefined && target) sheetParts.set(sheetName, target);
        },
      });
    }
    const dateStyles = await readDateStyles(await openPart(partOfType('styles', 'styles.xml')));
    const sharedStrings = await readSharedStrings(await openPart(partOfType('sharedStrings', 'sharedStrings.xml')));

    return {
      sheets: [...sheetParts.keys()],
      rows(sheet, batch) {
        const part = sheetParts.get(sheet);
        if (part === undefined) return null;
        return sheetRows(() => openPart(part), { sharedStrings, dateStyles, date1904 }, batch);
      },
      close: () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/** Which cell styles (their index in cellXfs) show a date or time. */
async function readDateStyles(stream: Readable | null): Promise<Set<number>> {
  const dateStyles = new Set<number>();
  if (!stream) return dateStyles;
  const customFormats = new Map<number, string>();
  const styleFormats: number[] = [];
  let inCellFormats = false;
  await parseWhole(stream, {
    open(name, tag) {
      if (name === 'numFmt') customFormats.set(Number(attribute(tag, 'numFmtId')), attribute(tag, 'formatCode') ?? '');
      else if (name === 'cellXfs') inCellFormats = true;
      else if (name === 'xf' && inCellFormats) styleFormats.push(Number(attribute(tag, 'numFmtId') ?? 0));
    },
    close(name) {
      if (name === 'cellXfs') inCellFormats = false;
    },
  });
  styleFormats.forEach((formatId, style) => {
    const custom = customFormats.get(formatId);
    if (custom !== undefined ? isDateFormat(custom) : BUILT_IN_DATE_FORMATS.has(formatId)) dateStyles.add(style);
  });
  return dateStyles;
}

/** The shared strings, rich text joined (phonetic runs left out). */
async function readSharedStrings(stream: Readable | null): Promise<string[]> {
  const strings: string[] = [];
  if (!stream) return strings;
  let text = '';
  let inText = false;
  let inPhonetic = false;
  let chars = 0;
  await parseWhole(stream, {
    open(name) {
      if (name === 'si') text = '';
      else if (name === 't') inText = !inPhonetic;
      else if (name === 'rPh') inPhonetic = true;
    },
    text(part) {
      if (inText) text += part;
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'si') {
        chars += text.length;
        if (chars > MAX_SHARED_STRING_CHARS) throw new XlsxError(`its shared strings are longer than ${MAX_SHARED_STRING_CHARS >> 20} M characters`);
        strings.push(text);
      }
    },
  });
  return strings;
}

type SheetContext = { sharedStrings: string[]; dateStyles: Set<number>; date1904: boolean };

async function* sheetRows(open: () => Promise<Readable | null>, context: SheetContext, batch: number): AsyncGenerator<unknown[][]> {
  const { sharedStrings, dateStyles, date1904 } = context;
  let rows: unknown[][] = [];
  let cells: unknown[] | null = null;
  // The cell being read: its column, type (`t`), style (`s`), and the text of its value.
  let column = 0;
  let type = 'n';
  let style = 0;
  let text = '';
  let hasValue = false;
  let hasFormula = false;
  let inValue = false;
  let inPhonetic = false;

  const valueOfCell = (): unknown => {
    if (!hasValue) return hasFormula ? null : undefined;
    switch (type) {
      case 's': {
        const shared = sharedStrings[Number(text)];
        if (shared === undefined) throw new XlsxError(`a cell refers to shared string ${text}, which the workbook does not have`);
        return shared;
      }
      case 'inlineStr':
      case 'str':
      case 'e':
        return text;
      case 'b':
        return text === '1' || text === 'true';
      case 'd': {
        const date = new Date(text);
        return Number.isNaN(date.getTime()) ? text : date;
      }
      default: {
        if (text.trim() === '') return undefined;
        const number = Number(text);
        if (Number.isNaN(number)) return text;
        return dateStyles.has(style) ? new Date(Math.round((number - UNIX_EPOCH_SERIAL + (date1904 ? DATE_1904_OFFSET : 0)) * MS_PER_DAY)) : number;
      }
    }
  };

  const parser = xmlParser({
    open(name, tag) {
      switch (name) {
        case 'row':
          cells = [];
          column = 0;
          break;
        case 'c': {
          const reference = tag.attributes.r;
          column = (reference === undefined ? null : columnOf(reference)) ?? column;
          type = tag.attributes.t ?? 'n';
          style = Number(tag.attributes.s ?? 0);
          text = '';
          hasValue = false;
          hasFormula = false;
          break;
        }
        case 'v':
          inValue = true;
          hasValue = true;
          break;
        case 't':
          // Inline strings: their text (and rich text runs' texts), never a phonetic run's.
          if (!inPhonetic) {
            inValue = true;
            hasValue = true;
          }
          break;
        case 'rPh':
          inPhonetic = true;
          break;
        case 'f':
          hasFormula = true;
          break;
      }
    },
    text(part) {
      if (inValue) text += part;
    },
    close(name) {
      switch (name) {
        case 'v':
        case 't':
          inValue = false;
          break;
        case 'rPh':
          inPhonetic = false;
          break;
        case 'c': {
          const value = valueOfCell();
          if (cells && value !== undefined) cells[column] = value;
          column += 1;
          break;
        }
        case 'row':
          if (cells) rows.push(cells);
          cells = null;
          break;
      }
    },
  });

  const stream = await open();
  if (!stream) throw new XlsxError('a sheet the workbook lists is missing from the file');
  for await (const _turn of feed(stream, parser)) {
    void _turn;
    if (rows.length >= batch) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length) yield rows;
}
