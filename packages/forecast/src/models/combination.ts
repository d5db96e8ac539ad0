import { forecastsAt, type Candidate, type FittedModel } from './candidate.ts';

/**
 * A fixed combination: every member is fitted, and the forecast at each step is
 * the median (or mean) of theirs. On short series there is too little history
 * to choose between members reliably, and a robust combination of a few
 * different ones is rarely far from the best of them (ADR 0110).
 */
export function combination(name: string, members: Candidate[], how: 'median' | 'mean'): Candidate {
  return {
    name,
    description: `${how === 'median' ? 'Median' : 'Average'} of ${members.length} forecasts (${members.map((member) => member.name).join(', ')}): no single model is trusted with so little history.`,
    minLength: Math.max(...members.map((member) => member.minLength)),
    fit(history, end): FittedModel {
      const fitted = members.map((member) => member.fit(history, end));
      const combine = (forecasts: Float64Array[]): Float64Array => {
        const out = new Float64Array(forecasts[0]!.length);
        const column = new Float64Array(forecasts.length);
        for (let j = 0; j < out.length; j++) {
          for (let m = 0; m < forecasts.length; m++) column[m] = forecasts[m]![j]!;
          out[j] = how === 'median' ? median(column) : column.reduce((sum, value) => sum + value, 0) / column.length;
        }
        return out;
      };
      return {
        name,
        predict: (series, seriesEnd, horizon) => combine(fitted.map((model) => model.predict(series, seriesEnd, horizon))),
        predictAt: (series, ends, horizon) => {
          const perMember = fitted.map((model) => forecastsAt(model, series, ends, horizon));
          return ends.map((_, i) => combine(perMember.map((forecasts) => forecasts[i]!)));
        },
        refit: (series, seriesEnd) => combination(name, members, how).fit(series, seriesEnd),
      };
    },
  };
}

/** Sorts in place. */
function median(values: Float64Array): number {
  values.sort();
  const middle = values.length >> 1;
  return values.length % 2 === 1 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
}
