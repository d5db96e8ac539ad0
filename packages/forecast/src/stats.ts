// Small numeric helpers shared by the models. Everything works on plain arrays
// or Float64Array so the hot loops stay monomorphic.

export type Series = ArrayLike<number>;

export function mean(values: Series, start = 0, end = values.length): number {
  if (end <= start) return 0;
  let sum = 0;
  for (let i = start; i < end; i++) sum += values[i]!;
  return sum / (end - start);
}

/** Sample quantile with linear interpolation (type 7, the R / numpy default). */
export function quantile(sorted: Series, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const pos = (n - 1) * Math.min(1, Math.max(0, p));
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Inverse standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/** Autocorrelations at lags 1…maxLag (index 0 is lag 1), with the usual full-series denominator. */
export function autocorrelations(values: Series, maxLag: number): Float64Array {
  const n = values.length;
  const mu = mean(values);
  const centred = new Float64Array(n);
  let denominator = 0;
  for (let i = 0; i < n; i++) {
    centred[i] = values[i]! - mu;
    denominator += centred[i]! * centred[i]!;
  }
  const out = new Float64Array(maxLag);
  if (denominator === 0) return out;
  // Four lags per pass: four independent sums keep the adder busy where one
  // sum waits on itself. Each sum still adds its terms in order of i.
  let lag = 1;
  for (; lag + 3 <= maxLag; lag += 4) {
    let a = 0;
    let b = 0;
    let c = 0;
    let d = 0;
    for (let i = lag; i < Math.min(lag + 3, n); i++) {
      a += centred[i]! * centred[i - lag]!;
      if (i >= lag + 1) b += centred[i]! * centred[i - lag - 1]!;
      if (i >= lag + 2) c += centred[i]! * centred[i - lag - 2]!;
    }
    for (let i = lag + 3; i < n; i++) {
      const x = centred[i]!;
      a += x * centred[i - lag]!;
      b += x * centred[i - lag - 1]!;
      c += x * centred[i - lag - 2]!;
      d += x * centred[i - lag - 3]!;
    }
    out[lag - 1] = a / denominator;
    out[lag] = b / denominator;
    out[lag + 1] = c / denominator;
    out[lag + 2] = d / denominator;
  }
  for (; lag <= maxLag; lag++) {
    let numerator = 0;
    for (let i = lag; i < n; i++) numerator += centred[i]! * centred[i - lag]!;
    out[lag - 1] = numerator / denominator;
  }
  return out;
}

/** A regression's columns and their normal equations' matrix (gramMatrix), kept to fit many targets. */
export type RegressionDesign = { columns: Float64Array[]; gram: Float64Array[] };

/**
 * The normal equations' matrix XᵀX of the columns over their first n values, each row with a last
 * slot for the right-hand side, and `ridge` added to the diagonal. Callers that fit many targets
 * on the same columns compute it once (leastSquares' `gram`).
 */
export function gramMatrix(columns: Float64Array[], n: number, ridge = 1e-8): Float64Array[] {
  const k = columns.length;
  const gram = Array.from({ length: k }, () => new Float64Array(k + 1));
  for (let a = 0; a < k; a++) {
    const colA = columns[a]!;
    const row = gram[a]!;
    for (let b = a; b < k; b++) {
      const colB = columns[b]!;
      let sum = 0;
      for (let i = 0; i < n; i++) sum += colA[i]! * colB[i]!;
      row[b] = sum;
      gram[b]![a] = sum;
    }
    row[a] = row[a]! + ridge * (1 + row[a]!);
  }
  return gram;
}

/**
 * Ordinary least squares via normal equations and Gaussian elimination; fine for the handful of
 * columns we use. `gram`: gramMatrix of the same columns, n and ridge, if already known (not changed).
 */
export function leastSquares(columns: Float64Array[], target: Series, ridge = 1e-8, gram: readonly Float64Array[] = gramMatrix(columns, target.length, ridge)): Float64Array {
  const k = columns.length;
  const n = target.length;
  const rows = gram.map((row) => row.slice());
  for (let a = 0; a < k; a++) {
    const colA = columns[a]!;
    let rhs = 0;
    for (let i = 0; i < n; i++) rhs += colA[i]! * target[i]!;
    rows[a]![k] = rhs;
  }
  for (let pivot = 0; pivot < k; pivot++) {
    let best = pivot;
    for (let r = pivot + 1; r < k; r++) if (Math.abs(rows[r]![pivot]!) > Math.abs(rows[best]![pivot]!)) best = r;
    [rows[pivot], rows[best]] = [rows[best]!, rows[pivot]!];
    const pivotRow = rows[pivot]!;
    const pivotValue = pivotRow[pivot]!;
    if (Math.abs(pivotValue) < 1e-300) continue;
    for (let r = 0; r < k; r++) {
      if (r === pivot) continue;
      const row = rows[r]!;
      const factor = row[pivot]! / pivotValue;
      if (factor === 0) continue;
      for (let c = pivot; c <= k; c++) row[c] = row[c]! - factor * pivotRow[c]!;
    }
  }
  const coefficients = new Float64Array(k);
  for (let a = 0; a < k; a++) {
    const row = rows[a]!;
    coefficients[a] = row[a] === 0 ? 0 : row[k]! / row[a]!;
  }
  return coefficients;
}

/** Equal in every coordinate, telling 0 from −0 (an objective may). */
function samePoint(a: Float64Array, b: Float64Array): boolean {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

type SimplexPoint = { x: Float64Array; value: number };

/**
 * In place, by ascending value, equal values keeping their order: the order Array#sort gives, without
 * the work array it allocates on every call (a simplex is sorted once per step, hundreds of times per
 * product).
 */
function sortByValue(points: SimplexPoint[]): void {
  for (let i = 1; i < points.length; i++) {
    const point = points[i]!;
    let j = i - 1;
    for (; j >= 0 && point.value < points[j]!.value; j--) points[j + 1] = points[j]!;
    points[j + 1] = point;
  }
}

/**
 * Nelder–Mead minimiser on a box: parameters are clamped to [lower, upper] so
 * smoothing constants stay admissible without a penalty term.
 */
export function nelderMead(
  objective: (x: Float64Array) => number,
  start: number[],
  lower: number[],
  upper: number[],
  maxEvaluations = 120,
  // A relative change of 1e-4 in the sum of squares moves n·log(SSE) by less than
  // 0.1 for our lengths: far below any AICc difference that changes a decision.
  relativeTolerance = 1e-4,
): SimplexPoint {
  const dim = start.length;
  const clamp = (x: Float64Array): Float64Array => {
    for (let i = 0; i < dim; i++) x[i] = Math.min(upper[i]!, Math.max(lower[i]!, x[i]!));
    return x;
  };
  const simplex: SimplexPoint[] = [];
  let evaluations = 0;
  // Every point evaluated so far. Clamping to the box sends different moves to the same point (a
  // smoothing constant at its bound), and about one evaluation in twenty repeats an earlier one:
  // the objective is a pure function of x, so its earlier value is taken. It still counts as an
  // evaluation, so the search stops where it always did.
  const evaluated: SimplexPoint[] = [];
  const evaluate = (x: Float64Array): SimplexPoint => {
    evaluations++;
    const known = evaluated.find((point) => samePoint(point.x, x));
    if (known) return { x, value: known.value };
    const value = objective(x);
    const point = { x, value: Number.isFinite(value) ? value : Infinity };
    evaluated.push(point);
    return point;
  };
  simplex.push(evaluate(clamp(Float64Array.from(start))));
  for (let i = 0; i < dim; i++) {
    const x = Float64Array.from(start);
    const span = (upper[i]! - lower[i]!) * 0.25;
    x[i] = x[i]! + (x[i]! + span <= upper[i]! ? span : -span);
    simplex.push(evaluate(clamp(x)));
  }
  const centroid = new Float64Array(dim);
  const along = (t: number): Float64Array => {
    const worst = simplex[dim]!.x;
    const x = new Float64Array(dim);
    for (let i = 0; i < dim; i++) x[i] = centroid[i]! + t * (worst[i]! - centroid[i]!);
    return clamp(x);
  };
  while (evaluations < maxEvaluations) {
    sortByValue(simplex);
    const best = simplex[0]!;
    const worst = simplex[dim]!;
    if (Math.abs(worst.value - best.value) <= relativeTolerance * (Math.abs(best.value) + 1e-12)) break;
    centroid.fill(0);
    for (let v = 0; v < dim; v++) for (let i = 0; i < dim; i++) centroid[i] = centroid[i]! + simplex[v]!.x[i]! / dim;
    const reflected = evaluate(along(-1));
    if (reflected.value < best.value) {
      const expanded = evaluate(along(-2));
      simplex[dim] = expanded.value < reflected.value ? expanded : reflected;
    } else if (reflected.value < simplex[dim - 1]!.value) {
      simplex[dim] = reflected;
    } else {
      const contracted = evaluate(along(reflected.value < worst.value ? -0.5 : 0.5));
      if (contracted.value < Math.min(worst.value, reflected.value)) {
        simplex[dim] = contracted;
      } else {
        for (let v = 1; v <= dim; v++) {
          const x = new Float64Array(dim);
          for (let i = 0; i < dim; i++) x[i] = best.x[i]! + 0.5 * (simplex[v]!.x[i]! - best.x[i]!);
          simplex[v] = evaluate(clamp(x));
        }
      }
    }
  }
  sortByValue(simplex);
  return simplex[0]!;
}
