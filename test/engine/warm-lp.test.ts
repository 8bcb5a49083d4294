// The coverage levels of several priority classes solve their LP relaxations in a session of LPs
// alone (ObjectiveLevel.warmLp, LevelRunner.lpSessionFor): each class's LP then starts from the
// basis of the class before's, on the same model. A spy around HiGHS checks that every class's LP
// goes there, that the session runs nothing but LPs and is gone before the levels after coverage,
// that every LP after the first asks for the primal simplex method (from the last optimum), and
// that each LP's optimum is the one a fresh session finds by HiGHS's default method, and that an
// LP from the class before's may take COVERAGE_WARM_LP_SHARE of the time left (every other LP
// LP_SHARE), and that the MIP of the whole of each class above the lowest has a stall window
// (COVERAGE_CLASS_STALL_ITERATIONS) that starts again at its root LP where that LP used it up (stallFromRoot), the lowest's none (a backend that rewrites requests checks
// the larger share's end after an LP that did not reach its optimum, and a MIP stopped by that
// window: no proof, no stop by the clock), and that it runs on a model without the pairs of the
// classes below (ObjectiveLevel.dropped), reaches the whole model's optimum, and gives back the
// assignments of those classes that still fit; that a class LP stopped early by the primal simplex
// method hands back its last point only when that point is feasible (not from a start in phase 1),
// and, where the subproblem has windows, they run before RINS from that point in the lowest class
// (windowsBeforeRins) and after it in a class above (mipFirstWithin); and that a class above the
// lowest that RINS leaves within COVERAGE_MIP_FIRST_WITHIN slots of its LP's bound runs its MIP of
// the whole before the windows, where one farther from it runs the windows first.
// And an LP's cap on simplex iterations
// (PhaseRequest.lpIterations), which the LP of the whole model after a level's windows takes
// (ObjectiveLevel.wholeAfterWindows): HiGHS stops there, the outcome says so and is no bound, the
// budget records no stop by the clock, and the cap holds for that solve only (the options stay on
// a HiGHS instance between solves).
import { expect } from 'chai';
import { Budget, LP_SHARE } from '../../src/engine/budget.js';
import {
  COVERAGE_CLASS_STALL_ITERATIONS,
  COVERAGE_MIP_FIRST_WITHIN,
  COVERAGE_RINS_STALL_ITERATIONS,
  COVERAGE_WARM_LP_SHARE,
  STALL_ITERATIONS,
  sum,
  WINDOW_PAIRS,
} from '../../src/engine/levels.js';
import { prepare } from '../../src/engine/candidates.js';
import { formulate } from '../../src/engine/formulate.js';
import { addFitting, checkAssignment, greedyFill } from '../../src/engine/greedy.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import type { Subproblem } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { festival, withRules } from '../../bench/generate.js';
import type { PhaseOutcome, PhaseRequest, SolverBackend } from '../../src/engine/backends/backend.js';
import { expectColdOptima, highsOnce, incumbentRecorder, largest, rewriting, scarceRequest, scarceWithRules, spy } from '../helpers/engine.js';

/**
 * scarceWithRules() solved with HiGHS (through `wrap`, if given), spied on, on a clock that stands
 * still: every phase's share is of the same time left, and nothing ends on the clock.
 */
async function frozenSolve(wrap: (highs: SolverBackend) => SolverBackend = (highs) => highs) {
  const { backend, sessions } = spy(wrap(await highsOnce()));
  const t0 = Date.now();
  const result = solveSubproblem(scarceWithRules(), { backend, budget: new Budget(t0 + 60_000, () => t0) });
  return { t0, result, sessions };
}

/** A solve answered as stopped with nothing found (no schedule, no bound). */
const NOTHING: PhaseOutcome = { status: 'timedout', objective: null, bound: null, gap: null, ms: 0 };

describe('engine: the LPs of the priority classes start from the class before; the stall windows of their MIPs; an LP capped by simplex iterations', function () {
  this.timeout(120_000);
  // The plain frozen-clock solve, which two tests read.
  let plain: ReturnType<typeof frozenSolve> | undefined;
  const plainSolve = (): ReturnType<typeof frozenSolve> => (plain ??= frozenSolve());

  it('go to one session of LPs alone, closed before staffing, each with the optimum of a fresh session', async () => {
    const sub = scarceWithRules();
    const highs = await highsOnce();
    const { backend, sessions, calls } = spy(highs);
    const result = solveSubproblem(sub, { backend, budget: Budget.forTimeLimit(60) });

    const lpPhases = result.diagnostics.phases.filter((ph) => ph.name === 'coverage_lp' && !ph.note?.startsWith('the LP of groups'));
    expect(lpPhases.length, 'coverage LPs of the classes').to.be.greaterThanOrEqual(2);
    // The session whose requests are all relaxations, asked once per class LP.
    const lpOnly = sessions.findIndex((s) => s.requests.length > 0 && s.requests.every((r) => r.relaxation === true) && s.requests.length === lpPhases.length);
    expect(lpOnly, 'a session of the class LPs alone').to.be.greaterThanOrEqual(0);
    const mine = sessions[lpOnly]!;
    // Diagnostics round objectives to 4 decimals.
    mine.outcomes.forEach((o, k) => expect(o.objective).to.be.closeTo(lpPhases[k]!.objective!, 1e-4));
    // The first from nothing (HiGHS's default), each later one by the primal simplex method from the last optimum.
    expect(mine.requests.map((r) => r.primal === true)).to.deep.equal(mine.requests.map((_, k) => k > 0));
    // Gone before any later level's call: every call after its disposal is on another session.
    expect(mine.disposedAfter).to.be.greaterThan(0);
    expect(calls.slice(mine.disposedAfter).every((c) => c.session !== lpOnly)).to.equal(true);
    expect(calls.length, 'levels after coverage ran').to.be.greaterThan(mine.disposedAfter);

    // Each LP, solved cold in a fresh session with the same objective and held rows: the same optimum.
    expectColdOptima(highs, mine);
  });

  it('from the class before, may take a larger share of the time left than the first class LP (COVERAGE_WARM_LP_SHARE)', async () => {
    const { t0, sessions } = await plainSolve();
    const mine = sessions.find((s) => s.requests.length > 1 && s.requests.every((r) => r.relaxation === true))!;
    expect(mine, 'the session of the class LPs').to.not.equal(undefined);
    const allowed = mine.requests.map((r) => r.budget.deadline - t0);
    const [cold, ...warm] = allowed;
    expect(warm.length).to.be.greaterThan(0);
    for (const ms of warm) expect(ms / cold!).to.be.closeTo(COVERAGE_WARM_LP_SHARE / LP_SHARE, 1e-9);
    expect(COVERAGE_WARM_LP_SHARE).to.be.greaterThan(LP_SHARE);
    // Every other LP (staffing's, fairness's) keeps LP_SHARE: the same time as the first class's.
    const others = sessions.filter((s) => s !== mine).flatMap((s) => s.requests.filter((r) => r.relaxation === true));
    expect(others.length).to.be.greaterThan(0);
    for (const r of others) expect(r.budget.deadline - t0).to.equal(cold);
  });

  it('the MIP of the whole of each class above the lowest ends on a stall window (COVERAGE_CLASS_STALL_ITERATIONS) that starts again at its root LP where that LP used it up (stallFromRoot), the lowest on none, RINS on its own', async () => {
    // Every MIP ends on its own (proven here), none on the clock.
    const { result, sessions } = await plainSolve();
    const mips = result.diagnostics.phases.filter((ph) => ph.name === 'coverage');
    expect(mips.map((ph) => ph.priority)).to.deep.equal([3, 2, 1]);
    // The classes above the lowest: each on a model of its own (without the pairs of the classes below), one request.
    const above = sessions.filter((s) => s.requests.some((r) => r.stallIterations === COVERAGE_CLASS_STALL_ITERATIONS));
    expect(above).to.have.length(2);
    for (const s of above) expect(s.requests.map((r) => [r.stallIterations, r.stallFromRoot])).to.deep.equal([[COVERAGE_CLASS_STALL_ITERATIONS, true]]);
    // The lowest class's on the whole model's session: no window.
    const lps = sessions.find((s) => s.requests.length === 3 && s.requests.every((r) => r.relaxation === true))!;
    const whole = sessions.filter((s) => s !== lps && s.model === lps.model);
    const lowest = whole.flatMap((s) => s.requests.filter((r) => r.relaxation !== true));
    expect(lowest.map((r) => [r.stallIterations, r.stallFromRoot])).to.deep.equal([[undefined, undefined]]);
    const rins = result.diagnostics.phases.filter((ph) => ph.name === 'coverage_rins');
    expect(rins.length).to.be.greaterThan(0);
    const rinsAsked = sessions.filter((s) => !above.includes(s)).flatMap((s) => s.requests.filter((r) => r.stallIterations === COVERAGE_RINS_STALL_ITERATIONS));
    expect(rinsAsked.length).to.be.at.least(rins.length);
    // RINS's window starts at its first iteration, as every window but these MIPs' does.
    expect(rinsAsked.every((r) => r.stallFromRoot === undefined)).to.equal(true);
  });

  it('the MIPs of a class above the lowest leave out the pairs of the classes below, and reach the optimum of the whole model (ObjectiveLevel.dropped)', async () => {
    const { result, sessions } = await plainSolve();
    const p = prepare(scarceWithRules());
    const nameOf = formulate(p).model.colNames;
    const lowerThan = (k: number): Set<string> => new Set(Array.from(p.candShift).flatMap((slot, pair) => (p.slotClass[slot]! > k ? [nameOf[pair]!] : [])));
    // The classes whose MIP of the whole ran (the higher ones were proven by their cheap bounds), as indexes into p.classes.
    const ran = result.diagnostics.phases.filter((ph) => ph.name === 'coverage').map((ph) => p.classes.indexOf(ph.priority!));
    expect(ran).to.have.length(3);
    expect(lowerThan(ran[0]!).size, 'pairs below the first class with a MIP').to.be.greaterThan(0);
    // The session of the class LPs is on the whole (coverage) model: one request per class, in order.
    const lps = sessions.find((s) => s.requests.length === 3 && s.requests.every((r) => r.relaxation === true))!;
    expect(lps.model.colNames.filter((n) => lowerThan(ran[0]!).has(n)).length, 'the whole model has them').to.equal(lowerThan(ran[0]!).size);
    const above = sessions.filter((s) => s.requests.some((r) => r.stallIterations === COVERAGE_CLASS_STALL_ITERATIONS));
    expect(above).to.have.length(2);
    const highs = await highsOnce();
    above.forEach((mip, i) => {
      const k = ran[i]!;
      // None of the pairs below; every pair of the class and the classes above (a window would fix some).
      const names = new Set(mip.model.colNames);
      expect(
        [...lowerThan(k)].filter((n) => names.has(n)),
        `class index ${k}: pairs below left out`,
      ).to.deep.equal([]);
      const mine = Array.from(p.candShift).flatMap((slot, pair) => (p.slotClass[slot]! <= k ? [nameOf[pair]!] : []));
      expect(
        mine.filter((n) => !names.has(n)),
        `class index ${k}: its own and those above in`,
      ).to.deep.equal([]);
      // Its optimum, proven, is the optimum of the same MIP on the whole model (its class LP's objective and held rows).
      expect(mip.outcomes[0]!.status).to.equal('optimal');
      const fresh = highs.open(lps.model);
      try {
        const { objective, rowBounds } = lps.requests[i]!;
        const full = fresh.solve({ objective, rowBounds, absGap: 0, relGap: 0, budget: Budget.forTimeLimit(60) });
        expect(full.status).to.equal('optimal');
        expect(full.objective).to.be.closeTo(mip.outcomes[0]!.objective!, 1e-6);
      } finally {
        fresh.dispose();
      }
    });
    // The phases say what they left out; the lowest class's leave nothing out.
    const notes = result.diagnostics.phases.filter((ph) => ph.name.startsWith('coverage') && ph.name !== 'coverage_lp');
    expect(notes.filter((ph) => ph.priority !== 1 && ph.name === 'coverage').every((ph) => /pairs of the classes below left out/.test(ph.note ?? ''))).to.equal(
      true,
    );
    expect(notes.filter((ph) => ph.priority === 1).some((ph) => /left out/.test(ph.note ?? ''))).to.equal(false);
  });

  it("a class MIP's schedule gets back the assignments of the classes below that still fit, then the greedy fill", async () => {
    const sub = scarceWithRules();
    const p = prepare(sub);
    const pairOf = new Map(
      formulate(p)
        .model.colNames.slice(0, p.candShift.length)
        .map((name, pair) => [name, pair]),
    );
    // RINS and the windows find nothing, so the class MIP starts below its optimum; the spy records its schedule.
    const nothing = (req: PhaseRequest): PhaseRequest | PhaseOutcome =>
      req.relaxation !== true && (req.stallIterations === COVERAGE_RINS_STALL_ITERATIONS || req.stallIterations === STALL_ITERATIONS) ? NOTHING : req;
    const { backend, sessions } = spy(rewriting(await highsOnce(), nothing));
    const { incumbents, onIncumbent } = incumbentRecorder(sub, p);
    const t0 = Date.now();
    const result = solveSubproblem(sub, { backend, budget: new Budget(t0 + 60_000, () => t0), onIncumbent });
    const mipSession = sessions.find((o) => o.requests.some((r) => r.stallIterations === COVERAGE_CLASS_STALL_ITERATIONS))!;
    const mip = { names: mipSession.model.colNames, values: mipSession.outcomes[0]!.values };
    expect(mip.values, 'the first class MIP above the lowest gave a schedule').to.not.equal(undefined);
    const first = result.diagnostics.phases.find((ph) => ph.name === 'coverage')!;
    const k = p.classes.indexOf(first.priority!);
    // The MIP's schedule, taken: the incumbent after it, and the schedule before it.
    const at = incumbents.findIndex((inc) => inc.phase === 'coverage');
    expect(at, 'the MIP found a better schedule').to.be.greaterThan(0);
    const before = incumbents[at - 1]!.x;
    const mipX = new Uint8Array(p.candShift.length);
    mip.names.forEach((name, col) => {
      const pair = pairOf.get(name);
      if (pair !== undefined && mip.values![col]! > 0.5) mipX[pair] = 1;
    });
    const below = (x: Uint8Array): Uint8Array => x.map((b, pair) => (b && p.slotClass[p.candShift[pair]!]! > k ? 1 : 0));
    expect(sum(below(mipX)), 'the MIP has no pair of the classes below').to.equal(0);
    expect(sum(below(before)), 'the schedule before had some').to.be.greaterThan(0);
    const expected = greedyFill(p, addFitting(p, mipX, below(before)));
    expect(Array.from(incumbents[at]!.x)).to.deep.equal(Array.from(expected));
    // Not what the greedy fill alone would give: the assignments kept matter.
    expect(Array.from(greedyFill(p, mipX))).to.not.deep.equal(Array.from(expected));
  });

  it("keep the previous assignments' pairs of the classes below in their model (they carry the bias)", async () => {
    // Previous assignments on eight pairs of the lowest class, of eight volunteers.
    const request = scarceRequest();
    const problem = normalizeRequest(request);
    const sub = largest(request);
    const p = prepare(sub);
    const lowest = p.classes.length - 1;
    const chosen: number[] = [];
    p.candShift.forEach((slot, pair) => {
      if (chosen.length < 8 && p.slotClass[slot] === lowest && !chosen.some((c) => p.candVolunteer[c] === p.candVolunteer[pair])) chosen.push(pair);
    });
    expect(chosen).to.have.length(8);
    const previous = chosen.map((pair) => ({
      shift_id: problem.shifts[sub.shifts[p.candShift[pair]!]!.index]!.id,
      volunteer_id: sub.volunteers[p.candVolunteer[pair]!]!.id,
    }));
    const replanned = largest({ ...request, previous_assignments: previous });
    const q = prepare(replanned);
    const f = formulate(q);
    const names = f.model.colNames;
    const biased = names.slice(0, q.candShift.length).filter((_, pair) => (f.wishes.previousBias?.[pair] ?? 0) > 0);
    expect(biased.length, 'the previous pairs carry the bias').to.equal(8);
    const { backend, sessions } = spy(await highsOnce());
    const t0 = Date.now();
    const result = solveSubproblem(replanned, { backend, budget: new Budget(t0 + 60_000, () => t0) });
    const above = sessions.filter((s) => s.requests.some((r) => r.stallIterations === COVERAGE_CLASS_STALL_ITERATIONS));
    expect(above.length).to.be.greaterThan(0);
    const lowerOut = (model: { colNames: string[] }): number => {
      const inModel = new Set(model.colNames);
      return Array.from(q.candShift).filter((slot, pair) => q.slotClass[slot] === lowest && !inModel.has(names[pair]!)).length;
    };
    for (const mip of above) {
      const inModel = new Set(mip.model.colNames);
      expect(
        biased.filter((n) => !inModel.has(n)),
        'previous pairs left out',
      ).to.deep.equal([]);
      // The lowest class's other pairs are out.
      expect(lowerOut(mip.model)).to.equal(Array.from(q.candShift).filter((slot) => q.slotClass[slot] === lowest).length - 8);
    }
    expect(result.diagnostics.phases.some((ph) => ph.name === 'coverage' && /pairs of the classes below left out/.test(ph.note ?? ''))).to.equal(true);
  });

  it('addFitting adds the wanted pairs that still fit, in pair order, and keeps the start', () => {
    const p = prepare(scarceWithRules());
    const all = new Uint8Array(p.candShift.length).fill(1);
    // Every pair wanted from nothing: a feasible schedule, each pair left out for a reason.
    const x = addFitting(p, new Uint8Array(p.candShift.length), all);
    expect(checkAssignment(p, x)).to.equal(undefined);
    expect(sum(x)).to.be.greaterThan(0);
    const added = greedyFill(p, x);
    // In pair order, nothing wanted that fits is left: the greedy fill finds nothing to add.
    expect(sum(added)).to.equal(sum(x));
    // A start is kept: the greedy schedule with every pair wanted is itself plus what fits.
    const start = greedyFill(p);
    const kept = addFitting(p, start, all);
    start.forEach((b, pair) => b && expect(kept[pair], `pair ${pair} kept`).to.equal(1));
    expect(checkAssignment(p, kept)).to.equal(undefined);
  });

  it('after a class LP that did not reach its optimum, the next class LP has LP_SHARE again', async () => {
    // The first LP from the class before's (primal) is answered as stopped by the clock.
    let stopped = false;
    const stopFirstWarm = (req: PhaseRequest): PhaseRequest | PhaseOutcome => {
      if (req.relaxation !== true || req.primal !== true || stopped) return req;
      stopped = true;
      return NOTHING;
    };
    const { t0, result, sessions } = await frozenSolve((highs) => rewriting(highs, stopFirstWarm));
    expect(stopped).to.equal(true);
    const lps = result.diagnostics.phases.filter((ph) => ph.name === 'coverage_lp');
    expect(lps.map((ph) => ph.status)).to.deep.equal(['optimal', 'timedout', 'optimal']);
    const mine = sessions.find((s) => s.requests.length > 1 && s.requests.every((r) => r.relaxation === true))!;
    const allowed = mine.requests.map((r) => r.budget.deadline - t0);
    expect(allowed).to.have.length(3);
    expect(allowed[1]! / allowed[0]!).to.be.closeTo(COVERAGE_WARM_LP_SHARE / LP_SHARE, 1e-9);
    expect(allowed[2]).to.equal(allowed[0]);
  });

  it('a class MIP stopped by its stall window is no proof and no stop by the clock, and the classes below run', async () => {
    const sub = scarceWithRules();
    const highs = await highsOnce();
    // A window of one LP iteration: HiGHS stops the class MIPs above the lowest at their first report.
    const oneIteration = (req: PhaseRequest): PhaseRequest => (req.stallIterations === COVERAGE_CLASS_STALL_ITERATIONS ? { ...req, stallIterations: 1 } : req);
    const result = solveSubproblem(sub, { backend: rewriting(highs, oneIteration), budget: Budget.forTimeLimit(60) });
    expect(result.diagnostics.time_limited).to.equal(false);
    const mips = result.diagnostics.phases.filter((ph) => ph.name === 'coverage');
    expect(mips.map((ph) => ph.priority)).to.deep.equal([3, 2, 1]);
    expect(mips[0]!.status).to.equal('feasible');
    const levels = (result.diagnostics.levels ?? []).filter((l) => l.name === 'coverage');
    expect(levels.find((l) => l.priority === 3)).to.include({ proven: false });
    // The lowest class's MIP has no window: it proves its class.
    expect(mips[2]!.status).to.equal('optimal');
  });

  it('by the primal simplex method and stopped before its optimum, gives its last point, which is feasible, and RINS runs from it', async () => {
    // The first LP from the class before's is capped at 3 simplex iterations.
    let capped = false;
    const capFirstWarm = (req: PhaseRequest): PhaseRequest => {
      if (req.relaxation !== true || req.primal !== true || capped) return req;
      capped = true;
      return { ...req, lpIterations: 3 };
    };
    const { result, sessions } = await frozenSolve((highs) => rewriting(highs, capFirstWarm));
    expect(capped).to.equal(true);
    const lps = sessions.find((s) => s.requests.length > 1 && s.requests.every((r) => r.relaxation === true))!;
    const out = lps.outcomes[1]!;
    expect(out.status).to.equal('timedout');
    expect(out.objective).to.equal(null);
    expect(out.bound).to.equal(null);
    expect(out.relaxed, 'its last point').to.not.equal(undefined);
    // Feasible: within every column's bounds and every row's, the held rows too.
    const { model } = lps;
    const x = out.relaxed!;
    model.colLower.forEach((lo, j) => expect(x[j]! >= lo - 1e-7 && x[j]! <= model.colUpper[j]! + 1e-7, `column ${j}`).to.equal(true));
    const held = lps.requests[1]!.rowBounds;
    for (let r = 0; r < model.numRows; r++) {
      let activity = 0;
      for (let e = model.rowStarts[r]!; e < model.rowStarts[r + 1]!; e++) activity += model.values[e]! * x[model.indices[e]!]!;
      const [lo, hi] = held.get(r) ?? [model.rowLower[r]!, model.rowUpper[r]!];
      expect(activity >= lo - 1e-6 && activity <= hi + 1e-6, `row ${r}: ${activity} in [${lo}, ${hi}]`).to.equal(true);
    }
    // The class's phases: its LP stopped, RINS from that point, no MIP (and no windows: the
    // subproblem has fewer than WINDOW_PAIRS pairs; the tests below have windows).
    const second = result.diagnostics.phases.filter((ph) => ph.priority === result.diagnostics.phases.filter((p) => p.name === 'coverage_lp')[1]!.priority);
    const at = second.findIndex((ph) => ph.name === 'coverage_lp');
    expect(second[at]!.status).to.equal('timedout');
    expect(second.slice(at + 1).map((ph) => ph.name)).to.deep.equal(['coverage_rins', 'coverage']);
    expect(second[at + 1]!.note).to.match(/where the last point of the LP, stopped before its optimum, and the schedule disagree/);
    expect(second[at + 2]!.status).to.equal('skipped');
  });

  /** A subproblem of four priority classes with windows to solve (more candidate pairs than a window holds). */
  const withWindows = (): Subproblem => {
    const sub = largest(
      withRules(33, festival({ seed: 34, volunteers: 90, shifts: 160, days: 2, groups: 2, demand: 1.5 }), {
        minRestHours: 8,
        timezone: 'Europe/Berlin',
        firstDay: Date.UTC(2026, 5, 5),
        days: 2,
        utcShift: -2,
      }),
    );
    expect(prepare(sub).candShift.length, 'windows to solve').to.be.greaterThan(WINDOW_PAIRS);
    return sub;
  };
  /** withWindows() solved on a frozen clock with HiGHS through `change`; its phases of the class whose LP is the `nth` from the class before (1: the second class). */
  const classPhases = async (change: Parameters<typeof rewriting>[1], nth: number) => {
    const t0 = Date.now();
    const result = solveSubproblem(withWindows(), { backend: rewriting(await highsOnce(), change), budget: new Budget(t0 + 60_000, () => t0) });
    const phases = result.diagnostics.phases;
    const priorities = phases.filter((p) => p.name === 'coverage_lp').map((p) => p.priority);
    return { phases: phases.filter((ph) => ph.priority === priorities[nth]), lowest: nth === priorities.length - 1 };
  };
  /** Caps the `nth` class LP from the class before (by the primal simplex method) at 3 simplex iterations. */
  const capWarm = (nth: number) => {
    let warm = 0;
    return (req: PhaseRequest): PhaseRequest => (req.relaxation === true && req.primal === true && ++warm === nth ? { ...req, lpIterations: 3 } : req);
  };

  /**
   * With the `nth` class LP from the class before capped: that class's LP ends `timedout`, then its
   * phases are `order`, RINS from the LP's last point and the MIP skipped.
   */
  const afterCappedLp = async (nth: number, lowest: boolean, order: string[]): Promise<void> => {
    const got = await classPhases(capWarm(nth), nth);
    expect(got.lowest).to.equal(lowest);
    const at = got.phases.findIndex((ph) => ph.name === 'coverage_lp');
    expect(got.phases[at]!.status).to.equal('timedout');
    const after = got.phases.slice(at + 1);
    expect(after.map((ph) => ph.name)).to.deep.equal(order, JSON.stringify(got.phases));
    expect(after.find((ph) => ph.name === 'coverage_rins')!.note).to.match(
      /where the last point of the LP, stopped before its optimum, and the schedule disagree/,
    );
    expect(after.find((ph) => ph.name === 'coverage')!.status).to.equal('skipped');
  };

  it('stopped before its optimum with a last point, in the lowest class, is followed by the windows, then RINS from that point, and no windows after it (windowsBeforeRins)', async () => {
    await afterCappedLp(3, true, ['coverage_lns', 'coverage_rins', 'coverage']);
  });

  it('stopped before its optimum with a last point, in a class above the lowest, is followed by RINS from that point, then the windows (mipFirstWithin)', async () => {
    await afterCappedLp(1, false, ['coverage_rins', 'coverage', 'coverage_lns']);
  });

  it(`in a class above the lowest that RINS leaves within COVERAGE_MIP_FIRST_WITHIN (${COVERAGE_MIP_FIRST_WITHIN}) slots of its LP's bound, the MIP of the whole runs before the windows, which follow it where it leaves the class unproven; farther from it, the windows first`, async () => {
    // As solved: RINS leaves the class short of its bound (a slot short, as measured), and its MIP of the whole follows at once and proves the bound.
    const near = (await classPhases((req) => req, 1)).phases;
    const rinsAt = near.findIndex((ph) => ph.name === 'coverage_rins');
    const lp = near.find((ph) => ph.name === 'coverage_lp')!;
    expect(lp.status).to.equal('optimal');
    const lpBound = Math.floor(lp.objective! + 1e-6);
    const short = lpBound - near[rinsAt]!.objective!;
    expect(short, JSON.stringify(near)).to.be.within(1, COVERAGE_MIP_FIRST_WITHIN);
    expect(near.slice(rinsAt + 1).map((ph) => ph.name)).to.deep.equal(['coverage'], JSON.stringify(near));
    expect(near[rinsAt + 1]!.status).to.equal('optimal');
    // RINS finding nothing leaves the class farther from its bound than that: the windows run first and reach the bound, so no MIP follows.
    // The `nth` solve with this stall window is answered by nothing (RINS's: COVERAGE_RINS_STALL_ITERATIONS; a class MIP's: COVERAGE_CLASS_STALL_ITERATIONS).
    const nothingAt = (stallIterations: number, nth: number) => {
      let seen = 0;
      const change = (req: PhaseRequest): PhaseRequest | PhaseOutcome => (req.stallIterations === stallIterations && ++seen === nth ? NOTHING : req);
      return { change, seen: () => seen };
    };
    const far = (await classPhases(nothingAt(COVERAGE_RINS_STALL_ITERATIONS, 2).change, 1)).phases;
    const farRins = far.findIndex((ph) => ph.name === 'coverage_rins');
    expect(lpBound - far[farRins]!.objective!, JSON.stringify(far)).to.be.greaterThan(COVERAGE_MIP_FIRST_WITHIN);
    expect(
      far.slice(farRins + 1).map((ph) => ph.name),
      JSON.stringify(far),
    ).to.deep.equal(['coverage_lns']);
    expect(far[farRins + 1]!.objective).to.equal(lpBound);
    // Near the bound, a MIP first that leaves the class unproven (here: stopped with nothing) is followed by the windows.
    const noMip = nothingAt(COVERAGE_CLASS_STALL_ITERATIONS, 1);
    const unproven = (await classPhases(noMip.change, 1)).phases;
    expect(noMip.seen(), 'the class MIPs asked for').to.be.greaterThan(0);
    const after = unproven.slice(unproven.findIndex((ph) => ph.name === 'coverage_rins') + 1);
    expect(
      after.map((ph) => ph.name),
      JSON.stringify(unproven),
    ).to.deep.equal(['coverage', 'coverage_lns']);
    expect(after[1]!.objective).to.be.at.least(unproven.find((ph) => ph.name === 'coverage_rins')!.objective!);
  });

  it('by the primal simplex method from a start that breaks a row (phase 1), stopped there, gives no point; run to its end, its optimum', async () => {
    // A class LP the engine solved from the class before's optimum: its held row asks for the
    // class before's count. A fresh session starts from no basis (every column at 0), which
    // breaks that row, and 3 simplex iterations cannot mend it.
    const highs = await highsOnce();
    const { backend, sessions } = spy(highs);
    solveSubproblem(scarceWithRules(), { backend, budget: Budget.forTimeLimit(60) });
    const lps = sessions.find((s) => s.requests.length > 1 && s.requests.every((r) => r.relaxation === true))!;
    const req = lps.requests[1]!;
    expect(req.primal, 'asked for the primal simplex method').to.equal(true);
    const heldAboveZero = [...req.rowBounds.values()].some(([lo]) => lo >= 4);
    expect(heldAboveZero, 'a held row no start at 0 meets in 3 iterations').to.equal(true);
    const session = highs.open(lps.model);
    try {
      const stopped = session.solve({ ...req, lpIterations: 3, budget: Budget.forTimeLimit(60) });
      expect(stopped.status).to.equal('timedout');
      expect(stopped.bound).to.equal(null);
      expect(stopped.relaxed, 'no point: the last one breaks a row').to.equal(undefined);
      const whole = session.solve({ ...req, budget: Budget.forTimeLimit(60) });
      expect(whole.status).to.equal('optimal');
      expect(whole.objective).to.be.closeTo(lps.outcomes[1]!.objective!, 1e-6);
      expect(whole.relaxed, 'its optimum').to.not.equal(undefined);
    } finally {
      session.dispose();
    }
  });

  it('capped by simplex iterations, stops at the cap, not by the clock, with no bound and a message; the next solve on the instance has no cap', async () => {
    const sub = scarceWithRules();
    const highs = await highsOnce();
    const { backend, sessions } = spy(highs);
    solveSubproblem(sub, { backend, budget: Budget.forTimeLimit(60) });
    // A coverage LP of the subproblem, as the engine asked for it.
    const asked = sessions
      .flatMap((s) => s.requests.map((req, k) => ({ model: s.model, req, out: s.outcomes[k]! })))
      .find((r) => r.req.relaxation === true && r.out.status === 'optimal');
    expect(asked, 'an LP the engine solved').to.not.equal(undefined);
    const { model, req, out } = asked!;

    const session = highs.open(model);
    try {
      const budget = Budget.forTimeLimit(60);
      const capped = session.solve({ ...req, primal: false, lpIterations: 3, budget });
      expect(capped.status).to.equal('timedout');
      expect(capped.objective).to.equal(null);
      expect(capped.bound).to.equal(null);
      expect(capped.message).to.equal('stopped at its cap of 3 simplex iterations, not by the clock');
      // Not asked for the primal simplex method: no point given short of the optimum.
      expect(capped.relaxed).to.equal(undefined);
      expect(budget.timeLimited(), 'no stop by the clock recorded').to.equal(false);

      const again = session.solve({ ...req, primal: false, budget: Budget.forTimeLimit(60) });
      expect(again.status).to.equal('optimal');
      expect(again.objective).to.be.closeTo(out.objective!, 1e-6);
      expect(again.message).to.equal(undefined);
    } finally {
      session.dispose();
    }
  });
});
