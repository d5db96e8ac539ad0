// The M4 and M5 competition metrics, written to match the official R/Python code.

export function smape(actual: number[], forecast: number[]): number {
  let sum = 0;
  for (let j = 0; j < actual.length; j++) {
    const denominator = Math.abs(actual[j]!) + Math.abs(forecast[j]!);
    sum += denominator === 0 ? 0 : (200 * Math.abs(actual[j]! - forecast[j]!)) / denominator;
  }
  return sum / actual.length;
}

/** MASE: out-of-sample MAE over the in-sample MAE of the seasonal naive forecast with period m. */
export function mase(insample: number[], actual: number[], forecast: number[], period: number): number {
  const lag = insample.length > period ? period : 1;
  let scale = 0;
  for (let t = lag; t < insample.length; t++) scale += Math.abs(insample[t]! - insample[t - lag]!);
  scale /= insample.length - lag;
  let error = 0;
  for (let j = 0; j < actual.length; j++) error += Math.abs(actual[j]! - forecast[j]!);
  return error / actual.length / scale;
}

/** M5 RMSSE: RMSE scaled by the in-sample RMSE of the one-step naive forecast. */
export function rmsse(insample: number[], actual: number[], forecast: number[]): number {
  let scale = 0;
  for (let t = 1; t < insample.length; t++) scale += (insample[t]! - insample[t - 1]!) ** 2;
  scale /= insample.length - 1;
  let error = 0;
  for (let j = 0; j < actual.length; j++) error += (actual[j]! - forecast[j]!) ** 2;
  return Math.sqrt(error / actual.length / scale);
}

export function coverage(actual: number[], lower: number[], upper: number[]): number {
  let inside = 0;
  for (let j = 0; j < actual.length; j++) if (actual[j]! >= lower[j]! && actual[j]! <= upper[j]!) inside++;
  return inside / actual.length;
}

/** M4's OWA: the two average errors, each relative to Naive2's, averaged. */
export function owa(method: { smape: number; mase: number }, naive2: { smape: number; mase: number }): number {
  return 0.5 * (method.smape / naive2.smape + method.mase / naive2.mase);
}
