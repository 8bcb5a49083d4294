// Runs the whole scheduling path (validation, normalization, engine, JSON) in this thread,
// with both backends loaded once. HTTP tests use the real worker pool instead.
import { expect } from 'chai';
import type { PhaseOutcome, PhaseRequest, SolverBackend, SolverSession } from '../../src/engine/backends/backend.js';
import { Budget } from '../../src/engine/budget.js';
import type { MipModel } from '../../src/engine/mip-model.js';
import { highsBackend, loadHighs } from '../../src/engine/backends/highs-backend.js';
import { jslpBackend } from '../../src/engine/backends/jslp-backend.js';
import { inProcessScheduler, type Scheduler } from '../../src/engine/scheduler.js';
import { loadConfig } from '../../src/config/config.js';
import { scheduleRequest, type ScheduleCall } from '../../src/service/schedule-service.js';
import type { ScheduleRequest } from '../../src/types/schema-types.js';
import { festival, withRules, withWishes } from '../../bench/generate.js';
import { schemas } from './app.js';
import type { Prepared } from '../../src/engine/candidates.js';
import type { SubproblemIncumbent } from '../../src/engine/subproblem-runner.js';
import { decompose, type Subproblem } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';

let backends: Promise<Record<'highs' | 'jslp', SolverBackend>> | undefined;
function loaded(): Promise<Record<'highs' | 'jslp', SolverBackend>> {
  backends ??= loadHighs().then((h) => ({ highs: highsBackend(h), jslp: jslpBackend }));
  return backends;
}

/** The HiGHS backend of this thread, loaded once for every test that asks. */
export async function highsOnce(): Promise<SolverBackend> {
  return (await loaded()).highs;
}

/** A scheduler solving in this thread with both backends. */
export async function inProcess(): Promise<Scheduler> {
  return inProcessScheduler(await loaded());
}

/**
 * A scheduler solving in this thread whose HiGHS solves coverage's cold LP of one priority class
 * by its default, the dual simplex method, as before ObjectiveLevel.coldLpPrimal: for tests of
 * what comes after coverage on fixtures found then (the primal's optimum is another vertex of the
 * same value, and RINS, the levels after it and their phases take another path from it).
 */
export async function dualColdLp(): Promise<Scheduler> {
  const { highs, jslp } = await loaded();
  return inProcessScheduler({ highs: rewriting(highs, (req) => (req.presolvedPrimal ? { ...req, presolvedPrimal: false } : req)), jslp });
}

/** A scarce festival with the rules (priorities 1-5 on every shift). */
export function scarceRequest(): ScheduleRequest {
  return withRules(31, festival({ seed: 32, volunteers: 40, shifts: 90, days: 2, groups: 3, demand: 1.5 }), {
    minRestHours: 8,
    timezone: 'Europe/Berlin',
    firstDay: Date.UTC(2026, 5, 5),
    days: 2,
    utcShift: -2,
  });
}

/** The largest subproblem of a request. */
export function largest(request: ScheduleRequest): Subproblem {
  return decompose(normalizeRequest(request)).reduce((a, b) => (b.shifts.length > a.shifts.length ? b : a));
}

/** scarceRequest()'s largest subproblem: several classes unproven by their cheap bounds. */
export function scarceWithRules(): Subproblem {
  return largest(scarceRequest());
}

/**
 * Records a subproblem's incumbents (SubproblemOptions.onIncumbent) as schedules over `p`'s
 * candidate pairs, with the phase that found each.
 */
export function incumbentRecorder(
  sub: Subproblem,
  p: Prepared,
): { incumbents: Array<{ phase: string; x: Uint8Array }>; onIncumbent: (inc: SubproblemIncumbent) => void } {
  const key = (a: readonly [number, number, string]): string => a.join('|');
  const pairByKey = new Map(
    Array.from(p.candShift, (slot, pair) => [key([sub.volunteers[p.candVolunteer[pair]!]!.index, sub.shifts[slot]!.index, sub.shifts[slot]!.group]), pair]),
  );
  const incumbents: Array<{ phase: string; x: Uint8Array }> = [];
  const onIncumbent = (inc: SubproblemIncumbent): void => {
    const x = new Uint8Array(p.candShift.length);
    for (const a of inc.assignments) x[pairByKey.get(key(a))!] = 1;
    incumbents.push({ phase: inc.phase, x });
  };
  return { incumbents, onIncumbent };
}

export type Json = Record<string, any>;

/** The whole path for `request` (HiGHS, 10 s, no diagnostics unless `call` says otherwise), on `scheduler` if given (a spied backend's), else inProcess(). */
export async function solve(
  request: unknown,
  call: Partial<ScheduleCall> = {},
  scheduler?: Scheduler,
): Promise<{ result: Json; json: string; status: string }> {
  const answer = await scheduleRequest(
    request,
    { backend: 'highs', timeLimitS: 10, debug: 'off', ...call },
    { schemas: schemas(), limits: loadConfig({}).limits, scheduler: scheduler ?? (await inProcess()) },
  );
  return { result: JSON.parse(answer.json) as Json, json: answer.json, status: answer.output.status };
}

/** Slots filled: per (shift, group), the roster's entries filling the group in the shift, up to the headcount. */
export function filledSlots(request: Json, result: Json): number {
  const count = new Map<string, number>();
  for (const r of result.roster as Json[]) count.set(`${r.shift_id}\u0000${r.group}`, (count.get(`${r.shift_id}\u0000${r.group}`) ?? 0) + 1);
  let total = 0;
  for (const s of request.unassigned_shifts) {
    for (const [g, n] of Object.entries(s.required_groups as Record<string, number>)) total += Math.min(n, count.get(`${s.id}\u0000${g}`) ?? 0);
  }
  return total;
}

/** A shift on 2026-06-06 from hour `from` to hour `to` (may pass 24 for the next day). */
export function shift(id: string, from: number, to: number, required: Record<string, number>): Json {
  const at = (h: number): string => new Date(Date.UTC(2026, 5, 6, 0, 0, 0) + h * 3_600_000).toISOString().replace('.000Z', 'Z');
  return { id, start: at(from), end: at(to), required_groups: required };
}

export function volunteer(id: string, group: string, maxHours: number, name?: string): Json {
  return { id, ...(name ? { name } : {}), group, max_hours: maxHours };
}

/** One group of a request alone: its volunteers, and its shifts asking for that group only. */
export function groupOnly(whole: ScheduleRequest, group: string): ScheduleRequest {
  return {
    volunteers: whole.volunteers.filter((v) => v.group === group),
    unassigned_shifts: whole.unassigned_shifts
      .filter((s) => group in s.required_groups)
      .map((s) => ({ ...s, required_groups: { [group]: s.required_groups[group]! } })),
  };
}

/**
 * BENCHMARKS.md's unseen e-rules-scarce-150x300: a scarce festival (demand 1.4 x supply) with the
 * rules (five priority classes, New York time), its six groups joined into one subproblem of
 * 8,124 candidate pairs whose coverage runs to any limit under a minute.
 */
export function eRulesScarce(): ScheduleRequest {
  const mix = { minRestHours: 10, timezone: 'America/New_York', firstDay: Date.UTC(2026, 5, 5), days: 3, utcShift: 4 };
  return withRules(1103, festival({ seed: 1104, volunteers: 150, shifts: 300, days: 3, groups: 6, demand: 1.4 }), mix);
}

/**
 * The roster of a randomized campaign on which HiGHS 1.15.1 trapped until f9eefa8 (54 x 27, one
 * group, the rules, wishes and locks, Auckland time), and on whose later path HiGHS's fairness
 * pieces priced the schedule in hand a little lower (highs-restart.test.ts, windows.test.ts).
 */
export function trapRoster(): ScheduleRequest {
  const mix = { minRestHours: 6, timezone: 'Pacific/Auckland', firstDay: Date.UTC(2026, 5, 5), days: 1, utcShift: -12 };
  return withWishes(441477, withRules(441476, festival({ seed: 932227, volunteers: 54, shifts: 27, days: 1, groups: 1, locked: 0.09 }), mix));
}

/** `inner` with each request first passed to `change` (with the session's model), which may answer it instead (an outcome) or ask it otherwise (a request). */
export function rewriting(inner: SolverBackend, change: (req: PhaseRequest, model: MipModel) => PhaseRequest | PhaseOutcome): SolverBackend {
  return {
    ...inner,
    open(model) {
      const real = inner.open(model);
      return {
        solve(req: PhaseRequest): PhaseOutcome {
          const changed = change(req, model);
          return 'status' in changed ? changed : real.solve(changed);
        },
        dispose(): void {
          real.dispose();
        },
      };
    },
  };
}

/** Each LP a spied session solved, solved again cold in a fresh session (HiGHS's default method): the same optimum. */
export function expectColdOptima(highs: SolverBackend, opened: Opened): void {
  opened.requests.forEach((req, k) => {
    const fresh = highs.open(opened.model);
    try {
      const cold = fresh.solve({ ...req, primal: false, presolvedPrimal: false, budget: Budget.forTimeLimit(60) });
      expect(cold.status).to.equal('optimal');
      expect(cold.objective).to.be.closeTo(opened.outcomes[k]!.objective!, 1e-6);
    } finally {
      fresh.dispose();
    }
  });
}

/** A session a spy saw opened: its model, what it was asked and answered, and after which call it was disposed. */
export interface Opened {
  model: MipModel;
  requests: PhaseRequest[];
  outcomes: PhaseOutcome[];
  disposedAfter: number;
}

/** HiGHS, recording every session it opens and what each is asked, in one global order. */
export function spy(inner: SolverBackend): { backend: SolverBackend; sessions: Opened[]; calls: Array<{ session: number; relaxation: boolean }> } {
  const sessions: Opened[] = [];
  const calls: Array<{ session: number; relaxation: boolean }> = [];
  const backend: SolverBackend = {
    ...inner,
    open(model: MipModel): SolverSession {
      const real = inner.open(model);
      const opened: Opened = { model, requests: [], outcomes: [], disposedAfter: -1 };
      const id = sessions.push(opened) - 1;
      return {
        solve(req: PhaseRequest): PhaseOutcome {
          calls.push({ session: id, relaxation: req.relaxation === true });
          opened.requests.push({ ...req, rowBounds: new Map(req.rowBounds) });
          const out = real.solve(req);
          opened.outcomes.push(out);
          return out;
        },
        dispose(): void {
          opened.disposedAfter = calls.length;
          real.dispose();
        },
      };
    },
  };
  return { backend, sessions, calls };
}
