// The volunteers' wishes as a subproblem's objective terms (CONTRACT.md sections 11 and 14):
// previous assignments kept (level 3, most), avoided shifts (level 4, fewest), hours short of min_hours (level 5, least) and preferred shifts
// (level 6, most). Wishes are never rules: every pair stays a candidate, and only the objective
// sees them. A level that no pair or volunteer of the subproblem touches is absent, so a
// request without wishes builds the same model and runs the same phases as before. Locked
// assignments only add constants, which the engine leaves out (the result counts them).
import type { Prepared } from './candidates.js';
import type { KeepWishes } from './local-search.js';

/** Shortfalls in hours are equal within this (sums of shift lengths in floating point). */
export const SHORT_EPS = 1e-7;

export interface SoftGoals {
  /** Per candidate pair: 1 when it keeps a previous assignment (the volunteer in that shift, in a group the assignment allows). */
  previous: Uint8Array;
  /** Per candidate pair: 1 when the volunteer asked to avoid its shift. */
  avoided: Uint8Array;
  /** Per candidate pair: 1 when the volunteer asked for its shift. */
  preferred: Uint8Array;
  /** Per volunteer with candidates: the hours still wanted after the locks (min_hours - locked hours, at least 0); 0 without candidates. */
  wanted: Float64Array;
  /** Which levels this subproblem has: some pair keeping a previous assignment, some candidate pair avoided, some volunteer with candidates short, some pair preferred. */
  uses: { previous: boolean; avoided: boolean; short: boolean; preferred: boolean };
}

const cache = new WeakMap<Prepared, SoftGoals>();

/** The subproblem's wishes, read once per prepared subproblem. */
export function softGoals(p: Prepared): SoftGoals {
  let goals = cache.get(p);
  if (!goals) {
    goals = readGoals(p);
    cache.set(p, goals);
  }
  return goals;
}

function readGoals(p: Prepared): SoftGoals {
  const n = p.candShift.length;
  const avoided = new Uint8Array(n);
  const preferred = new Uint8Array(n);
  const previous = new Uint8Array(n);
  const wanted = new Float64Array(p.sub.volunteers.length);
  const uses = { previous: false, avoided: false, short: false, preferred: false };
  p.sub.volunteers.forEach((v, vi) => {
    const pairs = p.byVolunteer[vi]!;
    if (v.previous.length > 0) {
      const groupsAt = new Map(v.previous.map((a) => [a.shift, a.groups]));
      for (const pair of pairs) {
        const slot = p.sub.shifts[p.candShift[pair]!]!;
        if (groupsAt.get(slot.index)?.includes(slot.group)) {
          previous[pair] = 1;
          uses.previous = true;
        }
      }
    }
    // A volunteer without candidates is as short in every schedule: a constant, left out.
    wanted[vi] = pairs.length > 0 ? Math.max(0, v.minHours - p.lockedHours[vi]!) : 0;
    if (wanted[vi] > SHORT_EPS) uses.short = true;
    if (v.avoided.length === 0 && v.preferred.length === 0) return;
    const avoid = new Set(v.avoided);
    const prefer = new Set(v.preferred);
    for (const pair of pairs) {
      const shift = p.sub.shifts[p.candShift[pair]!]!.index;
      if (avoid.has(shift)) {
        avoided[pair] = 1;
        uses.avoided = true;
      }
      if (prefer.has(shift)) {
        preferred[pair] = 1;
        uses.preferred = true;
      }
    }
  });
  return { previous, avoided, preferred, wanted, uses };
}

/** Whether any level of wishes applies to the subproblem. */
export const hasWishes = (g: SoftGoals): boolean => g.uses.previous || g.uses.avoided || g.uses.short || g.uses.preferred;

/** What fairness's local moves must keep as met (the wishes' levels run before it), if the subproblem has wishes. */
export const wishesToKeep = (g: SoftGoals): KeepWishes | undefined => (hasWishes(g) ? { goals: g, moveKeepsWishes } : undefined);

/** Previous assignments kept by new assignments (a 0/1 vector or column values over pairs). */
export function previousCount(g: SoftGoals, x: ArrayLike<number>): number {
  let total = 0;
  for (let pair = 0; pair < g.previous.length; pair++) if (g.previous[pair] && x[pair]! > 0.5) total++;
  return total;
}

/** Most previous assignments any schedule keeps (see flaggedBound). */
export const previousBound = (p: Prepared, g: SoftGoals): number => flaggedBound(p, g.previous);

/**
 * Most pairs among those `flags` marks that one schedule can hold: counted per volunteer (one
 * slot per shift: a shift whose pairs of several groups are marked counts once) and per slot
 * kind (at most its open slots); the lesser of the two.
 */
function flaggedBound(p: Prepared, flags: Uint8Array): number {
  let byVolunteer = 0;
  p.byVolunteer.forEach((pairs) => {
    const shifts = new Set<number>();
    for (const pair of pairs) if (flags[pair]) shifts.add(p.sub.shifts[p.candShift[pair]!]!.index);
    byVolunteer += shifts.size;
  });
  let bySlot = 0;
  p.byShift.forEach((pairs, s) => {
    let n = 0;
    for (const pair of pairs) n += flags[pair]!;
    bySlot += Math.min(n, p.demand[s]!);
  });
  return Math.min(byVolunteer, bySlot);
}

/** New assignments to avoided shifts, for a 0/1 vector (or column values) over pairs. */
export function avoidedCount(g: SoftGoals, x: ArrayLike<number>): number {
  let total = 0;
  for (let pair = 0; pair < g.avoided.length; pair++) if (g.avoided[pair] && x[pair]! > 0.5) total++;
  return total;
}

/** New assignments to preferred shifts. */
export function preferredCount(g: SoftGoals, x: ArrayLike<number>): number {
  let total = 0;
  for (let pair = 0; pair < g.preferred.length; pair++) if (g.preferred[pair] && x[pair]! > 0.5) total++;
  return total;
}

/** Hours each volunteer gets from new assignments. */
export function newHours(p: Prepared, x: ArrayLike<number>): Float64Array {
  const hours = new Float64Array(p.sub.volunteers.length);
  for (let pair = 0; pair < p.candShift.length; pair++) if (x[pair]! > 0.5) hours[p.candVolunteer[pair]!]! += p.sub.shifts[p.candShift[pair]!]!.hours;
  return hours;
}

/** Hours short of min_hours, summed over the subproblem's volunteers (locks counted in `wanted`). */
export function shortfall(p: Prepared, g: SoftGoals, x: ArrayLike<number>): number {
  const hours = newHours(p, x);
  let total = 0;
  g.wanted.forEach((w, v) => (total += Math.max(0, w - hours[v]!)));
  return total;
}

/** A volunteer's shortfall at `load` new hours. */
export const shortAt = (g: SoftGoals, v: number, load: number): number => Math.max(0, g.wanted[v]! - load);

/**
 * Whether a local move keeps every wish at least as well met: it gives up the pairs `out` and
 * takes the pairs `into`, and `load(v)` is each volunteer's hours of new assignments before it.
 * Local search for fairness runs after the wishes' levels, so it may not make any of them worse.
 */
export function moveKeepsWishes(p: Prepared, g: SoftGoals, out: readonly number[], into: readonly number[], load: (v: number) => number): boolean {
  let kept = 0;
  let avoided = 0;
  let preferred = 0;
  const delta = new Map<number, number>();
  for (const pair of out) {
    kept -= g.previous[pair]!;
    avoided -= g.avoided[pair]!;
    preferred -= g.preferred[pair]!;
    const v = p.candVolunteer[pair]!;
    delta.set(v, (delta.get(v) ?? 0) - p.sub.shifts[p.candShift[pair]!]!.hours);
  }
  for (const pair of into) {
    kept += g.previous[pair]!;
    avoided += g.avoided[pair]!;
    preferred += g.preferred[pair]!;
    const v = p.candVolunteer[pair]!;
    delta.set(v, (delta.get(v) ?? 0) + p.sub.shifts[p.candShift[pair]!]!.hours);
  }
  if (kept < 0 || avoided > 0 || preferred < 0) return false;
  let short = 0;
  for (const [v, d] of delta) short += shortAt(g, v, load(v) + d) - shortAt(g, v, load(v));
  return short <= SHORT_EPS;
}

/**
 * The cheap bounds before any solver: no schedule has fewer than 0 avoided; none is less short
 * than when each volunteer took every candidate hour their cap allows; none has more preferred
 * assignments than the preferred pairs, counted per volunteer and per slot kind.
 */
export function shortfallBound(p: Prepared, g: SoftGoals): number {
  let total = 0;
  p.sub.volunteers.forEach((_, v) => {
    let candidateHours = 0;
    for (const pair of p.byVolunteer[v]!) candidateHours += p.sub.shifts[p.candShift[pair]!]!.hours;
    total += Math.max(0, g.wanted[v]! - Math.min(p.remaining[v]!, candidateHours));
  });
  return total;
}

export const preferredBound = (p: Prepared, g: SoftGoals): number => flaggedBound(p, g.preferred);
