// The packing bound on the fairness objective (packing-bound.ts): the LP over each volunteer's
// configurations of shift lengths, solved by column generation. It must never be above the least
// sum of squared hours an exhaustive search finds (whether its rounds converged or were cut
// short), never below the water-filling bound once converged, and it must prove a schedule that
// water-filling cannot (hours come in shift lengths).
import { expect } from 'chai';
import fc from 'fast-check';
import { highsBackend, loadHighs } from '../../src/engine/backends/highs-backend.js';
import type { SolverBackend } from '../../src/engine/backends/backend.js';
import { Budget } from '../../src/engine/budget.js';
import { loadsOf, prepare } from '../../src/engine/candidates.js';
import { fairnessPieceShapes, formulate, hourGrid, linesThrough, piecesValue } from '../../src/engine/formulate.js';
import { greedyFill } from '../../src/engine/greedy.js';
import { fairnessLowerBound } from '../../src/engine/levels.js';
import { PACKING_ROUNDS, PACKING_WORK, packingBound } from '../../src/engine/packing-bound.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import { decompose } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import type { ScheduleRequest } from '../../src/types/schema-types.js';
import { festival, generatedInstance } from '../../bench/generate.js';
import { bestLevels, compareLevels, filledByPriority, levelsOfResult, tinyRequests } from '../helpers/exhaustive.js';
import { softGoals } from '../../src/engine/soft-goals.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { shift, solve, volunteer, type Json } from '../helpers/engine.js';

interface Phase {
  name: string;
  status: string;
  bound: number | null;
  note?: string;
}
interface Sub {
  levels?: Array<{ name: string; value: number; bound: number; proven: boolean }>;
  phases: Phase[];
}

const budget = (): Budget => new Budget(Date.now() + 60_000);

/** A result's roster as a 0/1 vector over a subproblem's candidate pairs. */
function scheduleOf(p: ReturnType<typeof prepare>, result: Json): Uint8Array {
  const roster = new Set((result.roster as Json[]).map((e) => `${e.volunteer_id}|${e.shift_id}|${e.group}`));
  return Uint8Array.from({ length: p.candShift.length }, (_, pair) => {
    const s = p.sub.shifts[p.candShift[pair]!]!;
    return roster.has(`${p.sub.volunteers[p.candVolunteer[pair]!]!.id}|${s.id}|${s.group}`) ? 1 : 0;
  });
}

/**
 * Each subproblem of `request` with `result`'s schedule over it, and its model as the engine
 * builds it around the greedy fill's loads: its pieces are coarse past them, and below the squares
 * there (formulate.ts linesThrough), so the bounds on them bound the squares of any schedule.
 */
function subproblemsOf(request: Json, result: Json): Array<{ p: ReturnType<typeof prepare>; x: Uint8Array; f: ReturnType<typeof formulate> }> {
  return decompose(normalizeRequest(request as ScheduleRequest)).map((sub) => {
    const p = prepare(sub);
    return { p, x: scheduleOf(p, result), f: formulate(p, loadsOf(p, greedyFill(p))) };
  });
}

/** Each volunteer's load (hours) priced by their pieces, summed: what the packing bound's LP prices. */
function pricedLoads(f: ReturnType<typeof formulate>, load: Float64Array): number {
  let priced = 0;
  f.pieces.forEach((shape, v) => shape.slopes.length > 0 && (priced += piecesValue(shape, load[v]!)));
  return priced;
}

/**
 * The LP by slot read as pairs (PackingOutcome.pairs) is a fractional schedule within the LP's
 * rows: each value in [0, 1], each slot kind's at most its open slots, each class's at least what
 * schedule `x` fills of it (the rows hold it); and its loads priced by the pieces cost at most
 * the LP's objective `lp` (each volunteer's load is the mean of their kind's configurations
 * weighted by the LP, and the price is convex).
 */
function checkPairs(p: ReturnType<typeof prepare>, f: ReturnType<typeof formulate>, x: Uint8Array, pairs: Float64Array, lp: number): void {
  expect(pairs).to.have.length(p.candShift.length);
  const bySlot = new Float64Array(p.sub.shifts.length);
  const byClass = new Float64Array(p.classes.length);
  const filled = new Float64Array(p.classes.length);
  pairs.forEach((y, pair) => {
    expect(y).to.be.within(0, 1);
    const s = p.candShift[pair]!;
    bySlot[s]! += y;
    byClass[p.slotClass[s]!]! += y;
    filled[p.slotClass[s]!]! += x[pair]!;
  });
  bySlot.forEach((taken, s) => expect(taken).to.be.at.most(Math.min(p.demand[s]!, p.byShift[s]!.length) + 1e-6));
  byClass.forEach((taken, c) => expect(taken).to.be.at.least(filled[c]! - 1e-6));
  const load = Float64Array.from(p.lockedHours);
  pairs.forEach((y, pair) => (load[p.candVolunteer[pair]!]! += y * p.sub.shifts[p.candShift[pair]!]!.hours));
  const priced = pricedLoads(f, load);
  expect(priced, JSON.stringify({ priced, lp })).to.be.at.most(lp + 1e-6 * Math.max(1, lp));
}

/**
 * The schedule an integral LP by slot describes (PackingOutcome.schedule) is that LP's solution:
 * 0/1, each shift taking as many of its slots as the LP read as pairs gives it (each kind's
 * configurations handed to its volunteers), every pair of a shift without open slots as in `x`,
 * and its loads priced by the pieces exactly at the LP's objective `lp`.
 */
function checkLpSchedule(
  p: ReturnType<typeof prepare>,
  f: ReturnType<typeof formulate>,
  x: Uint8Array,
  pairs: Float64Array,
  schedule: Uint8Array,
  lp: number,
): void {
  expect(schedule).to.have.length(p.candShift.length);
  const fromPairs = new Float64Array(p.sub.shifts.length);
  const taken = new Float64Array(p.sub.shifts.length);
  const load = Float64Array.from(p.lockedHours);
  schedule.forEach((y, pair) => {
    expect(y === 0 || y === 1).to.equal(true);
    const s = p.candShift[pair]!;
    if (Math.min(p.demand[s]!, p.byShift[s]!.length) <= 0) expect(y).to.equal(x[pair]);
    fromPairs[s]! += pairs[pair]!;
    taken[s]! += y;
    load[p.candVolunteer[pair]!]! += y * p.sub.shifts[s]!.hours;
  });
  taken.forEach((n, s) => expect(n, `shift ${s}`).to.be.closeTo(fromPairs[s]!, 1e-6));
  const priced = pricedLoads(f, load);
  expect(priced, JSON.stringify({ priced, lp })).to.be.closeTo(lp, 1e-6 * Math.max(1, lp));
}

describe('engine: the packing bound on fairness (hours in shift lengths)', function () {
  this.timeout(120_000);
  let highs: SolverBackend;
  before(async () => {
    highs = highsBackend(await loadHighs());
  });

  it('prices hours as the model does: the squares where anchors are one grid step apart, below them between farther anchors, the last slope past the end', () => {
    // Anchors one hour apart on a grid of one hour: the chords, exact at every whole hour.
    const fine = linesThrough([0, 1, 2, 3], 1);
    expect(fine).to.deep.equal({ breakpoints: [0, 1, 2, 3], slopes: [1, 3, 5] });
    expect(piecesValue(fine, 0)).to.equal(0);
    expect(piecesValue(fine, 2)).to.equal(4);
    expect(piecesValue(fine, 2.5)).to.equal(1 + 3 + 2.5);
    expect(piecesValue(fine, 3)).to.equal(9);
    expect(piecesValue(fine, 4)).to.equal(9 + 5);
    // Anchors 0, 2, 6: the lines through the squares of 0 and 1, and of 2 and 3, meeting at 1.5.
    const coarse = linesThrough([0, 2, 6], 1);
    expect(coarse).to.deep.equal({ breakpoints: [0, 1.5, 6], slopes: [1, 5] });
    expect([0, 1, 2, 3, 4, 5, 6].map((h) => piecesValue(coarse, h))).to.deep.equal([0, 1, 4, 9, 14, 19, 24]);
    // A chord from 2 to 6 would price 4 hours at 4 + 8 * 2 = 20, above its square: no bound on it would bound the squares.
  });

  it('never prices a load on the grid above its square, and exactly at each anchor and one grid step past it (random anchors)', () => {
    fc.assert(
      fc.property(fc.constantFrom(0.25, 0.5, 1, 2), fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 12 }), (grid, gaps) => {
        const anchors = [0];
        for (const g of gaps) anchors.push(anchors[anchors.length - 1]! + g * grid);
        const shape = linesThrough(anchors, grid);
        // Slopes increase: the LP fills the pieces in order, so its price is this function's.
        shape.slopes.forEach((slope, k) => k > 0 && expect(slope).to.be.above(shape.slopes[k - 1]!));
        const top = anchors[anchors.length - 1]!;
        for (let h = 0; h <= top + 1e-9; h += grid) expect(piecesValue(shape, h)).to.be.at.most(h * h + 1e-9);
        for (const a of anchors.slice(0, -1)) {
          expect(piecesValue(shape, a)).to.be.closeTo(a * a, 1e-9);
          expect(piecesValue(shape, a + grid)).to.be.closeTo((a + grid) ** 2, 1e-9);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('proves 6, 3 and 2 hours optimal where water-filling says 4, 4 and 3: no fairness LP or MIP runs', async () => {
    // Three shifts of one group, none overlapping: 6 h, 3 h, 2 h; three volunteers. Water-filling
    // gives 41 (11 hours as 4 + 4 + 3), but whoever takes the 6-hour shift has 6 hours or more:
    // the best is 36 + 9 + 4 = 49, which the packing bound proves.
    const request = {
      volunteers: [volunteer('a', 'k', 999), volunteer('b', 'k', 999), volunteer('c', 'k', 999)],
      unassigned_shifts: [shift('long', 8, 14, { k: 1 }), shift('mid', 14, 17, { k: 1 }), shift('short', 17, 19, { k: 1 })],
    };
    const { result } = await solve(request, { debug: 'true' });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    expect(result.summary.sum_squared_hours).to.equal(49);
    const [sub] = result.diagnostics.subproblems as Sub[];
    const fairness = sub!.levels!.find((l) => l.name === 'fairness')!;
    expect(fairness.bound).to.equal(49);
    expect(fairness.proven).to.equal(true);
    const names = sub!.phases.map((p) => p.name);
    expect(names).to.include('fairness_bound');
    expect(names).to.not.include('fairness_lp');
    expect(names).to.not.include('fairness');
    const packing = sub!.phases.find((p) => p.name === 'fairness_bound')!;
    expect(packing.status).to.equal('optimal');
    const balance = sub!.phases.find((p) => p.name === 'balance')!;
    expect(balance.bound).to.equal(41);
  });

  it('is never above the exhaustive optimum, converged or cut after one round, and never below water-filling once converged (random tiny instances)', () => {
    let converged = 0;
    let above = 0;
    let tighter = 0;
    fc.assert(
      fc.property(tinyRequests(5, 6, { rules: false }), (request) => {
        const best = bestLevels(request);
        let total = 0;
        let bySlotTotal = 0;
        for (const sub of decompose(normalizeRequest(request as ScheduleRequest))) {
          const p = prepare(sub);
          const x = greedyFill(p);
          // Built as the engine builds it: coarse pieces past greedy's loads, below the squares there.
          const f = formulate(p, loadsOf(p, x));
          const full = packingBound(p, f, x, highs, budget());
          const one = packingBound(p, f, x, highs, budget(), { rounds: 1, work: Infinity });
          // Priced by counts per slot kind only (overlaps ignored): a looser relaxation, so never a higher bound.
          const counts = packingBound(p, f, x, highs, budget(), { rounds: 80, work: Infinity, timelineCells: 0 });
          // By slot: each shift's open slots a row of their own, a restriction of the LP by kind of slot.
          const bySlot = packingBound(p, f, x, highs, budget(), { rounds: 200, work: Infinity, bySlot: true });
          if (!full) continue;
          if (full.converged && bySlot?.converged) expect(bySlot.bound).to.be.at.least(full.bound - 1e-6);
          bySlotTotal += bySlot?.bound ?? 0;
          if (full.converged && counts?.converged) expect(counts.bound).to.be.at.most(full.bound + 1e-6);
          if (counts?.converged && counts.bound < full.bound - 1e-6) tighter++;
          expect(one, 'one round gives a bound too').to.not.equal(undefined);
          expect(one!.bound).to.be.at.most(full.bound + 1e-6);
          if (full.converged) {
            converged++;
            // With greedy's filled slots (at most the optimum's, one priority class here).
            let filled = 0;
            x.forEach((b) => (filled += b));
            const water = fairnessLowerBound(p, f, filled);
            expect(full.bound, JSON.stringify({ water, packing: full.bound })).to.be.at.least(water - 1e-6);
            if (full.bound > water + 1e-6) above++;
          }
          total += full.bound;
        }
        // Greedy fills no more than the optimum (one class): the optimum's schedule is one the bound covers.
        expect(total, JSON.stringify({ bound: total, best: best.squares })).to.be.at.most(best.squares + 1e-6);
        expect(bySlotTotal, JSON.stringify({ bySlot: bySlotTotal, best: best.squares })).to.be.at.most(best.squares + 1e-6);
      }),
      { numRuns: 150 },
    );
    expect(converged, 'runs where column generation converged').to.be.greaterThan(50);
    expect(above, 'runs where it beat water-filling').to.be.greaterThan(0);
    expect(tighter, 'runs where the timeline (no overlaps) gave more than counts alone').to.be.greaterThan(0);
  });

  it('with the rules (groups joined, priorities, availability, caps), by slot and with staffing held: never above the exhaustive optimum, from the engine’s own schedule', async () => {
    let priced = 0;
    let staffedRows = 0;
    let pairsChecked = 0;
    let schedulesChecked = 0;
    await fc.assert(
      fc.asyncProperty(tinyRequests(5, 5, { rules: true }), async (request) => {
        const best = bestLevels(request);
        const { result } = await solve(request);
        // The engine proves coverage on instances this small: its schedule fills each class as the
        // optimum does, so the optimum is a schedule the bounds cover (staffing held at the engine's
        // count, at most the optimum's).
        expect(filledByPriority(request, result)).to.deep.equal(best.filled);
        let total = 0;
        let slotTotal = 0;
        let staffedTotal = 0;
        for (const { p, x, f } of subproblemsOf(request, result)) {
          const bound = packingBound(p, f, x, highs, budget());
          if (!bound) continue;
          const bySlot = packingBound(p, f, x, highs, budget(), { rounds: 200, work: Infinity, bySlot: true });
          const staffed = packingBound(p, f, x, highs, budget(), { rounds: 200, work: Infinity, bySlot: true, staffing: true });
          priced++;
          total += bound.bound;
          slotTotal += bySlot?.bound ?? 0;
          staffedTotal += staffed?.bound ?? 0;
          if (staffed?.staffing) staffedRows++;
          if (staffed) {
            checkPairs(p, f, x, staffed.pairs!, staffed.lp!);
            pairsChecked++;
            if (staffed.schedule) {
              checkLpSchedule(p, f, x, staffed.pairs!, staffed.schedule, staffed.lp!);
              schedulesChecked++;
            }
          }
          if (bound.converged && bySlot?.converged) expect(bySlot.bound).to.be.at.least(bound.bound - 1e-6);
          // Staffing's rows only restrict the LP further.
          if (bySlot?.converged && staffed?.converged) expect(staffed.bound).to.be.at.least(bySlot.bound - 1e-6);
        }
        expect(total, JSON.stringify({ bound: total, best: best.squares })).to.be.at.most(best.squares + 1e-6);
        expect(slotTotal, JSON.stringify({ bySlot: slotTotal, best: best.squares })).to.be.at.most(best.squares + 1e-6);
        expect(staffedTotal, JSON.stringify({ staffed: staffedTotal, best: best.squares })).to.be.at.most(best.squares + 1e-6);
      }),
      { numRuns: 60 },
    );
    expect(staffedRows, 'subproblems whose LP held staffing').to.be.greaterThan(5);
    expect(pairsChecked, 'LPs by slot read as pairs').to.be.greaterThan(15);
    expect(schedulesChecked, 'integral LPs by slot read as schedules').to.be.greaterThan(5);
    // The instances are random (unseeded): 28-42 of the subproblems were bounded in seven runs, so
    // more than 30 failed a CI run; more than 15 still shows the property is not vacuous. By slot
    // was never tighter than by kind on instances this small (six runs); the 400 x 300 rules
    // festival below shows it tighter.
    expect(priced, 'subproblems bounded').to.be.greaterThan(15);
  });

  it('with the wishes held (previous assignments, avoided and preferred shifts, min_hours): never above the exhaustive optimum, from the engine’s own schedule', async () => {
    let priced = 0;
    await fc.assert(
      fc.asyncProperty(tinyRequests(5, 5, { rules: true, wishes: true }), async (request) => {
        const best = bestLevels(request);
        const { result } = await solve(request);
        // Only where the engine's schedule meets every level before fairness as the optimum does: the rows hold its values.
        if (compareLevels(levelsOfResult(request, result), best) !== 0) return;
        let total = 0;
        for (const { p, x, f } of subproblemsOf(request, result)) {
          const plain = packingBound(p, f, x, highs, budget(), { rounds: 200, work: Infinity });
          const wished = packingBound(p, f, x, highs, budget(), { rounds: 200, work: Infinity, wishes: softGoals(p) });
          if (!wished) continue;
          priced++;
          if (plain?.converged && wished.converged) expect(wished.bound).to.be.at.least(plain.bound - 1e-5);
          total += wished.bound;
        }
        expect(total, JSON.stringify({ bound: total, best: best.squares })).to.be.at.most(best.squares + 1e-6);
      }),
      { numRuns: 80 },
    );
    // Three runs of 80 instances: 50-60 subproblems bounded, 1-5 of them tighter with the wishes'
    // rows (too few to count on); the wish festival below shows them tighter.
    expect(priced, 'subproblems bounded').to.be.greaterThan(10);
  });

  it('with the wishes held, on a wish festival: the bound rises, and stays at most the engine’s schedule', async () => {
    const { request } = generatedInstance('wishes-festival-150x100')!;
    const { result } = await solve(request);
    expect(checkSchedule(request, result)).to.deep.equal([]);
    let plain = 0;
    let wished = 0;
    for (const sub of decompose(normalizeRequest(request))) {
      const p = prepare(sub);
      const x = scheduleOf(p, result);
      const f = formulate(p, loadsOf(p, x));
      plain += packingBound(p, f, x, highs, budget())?.bound ?? 0;
      wished += packingBound(p, f, x, highs, budget(), { rounds: PACKING_ROUNDS, work: PACKING_WORK, wishes: softGoals(p) })?.bound ?? 0;
    }
    const squares = result.summary.sum_squared_hours as number;
    expect(wished, JSON.stringify({ plain, wished, squares })).to.be.greaterThan(plain * 1.002);
    expect(wished).to.be.at.most(squares + 1e-6);
  });

  it('measures and bounds the sum of squares exactly where the level of min_hours loads volunteers past the incumbent (wishes-foodbank-60x60)', () => {
    const { request } = generatedInstance('wishes-foodbank-60x60')!;
    let levels = 0;
    for (const sub of decompose(normalizeRequest(request))) {
      const p = prepare(sub);
      const result = solveSubproblem(sub, { backend: highs, budget: budget() });
      const fairness = result.diagnostics.levels?.find((l) => l.name === 'fairness');
      if (!fairness) continue;
      levels++;
      const hours = Float64Array.from(p.lockedHours);
      for (const [v, s] of result.assignments) hours[sub.volunteers.findIndex((u) => u.index === v)]! += sub.shifts.find((t) => t.index === s)!.hours;
      // The model measures the volunteers with candidates (the others' hours are their locks alone).
      const squares = hours.reduce((t, h, vi) => t + (p.byVolunteer[vi]!.length > 0 ? h * h : 0), 0);
      // The level's value is the squares plus its tie-break by request order (under 1 in all).
      expect(fairness.value - squares, sub.groups.join()).to.be.within(0, 1);
      expect(fairness.bound, sub.groups.join()).to.be.at.most(squares + 1e-6);
    }
    expect(levels).to.equal(3);
  });

  it('measures the sum of squares exactly, and bounds it, where the level of preferred shifts loads a volunteer far past the fine pieces', () => {
    // Twelve shifts of 4 and 5 hours over six days, one slot each; six volunteers of 9 hours at
    // most, and one without a cap who prefers every shift. The greedy fill spreads the shifts, so
    // the pieces are fine only to a little past 9 hours; the level of preferred shifts then gives
    // the uncapped volunteer all twelve (54 hours), far past them.
    const shifts = Array.from({ length: 12 }, (_, i) =>
      shift(`s${i}`, 24 * Math.floor(i / 2) + 12 * (i % 2), 24 * Math.floor(i / 2) + 12 * (i % 2) + (i % 2 ? 5 : 4), { k: 1 }),
    );
    const volunteers = [
      ...Array.from({ length: 6 }, (_, i) => volunteer(`v${i}`, 'k', 9)),
      { ...volunteer('keen', 'k', 999), preferred_shifts: shifts.map((s) => s.id as string) },
    ];
    const [sub] = decompose(normalizeRequest({ volunteers, unassigned_shifts: shifts } as unknown as ScheduleRequest));
    const p = prepare(sub!);
    const greedyTop = Math.max(...loadsOf(p, greedyFill(p)));
    const result = solveSubproblem(sub!, { backend: highs, budget: budget() });
    const keen = sub!.volunteers.findIndex((v) => v.id === 'keen');
    const hours = Float64Array.from(p.lockedHours);
    for (const [v, s] of result.assignments) hours[sub!.volunteers.findIndex((u) => u.index === v)]! += sub!.shifts.find((t) => t.index === s)!.hours;
    expect(hours[keen]).to.equal(54);
    expect(hours[keen]! - greedyTop, 'past the fine pieces').to.be.above(30);
    const squares = hours.reduce((t, h) => t + h * h, 0);
    const fairness = result.diagnostics.levels!.find((l) => l.name === 'fairness')!;
    // The value is the squares plus the tie-break by request order (under 1 in all); the bound is below them.
    expect(fairness.value - squares, JSON.stringify(fairness)).to.be.within(0, 1);
    expect(fairness.bound).to.be.at.most(squares + 1e-6);
    // The model's own price of 54 hours is below its square, never above. So no bound on the
    // pieces can prove this level (measured: 2,916 against a bound of 2,886); re-placing the
    // anchors around the loads the later levels leave would.
    const { pieces } = fairnessPieceShapes(p, loadsOf(p, greedyFill(p)));
    expect(piecesValue(pieces[keen]!, 54)).to.be.below(54 * 54);
  });

  it('gives no volunteer more than 64 fine pieces, min_hours or not (a 15-minute grid, targets of 40 hours)', () => {
    // Shifts of 3.25 and 4 hours (a grid of 15 minutes) over two weeks, one volunteer each, and
    // 30 volunteers: the greedy fill gives each one or two, so the incumbent's pieces would be
    // fine to about 12 hours, but everyone wants 40 (176 pieces of 15 minutes without the cap).
    const shifts = Array.from({ length: 40 }, (_, i) =>
      shift(`s${i}`, 24 * Math.floor(i / 3) + 8 * (i % 3), 24 * Math.floor(i / 3) + 8 * (i % 3) + (i % 2 ? 3.25 : 4), { k: 1 }),
    );
    const volunteers = Array.from({ length: 30 }, (_, i) => ({ ...volunteer(`v${i}`, 'k', 200), min_hours: 40 }));
    const [sub] = decompose(normalizeRequest({ volunteers, unassigned_shifts: shifts } as unknown as ScheduleRequest));
    const p = prepare(sub!);
    const { pieces, step } = fairnessPieceShapes(p, loadsOf(p, greedyFill(p)));
    const grid = hourGrid(p);
    expect(grid).to.equal(0.25);
    for (const { breakpoints, slopes } of pieces) {
      // Each piece's anchor: its slope is twice it plus the grid (linesThrough); the last anchor ends the last piece.
      const b = [...slopes.map((slope) => (slope - grid) / 2), breakpoints[breakpoints.length - 1]!];
      const fine = b.filter((x, k) => k > 0 && Math.abs(x - b[k - 1]! - step) < 1e-9).length;
      expect(fine).to.be.at.most(64);
      // Fine (one step apart) at least up to the target plus one long shift, where the load can reach it.
      expect(
        b.slice(0, 11).every((x, k) => Math.abs(x - k * step) < 1e-9),
        JSON.stringify(b),
      ).to.equal(true);
      expect(
        b.some((x) => Math.abs(x - 44) < step),
        JSON.stringify({ step, b }),
      ).to.equal(true);
    }
  });

  it('counts each volunteer’s rest between shifts, and by slot where volunteers differ: on a rule-heavy festival the bound rises, and stays at most the engine’s schedule', async () => {
    const { request } = generatedInstance('rules-festival-400x300')!;
    const { result } = await solve(request, { debug: 'true' });
    expect(checkSchedule(request, result)).to.deep.equal([]);
    const [sub, ...others] = decompose(normalizeRequest(request));
    // Its six groups are joined by additional_groups: one subproblem, the whole schedule.
    expect(others).to.have.length(0);
    const p = prepare(sub!);
    const x = scheduleOf(p, result);
    const f = formulate(p, new Float64Array(p.sub.volunteers.length).fill(1e9));
    const withRest = packingBound(p, f, x, highs, budget())!;
    // The same volunteers and candidates with no rest: the bound of 2.2's first packing bound.
    const restless = { ...p, sub: { ...p.sub, volunteers: p.sub.volunteers.map((v) => ({ ...v, restHours: 0 })) } };
    const without = packingBound(restless, f, x, highs, budget())!;
    expect(withRest.converged && without.converged).to.equal(true);
    const squares = result.summary.sum_squared_hours as number;
    expect(withRest.bound, JSON.stringify({ withRest: withRest.bound, without: without.bound, squares })).to.be.greaterThan(without.bound * 1.01);
    expect(withRest.bound).to.be.at.most(squares + 1e-6);
    // By slot: the volunteers' availability windows make kinds of slot a loose summary here.
    const bySlot = packingBound(p, f, x, highs, budget(), { rounds: 200, work: Infinity, bySlot: true })!;
    expect(bySlot.converged).to.equal(true);
    expect(bySlot.bound, JSON.stringify({ bySlot: bySlot.bound, byKind: withRest.bound })).to.be.greaterThan(withRest.bound * 1.003);
    expect(bySlot.bound).to.be.at.most(squares + 1e-6);
    // Staffing held (6 of its 824 slots stay empty): the schedule cannot leave them wherever it
    // likes, as the bound without it does (26,487 -> 26,562 when measured).
    const staffed = packingBound(p, f, x, highs, budget(), { rounds: 200, work: Infinity, bySlot: true, staffing: true })!;
    expect(staffed.converged).to.equal(true);
    // It holds the staffing level's own value (the slot kinds the model's full_s count).
    const staffingLevel = (result.diagnostics.subproblems as Sub[])[0]!.levels!.find((l) => l.name === 'staffing')!;
    expect(staffed.staffing!.held).to.equal(staffingLevel.value);
    expect(staffed.bound, JSON.stringify({ staffed: staffed.bound, bySlot: bySlot.bound })).to.be.greaterThan(bySlot.bound * 1.002);
    expect(staffed.bound).to.be.at.most(squares + 1e-6);
    // The engine ran both (no fairness LP on this joined subproblem), the level at the higher.
    // Whether each converged within the engine's share of the time depends on the machine
    // ('feasible': stopped before it converged, its bound still valid): on a 2.5 GHz Xeon the one
    // by slot did not, on the machines before it did. What converged is checked above, unhurried.
    const [diag] = result.diagnostics.subproblems as Sub[];
    const packed = diag!.phases.filter((ph) => ph.name === 'fairness_bound');
    expect(packed).to.have.length(2);
    for (const ph of packed) expect(ph.status).to.be.oneOf(['optimal', 'feasible']);
    expect(diag!.levels!.find((l) => l.name === 'fairness')!.bound).to.equal(Math.max(packed[0]!.bound!, packed[1]!.bound!));
    if (packed[1]!.status === 'optimal') expect(packed[1]!.bound).to.be.greaterThan(packed[0]!.bound!);
    // The one by slot holds staffing, and says so.
    expect(packed[1]!.note).to.include(`${staffingLevel.value} of ${staffed.staffing!.kinds} slot kinds fully staffed held`);
  });

  it('with staffing held, by slot: an empty slot cannot go where it suits fairness best (4 and 4 hours, not 1 and 1)', async () => {
    // Two volunteers for two shifts at the same hour: "long" (4 h) needs two, "short" (1 h) three.
    // Two slots are filled either way; staffing (level 2) puts both on "long", fully staffed.
    const request = {
      volunteers: [volunteer('a', 'k', 999), volunteer('b', 'k', 999)],
      unassigned_shifts: [shift('long', 10, 14, { k: 2 }), shift('short', 10, 11, { k: 3 })],
    };
    const { result } = await solve(request);
    expect(result.assigned_shifts).to.deep.equal({ long: ['a', 'b'] });
    const [one] = subproblemsOf(request, result);
    const { p, x, f } = one!;
    const limits = { rounds: 200, work: Infinity, bySlot: true };
    const free = packingBound(p, f, x, highs, budget(), limits)!;
    const staffed = packingBound(p, f, x, highs, budget(), { ...limits, staffing: true })!;
    // Without staffing the two slots go to "short": 1 + 1. Held ("long" is the one slot kind that
    // can be fully staffed: "short" has three slots for two volunteers): 16 + 16, the schedule's.
    expect([free.converged, free.bound, free.staffing]).to.deep.equal([true, 2, undefined]);
    expect([staffed.converged, staffed.bound, staffed.staffing]).to.deep.equal([true, 32, { held: 1, kinds: 1 }]);
    expect(result.summary.sum_squared_hours).to.equal(32);
  });

  it('bounds fairness where no model is built (over the MIP limit, or no backend): 6, 3 and 2 hours proven without an LP or MIP', () => {
    const request = {
      volunteers: [volunteer('a', 'k', 999), volunteer('b', 'k', 999), volunteer('c', 'k', 999)],
      unassigned_shifts: [shift('long', 8, 14, { k: 1 }), shift('mid', 14, 17, { k: 1 }), shift('short', 17, 19, { k: 1 })],
    };
    const [sub] = decompose(normalizeRequest(request as ScheduleRequest));
    const over = solveSubproblem(sub!, { backend: highs, budget: budget(), maxMipPairs: 0 });
    const hours = new Map<number, number>();
    for (const [v, s] of over.assignments) hours.set(v, (hours.get(v) ?? 0) + [6, 3, 2][s]!);
    expect([...hours.values()].sort((a, b) => b - a)).to.deep.equal([6, 3, 2]);
    // The schedule's sum of squares against the packing bound: proven, and no LP or MIP ran.
    expect(over.diagnostics.levels).to.deep.equal([{ name: 'fairness', value: 49, bound: 49, gap: 0, proven: true }]);
    const phases = over.diagnostics.phases.map((ph) => [ph.name, ph.objective, ph.bound]);
    expect(phases).to.deep.equal([
      ['greedy', 3, 3],
      ['augment', 3, 3],
      ['balance', 49, 41],
      ['fairness_bound', 49, 49],
    ]);
    expect(over.diagnostics.phases[2]!.note).to.match(/exceed the MIP limit of 0: local search only/);
    // Without a backend (a lost worker's fallback): water-filling alone, which does not prove it.
    const alone = solveSubproblem(sub!, { budget: budget() });
    expect(alone.diagnostics.levels).to.deep.equal([{ name: 'fairness', value: 49, bound: 41, gap: 0.1633, proven: false }]);
    expect(alone.diagnostics.phases.map((ph) => ph.name)).to.deep.equal(['greedy', 'augment', 'balance']);
  });

  it('stops on its work cap with a valid bound, and is not computed without a backend that gives duals', () => {
    const request = {
      volunteers: ['a', 'b', 'c'].map((id) => volunteer(id, 'k', 999)),
      unassigned_shifts: [shift('long', 8, 14, { k: 2 }), shift('s1', 14, 16, { k: 2 }), shift('s2', 16, 19, { k: 1 })],
    } as Json;
    const [sub] = decompose(normalizeRequest(request as ScheduleRequest));
    const p = prepare(sub!);
    const x = greedyFill(p);
    const f = formulate(p);
    const full = packingBound(p, f, x, highs, budget())!;
    expect(full.converged).to.equal(true);
    const capped = packingBound(p, f, x, highs, budget(), { rounds: 100, work: 1 });
    // The first round's pricing already passes a work cap of 1: no round completes, no bound.
    expect(capped).to.equal(undefined);
    const jslpLike: SolverBackend = { name: 'jslp', open: (model) => highs.open(model) };
    expect(packingBound(p, f, x, jslpLike, budget())).to.equal(undefined);
  });

  it('says whether the clock stopped it, not its convergence or its rounds limit (the late bound reruns only those)', () => {
    const [sub] = decompose(normalizeRequest(festival({ seed: 7, volunteers: 60, shifts: 40, days: 2, groups: 1 })));
    const p = prepare(sub!);
    const x = greedyFill(p);
    const f = formulate(p);
    const limits = { rounds: 200, work: Infinity, bySlot: true };
    const full = packingBound(p, f, x, highs, budget(), limits)!;
    expect(full.converged).to.equal(true);
    expect(full.rounds).to.be.above(2);
    expect(full.clockStopped).to.equal(false);
    const capped = packingBound(p, f, x, highs, budget(), { ...limits, rounds: 2 })!;
    expect([capped.converged, capped.clockStopped, capped.rounds]).to.deep.equal([false, false, 2]);
    // A clock that each LP solve moves on by 600 ms, against a deadline at 1,000: the second passes it.
    let now = 0;
    const ticking: SolverBackend = {
      ...highs,
      columnLp: (lower, upper, columns) => {
        const lp = highs.columnLp!(lower, upper, columns);
        return {
          addColumns: (more) => {
            lp.addColumns(more);
          },
          solve: (b) => {
            const solved = lp.solve(b);
            now += 600;
            return solved;
          },
          dispose: () => {
            lp.dispose();
          },
        };
      },
    };
    const cut = packingBound(p, f, x, ticking, new Budget(1000, () => now), limits)!;
    expect([cut.converged, cut.clockStopped, cut.rounds]).to.deep.equal([false, true, 2]);
    expect(cut.ms).to.equal(1200);
    // Each bound holds wherever it stopped.
    expect(capped.bound).to.be.at.most(full.bound + 1e-6);
    expect(cut.bound).to.be.at.most(full.bound + 1e-6);
  });
});
