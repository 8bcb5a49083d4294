// The scheduling engine's entry point: decomposes the problem by group, solves the groups in
// parallel (through a runner: the worker pool, or in-process), and assembles the contract's
// result. Pure of HTTP and storage.
import type { ScheduleResult, Suggestion, Warning } from '../types/schema-types.js';
import type { Problem } from '../input/problem.js';
import type { BackendName, SolverBackend } from './backends/backend.js';
import { explainShortfall, pairKey, type ScheduleState } from './explain.js';
import { fairnessScore } from './fairness.js';
import type { PoolOutcome } from './pool/solver-pool.js';
import type { SolveTask } from './pool/messages.js';
import { DEFAULT_MAX_MIP_PAIRS, solveSubproblem, type SubproblemDiagnostics, type SubproblemResult } from './solve-subproblem.js';
import { decompose, type Subproblem } from './subproblem.js';

export interface ScheduleOptions {
  backend: BackendName;
  timeLimitS: number;
  debug: 'off' | 'true' | 'lp';
  maxMipPairs?: number;
  /** Subproblems solved at once (the pool's workers): sets each one's share of the time. */
  lanes?: number;
}

/** Runs one subproblem somewhere (a worker, or this thread) and reports how it went. */
export type SubproblemRunner = (task: SolveTask) => Promise<PoolOutcome>;

/** A runner that solves in this thread (CLI, tests, benchmarks of the engine alone). */
export function inProcessRunner(backends: Partial<Record<BackendName, SolverBackend>>): SubproblemRunner {
  return async (task) => {
    const backend = backends[task.backend];
    if (!backend) return { kind: 'lost', reason: `backend ${task.backend} is not loaded` };
    const deadline = Math.min(task.deadline, Date.now() + task.budgetMs);
    return { kind: 'done', result: solveSubproblem(task.sub, { backend, deadline, debugLp: task.debugLp, maxMipPairs: task.maxMipPairs }) };
  };
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
    volunteers: Map<string, { assigned_hours: number; assigned_shifts: string[] }>;
  };
  status: 'optimal' | 'feasible';
  subproblems: SubproblemResult[];
  timings: EngineTimings;
}

/** When a worker is lost, the greedy fill in this thread still gives an answer. */
function fallback(sub: Subproblem, outcome: Extract<PoolOutcome, { kind: 'lost' }>): SubproblemResult {
  const greedy = solveSubproblem(sub, { deadline: 0 });
  const useIncumbent = outcome.incumbent !== undefined && outcome.incumbent.length > greedy.assignments.length;
  const assignments = useIncumbent ? outcome.incumbent! : greedy.assignments;
  const diagnostics: SubproblemDiagnostics = {
    ...greedy.diagnostics,
    filled: assignments.length,
    status: 'feasible',
    phases: [...greedy.diagnostics.phases.filter((ph) => ph.name === 'greedy'), { name: 'coverage', status: 'error', objective: null, bound: null, gap: null, ms: 0, note: outcome.reason }],
  };
  // Suggestions were checked against the greedy schedule: they do not hold for another one.
  return { ...greedy, assignments, status: 'feasible', filled: assignments.length, suggestions: useIncumbent ? [] : greedy.suggestions, diagnostics };
}

export async function scheduleProblem(problem: Problem, warnings: Warning[], options: ScheduleOptions, run: SubproblemRunner): Promise<EngineOutput> {
  const t0 = performance.now();
  const subs = decompose(problem);
  // Leave a little of the limit for assembling and explaining the result.
  const limitMs = options.timeLimitS * 1000;
  const deadline = Date.now() + limitMs - Math.min(500, limitMs * 0.05);
  const weight = subs.map((s) => s.volunteers.length * s.shifts.length + 1);
  const totalWeight = weight.reduce((a, b) => a + b, 0);
  const lanes = Math.max(1, options.lanes ?? 1);
  const t1 = performance.now();
  // Largest first, so the lanes' work ends together; at most `lanes` at a time, each given its
  // share of the time left, by its size against the work not yet started.
  const order = subs.map((_, i) => i).sort((a, b) => weight[b]! - weight[a]! || a - b);
  const results: SubproblemResult[] = new Array(subs.length);
  let unstarted = totalWeight;
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < order.length) {
      const i = order[next++]!;
      const left = Math.max(0, deadline - Date.now());
      const budgetMs = Math.min(left, (left * lanes * weight[i]!) / Math.max(1, unstarted));
      unstarted -= weight[i]!;
      const task: SolveTask = { sub: subs[i]!, backend: options.backend, deadline, budgetMs, debugLp: options.debug === 'lp', maxMipPairs: options.maxMipPairs ?? DEFAULT_MAX_MIP_PAIRS };
      const outcome = await run(task);
      results[i] = outcome.kind === 'done' ? outcome.result : fallback(subs[i]!, outcome);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, subs.length) }, lane));
  const t2 = performance.now();
  const result = assemble(problem, warnings, results);
  const t3 = performance.now();
  return {
    result,
    status: results.every((r) => r.status === 'optimal') ? 'optimal' : 'feasible',
    subproblems: results,
    timings: { build_ms: t1 - t0, solve_ms: t2 - t1, explain_ms: t3 - t2 },
  };
}

function assemble(problem: Problem, warnings: Warning[], results: SubproblemResult[]): EngineOutput['result'] {
  const { volunteers, shifts } = problem;
  const shiftVolunteers = shifts.map(() => new Set<number>());
  const volunteerShifts: number[][] = volunteers.map(() => []);
  const lockedPairs = new Set<string>();
  const add = (v: number, s: number): void => {
    shiftVolunteers[s]!.add(v);
    volunteerShifts[v]!.push(s);
  };
  for (const lock of problem.locks) {
    lockedPairs.add(pairKey(lock.volunteer, lock.shift));
    add(lock.volunteer, lock.shift);
  }
  const suggested = new Map<string, Suggestion[]>();
  for (const r of results) {
    for (const [v, s] of r.assignments) add(v, s);
    for (const entry of r.suggestions) suggested.set(`${entry.shift}\u0000${r.group}`, entry.items);
  }
  const hours = volunteerShifts.map((list) => list.reduce((t, s) => t + shifts[s]!.hours, 0));
  const state: ScheduleState = { problem, shiftVolunteers, volunteerShifts, lockedPairs, hours };

  const assigned = new Map<string, string[]>();
  const unfilled: string[] = [];
  const conflicts: ScheduleResult['conflicts'] = [];
  for (const s of shifts) {
    const members = [...shiftVolunteers[s.index]!].sort((a, b) => a - b);
    if (members.length > 0) assigned.set(s.id, members.map((v) => volunteers[v]!.id));
    let short = false;
    for (const [group, required] of s.required) {
      if (required <= 0) continue;
      const count = members.filter((v) => volunteers[v]!.group === group).length;
      if (count >= required) continue;
      short = true;
      conflicts.push(explainShortfall(state, s.index, group, required, count, suggested.get(`${s.index}\u0000${group}`) ?? []));
    }
    if (short) unfilled.push(s.id);
  }
  const summaries = new Map<string, { assigned_hours: number; assigned_shifts: string[] }>();
  for (const v of volunteers) {
    const chrono = [...volunteerShifts[v.index]!].sort((a, b) => shifts[a]!.start - shifts[b]!.start || shifts[a]!.end - shifts[b]!.end || a - b);
    summaries.set(v.id, { assigned_hours: Math.round(hours[v.index]! * 100) / 100, assigned_shifts: chrono.map((s) => shifts[s]!.id) });
  }
  return {
    assigned_shifts: assigned,
    unfilled_shifts: unfilled,
    fairness_score: fairnessScore(hours),
    conflicts,
    volunteers: summaries,
    warnings,
  };
}

