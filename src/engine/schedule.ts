// The scheduling engine's core: decomposes the problem by group, solves the groups in parallel
// lanes (through a runner: the worker pool, or in-process), and assembles the contract's
// result. Pure of HTTP and storage; the Scheduler (scheduler.ts) is its entry point.
import type { ScheduleResult, Suggestion, Warning } from '../types/schema-types.js';
import type { Problem } from '../input/problem.js';
import type { BackendName } from './backends/backend.js';
import { spentBudget, subproblemSlice, type Budget, type BudgetSlice } from './budget.js';
import { newFlag, raiseFlag } from './shared-flag.js';
import { explainShortfall, type ScheduleState } from './explain.js';
import { isoUtc } from '../input/format.js';
import { placement, type Placement } from '../rules/model.js';
import { Roster } from '../rules/roster.js';
import { changesOf, type Placed } from '../rules/previous.js';
import { fairnessScore } from './fairness.js';
import { ProgressTracker, type SolveProgress } from './progress.js';
import { DEFAULT_MAX_MIP_PAIRS, solveSubproblem, type SubproblemDiagnostics, type SubproblemResult } from './solve-subproblem.js';
import type { Assignment, SubproblemOutcome, SubproblemRunner } from './subproblem-runner.js';
import { decompose, type Subproblem } from './subproblem.js';

export interface ScheduleRequest {
  problem: Problem;
  /** Warnings about the request, passed through to the result. */
  warnings: Warning[];
  backend: BackendName;
  budget: Budget;
  /** Aborting stops the solve: the result is the best schedule found so far (status feasible). */
  signal?: AbortSignal;
  /** Hears the progress of the solve, at most a few times a second. */
  onIncumbent?: (progress: SolveProgress) => void;
  diagnostics: { lpText: boolean };
  /** Larger subproblems skip the MIP (see DEFAULT_MAX_MIP_PAIRS). */
  maxMipPairs?: number;
}

export interface EngineTimings {
  build_ms: number;
  solve_ms: number;
  explain_ms: number;
}

export interface EngineOutput {
  /** The result with Maps for assigned_shifts and volunteers (request order); see toOrderedJson. */
  result: Omit<ScheduleResult, 'assigned_shifts' | 'volunteers'> & {
    assigned_shifts: Map<string, string[]>;
    volunteers: Map<string, ScheduleResult['volunteers'][string]>;
  };
  status: 'optimal' | 'feasible';
  /** The solve was cancelled: the result is the best found until then. */
  cancelled: boolean;
  subproblems: SubproblemResult[];
  timings: EngineTimings;
}

/** When a worker is lost (or its job cancelled before it started), the greedy fill in this thread still gives an answer. */
function fallback(sub: Subproblem, outcome: Extract<SubproblemOutcome, { kind: 'lost' }>, cancelled: boolean): SubproblemResult {
  // Cancelled with a schedule in hand: that schedule is the answer, at once. A greedy fill here
  // (a second or more on the largest single-group rosters) could only be kept if it filled
  // more, and a cancel asks for the best found so far, now.
  if (cancelled && outcome.incumbent !== undefined && outcome.incumbent.length > 0) return cancelledWithIncumbent(sub, outcome.incumbent, outcome.reason);
  const greedy = solveSubproblem(sub, { budget: spentBudget(cancelled) });
  const useIncumbent = outcome.incumbent !== undefined && outcome.incumbent.length > greedy.assignments.length;
  const assignments = useIncumbent ? outcome.incumbent! : greedy.assignments;
  const diagnostics: SubproblemDiagnostics = {
    ...greedy.diagnostics,
    filled: assignments.length,
    status: 'feasible',
    time_limited: outcome.timedOut === true,
    phases: [
      ...greedy.diagnostics.phases.filter((ph) => ph.name === 'greedy'),
      { name: 'coverage', status: cancelled ? 'cancelled' : 'error', objective: null, bound: null, gap: null, ms: 0, note: outcome.reason },
    ],
  };
  // Suggestions were checked against the greedy schedule: they do not hold for another one.
  return {
    ...greedy,
    assignments,
    status: 'feasible',
    filled: assignments.length,
    suggestions: useIncumbent ? [] : greedy.suggestions,
    diagnostics,
    // Lost to the clock (diagnostics.time_limited) or cancelled: not a failure.
    ...(cancelled || outcome.timedOut === true ? {} : { solverFailure: outcome.reason }),
  };
}

/** A cancelled subproblem's answer: its best schedule, bounded by the open slots (no bound was proven). */
function cancelledWithIncumbent(sub: Subproblem, incumbent: Assignment[], reason: string): SubproblemResult {
  const open = sub.shifts.reduce((t, s) => t + Math.max(0, s.required - s.locked), 0);
  const filled = incumbent.length;
  const fillBound = Math.max(open, filled);
  return {
    group: sub.group,
    assignments: incumbent,
    status: 'feasible',
    filled,
    fillBound,
    suggestions: [],
    diagnostics: {
      group: sub.group,
      explain: { ms: 0, resolves: 0, incomplete: 0, unexplored: [] },
      variables: 0,
      constraints: 0,
      filled,
      fill_bound: fillBound,
      status: 'feasible',
      time_limited: false,
      phases: [{ name: 'coverage', status: 'cancelled', objective: null, bound: null, gap: null, ms: 0, note: reason }],
      ms: 0,
    },
  };
}

/** Solves the request's subproblems, at most `lanes` at a time, and assembles the result. */
export async function scheduleProblem(request: ScheduleRequest, runner: SubproblemRunner, lanes: number): Promise<EngineOutput> {
  const t0 = performance.now();
  const { problem, budget, signal } = request;
  const subs = decompose(problem);
  const weight = subs.map((s) => s.volunteers.length * s.shifts.length + 1);
  const t1 = performance.now();
  const progress = new ProgressTracker(request.onIncumbent, Date.now, subs.length);
  const results = await solveInLanes(
    subs,
    weight,
    Math.max(1, lanes),
    async (sub, slice) => {
      const job = { sub, backend: request.backend, slice, lpText: request.diagnostics.lpText, maxMipPairs: request.maxMipPairs ?? DEFAULT_MAX_MIP_PAIRS };
      progress.started(sub.group);
      const outcome = await runner.run(job, {
        ...(signal ? { signal } : {}),
        onIncumbent: (incumbent) => {
          progress.improved(sub.group, incumbent);
        },
      });
      const result = outcome.kind === 'done' ? outcome.result : fallback(sub, outcome, signal?.aborted === true);
      progress.finished(sub.group, result.filled, result.fillBound);
      return result;
    },
    budget,
    () => (runner.waiting?.() ?? 0) > 0,
  );
  progress.stop();
  const cancelled = signal?.aborted === true;
  const t2 = performance.now();
  const result = await assemble(problem, request.warnings, results);
  const t3 = performance.now();
  return {
    result,
    status: !cancelled && results.every((r) => r.status === 'optimal') ? 'optimal' : 'feasible',
    cancelled,
    subproblems: results,
    timings: { build_ms: t1 - t0, solve_ms: t2 - t1, explain_ms: t3 - t2 },
  };
}

/**
 * Largest first, so the lanes' work ends together; at most `lanes` at a time, each given its
 * slice of the time left (budget.ts divides it). Once a lane is idle (every subproblem started,
 * the one it ran ended) and no other work waits for a worker (`othersWaiting`: another request's
 * subproblems on a shared pool), each one still running may use its lane to the deadline
 * (BudgetSlice.extend): no other subproblem could. Without that, a large subproblem given its share at
 * the start ran out of it while the small ones on the other lane ended early, and the answer came
 * well before the limit with that one cut short: p-festival-1500x1000 (twelve groups, 10 s) at
 * 2.9 s with its "cleanup" group time-limited, where at 30 s it came at 2.7 s with that group
 * proven. Not sooner (at the last one's start, or with the time one leaves unused, by size, while
 * others wait to start): on 2 cores the one extended then ran beside the last, slowing it, or took
 * time the ones after it needed (u-scarce-180x420's smallest group, started last, then proved its
 * coverage less often).
 */
export async function solveInLanes(
  subs: Subproblem[],
  weight: number[],
  lanes: number,
  solve: (sub: Subproblem, slice: BudgetSlice) => Promise<SubproblemResult>,
  budget: Budget,
  othersWaiting: () => boolean = () => false,
): Promise<SubproblemResult[]> {
  const order = subs.map((_, i) => i).sort((a, b) => weight[b]! - weight[a]! || a - b);
  const results = new Array<SubproblemResult>(subs.length);
  let unstarted = weight.reduce((a, b) => a + b, 0);
  let next = 0;
  // Each running subproblem, by lane: when its slice ends (epoch ms), the time it may still use,
  // and its flag that extends the slice to the deadline (BudgetSlice.extend).
  const running = new Map<number, { end: number; extend: SharedArrayBuffer }>();
  const lane = async (id: number): Promise<void> => {
    while (next < order.length) {
      const i = order[next++]!;
      const now = budget.now();
      let committed = 0;
      for (const [other, { end }] of running) if (other !== id) committed += Math.max(0, Math.min(end, budget.deadline) - now);
      const slice = { ...subproblemSlice(budget, lanes, weight[i]!, unstarted, committed), extend: newFlag() };
      unstarted -= weight[i]!;
      // From dispatch: a subproblem queued behind another request's on a shared pool starts its
      // clock later, so what it still holds is counted a little short then.
      running.set(id, { end: now + slice.ms, extend: slice.extend });
      try {
        results[i] = await solve(subs[i]!, slice);
      } finally {
        running.delete(id);
        // This lane is idle from now on: the ones still running may use their lanes to the deadline.
        if (next >= order.length && !othersWaiting()) for (const { extend } of running.values()) raiseFlag(extend);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, subs.length) }, (_, id) => lane(id)));
  return results;
}

/** Main-thread work between yields to the event loop while assembling (explanations included). */
const ASSEMBLE_SLICE_MS = 20;

/**
 * Gives the event loop a turn once `sliceMs` of work has passed since the last one: a large
 * scarce roster has thousands of short slots to explain, seconds of work on the main thread,
 * which must not hold up the requests the service answers meanwhile.
 */
function yielder(sliceMs: number): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < sliceMs) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

async function assemble(problem: Problem, warnings: Warning[], results: SubproblemResult[]): Promise<EngineOutput['result']> {
  const breathe = yielder(ASSEMBLE_SLICE_MS);
  const { volunteers, shifts } = problem;
  const roster = new Roster(volunteers);
  for (const lock of problem.locks) roster.add(lock.volunteer, placement(shifts[lock.shift]!, lock.group, true));
  // New assignments to one group of one shift share their placement (nothing changes one), as in the workers.
  const placed: Array<Map<string, Placement> | undefined> = [];
  const placementOf = (s: number, group: string): Placement => {
    const byGroup = (placed[s] ??= new Map<string, Placement>());
    let p = byGroup.get(group);
    if (!p) byGroup.set(group, (p = placement(shifts[s]!, group, false)));
    return p;
  };
  const suggested = new Map<string, Suggestion[]>();
  for (const r of results) {
    for (const [v, s, group] of r.assignments) roster.add(v, placementOf(s, group));
    for (const entry of r.suggestions) suggested.set(`${entry.shift}\u0000${entry.group}`, entry.items);
  }
  // Per shift: its placements in volunteer request order.
  const inShift: Array<Array<{ volunteer: number; group: string | null; locked: boolean }>> = shifts.map(() => []);
  for (const v of volunteers) for (const p of roster.placements(v.index)) inShift[p.index]!.push({ volunteer: v.index, group: p.group, locked: p.locked });
  const members = new Map<string, Problem['volunteers']>();
  for (const v of volunteers) {
    for (const g of v.groups) {
      const list = members.get(g);
      if (list) list.push(v);
      else members.set(g, [v]);
    }
  }
  const state: ScheduleState = { problem, roster, members, offerAddGroup: volunteers.some((v) => v.groups.length > 1) };

  const assigned = new Map<string, string[]>();
  const unfilled: string[] = [];
  const conflicts: ScheduleResult['conflicts'] = [];
  const rosterOut: ScheduleResult['roster'] = [];
  for (const s of shifts) {
    const here = inShift[s.index]!;
    if (here.length > 0)
      assigned.set(
        s.id,
        here.map((h) => volunteers[h.volunteer]!.id),
      );
    const start = here.length > 0 ? isoUtc(s.start) : '';
    const end = here.length > 0 ? isoUtc(s.end) : '';
    for (const h of here) rosterOut.push({ shift_id: s.id, group: h.group, volunteer_id: volunteers[h.volunteer]!.id, locked: h.locked, start, end });
    let short = false;
    for (const [group, required] of s.required) {
      if (required <= 0) continue;
      const count = here.filter((h) => h.group === group).length;
      if (count >= required) continue;
      short = true;
      conflicts.push(explainShortfall(state, s.index, group, required, count, suggested.get(`${s.index}\u0000${group}`) ?? []));
      await breathe();
    }
    if (short) unfilled.push(s.id);
  }
  const changes = problem.previous === undefined ? undefined : changesOf(problem, roster, placedInShifts(inShift));
  const hours = volunteers.map((v) => roster.hours(v.index));
  const summaries: EngineOutput['result']['volunteers'] = new Map();
  for (const v of volunteers) {
    const chrono = [...roster.placements(v.index)].sort((a, b) => a.start - b.start || a.end - b.end || a.index - b.index);
    summaries.set(v.id, {
      assigned_hours: round2(hours[v.index]!),
      assigned_shifts: chrono.map((p) => p.id),
      ...wishesMet(v, chrono, hours[v.index]!),
    });
  }
  return {
    assigned_shifts: assigned,
    unfilled_shifts: unfilled,
    fairness_score: fairnessScore(hours),
    conflicts,
    volunteers: summaries,
    warnings: [...warnings, ...results.flatMap(solverFailed)],
    roster: rosterOut,
    ...(changes ? { changes } : {}),
    summary: summarize(problem, inShift, summaries, hours, changes?.dropped.length ?? 0),
  };
}

/** The warning for a subproblem solved partly without the solver (SubproblemResult.solverFailure). */
function solverFailed({ group, solverFailure }: SubproblemResult): Warning[] {
  if (solverFailure === undefined) return [];
  return [
    {
      code: 'solver_failed',
      message: `The solver failed while scheduling group ${group} (${solverFailure}); that part of the schedule was finished without it, so it may fill fewer slots, or spread the hours less evenly, than it could.`,
    },
  ];
}

/** Every assignment, in shift request order, then volunteer request order. */
function placedInShifts(inShift: ReadonlyArray<ReadonlyArray<{ volunteer: number; group: string | null; locked: boolean }>>): Placed[] {
  const out: Placed[] = [];
  inShift.forEach((here, shift) => {
    for (const h of here) out.push({ volunteer: h.volunteer, shift, group: h.group, locked: h.locked });
  });
  return out;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** How well one volunteer's wishes are met by their shifts (locks included). */
function wishesMet(v: Problem['volunteers'][number], shifts: readonly Placement[], hours: number) {
  const count = (ids: readonly number[]): number => (ids.length === 0 ? 0 : shifts.filter((p) => ids.includes(p.index)).length);
  return { preferred_assigned: count(v.preferred), avoided_assigned: count(v.avoided), hours_below_min: round2(Math.max(0, v.minHours - hours)) };
}

/** The value of every objective level (CONTRACT.md section 11), from the schedule as it stands. */
function summarize(
  problem: Problem,
  inShift: ReadonlyArray<ReadonlyArray<{ group: string | null }>>,
  summaries: EngineOutput['result']['volunteers'],
  hours: readonly number[],
  previousDropped: number,
): ScheduleResult['summary'] {
  let demanded = 0;
  let filled = 0;
  let full = 0;
  const byPriority: ScheduleResult['summary']['filled_by_priority'] = {};
  for (const s of problem.shifts) {
    let asked = 0;
    let short = false;
    for (const [group, required] of s.required) {
      if (required <= 0) continue;
      const here = Math.min(required, inShift[s.index]!.filter((h) => h.group === group).length);
      const klass = (byPriority[String(s.priority)] ??= { demanded: 0, filled: 0 });
      klass.demanded += required;
      klass.filled += here;
      asked += required;
      filled += here;
      if (here < required) short = true;
    }
    demanded += asked;
    if (asked > 0 && !short) full++;
  }
  let avoided = 0;
  let preferred = 0;
  let below = 0;
  for (const v of summaries.values()) {
    avoided += v.avoided_assigned;
    preferred += v.preferred_assigned;
  }
  for (const v of problem.volunteers) below += Math.max(0, v.minHours - hours[v.index]!);
  return {
    demanded_slots: demanded,
    filled_slots: filled,
    filled_by_priority: byPriority,
    fully_staffed_shifts: full,
    previous_dropped: previousDropped,
    avoided_assigned: avoided,
    hours_below_min: round2(below),
    preferred_assigned: preferred,
    sum_squared_hours: round2(hours.reduce((t, h) => t + h * h, 0)),
  };
}
