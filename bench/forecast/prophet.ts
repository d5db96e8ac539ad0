import { readFileSync } from 'node:fs';
import { initSync, Prophet } from '@bsull/augurs/prophet';
import { optimizer } from '@bsull/augurs-prophet-wasmstan';

let initialised = false;

export type ProphetResult = { mean: number[]; lower95: number[]; upper95: number[]; failed: boolean };

/**
 * The Prophet peer: default settings, as a user of the library would run it.
 * Its optimiser occasionally aborts; such a series gets the naive forecast
 * (last value, zero-width band) and is counted, rather than stopping the run.
 */
export function prophetForecast(values: number[], stepSeconds: number, horizon: number): ProphetResult {
  if (!initialised) {
    initSync({ module: readFileSync(new URL(import.meta.resolve('@bsull/augurs/prophet').replace(/prophet\.js$/, 'prophet_bg.wasm'))) });
    initialised = true;
  }
  const start = 1_500_000_000;
  const ds = Array.from({ length: values.length + horizon }, (_, t) => start + t * stepSeconds);
  const model = new Prophet({ optimizer, intervalWidth: 0.95 });
  try {
    model.fit({ ds: ds.slice(0, values.length), y: values });
    const prediction = model.predict({ ds: ds.slice(values.length) });
    const mean = prediction.yhat.point;
    return { mean, lower95: prediction.yhat.intervals?.lower ?? mean, upper95: prediction.yhat.intervals?.upper ?? mean, failed: false };
  } catch {
    const naive = new Array<number>(horizon).fill(values[values.length - 1] ?? 0);
    return { mean: naive, lower95: naive, upper95: naive, failed: true };
  } finally {
    model.free();
  }
}
