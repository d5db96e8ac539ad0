// Where the whole records of a cut CSV head end, in the encodings an import reads.
import { describe, expect, it } from 'vitest';
import { wholeRecordsEnd } from './cut-head.ts';

const windows1252 = (text: string) => Buffer.from(text.replaceAll('£', '\u00a3'), 'latin1');
const utf16le = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string) => Buffer.from(utf16le(text).swap16());

describe('wholeRecordsEnd', () => {
  it('ends after the last line break, with a cut multi-byte character in the dropped tail', () => {
    const text = 'Date,Code,Value\n01/12/2026,HGC-1,£4.00\r\n02/12/2026,HGC-1,';
    const utf8 = Buffer.concat([Buffer.from(text), Buffer.from('£').subarray(0, 1)]);
    expect(utf8.subarray(0, wholeRecordsEnd(utf8)).toString()).toBe('Date,Code,Value\n01/12/2026,HGC-1,£4.00\r\n');
    const legacy = windows1252(`${text}£`);
    expect(wholeRecordsEnd(legacy)).toBe(windows1252('Date,Code,Value\n01/12/2026,HGC-1,£4.00\r\n').length);
  });

  it('does not end a record at a line break inside quotes, escaped quotes included', () => {
    const text = 'Code,Note\nA,"one ""two""\nthree"\nB,"four\nfi';
    expect(Buffer.from(text).subarray(0, wholeRecordsEnd(Buffer.from(text))).toString()).toBe('Code,Note\nA,"one ""two""\nthree"\n');
  });

  it('reads UTF-16 by its byte order mark, both ways round', () => {
    const text = 'Code,Note\nA,"x\ny"\nB,"z';
    const whole = 'Code,Note\nA,"x\ny"\n';
    expect(wholeRecordsEnd(utf16le(text))).toBe(utf16le(whole).length);
    expect(wholeRecordsEnd(utf16be(text))).toBe(utf16be(whole).length);
    // A byte 0x0a inside a character (U+010A) is no line break.
    expect(wholeRecordsEnd(utf16le('Code\nĊ'))).toBe(utf16le('Code\n').length);
  });

  it('answers 0 when no line ends', () => {
    expect(wholeRecordsEnd(Buffer.from('Code,Note,'))).toBe(0);
  });
});
