// The progress a solve reports (the CLI's line, a job's progress): a bound is a bound on the
// whole request, so it is sent only once every group has one, including groups still waiting
// for a lane, and a group's bound never falls below what it filled.
import { expect } from 'chai';
import { ProgressTracker, type SolveProgress } from '../../src/engine/progress.js';
import type { Assignment } from '../../src/engine/subproblem-runner.js';

const filled = (n: number): Assignment[] => Array.from({ length: n }, (_, i) => ({ volunteer: i, shift: 0 }) as unknown as Assignment);

describe('ProgressTracker', () => {
  it('sends a bound only once every group has one, not a sum over the groups started', () => {
    const seen: SolveProgress[] = [];
    let clock = 0;
    const tracker = new ProgressTracker(
      (p) => seen.push(p),
      () => (clock += 1000),
      3,
    );
    tracker.started('a');
    tracker.improved('a', { assignments: filled(5), phase: 'greedy', fillBound: 6 });
    tracker.started('b');
    tracker.improved('b', { assignments: filled(4), phase: 'coverage', fillBound: 4 });
    // Group c waits for a lane: no bound yet, though a and b have theirs.
    expect(seen.map((p) => p.bound)).to.deep.equal([undefined, undefined]);
    tracker.finished('a', 6, 6);
    tracker.started('c');
    tracker.improved('c', { assignments: filled(2), phase: 'greedy', fillBound: 3 });
    const last = seen.at(-1)!;
    expect(last.filled).to.equal(6 + 4 + 2);
    expect(last.bound).to.equal(6 + 4 + 3);
    expect(last.bound!).to.be.at.least(last.filled);
    tracker.stop();
  });

  it("raises a group's bound to what it filled when it ends", () => {
    const seen: SolveProgress[] = [];
    let clock = 0;
    const tracker = new ProgressTracker(
      (p) => seen.push(p),
      () => (clock += 1000),
      1,
    );
    tracker.started('a');
    tracker.improved('a', { assignments: filled(3), phase: 'greedy', fillBound: 3 });
    tracker.finished('a', 5, 3);
    expect(seen.at(-1)).to.include({ filled: 5, bound: 5 });
    tracker.stop();
  });

  it('gives the bound of a group that ended without reporting an incumbent', () => {
    const seen: SolveProgress[] = [];
    let clock = 0;
    const tracker = new ProgressTracker(
      (p) => seen.push(p),
      () => (clock += 1000),
      2,
    );
    tracker.started('a');
    tracker.improved('a', { assignments: filled(4), phase: 'coverage', fillBound: 4 });
    tracker.started('b');
    tracker.finished('b', 2, 2);
    expect(seen.at(-1)).to.include({ filled: 6, bound: 6 });
    tracker.stop();
  });
});
