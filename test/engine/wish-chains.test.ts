// The wishes' local search (local-search.ts improveWishes): transfers, swaps and, where neither
// helps, chains of hand-overs (wishChains). Random tiny requests check what it must keep; a crafted
// roster shows a preference only a chain of three volunteers meets.
import { expect } from 'chai';
import fc from 'fast-check';
import { Budget } from '../../src/engine/budget.js';
import { prepare, type Prepared } from '../../src/engine/candidates.js';
import { checkAssignment, greedyFill } from '../../src/engine/greedy.js';
import { improveWishes } from '../../src/engine/local-search.js';
import { avoidedCount, preferredCount, previousCount, shortfall, softGoals, type SoftGoals } from '../../src/engine/soft-goals.js';
import { decompose } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import type { ScheduleRequest } from '../../src/types/schema-types.js';
import { tinyRequests } from '../helpers/exhaustive.js';

const headcounts = (p: Prepared, x: Uint8Array): number[] => {
  const filled = new Array<number>(p.sub.shifts.length).fill(0);
  for (let pair = 0; pair < x.length; pair++) if (x[pair]) filled[p.candShift[pair]!]!++;
  return filled;
};

/** The wishes in their order (previous kept, avoided, hours short, preferred) as one comparable tuple, larger is better. */
const wishKey = (p: Prepared, g: SoftGoals, x: Uint8Array): number[] => [previousCount(g, x), -avoidedCount(g, x), -shortfall(p, g, x), preferredCount(g, x)];

/** a is at least as good as b in the wishes' order. */
function atLeastAsGood(a: number[], b: number[]): boolean {
  for (let i = 0; i < a.length; i++) if (Math.abs(a[i]! - b[i]!) > 1e-6) return a[i]! > b[i]!;
  return true;
}

const pairOf = (p: Prepared, volunteer: string, shift: string): number => {
  for (let pair = 0; pair < p.candShift.length; pair++)
    if (p.sub.volunteers[p.candVolunteer[pair]!]!.id === volunteer && p.sub.shifts[p.candShift[pair]!]!.id === shift) return pair;
  throw new Error(`no pair ${volunteer} on ${shift}`);
};

describe('engine: the wishes local search (transfers, swaps, chains of hand-overs)', function () {
  this.timeout(120_000);

  it('keeps every rule and the headcount of every slot kind, never meets the wishes less well, and gives the same schedule on every call (random tiny requests with rules and wishes)', () => {
    fc.assert(
      fc.property(tinyRequests(8, 8, { rules: true, wishes: true }), (request) => {
        for (const sub of decompose(normalizeRequest(request as ScheduleRequest))) {
          const p = prepare(sub);
          const goals = softGoals(p);
          const x = greedyFill(p);
          const y = improveWishes(p, x, goals, Budget.forTimeLimit(60));
          expect(checkAssignment(p, y)).to.equal(undefined);
          expect(headcounts(p, y)).to.deep.equal(headcounts(p, x));
          expect(atLeastAsGood(wishKey(p, goals, y), wishKey(p, goals, x))).to.equal(true);
          expect(Array.from(improveWishes(p, x, goals, Budget.forTimeLimit(60)))).to.deep.equal(Array.from(y));
        }
      }),
      { numRuns: 150, seed: 1919 },
    );
  });

  it('meets a preference that only a chain of three volunteers can: A hands X to B, who prefers it, and B hands Y to C', () => {
    // B prefers X but has hours for one shift, and is on Y; A (on X) has hours for X only, so A
    // cannot take Y in a swap, and B cannot take X on top of Y in a transfer.
    const request = {
      volunteers: [
        { id: 'A', name: 'A', group: 'crew', max_hours: 2 },
        { id: 'B', name: 'B', group: 'crew', max_hours: 4, preferred_shifts: ['X'] },
        { id: 'C', name: 'C', group: 'crew', max_hours: 8 },
      ],
      unassigned_shifts: [
        { id: 'X', start: '2026-06-05T08:00:00Z', end: '2026-06-05T10:00:00Z', required_groups: { crew: 1 } },
        { id: 'Y', start: '2026-06-05T12:00:00Z', end: '2026-06-05T16:00:00Z', required_groups: { crew: 1 } },
      ],
    } as unknown as ScheduleRequest;
    const [sub] = decompose(normalizeRequest(request));
    const p = prepare(sub!);
    const goals = softGoals(p);
    const x = new Uint8Array(p.candShift.length);
    x[pairOf(p, 'A', 'X')] = 1;
    x[pairOf(p, 'B', 'Y')] = 1;
    expect(preferredCount(goals, x)).to.equal(0);
    const y = improveWishes(p, x, goals, Budget.forTimeLimit(60));
    const assigned = [...y.keys()]
      .filter((pair) => y[pair])
      .map((pair) => `${p.sub.volunteers[p.candVolunteer[pair]!]!.id}:${p.sub.shifts[p.candShift[pair]!]!.id}`);
    expect(assigned.sort()).to.deep.equal(['B:X', 'C:Y']);
    expect(preferredCount(goals, y)).to.equal(1);
  });
});
