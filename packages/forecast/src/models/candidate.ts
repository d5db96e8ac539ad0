/**
 * Every model is a Candidate: `fit` learns parameters from `history[0, end)`, and the
 * returned Predictor re-runs the model with those fixed parameters on any prefix of
 * the series. Rolling-origin validation fits once and predicts from many origins,
 * which keeps validation at O(n) per origin instead of a full re-optimisation.
 */
export type Predictor = (history: Float64Array, end: number, horizon: number) => Float64Array;

export type Candidate = {
  name: string;
  description: string;
  /** Smallest history length (points) the model needs to be worth trying. */
  minLength: number;
  fit(history: Float64Array, end: number): FittedModel;
};

/**
 * `name` may be more specific than the candidate's (AutoETS reports the form it
 * chose). `refit` re-estimates the same model on more data without repeating
 * the model search; without it, refitting means fitting the candidate afresh.
 */
export type FittedModel = {
  name: string;
  predict: Predictor;
  /**
   * Forecasts from several ascending `ends` at once, for models whose state can
   * be carried forward from one origin to the next instead of rebuilt from the start.
   */
  predictAt?: (history: Float64Array, ends: readonly number[], horizon: number) => Float64Array[];
  refit?: (history: Float64Array, end: number) => FittedModel;
};

/**
 * `count` zeroed arrays of `length` values, views of one buffer: a typed array of more than 64 bytes
 * gets a backing store of its own, about a microsecond to make and free, and validation makes
 * eight forecasts for each candidate.
 */
export function arraysInOneBuffer(count: number, length: number): Float64Array[] {
  const buffer = new Float64Array(count * length);
  const views: Float64Array[] = [];
  for (let i = 0; i < count; i++) views.push(buffer.subarray(i * length, (i + 1) * length));
  return views;
}

/** Forecasts from each of the ascending `ends`, in one pass where the model allows it. */
export function forecastsAt(model: FittedModel, history: Float64Array, ends: readonly number[], horizon: number): Float64Array[] {
  return model.predictAt ? model.predictAt(history, ends, horizon) : ends.map((end) => model.predict(history, end, horizon));
}

/** A model without fitted parameters: `fill` writes every value of the forecast from `end` into `out`. */
export function fixed(name: string, fill: (history: Float64Array, end: number, out: Float64Array) => void): FittedModel {
  return {
    name,
    predict: (history, end, horizon) => {
      const out = new Float64Array(horizon);
      fill(history, end, out);
      return out;
    },
    predictAt: (history, ends, horizon) => {
      const forecasts = arraysInOneBuffer(ends.length, horizon);
      ends.forEach((end, i) => fill(history, end, forecasts[i]!));
      return forecasts;
    },
  };
}
