import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('@stockwise/forecast package', () => {
  it('has no runtime dependency: the benchmark references (augurs, Prophet WASM) belong to bench/', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([]);
  });
});
