// The fast construction that always gives an answer: shifts in start order, each slot to the
// least-loaded eligible volunteer (request order breaks ties). It also completes any given
// schedule, adding every assignment that still fits, so no slot is left empty while an
// eligible volunteer is free.
import type { Prepared } from './candidates.js';

const EPS = 1e-9;

/** Per-volunteer record of assigned (non-locked) windows, kept sorted by start. */
class Timeline {
  private starts: number[] = [];
  private ends: number[] = [];

  /** Assigned windows never overlap each other, so the predecessor by start decides. */
  fits(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! < end) lo = mid + 1;
      else hi = mid;
    }
    // lo = number of windows starting before `end`; the last of them is the only one that can overlap.
    return lo === 0 || this.ends[lo - 1]! <= start;
  }

  add(start: number, end: number): void {
    let i = this.starts.length;
    while (i > 0 && this.starts[i - 1]! > start) i--;
    this.starts.splice(i, 0, start);
    this.ends.splice(i, 0, end);
  }
}

/** Shift order for construction: start, then end, then request order. */
export function chronologicalShifts(p: Prepared): number[] {
  const shifts = p.sub.shifts;
  return shifts.map((_, i) => i).sort((a, b) => shifts[a]!.start - shifts[b]!.start || shifts[a]!.end - shifts[b]!.end || a - b);
}

/** Shortest shifts first (then chronological): more slots per hour when max_hours binds. */
export function shortestFirstShifts(p: Prepared): number[] {
  const shifts = p.sub.shifts;
  return chronologicalShifts(p).sort((a, b) => shifts[a]!.hours - shifts[b]!.hours);
}

/** The better of the greedy fills in chronological and in shortest-first order (more slots, then the first). */
export function bestGreedyFill(p: Prepared): Uint8Array {
  const byTime = greedyFill(p, undefined, chronologicalShifts(p));
  const byLength = greedyFill(p, undefined, shortestFirstShifts(p));
  const count = (x: Uint8Array): number => x.reduce((t, v) => t + v, 0);
  return count(byLength) > count(byTime) ? byLength : byTime;
}

/**
 * Greedy fill. With `start`, keeps those assignments (assumed feasible) and adds to them;
 * without, builds from nothing. Shifts are taken in `order` (chronological by default).
 * Returns 0/1 per candidate pair.
 */
export function greedyFill(p: Prepared, start?: Uint8Array, order: number[] = chronologicalShifts(p)): Uint8Array {
  const x = start ? Uint8Array.from(start) : new Uint8Array(p.candShift.length);
  const nV = p.sub.volunteers.length;
  const load = Float64Array.from(p.lockedHours);
  const used = new Float64Array(nV);
  const filled = new Int32Array(p.sub.shifts.length);
  const timelines = Array.from({ length: nV }, () => new Timeline());
  for (let pair = 0; pair < x.length; pair++) {
    if (!x[pair]) continue;
    const v = p.candVolunteer[pair]!;
    const s = p.sub.shifts[p.candShift[pair]!]!;
    load[v]! += s.hours;
    used[v]! += s.hours;
    filled[p.candShift[pair]!]!++;
    timelines[v]!.add(s.start, s.end);
  }
  for (const s of order) {
    let open = p.demand[s]! - filled[s]!;
    if (open <= 0) continue;
    const shift = p.sub.shifts[s]!;
    const eligible = p.byShift[s]!.filter((pair) => {
      const v = p.candVolunteer[pair]!;
      return !x[pair] && used[v]! + shift.hours <= p.remaining[v]! + EPS && timelines[v]!.fits(shift.start, shift.end);
    });
    eligible.sort((a, b) => load[p.candVolunteer[a]!]! - load[p.candVolunteer[b]!]! || p.candVolunteer[a]! - p.candVolunteer[b]!);
    for (const pair of eligible) {
      if (open === 0) break;
      const v = p.candVolunteer[pair]!;
      x[pair] = 1;
      load[v]! += shift.hours;
      used[v]! += shift.hours;
      timelines[v]!.add(shift.start, shift.end);
      open--;
    }
  }
  return x;
}

/** Checks a 0/1 vector against every rule of the subproblem; returns the first broken rule or undefined. */
export function checkAssignment(p: Prepared, x: ArrayLike<number>): string | undefined {
  const filled = new Int32Array(p.sub.shifts.length);
  for (let v = 0; v < p.sub.volunteers.length; v++) {
    let hours = 0;
    const windows: Array<[number, number]> = [];
    for (const pair of p.byVolunteer[v]!) {
      const value = x[pair]!;
      if (value !== 0 && value !== 1) return `pair ${pair} has value ${value}`;
      if (!value) continue;
      const s = p.sub.shifts[p.candShift[pair]!]!;
      hours += s.hours;
      filled[p.candShift[pair]!]!++;
      windows.push([s.start, s.end]);
    }
    if (hours > p.remaining[v]! + 1e-6) return `volunteer ${v} over hours`;
    windows.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < windows.length; i++) if (windows[i]![0] < windows[i - 1]![1]) return `volunteer ${v} overlaps`;
  }
  for (let s = 0; s < filled.length; s++) if (filled[s]! > p.demand[s]!) return `shift ${s} over headcount`;
  return undefined;
}
