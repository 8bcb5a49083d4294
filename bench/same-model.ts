// Another solver on exactly the models our engine builds (bench/cbc.ts runs CBC and CP-SAT through
// it): the request split into subproblems, each prepared and formulated by src/engine, and solved
// lexicographically as our levels do: coverage (one MIP per priority class, highest first, each
// reached value held on its row), then the sum of fully staffed shifts, the wishes' levels the
// subproblem has (previous assignments kept, avoided shifts, hours short of min_hours, preferred
// shifts), then the sum of squared hours (as the model's pieces price it, at most the squares), each with the levels
// before it held. The solver is a function of one level's model; this file owns the order, the
// time split and the figures, so every solver is measured the same way.
//
// Time: `limitS` per instance, split among subproblems by candidate pairs; within a subproblem
// coverage has two thirds, and each later level a share of what is left (fairness the most).
import { loadsOf, prepare, type Prepared } from '../src/engine/candidates.js';
import { columnValues, formulate, type Formulation } from '../src/engine/formulate.js';
import { bestGreedyFill, checkAssignment } from '../src/engine/greedy.js';
import type { MipModel, Objective } from '../src/engine/mip-model.js';
import { decompose, type Subproblem } from '../src/engine/subproblem.js';
import { normalizeRequest, type Problem } from '../src/input/problem.js';
import type { ScheduleRequest } from '../src/types/schema-types.js';

/** One level solved by the other solver. */
export interface SolverRun {
  status: string;
  /** The objective value of the schedule found; null when no integer solution was found. */
  objective: number | null;
  /** The solver's best possible objective (a bound), when it says. */
  bound: number | null;
  /** A column's value in the solution found (0 for a column it does not mention). */
  value: (col: number) => number;
  ms: number;
  peakMb: number;
}

/** What a solver is given for one level: the model, the level's objective, rows held at earlier levels' values. */
export interface LevelTask {
  name: string;
  model: MipModel;
  objective: Objective;
  /** Row bounds replacing the model's: the levels solved before, held at what they reached. */
  held: ReadonlyMap<number, [number, number]>;
  seconds: number;
  /** A schedule to start from, every column's value (formulate.ts columnValues): the level before's, or the greedy fill's. */
  hint: Float64Array;
}

export type LevelSolver = (task: LevelTask) => Promise<SolverRun>;

/** One assignment of a schedule to start from (a result's roster entry: who fills which group's slot of which shift). */
export interface StartEntry {
  volunteer_id: string;
  shift_id: string;
  group: string | null;
}

export interface SameModelFigures {
  /** Wall time summed over the solver's runs. */
  ms: number;
  filled: number;
  bound: number;
  sumSquares: number;
  sumSquaresBound: number;
  fullyStaffed: number;
  peakMb: number;
  /** Subproblems where coverage found no integer solution in its time (their answer is what the classes before gave, or nothing). */
  unsolved: number;
  /** Levels after coverage that found no integer solution in their time: the level before's schedule was kept. */
  kept: number;
  statuses: string[];
  /** Subproblems whose schedule breaks a rule (the engine's own check, greedy.ts checkAssignment). */
  problems: number;
  /** The wishes the schedule meets, counted as bench/solve-one.ts counts ours (locks included). */
  wishes: { avoided: number; hours_below_min: number; preferred: number };
  /** With a start schedule: subproblems that started from it (the others, where it breaks a rule of the model, from the greedy fill). */
  started?: number;
  /** Slots filled per priority, 5 down to 1 (locks included), as bench/solve-one.ts counts ours. */
  filledByPriority: number[];
}

/** The 0/1 pair vector of a solution. */
function pairsOf(f: Formulation, run: SolverRun): Uint8Array {
  return Uint8Array.from({ length: f.numPairs }, (_, j) => (run.value(j) > 0.5 ? 1 : 0));
}

const startKey = (volunteer: number, shift: number, group: string | null): string => `${volunteer}\u0000${shift}\u0000${group ?? ''}`;

/** A start schedule's entries as keys of (volunteer, shift, group) by request index, for startPairs. */
function startKeys(problem: Problem, entries: readonly StartEntry[]): Set<string> {
  const volunteerIndex = new Map(problem.volunteers.map((v) => [v.id, v.index]));
  const shiftIndex = new Map(problem.shifts.map((s) => [s.id, s.index]));
  return new Set(entries.map((e) => startKey(volunteerIndex.get(e.volunteer_id) ?? -1, shiftIndex.get(e.shift_id) ?? -1, e.group)));
}

/** The candidate pairs of subproblem `p` a start schedule (startKeys) assigns (its locked entries are not candidates); undefined when it breaks a rule. */
function startPairs(sub: Subproblem, p: Prepared, assigned: ReadonlySet<string>): Uint8Array | undefined {
  const x = Uint8Array.from(p.candShift, (slot, pair) => {
    const s = sub.shifts[slot]!;
    return assigned.has(startKey(sub.volunteers[p.candVolunteer[pair]!]!.index, s.index, s.group)) ? 1 : 0;
  });
  return checkAssignment(p, x) === undefined ? x : undefined;
}

/**
 * `solve` on every subproblem of the request, level by level, within `limitS` seconds in all.
 * With `start` (a schedule, e.g. our engine's roster), every level's first hint is that schedule
 * rather than the greedy fill: the other solver is asked to improve on it.
 */
export async function solveSameModel(request: ScheduleRequest, limitS: number, solve: LevelSolver, start?: readonly StartEntry[]): Promise<SameModelFigures> {
  const problem = normalizeRequest(request);
  const filledKind = new Map<string, number>();
  const kind = (shift: number, group: string): string => `${shift}\u0000${group}`;
  let started = 0;
  const assigned = start ? startKeys(problem, start) : undefined;
  const subs = decompose(problem).map((sub) => {
    const p = prepare(sub);
    const given = assigned ? startPairs(sub, p, assigned) : undefined;
    if (given) started++;
    const x = given ?? bestGreedyFill(p);
    return { sub, p, start: x, f: formulate(p, loadsOf(p, x)) };
  });
  const totalPairs = Math.max(
    1,
    subs.reduce((t, s) => t + s.p.candShift.length, 0),
  );
  const out: SameModelFigures = {
    ms: 0,
    filled: 0,
    bound: 0,
    sumSquares: 0,
    sumSquaresBound: 0,
    fullyStaffed: 0,
    peakMb: 0,
    unsolved: 0,
    kept: 0,
    statuses: [],
    problems: 0,
    wishes: { avoided: 0, hours_below_min: 0, preferred: 0 },
    ...(start ? { started } : {}),
    filledByPriority: [0, 0, 0, 0, 0],
  };
  // Every volunteer's shifts (request indexes): the locks, then what the solver assigns.
  const shiftsOf = problem.volunteers.map(() => new Set<number>());
  for (const lock of problem.locks) shiftsOf[lock.volunteer]!.add(lock.shift);
  const ran = (run: SolverRun, name: string): void => {
    out.ms += run.ms;
    out.peakMb = Math.max(out.peakMb, run.peakMb);
    out.statuses.push(`${name}:${run.status}`);
  };
  for (const [i, { sub, p, start, f }] of subs.entries()) {
    const locked = sub.shifts.reduce((t, s) => t + Math.min(s.required, s.locked), 0);
    const hours = (x: Uint8Array): number => loadsOf(p, x).reduce((t, v) => t + v * v, 0);
    for (const s of sub.shifts) filledKind.set(kind(s.index, s.group), (filledKind.get(kind(s.index, s.group)) ?? 0) + s.locked);
    if (p.candShift.length === 0) {
      const sq = hours(new Uint8Array(0));
      out.filled += locked;
      out.bound += locked;
      out.sumSquares += sq;
      out.sumSquaresBound += sq;
      continue;
    }
    let left = (limitS * p.candShift.length) / totalPairs;
    const held = new Map<number, [number, number]>();
    // The solver's schedule (empty until a level finds one) and the start handed to the next level.
    let x: Uint8Array = new Uint8Array(f.numPairs);
    let hint: Uint8Array = start;
    // Slots each priority class demands beyond the locks: its trivial bound, and a cap on the solver's.
    const demanded = f.coverage.map(() => 0);
    p.demand.forEach((d, s) => (demanded[p.slotClass[s]!]! += d));
    let bound = locked;
    let covered = true;
    for (const [k, level] of f.coverage.entries()) {
      const seconds = (left * 2) / 3 / (f.coverage.length - k);
      const run = await solve({ name: `s${i}-cover${k}`, model: f.model, objective: level.objective, held, seconds, hint: columnValues(f, p, hint) });
      left -= run.ms / 1000;
      ran(run, 'cover');
      if (run.objective === null) {
        // Nothing found: this class and the ones after it are bounded by their demand alone.
        for (let later = k; later < demanded.length; later++) bound += demanded[later]!;
        covered = false;
        break;
      }
      hint = x = pairsOf(f, run);
      let reached = 0;
      x.forEach((b, pair) => (reached += b && p.slotClass[p.candShift[pair]!] === k ? 1 : 0));
      bound += Math.min(demanded[k]!, Math.floor((run.bound ?? demanded[k]!) + 1e-6));
      held.set(level.fixRow, [reached, Infinity]);
    }
    // Then staffing and the wishes' levels the subproblem has, in the contract's order, each held at its reached value.
    const after = covered
      ? [
          { name: 'staff', objective: f.staffing, fixRow: f.staffFixRow },
          ...(['previous', 'avoided', 'short', 'preferred'] as const).flatMap((name) => {
            const w = f.wishes[name];
            return w ? [{ name, objective: w.objective, fixRow: w.fixRow }] : [];
          }),
        ]
      : [];
    for (const [k, level] of after.entries()) {
      const sense = level.objective.sense;
      const run = await solve({
        name: `s${i}-${level.name}`,
        model: f.model,
        objective: level.objective,
        held,
        seconds: Math.max(1, left / (after.length - k + 1)),
        hint: columnValues(f, p, hint),
      });
      left -= run.ms / 1000;
      ran(run, level.name);
      // No schedule in its time: the solver's schedule of the level before stands (it meets every
      // row held so far), and the level is held at that schedule's value.
      let reached: number;
      if (run.objective === null) {
        out.kept++;
        const values = columnValues(f, p, x);
        reached = level.objective.costs.reduce((t, c, j) => t + c * values[j]!, 0);
      } else {
        hint = x = pairsOf(f, run);
        reached = run.objective;
      }
      held.set(level.fixRow, sense === 'max' ? [reached - 1e-6, Infinity] : [-Infinity, reached + 1e-6]);
    }
    // Coverage with no schedule ends the subproblem: fairness without it held would not compare.
    const fair = covered
      ? await solve({ name: `s${i}-fair`, model: f.model, objective: f.fairness, held, seconds: Math.max(1, left), hint: columnValues(f, p, hint) })
      : undefined;
    if (fair) {
      ran(fair, 'fair');
      if (fair.objective !== null) x = pairsOf(f, fair);
    } else out.unsolved++;
    if (checkAssignment(p, x) !== undefined) out.problems++;
    x.forEach((b, pair) => {
      const s = sub.shifts[p.candShift[pair]!]!;
      if (!b) return;
      filledKind.set(kind(s.index, s.group), (filledKind.get(kind(s.index, s.group)) ?? 0) + 1);
      shiftsOf[sub.volunteers[p.candVolunteer[pair]!]!.index]!.add(s.index);
    });
    const sq = hours(x);
    out.filled += locked + x.reduce((t: number, b) => t + b, 0);
    out.bound += bound;
    out.sumSquares += sq;
    // The pieces price every load at most its square (formulate.ts linesThrough), so the solver's
    // bound on them bounds the squares of the volunteers with pieces; the others' hours are their
    // locks. No fairness bound in one subproblem: no bound on the whole (NaN, printed as ?).
    const loads = loadsOf(p, x);
    const unpriced = f.pieces.reduce((t, { slopes }, v) => t + (slopes.length === 0 ? loads[v]! * loads[v]! : 0), 0);
    out.sumSquaresBound += fair && fair.objective !== null && fair.bound !== null ? Math.max(0, Math.min(sq, fair.bound + unpriced)) : NaN;
  }
  // Fully staffed shifts as the result's summary counts them: every group the shift asks for filled.
  for (const s of problem.shifts) {
    const asked = [...s.required].filter(([, n]) => n > 0);
    if (asked.length > 0 && asked.every(([g, n]) => (filledKind.get(kind(s.index, g)) ?? 0) >= n)) out.fullyStaffed++;
    for (const [g, n] of asked) out.filledByPriority[5 - s.priority]! += Math.min(n, filledKind.get(kind(s.index, g)) ?? 0);
  }
  let below = 0;
  for (const v of problem.volunteers) {
    const mine = shiftsOf[v.index]!;
    out.wishes.avoided += v.avoided.filter((s) => mine.has(s)).length;
    out.wishes.preferred += v.preferred.filter((s) => mine.has(s)).length;
    below += Math.max(0, v.minHours - [...mine].reduce((t, s) => t + problem.shifts[s]!.hours, 0));
  }
  out.wishes.hours_below_min = Math.round(below * 100) / 100;
  return out;
}
