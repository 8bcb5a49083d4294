// How a request's time is divided among its subproblems (budget.ts subproblemSlice, schedule.ts
// solveInLanes), on a simulated clock: every subproblem here uses all of its slice (as its
// budget, startSlice, has it, its extend flag included), the case where the division matters (a
// scarce roster's groups all run their MIPs to the end of theirs), or ends early where `needs` says.
import { expect } from 'chai';
import { Budget, startSlice, subproblemSlice, type BudgetSlice } from '../../src/engine/budget.js';
import { newFlag, raiseFlag } from '../../src/engine/shared-flag.js';
import { solveInLanes } from '../../src/engine/schedule.js';
import type { SubproblemResult } from '../../src/engine/solve-subproblem.js';
import { plainSlot, plainVolunteer, type Subproblem } from '../../src/engine/subproblem.js';

const sub = (group: string): Subproblem => ({
  group,
  groups: [group],
  volunteers: [plainVolunteer(0, 'a', group, 8)],
  shifts: [plainSlot(0, 's', group, 0, 3_600_000, 1)],
});

/**
 * Runs solveInLanes on a simulated clock with subproblems that each run to the end of their
 * budget (startSlice: the slice, or to the deadline once its extend flag is raised), or, where `needs` gives
 * one, for that long at most; returns each one's [start, slice ms given at the start, ms it ran].
 */
async function simulate(
  weights: number[],
  lanes: number,
  limitMs: number,
  needs: number[] = [],
  othersWaiting?: () => boolean,
): Promise<Array<[number, number, number]>> {
  let now = 0;
  const timers: Array<{ at: () => number; done: () => void }> = [];
  const budget = new Budget(limitMs, () => now);
  const seen: Array<[number, number, number]> = weights.map(() => [-1, -1, -1]);
  const subs = weights.map((_, i) => sub(`g${i}`));
  const solve = (s: Subproblem, slice: BudgetSlice): Promise<SubproblemResult> => {
    const i = subs.indexOf(s);
    const start = now;
    const own = startSlice(slice, () => now);
    seen[i] = [start, slice.ms, -1];
    return new Promise((resolve) =>
      timers.push({
        at: () => Math.min(own.deadline, start + (needs[i] ?? Infinity)),
        done: () => {
          seen[i]![2] = now - start;
          resolve({} as SubproblemResult);
        },
      }),
    );
  };
  const run = solveInLanes(subs, weights, lanes, solve, budget, othersWaiting);
  const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  await flush();
  while (timers.length > 0) {
    // The next to end, as the ends stand now (a slice may have been extended since the last step).
    timers.sort((a, b) => a.at() - b.at());
    const next = timers.shift()!;
    now = Math.max(now, next.at());
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
    for (const [start, ms, ran] of seen) {
      expect(start).to.be.at.least(0);
      expect(ms).to.be.closeTo(2_500, 1);
      expect(ran).to.be.closeTo(2_500, 1);
    }
  });

  it('one large and two small subproblems: the small ones share the second lane instead of the first taking it all', async () => {
    const seen = await simulate([10, 1, 1], 2, 10_000);
    expect(seen[0]![1]).to.equal(10_000);
    // Before, the second was given the whole second lane (2 x 10 s x 1/2, capped at 10 s) and the third started at the deadline with nothing.
    expect(seen[1]![1]).to.be.closeTo(5_000, 1);
    expect(seen[2]).to.deep.equal([5_000, 5_000, 5_000]);
  });

  it('known limit: with fewer subproblems left than lanes the division does not look ahead (three equal ones on two lanes: 2/3, 2/3, 1/3)', async () => {
    const seen = await simulate([1, 1, 1], 2, 9_000);
    expect(seen.map(([, ms]) => Math.round(ms))).to.deep.equal([6_000, 6_000, 3_000]);
    expect(seen.map(([, , ran]) => Math.round(ran))).to.deep.equal([6_000, 6_000, 3_000]);
  });

  it('once a lane is idle, the subproblem still running on the other runs on to the deadline', async () => {
    // Of weight 2 against eight of 1 on two lanes, 10 s: the large one is given 2 x 10 x 2/10 = 4 s.
    const needs = [Infinity, 100, 100, 100, 100, 100, 100, 100, 100];
    const seen = await simulate([2, 1, 1, 1, 1, 1, 1, 1, 1], 2, 10_000, needs);
    expect(Math.round(seen[0]![1])).to.equal(4_000);
    // The small ones end after 0.1 s each, one after another on the second lane, which is idle from 0.8 s...
    for (let i = 1; i < 9; i++) expect(seen[i]![2]).to.equal(100);
    expect(seen[8]![0]).to.equal(700);
    // ...and the large one runs to the deadline: before, it stopped at 4 s.
    expect(seen[0]![2]).to.equal(10_000);
  });

  it('not before: with the last one running past the first one’s slice, the first stops at its slice', async () => {
    const needs = [Infinity, 100, 100, 100, 100, 100, 100, 100, Infinity];
    const seen = await simulate([2, 1, 1, 1, 1, 1, 1, 1, 1], 2, 10_000, needs);
    // The last one, started at 0.7 s, is given the rest of the limit (the lanes' 18.6 s left less the first's 3.3 s, capped at 9.3 s).
    expect(seen[8]![0]).to.equal(700);
    expect(Math.round(seen[8]![1])).to.equal(9_300);
    expect(seen[8]![2]).to.equal(9_300);
    expect(seen[0]![2]).to.equal(4_000);
  });

  it('nor while other work waits for a worker (another request’s subproblems on a shared pool)', async () => {
    const needs = [Infinity, 100, 100, 100, 100, 100, 100, 100, 100];
    const seen = await simulate([2, 1, 1, 1, 1, 1, 1, 1, 1], 2, 10_000, needs, () => true);
    expect(seen[0]![2]).to.equal(4_000);
  });

  it('a raised extend flag moves a slice’s budget, and the shares made from it, to the deadline', () => {
    let now = 1_000;
    const slice: BudgetSlice = { deadline: 11_000, ms: 2_000, extend: newFlag() };
    const budget = startSlice(slice, () => now);
    const half = budget.share(0.5);
    const least = budget.atLeast(5_000);
    expect([budget.deadline, half.deadline, least.deadline]).to.deep.equal([3_000, 2_000, 6_000]);
    raiseFlag(slice.extend!);
    // A share made before the move keeps its fraction of the time from when it was made.
    expect([budget.deadline, half.deadline, least.deadline]).to.deep.equal([11_000, 6_000, 11_000]);
    // A fixed end taken from it (until) stays where it was taken.
    const capped = budget.until(Math.min(budget.deadline, now + 500));
    now = 10_000;
    expect(budget.remainingMs()).to.equal(1_000);
    expect(budget.expired()).to.equal(false);
    expect(capped.expired()).to.equal(true);
    now = 11_000;
    expect(budget.expired()).to.equal(true);
    // Without a flag, or with a slice that reaches the deadline already, a fixed budget.
    expect(startSlice({ deadline: 11_000, ms: 2_000 }, () => now).deadline).to.equal(11_000);
    now = 0;
    const unflagged = startSlice({ deadline: 11_000, ms: 2_000 }, () => now);
    const reaching = startSlice({ deadline: 11_000, ms: 2_000, extend: newFlag() }, () => now + 9_500);
    expect([unflagged.deadline, reaching.deadline]).to.deep.equal([2_000, 11_000]);
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
