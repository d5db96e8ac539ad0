import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import './zod-words.ts';

const firstMessage = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues[0]?.message;

describe('range rules in the words people read', () => {
  it('says a number field’s limits plainly', () => {
    expect(firstMessage(z.number().int().max(365), 400)).toBe('Must be at most 365.');
    expect(firstMessage(z.number().min(7), 3)).toBe('Must be at least 7.');
    expect(firstMessage(z.number().min(0), -5)).toBe('Must be 0 or more.');
    expect(firstMessage(z.number().positive(), 0)).toBe('Must be more than 0.');
    expect(firstMessage(z.number().lt(10), 10)).toBe('Must be less than 10.');
  });

  it('counts characters and items', () => {
    expect(firstMessage(z.string().max(3), 'abcd')).toBe('Must be at most 3 characters.');
    expect(firstMessage(z.string().min(1), '')).toBe('This field may not be blank.');
    expect(firstMessage(z.string().min(8), 'short')).toBe('Must be at least 8 characters.');
    expect(firstMessage(z.array(z.number()).max(1), [1, 2])).toBe('Must be at most 1 item.');
  });

  it('leaves a schema’s own message and other problems alone', () => {
    expect(firstMessage(z.number().max(365, 'Forecast at most 365 days ahead.'), 400)).toBe('Forecast at most 365 days ahead.');
    expect(firstMessage(z.number(), 'many')).toMatch(/expected number/);
  });
});
