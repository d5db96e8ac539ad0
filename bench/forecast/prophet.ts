import { readFileSync } from 'node:fs';
import { initSync, Prophet } from '@bsull/augurs/prophet';
import { optimizer } from '@bsull/augurs-prophet-wasmstan';

let initialised = false;

/** The Prophet peer: default settings, as a user of the library would run it. */
export function prophetForecast(values: number[], stepSeconds: number, horizon: number): { mean: number[]; lower95: number[]; upper95: number[] } {
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
    return { mean, lower95: prediction.yhat.intervals?.lower ?? mean, upper95: prediction.yhat.intervals?.upper ?? mean };
  } finally {
    model.free();
  }
}
