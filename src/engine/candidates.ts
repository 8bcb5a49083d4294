// The pairs (volunteer, shift) of a subproblem that could ever be assigned: the shift still has
// open slots after its locks, the volunteer is not locked into it, it does not overlap one of
// the volunteer's locked shifts, and it fits in the hours the locks leave. Everything else is
// fixed at 0 and never becomes a variable.
import { overlapCliques } from './overlap-cliques.js';
import type { Subproblem } from './subproblem.js';

const EPS = 1e-9;

export interface Prepared {
  sub: Subproblem;
  /** Open slots per shift: required minus locked, at least 0. */
  demand: Int32Array;
  /** Hours of locked assignments per volunteer. */
  lockedHours: Float64Array;
  /** Hours left under the cap per volunteer after the locks (Infinity when unlimited, 0 at least). */
  remaining: Float64Array;
  /** Candidate pairs, ordered by volunteer then shift (request order). */
  candVolunteer: Int32Array;
  candShift: Int32Array;
  /** Candidate pair indexes per shift, and per volunteer. */
  byShift: number[][];
  byVolunteer: number[][];
}

export function prepare(sub: Subproblem): Prepared {
  const nS = sub.shifts.length;
  const nV = sub.volunteers.length;
  const demand = new Int32Array(nS);
  sub.shifts.forEach((s, i) => (demand[i] = Math.max(0, s.required - s.locked)));
  const lockedHours = new Float64Array(nV);
  const remaining = new Float64Array(nV);
  sub.volunteers.forEach((v, i) => {
    lockedHours[i] = v.locks.reduce((sum, l) => sum + l.hours, 0);
    remaining[i] = Math.max(0, v.cap - lockedHours[i]);
  });

  const candVolunteer: number[] = [];
  const candShift: number[] = [];
  const byShift: number[][] = Array.from({ length: nS }, () => []);
  const byVolunteer: number[][] = Array.from({ length: nV }, () => []);
  for (let v = 0; v < nV; v++) {
    const { locks } = sub.volunteers[v]!;
    for (let s = 0; s < nS; s++) {
      if (demand[s] === 0) continue;
      const shift = sub.shifts[s]!;
      if (shift.hours > remaining[v]! + EPS) continue;
      let blocked = false;
      for (const l of locks) {
        if (l.shift === shift.index || (l.start < shift.end && shift.start < l.end)) {
          blocked = true;
          break;
        }
      }
      if (blocked) continue;
      const pair = candShift.length;
      candVolunteer.push(v);
      candShift.push(s);
      byShift[s]!.push(pair);
      byVolunteer[v]!.push(pair);
    }
  }

  return {
    sub,
    demand,
    lockedHours,
    remaining,
    candVolunteer: Int32Array.from(candVolunteer),
    candShift: Int32Array.from(candShift),
    byShift,
    byVolunteer,
  };
}

/**
 * Per volunteer: the maximal cliques of the group's shifts restricted to the volunteer's
 * candidates (as pair indexes), those with at least two members. Only a MIP needs them.
 */
export function volunteerCliques(p: Prepared): number[][][] {
  const shiftCliques = overlapCliques(p.sub.shifts).filter((c) => c.length > 1);
  return p.byVolunteer.map((pairs) => {
    const pairOfShift = new Map<number, number>();
    for (const pair of pairs) pairOfShift.set(p.candShift[pair]!, pair);
    const seen = new Set<string>();
    const mine: number[][] = [];
    for (const clique of shiftCliques) {
      const members = clique.flatMap((s) => (pairOfShift.has(s) ? [pairOfShift.get(s)!] : []));
      if (members.length < 2) continue;
      const key = members.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      mine.push(members);
    }
    return mine;
  });
}
