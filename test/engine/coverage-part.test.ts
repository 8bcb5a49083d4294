// The cheap coverage bound of joined subproblems (src/engine/coverage-part.ts) and the local
// refinement of large ones: the part's LP relaxes the whole model's, so its bound is never below
// the whole model's LP bound with the same classes held; a class short in one group is proven
// by that group's part; and refining by local search alone keeps coverage.
import { expect } from 'chai';
import fc from 'fast-check';
import { highsBackend, loadHighs } from '../../src/engine/backends/highs-backend.js';
import type { SolverBackend } from '../../src/engine/backends/backend.js';
import { Budget } from '../../src/engine/budget.js';
import { prepare, type Prepared } from '../../src/engine/candidates.js';
import { coveragePart, heldClasses, type CoveragePart } from '../../src/engine/coverage-part.js';
import { formulate } from '../../src/engine/formulate.js';
import { bestGreedyFill } from '../../src/engine/greedy.js';
import type { MipModel, Objective } from '../../src/engine/mip-model.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import { PART_RINS_MIN_PAIRS, PART_RINS_STALL_ITERATIONS } from '../../src/engine/levels.js';
import { decompose } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import type { ScheduleRequest } from '../../src/types/schema-types.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { bestFilledByPriority, filledByPriority, tinyRequests } from '../helpers/exhaustive.js';
import { shift, solve, spy, volunteer, type Json } from '../helpers/engine.js';
import { festival, withRules } from '../../bench/generate.js';

let backend: SolverBackend;
before(async () => {
  backend = highsBackend(await loadHighs());
});

/** The LP optimum (or with `integral`, the MIP optimum) of a model with an objective and row bounds. */
function lpValue(model: MipModel, objective: Objective, rowBounds: Map<number, [number, number]> = new Map(), integral = false): number {
  const session = backend.open(model);
  try {
    const out = session.solve({ objective, rowBounds, budget: new Budget(Date.now() + 10_000), absGap: 0, relGap: 0, relaxation: !integral });
    expect(out.status).to.equal('optimal');
    return out.objective!;
  } finally {
    session.dispose();
  }
}

/**
 * Row bounds that put a model's hours rows back at max_hours itself (the locked hours plus what
 * they leave), as they were before each row's limit became the most hours whole shifts make.
 */
function capLimits(p: Prepared, model: MipModel): Map<number, [number, number]> {
  const limit = new Map(p.sub.volunteers.map((v, vi) => [`hours_v${v.index}`, p.lockedHours[vi]! + p.remaining[vi]!]));
  const out = new Map<number, [number, number]>();
  model.rowNames.forEach((name, row) => {
    const upper = limit.get(name);
    if (upper !== undefined) out.set(row, [-Infinity, upper]);
  });
  return out;
}

/**
 * The whole coverage model's LP bound on class k of x (with `integral`, its optimum; with
 * `atCaps`, its hours rows at max_hours itself), the classes before k held as the level runner holds them.
 */
function wholeBound(p: Prepared, x: Uint8Array, k: number, o: { integral?: boolean; atCaps?: boolean } = {}): number {
  const f = formulate(p);
  const cover = f.cover!;
  const { sparse, held } = heldClasses(p, x, k);
  const bounds = new Map<number, [number, number]>();
  cover.fixRows.forEach((row) => bounds.set(row, [-Infinity, Infinity]));
  for (let j = 0; j < k; j++) {
    if (!sparse[j]) bounds.set(cover.fixRows[j]!, [held[j]!, Infinity]);
    else
      p.byShift.forEach((pairs, t) => {
        if (p.slotClass[t] !== j || pairs.length === 0) return;
        const { required, locked } = p.sub.shifts[t]!;
        bounds.set(f.headRow[t]!, [locked + Math.min(p.demand[t]!, pairs.length), Math.max(required, locked)]);
      });
  }
  if (o.atCaps) for (const [row, b] of capLimits(p, cover.model)) bounds.set(row, b);
  const costs = f.coverage[k]!.objective.costs.subarray(0, cover.model.numCols);
  return lpValue(cover.model, { sense: 'max', costs }, bounds, o.integral);
}

/** Calls `check` with each class's part (when it has one) of the greedy fill of the joined subproblems of fast-check's tiny requests with rules. */
function forEachPart(numRuns: number, check: (part: CoveragePart, p: Prepared, x: Uint8Array, k: number) => void): void {
  fc.assert(
    fc.property(tinyRequests(7, 7, { rules: true }), (request) => {
      for (const sub of decompose(normalizeRequest(request as ScheduleRequest))) {
        if (sub.groups.length < 2) continue;
        const p = prepare(sub);
        const x = bestGreedyFill(p);
        p.classes.forEach((_, k) => {
          const { sparse, held } = heldClasses(p, x, k);
          const part = coveragePart(p, x, k, sparse, held);
          if (part) check(part, p, x, k);
        });
      }
    }),
    { numRuns },
  );
}

describe('engine: the coverage bound of part of a joined subproblem', function () {
  this.timeout(120_000);

  it('is never below the whole model’s optimum with the same classes held, nor, with the hours rows at max_hours, below its LP bound', () => {
    // Each model's hours rows hold a volunteer to the most hours their own candidate shifts there
    // make (rules/hours.ts mostReachableHours), and the part has fewer of them, so its LP may be
    // the tighter (a volunteer of 2 hours with shifts of 1, 1 and 1.5 hours: 2 in the whole, 1.5
    // in a part with one of 1 and the 1.5): a bound on the class, not on the whole model's LP.
    // With both models' hours rows put back at max_hours, the part is a relaxation of the whole.
    let parts = 0;
    forEachPart(200, (part, p, x, k) => {
      parts++;
      expect(part.constant + lpValue(part.model, part.objective)).to.be.at.least(wholeBound(p, x, k, { integral: true }) - 1e-6);
      const atCaps = part.constant + lpValue(part.model, part.objective, capLimits(p, part.model));
      expect(atCaps).to.be.at.least(wholeBound(p, x, k, { atCaps: true }) - 1e-6);
    });
    expect(parts, 'parts tried').to.be.greaterThan(0);
  });

  it('proves a class short in one group by that group alone, and fills the exhaustive optimum', async () => {
    // Two groups joined by v4. Kitchen's late shifts ask for more than its two cooks can give
    // (each at most 8 h), so priority 1 stays short there; the bar is fully staffed.
    const request: Json = {
      volunteers: [
        volunteer('v1', 'kitchen', 8),
        volunteer('v2', 'kitchen', 8),
        volunteer('v3', 'bar', 999),
        volunteer('v5', 'bar', 999),
        { ...volunteer('v4', 'bar', 4), additional_groups: ['kitchen'] },
      ],
      unassigned_shifts: [
        { ...shift('bar-am', 8, 12, { bar: 2 }), priority: 2 },
        { ...shift('bar-pm', 12, 16, { bar: 1 }), priority: 2 },
        shift('k-am', 8, 12, { kitchen: 2 }),
        shift('k-pm', 12, 16, { kitchen: 2 }),
        shift('k-eve', 16, 20, { kitchen: 2 }),
      ],
    };
    const { result } = await solve(request, { debug: 'true' });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    const [sub] = result.diagnostics.subproblems as Json[];
    expect(sub!.fill_bound).to.equal(sub!.filled);
    const part = (sub!.phases as Json[]).find((ph) => ph.name === 'coverage_lp' && String(ph.note).includes('only'));
    expect(part, JSON.stringify(sub!.phases)).to.not.equal(undefined);
    expect(part!.note).to.contain("groups 'kitchen' only");
    delete result.diagnostics;
    expect(filledByPriority(request, result)).to.deep.equal(bestFilledByPriority(request));
  });
});

describe('engine: joined subproblems refined by local search alone', () => {
  it('keep their coverage, skip the staffing and fairness LPs and say why', () => {
    const request = {
      volunteers: [
        { id: 'a', group: 'k', max_hours: 8, additional_groups: ['bar'] },
        { id: 'b', group: 'k', max_hours: 4 },
        { id: 'c', group: 'bar', max_hours: 6 },
      ],
      unassigned_shifts: [shift('s1', 8, 12, { k: 1, bar: 1 }), shift('s2', 10, 14, { k: 1 }), shift('s3', 13, 17, { bar: 2 })],
    } as unknown as ScheduleRequest;
    const [sub] = decompose(normalizeRequest(request));
    const full = solveSubproblem(sub!, { backend, budget: new Budget(Date.now() + 5000) });
    const local = solveSubproblem(sub!, { backend, budget: new Budget(Date.now() + 5000), maxJoinedRefinePairs: 0 });
    expect(local.filled).to.equal(full.filled);
    expect(local.fillBound).to.equal(full.fillBound);
    const phases = local.diagnostics.phases;
    // Staffing's windows end on their own short of its cheap bound and fairness is proven, so
    // staffing's LP of the whole runs once more after every level (ObjectiveLevel.lateWhole): not the first pass.
    const balance = phases.findIndex((ph) => ph.name === 'balance');
    expect(balance, JSON.stringify(phases)).to.be.at.least(0);
    const refined = phases.slice(0, balance).filter((ph) => ['staffing_lp', 'staffing', 'fairness_lp', 'fairness'].includes(ph.name));
    expect(refined.length, JSON.stringify(phases)).to.be.greaterThan(0);
    for (const ph of refined) expect(ph).to.include({ status: 'skipped' }).and.to.have.property('note').that.contains('no LP or MIP of the whole subproblem');
    expect(phases.slice(balance).filter((ph) => ['fairness_lp', 'fairness'].includes(ph.name))).to.deep.equal([]);
    // That LP's bound (3.75) proves the 3 fully staffed slot kinds the windows left.
    expect(phases.slice(balance + 1).map((ph) => [ph.name, ph.status])).to.deep.equal([['staffing_lp', 'optimal']]);
    expect(local.diagnostics.levels!.find((l) => l.name === 'staffing')).to.include({ value: 3, bound: 3, proven: true });
  });
});

describe('engine: RINS from the part LP of a joined subproblem', function () {
  this.timeout(120_000);

  it('proves a class without the whole model LP when its schedule reaches the part bound', () => {
    // A 150 x 100 festival of three groups with every rule (5,430 candidate pairs, over
    // PART_RINS_MIN_PAIRS): after construction, priority 1 is 3 slots short of its part's LP bound,
    // and the MIP over the part's pairs where that LP and the schedule disagree fills them.
    const mix = { minRestHours: 10, timezone: 'Europe/Berlin', firstDay: Date.UTC(2026, 5, 5), days: 2, utcShift: -2 };
    const request = withRules(104, festival({ seed: 4, volunteers: 150, shifts: 100, days: 2, groups: 3 }), mix);
    const joined = decompose(normalizeRequest(request)).find((sub) => sub.groups.length > 1)!;
    expect(prepare(joined).candShift.length).to.be.at.least(PART_RINS_MIN_PAIRS);
    const { backend: recording, sessions, calls } = spy(backend);
    const result = solveSubproblem(joined, { backend: recording, budget: new Budget(Date.now() + 60_000) });
    const phases = result.diagnostics.phases;
    const i = phases.findIndex((ph) => ph.name === 'coverage_rins' && String(ph.note).includes("the part's LP"));
    expect(i, JSON.stringify(phases)).to.be.at.least(0);
    const rins = phases[i]!;
    const part = phases[i - 1]!;
    expect(part.name).to.equal('coverage_lp');
    expect(part.note).to.contain('a relaxation of the whole');
    // It reached the part's bound, so the class is proven and no LP of the whole model follows for it.
    expect(rins.status).to.equal('optimal');
    expect(rins.objective).to.equal(part.bound);
    expect(rins.note).to.match(/: \+[1-9]\d*$/);
    expect(phases.slice(i + 1).some((ph) => ph.name === 'coverage_lp' && ph.priority === rins.priority)).to.equal(false);
    const level = result.diagnostics.levels!.find((l) => l.name === 'coverage' && l.priority === rins.priority)!;
    expect(level).to.include({ proven: true, value: part.bound });
    // It is the first MIP the backend was asked for (before it: construction and LPs), and it
    // stops on a short stall window: a shortcut past the whole LP, which does the work otherwise.
    expect(
      phases.slice(0, i).every((ph) => ['greedy', 'augment', 'coverage_lp'].includes(ph.name)),
      JSON.stringify(phases),
    ).to.equal(true);
    const mip = sessions[calls.find((c) => !c.relaxation)!.session]!;
    expect(mip.requests.find((r) => r.relaxation !== true)!.stallIterations).to.equal(PART_RINS_STALL_ITERATIONS);
    // Its model: the free pairs and at most every column that is no pair.
    const [, free, pairs] = /the MIP over the (\d+) of (\d+) candidate pairs/.exec(String(rins.note))!;
    expect(mip.model.numCols).to.be.within(Number(free), Number(free) + result.diagnostics.variables - Number(pairs));
  });

  it('maps each of its x columns to the pair it stands for', () => {
    let pairs = 0;
    forEachPart(100, (part, p) => {
      const { sub } = p;
      const groupIndex = new Map(sub.groups.map((g, i) => [g, i]));
      part.pairs.forEach((pair, col) => {
        pairs++;
        const slot = sub.shifts[p.candShift[pair]!]!;
        expect(part.model.colNames[col]).to.equal(`x_v${sub.volunteers[p.candVolunteer[pair]!]!.index}_s${slot.index}_g${groupIndex.get(slot.group)}`);
      });
    });
    expect(pairs, 'pairs mapped').to.be.greaterThan(0);
  });
});
