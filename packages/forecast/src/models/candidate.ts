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
export type FittedModel = { name: string; predict: Predictor; refit?: (history: Float64Array, end: number) => FittedModel };

export function fixed(name: string, predict: Predictor): FittedModel {
  return { name, predict };
}
