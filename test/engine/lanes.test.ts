// How a request's time is divided among its subproblems (budget.ts subproblemSlice, schedule.ts
// solveInLanes), on a simulated clock: every subproblem here uses all of its slice, the case
// where the division matters (a scarce roster's groups all run their MIPs to the end of theirs).
import { expect } from 'chai';
import { Budget, subproblemSlice, type BudgetSlice } from '../../src/engine/budget.js';
import { solveInLanes } from '../../src/engine/schedule.js';
import type { SubproblemResult } from '../../src/engine/solve-subproblem.js';
import { plainSlot, plainVolunteer, type Subproblem } from '../../src/engine/subproblem.js';

const sub = (group: string): Subproblem => ({
  group,
  groups: [group],
  volunteers: [plainVolunteer(0, 'a', group, 8)],
  shifts: [plainSlot(0, 's', group, 0, 3_600_000, 1)],
});

/** Runs solveInLanes with subproblems that each take their whole slice on a simulated clock; returns each one's [start, slice ms]. */
async function simulate(weights: number[], lanes: number, limitMs: number): Promise<Array<[number, number]>> {
  let now = 0;
  const timers: Array<{ at: number; done: () => void }> = [];
  const budget = new Budget(limitMs, () => now);
  const seen: Array<[number, number]> = weights.map(() => [-1, -1]);
  const subs = weights.map((_, i) => sub(`g${i}`));
  const solve = (s: Subproblem, slice: BudgetSlice): Promise<SubproblemResult> => {
    const i = subs.indexOf(s);
    seen[i] = [now, slice.ms];
    return new Promise((resolve) =>
      timers.push({
        at: Math.min(slice.deadline, now + slice.ms),
        done: () => {
          resolve({} as SubproblemResult);
        },
      }),
    );
  };
  const run = solveInLanes(subs, weights, lanes, solve, budget);
  const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  await flush();
  while (timers.length > 0) {
    timers.sort((a, b) => a.at - b.at);
    const next = timers.shift()!;
    now = Math.max(now, next.at);
    next.done();
    await flush();
  }
  await run;
  return seen;
}

describe('engine: the time of a request divided among its subproblems', () => {
  it('a slice is the lanes’ time left, less what running subproblems were given, by weight, never past the time left', () => {
    const budget = new Budget(10_000, () => 0);
    expect(subproblemSlice(budget, 2, 1, 4).ms).to.equal(5_000);
    // The other lane runs a subproblem given 6 s more: 20 - 6 = 14 s of lane time for the 4 units not started.
    expect(subproblemSlice(budget, 2, 1, 4, 6_000).ms).to.equal(3_500);
    expect(subproblemSlice(budget, 2, 4, 4, 6_000).ms).to.equal(10_000);
    expect(subproblemSlice(budget, 2, 1, 1, 25_000).ms).to.equal(0);
  });

  it('eight equal subproblems on two lanes that use all their time each get a quarter of the limit, the last ones too', async () => {
    const seen = await simulate([1, 1, 1, 1, 1, 1, 1, 1], 2, 10_000);
    for (const [start, ms] of seen) {
      expect(start).to.be.at.least(0);
      expect(ms).to.be.closeTo(2_500, 1);
    }
  });

  it('one large and two small subproblems: the small ones share the second lane instead of the first taking it all', async () => {
    const seen = await simulate([10, 1, 1], 2, 10_000);
    expect(seen[0]![1]).to.equal(10_000);
    // Before, the second was given the whole second lane (2 x 10 s x 1/2, capped at 10 s) and the third started at the deadline with nothing.
    expect(seen[1]![1]).to.be.closeTo(5_000, 1);
    expect(seen[2]).to.deep.equal([5_000, 5_000]);
  });

  it('known limit: with fewer subproblems left than lanes the division does not look ahead (three equal ones on two lanes: 2/3, 2/3, 1/3)', async () => {
    const seen = await simulate([1, 1, 1], 2, 9_000);
    expect(seen.map(([, ms]) => Math.round(ms))).to.deep.equal([6_000, 6_000, 3_000]);
  });

  it('time a subproblem leaves unused goes to the ones after it', async () => {
    let now = 0;
    const budget = new Budget(10_000, () => now);
    const subs = [sub('a'), sub('b'), sub('c')];
    const given: number[] = [];
    // The first ends at once; the others find the whole limit left for two.
    await solveInLanes(
      subs,
      [1, 1, 1],
      1,
      (s, slice) => {
        given.push(slice.ms);
        now += s.group === 'a' ? 0 : slice.ms;
        return Promise.resolve({} as SubproblemResult);
      },
      budget,
    );
    expect(given).to.deep.equal([10_000 / 3, 5_000, 5_000]);
  });
});
