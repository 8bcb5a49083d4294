// The fast construction that always gives an answer: slot kinds by priority (highest first),
// then in start order, each slot to the least-loaded eligible volunteer (request order breaks
// ties). It also completes any given schedule, adding every assignment that still fits, so no
// slot is left empty while an eligible volunteer is free. The rules are asked through the one
// roster state (src/rules/roster.ts).
import type { Roster } from '../rules/roster.js';
import { lockedRoster, placementOf, type Prepared } from './candidates.js';

/** Slot order for construction: priority (highest first), start, end, then request order. */
export function chronologicalShifts(p: Prepared): number[] {
  const shifts = p.sub.shifts;
  return shifts
    .map((_, i) => i)
    .sort((a, b) => shifts[b]!.priority - shifts[a]!.priority || shifts[a]!.start - shifts[b]!.start || shifts[a]!.end - shifts[b]!.end || a - b);
}

/** Shortest shifts first within a priority class (then chronological): more slots per hour when max_hours binds. */
export function shortestFirstShifts(p: Prepared): number[] {
  const shifts = p.sub.shifts;
  return chronologicalShifts(p).sort((a, b) => shifts[b]!.priority - shifts[a]!.priority || shifts[a]!.hours - shifts[b]!.hours);
}

/** Filled slots per priority class (Prepared.classes order) of a 0/1 vector over pairs. */
export function filledByClass(p: Prepared, x: ArrayLike<number>): number[] {
  const counts = p.classes.map(() => 0);
  for (let pair = 0; pair < p.candShift.length; pair++) if (x[pair]) counts[p.slotClass[p.candShift[pair]!]!]!++;
  return counts;
}

/** Lexicographic comparison of filled slots per class: > 0 when `a` fills more of a higher class. */
export function compareCoverage(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! - b[k]!;
  return 0;
}

/** The better of the greedy fills in chronological and in shortest-first order (more slots by class, then the first). */
export function bestGreedyFill(p: Prepared): Uint8Array {
  const byTime = greedyFill(p, undefined, chronologicalShifts(p));
  const byLength = greedyFill(p, undefined, shortestFirstShifts(p));
  return compareCoverage(filledByClass(p, byLength), filledByClass(p, byTime)) > 0 ? byLength : byTime;
}

/** A roster holding the locks and the assignments of `x`; `filled` counts new assignments per slot kind. */
export function rosterOf(p: Prepared, x: ArrayLike<number>): { roster: Roster; filled: Int32Array } {
  const roster = lockedRoster(p.sub);
  const filled = new Int32Array(p.sub.shifts.length);
  for (let pair = 0; pair < p.candShift.length; pair++) {
    if (!x[pair]) continue;
    roster.add(p.candVolunteer[pair]!, placementOf(p.sub.shifts[p.candShift[pair]!]!));
    filled[p.candShift[pair]!]!++;
  }
  return { roster, filled };
}

/**
 * Greedy fill. With `start`, keeps those assignments (assumed feasible) and adds to them;
 * without, builds from nothing. Slot kinds are taken in `order` (chronological by default).
 * Returns 0/1 per candidate pair.
 */
export function greedyFill(p: Prepared, start?: Uint8Array, order: number[] = chronologicalShifts(p)): Uint8Array {
  const x = start ? Uint8Array.from(start) : new Uint8Array(p.candShift.length);
  const { roster, filled } = rosterOf(p, x);
  for (const s of order) {
    let open = p.demand[s]! - filled[s]!;
    if (open <= 0) continue;
    const shift = p.sub.shifts[s]!;
    const eligible = p.byShift[s]!.filter((pair) => !x[pair] && roster.fits(p.candVolunteer[pair]!, shift));
    eligible.sort((a, b) => roster.hours(p.candVolunteer[a]!) - roster.hours(p.candVolunteer[b]!) || p.candVolunteer[a]! - p.candVolunteer[b]!);
    for (const pair of eligible) {
      if (open === 0) break;
      // Volunteers of one slot kind never interact: what fitted before the first pick still fits.
      x[pair] = 1;
      roster.add(p.candVolunteer[pair]!, placementOf(shift));
      open--;
    }
  }
  return x;
}

/** Checks a 0/1 vector against every rule of the subproblem; returns the first broken rule or undefined. */
export function checkAssignment(p: Prepared, x: ArrayLike<number>): string | undefined {
  const roster = lockedRoster(p.sub);
  const filled = new Int32Array(p.sub.shifts.length);
  for (let pair = 0; pair < p.candShift.length; pair++) {
    const value = x[pair]!;
    if (value !== 0 && value !== 1) return `pair ${pair} has value ${value}`;
    if (!value) continue;
    const v = p.candVolunteer[pair]!;
    const shift = p.sub.shifts[p.candShift[pair]!]!;
    // Every rule is monotone (a set that breaks none can be added in any order), so checking each addition suffices.
    if (!roster.fits(v, shift)) return `volunteer ${v} cannot take slot kind ${p.candShift[pair]}`;
    roster.add(v, placementOf(shift));
    filled[p.candShift[pair]!]!++;
  }
  for (let s = 0; s < filled.length; s++) if (filled[s]! > p.demand[s]!) return `shift ${s} over headcount`;
  return undefined;
}

/**
 * The previous assignments that fit together, as a start for re-planning: the pairs flagged in
 * `previous`, in pair order (volunteer, then slot kind), each kept when the roster and its slot
 * kind still have room. The greedy fill then completes it.
 */
export function previousStart(p: Prepared, previous: Uint8Array): Uint8Array {
  return addFitting(p, new Uint8Array(p.candShift.length), previous);
}

/**
 * `x` (assumed feasible) with each pair `wanted` flags added, in pair order, where the roster and
 * its slot kind still have room (previous assignments for re-planning; a class's assignments a
 * re-solve of the classes above left out).
 */
export function addFitting(p: Prepared, start: Uint8Array, wanted: ArrayLike<number>): Uint8Array {
  const x = Uint8Array.from(start);
  const { roster, filled } = rosterOf(p, x);
  for (let pair = 0; pair < p.candShift.length; pair++) {
    if (!wanted[pair] || x[pair]) continue;
    const s = p.candShift[pair]!;
    const v = p.candVolunteer[pair]!;
    const shift = p.sub.shifts[s]!;
    if (filled[s]! >= p.demand[s]! || !roster.fits(v, shift)) continue;
    x[pair] = 1;
    roster.add(v, placementOf(shift));
    filled[s]!++;
  }
  return x;
}
