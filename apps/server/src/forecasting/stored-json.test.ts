import { describe, expect, it } from 'vitest';
import { jsonObjectMembers } from './stored-json.ts';

const membersParsed = (json: string) => Object.fromEntries([...jsonObjectMembers(json)].map(([key, text]) => [key, JSON.parse(text) as unknown]));

describe('jsonObjectMembers', () => {
  const value = {
    forecast: [{ ds: '2026-01-01', yhat: 1.5, yhat_lower: 0, yhat_upper: -2e-7 }],
    model: { name: 'ETS "damped", [weekly]', description: 'a \\ backslash, a } brace: and a colon', patterns: [], backtest: { mase: null } },
    stockouts: [],
    'key with "quotes" and ,': 'text ending in a backslash \\',
    nothing: null,
    truth: true,
    count: 12,
  };

  it('gives each member of JSON.stringify output exactly as written', () => {
    const json = JSON.stringify(value);
    const members = jsonObjectMembers(json);
    expect([...members.keys()]).toEqual(Object.keys(value));
    for (const [key, member] of Object.entries(value)) expect(members.get(key)).toBe(JSON.stringify(member));
  });

  it("reads PostgreSQL's jsonb text (spaces after separators) and indented text alike", () => {
    const jsonbText = '{"model": {"name": "ETS, \\"damped\\"", "patterns": ["weekly"]}, "stock": [{"ds": "2026-01-01", "stock_level": 0.0000001}], "stockouts": []}';
    expect(jsonObjectMembers(jsonbText).get('stock')).toBe('[{"ds": "2026-01-01", "stock_level": 0.0000001}]');
    expect(membersParsed(jsonbText)).toEqual(JSON.parse(jsonbText));
    expect(membersParsed(JSON.stringify(value, null, 2))).toEqual(value);
    expect(membersParsed(' { } ')).toEqual({});
  });

  it('refuses text that ends inside a string or a bracket', () => {
    expect(() => jsonObjectMembers('{"a": "open')).toThrow('unterminated string');
    expect(() => jsonObjectMembers('{"a": [1, 2')).toThrow('unbalanced');
  });
});
