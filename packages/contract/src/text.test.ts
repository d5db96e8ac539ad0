import { describe, expect, it } from 'vitest';
import { withFullStop } from './text.ts';

describe('a sentence ending in a name', () => {
  it('gets one full stop, also after a name that ends in one', () => {
    expect(withFullStop('Cola Classic is supplied by Acme')).toBe('Cola Classic is supplied by Acme.');
    expect(withFullStop('Cola Classic is supplied by Fresh Drinks Co.')).toBe('Cola Classic is supplied by Fresh Drinks Co.');
    expect(withFullStop('Recorded 2 orders for Yahoo!')).toBe('Recorded 2 orders for Yahoo!');
  });
});
