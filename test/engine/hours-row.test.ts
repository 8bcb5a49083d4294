// The hours row's limit (rules/hours.ts hoursRows): the most hours the volunteer's candidate
// shifts can add up to within max_hours, so the LP relaxation keeps closer to the schedules.
import { expect } from 'chai';
import { highsBackend, loadHighs } from '../../src/engine/backends/highs-backend.js';
import type { SolverBackend } from '../../src/engine/backends/backend.js';
import { Budget } from '../../src/engine/budget.js';
import { prepare } from '../../src/engine/candidates.js';
import { formulate } from '../../src/engine/formulate.js';
import { decompose } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import type { ScheduleRequest } from '../../src/types/schema-types.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { shift, solve, volunteer } from '../helpers/engine.js';

let backend: SolverBackend;
before(async () => {
  backend = highsBackend(await loadHighs());
});

/** Four 4-hour shifts a day apart, one helper each, and two helpers: `a` with `maxHours`, `b` with 4 more and a locked 4-hour shift. */
function fourHourShifts(maxHours: number): ScheduleRequest {
  return {
    volunteers: [volunteer('a', 'k', maxHours), volunteer('b', 'k', maxHours + 4)],
    unassigned_shifts: [...[0, 1, 2, 3].map((d) => shift(`s${d}`, 24 * d + 8, 24 * d + 12, { k: 1 })), shift('locked', 100, 104, { k: 1 })],
    current_assignments: [{ shift_id: 'locked', volunteer_id: 'b' }],
  } as ScheduleRequest;
}

describe('engine: the hours row of max_hours', () => {
  it('holds each helper to the hours whole shifts make, and the coverage LP to what schedules fill', () => {
    const [sub] = decompose(normalizeRequest(fourHourShifts(6)));
    const p = prepare(sub!);
    const f = formulate(p);
    const upper = (name: string): number => f.model.rowUpper[f.model.rowNames.indexOf(name)]!;
    const rows = f.model.rowNames.filter((n) => n.startsWith('hours_'));
    expect(rows).to.have.length(2);
    // a: 6 hours, 4-hour shifts: one shift. b: 10 hours with a 4-hour lock: 6 left, one shift more.
    expect(rows.map(upper)).to.deep.equal([4, 8]);
    const session = backend.open(f.model);
    try {
      const out = session.solve({
        objective: f.coverage[0]!.objective,
        rowBounds: new Map(),
        budget: new Budget(Date.now() + 10_000),
        absGap: 0,
        relGap: 0,
        relaxation: true,
      });
      expect(out.status).to.equal('optimal');
      // With the limits 6 and 10 the LP would give each helper 1.5 shifts: 3 slots. Whole shifts fill 2.
      expect(out.objective).to.be.closeTo(2, 1e-6);
    } finally {
      session.dispose();
    }
  });

  it('proves a lower priority class the caps leave empty at its LP', async () => {
    // Six helpers of 6 hours; six 4-hour shifts of priority 2 take one shift each, and the six of
    // priority 1 (a day later) find no helper with 4 hours left. With the limit 6 the LP would
    // give priority 1 half a shift of each helper (3 slots) where no schedule fills one.
    const request = {
      volunteers: [0, 1, 2, 3, 4, 5].map((i) => volunteer(`v${i}`, 'k', 6)),
      unassigned_shifts: [0, 1, 2, 3, 4, 5].flatMap((i) => [
        { ...shift(`high${i}`, 8 + 4 * (i % 3), 12 + 4 * (i % 3), { k: 1 }), priority: 2 },
        { ...shift(`low${i}`, 32 + 4 * (i % 3), 36 + 4 * (i % 3), { k: 1 }), priority: 1 },
      ]),
    } as unknown as ScheduleRequest;
    const { result } = await solve(request, { debug: 'true' });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    const byPriority = (result.summary as { filled_by_priority: Record<string, { filled: number }> }).filled_by_priority;
    expect([byPriority['2']!.filled, byPriority['1']!.filled]).to.deep.equal([6, 0]);
    type Phase = { name: string; objective: number | null; bound: number | null; status: string; priority?: number };
    const phases = (result.diagnostics as { subproblems: Array<{ phases: Phase[] }> }).subproblems[0]!.phases;
    const lowest = phases.filter((ph) => ph.priority === 1 && ph.name.startsWith('coverage'));
    expect(lowest.map((ph) => [ph.name, ph.objective, ph.bound, ph.status])).to.deep.equal([['coverage_lp', 0, 0, 'optimal']]);
  });
});
