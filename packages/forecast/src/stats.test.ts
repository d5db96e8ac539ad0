import { describe, expect, it } from 'vitest';
import { nelderMead } from './stats.ts';

describe('nelderMead', () => {
  /**
   * A bowl whose minimum lies outside the box (x₀ = −0.3 < 0): moves are clamped onto the bound and
   * several land on points evaluated before. The points the objective was called at, and the result.
   */
  const boundedBowl = (maxEvaluations: number) => {
    const calls: string[] = [];
    const objective = (x: Float64Array) => {
      calls.push(Array.from(x).join(','));
      return (x[0]! + 0.3) ** 2 + (x[1]! - 0.4) ** 2 * (1 + x[0]! ** 2);
    };
    const { x, value } = nelderMead(objective, [0.3, 0.1], [0, 0], [1, 1], maxEvaluations);
    return { calls, x: Array.from(x), value };
  };

  it('evaluates the objective once per distinct point', () => {
    const { calls } = boundedBowl(50);
    expect(new Set(calls).size).toBe(calls.length);
  });

  // The expected results are main's optimiser's before points were remembered, on the same objective.
  it('ends where it did when it evaluated repeated points again (27 evaluations, 19 of them distinct)', () => {
    expect(boundedBowl(50)).toEqual({ calls: expect.any(Array) as unknown, x: [0, 0.40078125], value: 0.0900006103515625 });
    expect(boundedBowl(50).calls).toHaveLength(19);
  });

  it('counts a repeated point as an evaluation, so a limit stops the search where it did (12 evaluations, 10 distinct)', () => {
    expect(boundedBowl(12)).toEqual({ calls: expect.any(Array) as unknown, x: [0, 0.35], value: 0.0925 });
    expect(boundedBowl(12).calls).toHaveLength(10);
  });
});
