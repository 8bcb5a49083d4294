// Fast improvements in plain code, before (and often instead of) a MIP: ejection moves that fill
// one more slot by moving a volunteer's shift to someone else, and transfers and swaps that
// even out hours without changing which slots are filled. Deterministic: fixed scan order and
// move caps, never the clock, decide where they stop (the budget only guards the deadline and
// cancellation).
import type { Budget } from './budget.js';
import type { Prepared } from './candidates.js';

const EPS = 1e-9;

/** The mutable state of one subproblem's schedule, with the checks every move needs. */
export class LocalState {
  readonly x: Uint8Array;
  /** Hours of new assignments per volunteer (locks excluded), and total load (locks included). */
  readonly used: Float64Array;
  readonly load: Float64Array;
  readonly filled: Int32Array;
  /** Assigned pairs per volunteer, kept sorted by shift start. */
  private readonly mine: number[][];

  constructor(
    readonly p: Prepared,
    x: Uint8Array,
  ) {
    this.x = Uint8Array.from(x);
    const nV = p.sub.volunteers.length;
    this.used = new Float64Array(nV);
    this.load = Float64Array.from(p.lockedHours);
    this.filled = new Int32Array(p.sub.shifts.length);
    this.mine = Array.from({ length: nV }, () => []);
    for (let pair = 0; pair < x.length; pair++) if (x[pair]) this.place(pair);
  }

  private shiftOf(pair: number) {
    return this.p.sub.shifts[this.p.candShift[pair]!]!;
  }

  private place(pair: number): void {
    const v = this.p.candVolunteer[pair]!;
    const s = this.shiftOf(pair);
    this.x[pair] = 1;
    this.used[v]! += s.hours;
    this.load[v]! += s.hours;
    this.filled[this.p.candShift[pair]!]!++;
    const list = this.mine[v]!;
    let i = list.length;
    while (i > 0 && this.shiftOf(list[i - 1]!).start > s.start) i--;
    list.splice(i, 0, pair);
  }

  assign(pair: number): void {
    this.place(pair);
  }

  unassign(pair: number): void {
    const v = this.p.candVolunteer[pair]!;
    const s = this.shiftOf(pair);
    this.x[pair] = 0;
    this.used[v]! -= s.hours;
    this.load[v]! -= s.hours;
    this.filled[this.p.candShift[pair]!]!--;
    const list = this.mine[v]!;
    list.splice(list.indexOf(pair), 1);
  }

  /** The volunteer's assigned pairs whose shifts overlap [start, end). */
  overlapping(v: number, start: number, end: number): number[] {
    const out: number[] = [];
    for (const pair of this.mine[v]!) {
      const s = this.shiftOf(pair);
      if (s.start >= end) break;
      if (s.end > start) out.push(pair);
    }
    return out;
  }

  /** Can `pair`'s volunteer take its shift, if the volunteer gave up `without` (a pair or -1)? */
  canTake(pair: number, without = -1): boolean {
    if (this.x[pair]) return false;
    const v = this.p.candVolunteer[pair]!;
    const s = this.shiftOf(pair);
    const freed = without >= 0 ? this.shiftOf(without).hours : 0;
    if (this.used[v]! - freed + s.hours > this.p.remaining[v]! + EPS) return false;
    const clash = this.overlapping(v, s.start, s.end);
    return clash.length === 0 || (clash.length === 1 && clash[0] === without);
  }

  assignedPairs(v: number): readonly number[] {
    return this.mine[v]!;
  }
}

/**
 * Fills more slots with augmenting chains: volunteer B takes a short shift s by giving up one of
 * their shifts s', which C takes by giving up s'', and so on, until someone takes the last one
 * outright. Each chain fills one more slot. Depth and the nodes tried per slot are capped.
 */
export function improveCoverage(p: Prepared, x: Uint8Array, budget: Budget, maxDepth = 6, maxNodes = 5000): Uint8Array {
  const st = new LocalState(p, x);
  let improved = true;
  while (improved && !budget.expired()) {
    improved = false;
    for (let s = 0; s < p.sub.shifts.length && !budget.expired(); s++) {
      while (st.filled[s]! < p.demand[s]!) {
        const budget = { nodes: maxNodes };
        if (!augment(st, s, maxDepth, new Set(), budget)) break;
        improved = true;
      }
    }
  }
  return st.x;
}

function augment(st: LocalState, s: number, depth: number, visited: Set<number>, budget: { nodes: number }): boolean {
  const { p } = st;
  for (const pair of p.byShift[s]!) {
    if (st.canTake(pair)) {
      st.assign(pair);
      return true;
    }
  }
  if (depth === 0) return false;
  const shift = p.sub.shifts[s]!;
  for (const pair of p.byShift[s]!) {
    const b = p.candVolunteer[pair]!;
    if (st.x[pair] || visited.has(b)) continue;
    // What B could give up: the one shift overlapping s, or (none overlapping) any, for hours.
    const clash = st.overlapping(b, shift.start, shift.end);
    const give = clash.length === 1 ? clash : clash.length === 0 ? [...st.assignedPairs(b)] : [];
    for (const old of give) {
      if (--budget.nodes < 0) return false;
      if (!st.canTake(pair, old)) continue;
      st.unassign(old);
      st.assign(pair);
      visited.add(b);
      if (augment(st, p.candShift[old]!, depth - 1, visited, budget)) return true;
      visited.delete(b);
      st.unassign(pair);
      st.assign(old);
    }
  }
  return false;
}

/**
 * Evens out hours without changing how many slots each shift has: transfers (a shift moves
 * from a busier to a less busy volunteer) and swaps (two volunteers exchange shifts of
 * different lengths), each strictly lowering the sum of squared hours.
 */
export function improveFairness(p: Prepared, x: Uint8Array, budget: Budget, maxPasses = 50): Uint8Array {
  const st = new LocalState(p, x);
  const nS = p.sub.shifts.length;
  // Pair of (volunteer, shift), or -1: an O(1) lookup for swaps.
  const pairOf = new Map<number, number>();
  for (let pair = 0; pair < p.candShift.length; pair++) pairOf.set(p.candVolunteer[pair]! * nS + p.candShift[pair]!, pair);
  const hoursOf = (pair: number): number => p.sub.shifts[p.candShift[pair]!]!.hours;
  for (let pass = 0; pass < maxPasses && !budget.expired(); pass++) {
    let improved = false;
    // Transfers.
    for (let s = 0; s < p.sub.shifts.length; s++) {
      if (budget.expired()) return st.x;
      const pairs = p.byShift[s]!;
      for (const from of pairs) {
        if (!st.x[from]) continue;
        const a = p.candVolunteer[from]!;
        const h = hoursOf(from);
        let best = -1;
        let bestLoad = st.load[a]! - h - EPS;
        for (const to of pairs) {
          const b = p.candVolunteer[to]!;
          if (b === a || st.x[to] || !(st.load[b]! < bestLoad)) continue;
          if (!st.canTake(to)) continue;
          best = to;
          bestLoad = st.load[b]!;
        }
        if (best >= 0) {
          st.unassign(from);
          st.assign(best);
          improved = true;
        }
      }
    }
    // Swaps: A (busier) gives s1 to B and takes B's shorter s2.
    for (let s1 = 0; s1 < p.sub.shifts.length; s1++) {
      if (budget.expired()) return st.x;
      for (const aPair of p.byShift[s1]!) {
        if (!st.x[aPair]) continue;
        const a = p.candVolunteer[aPair]!;
        const h1 = hoursOf(aPair);
        let done = false;
        for (const bPairForS1 of p.byShift[s1]!) {
          if (done) break;
          const b = p.candVolunteer[bPairForS1]!;
          // Only a less busy B can make the swap pay.
          if (b === a || st.x[bPairForS1] || !(st.load[b]! < st.load[a]! - EPS)) continue;
          for (const bPair of st.assignedPairs(b)) {
            const h2 = hoursOf(bPair);
            const d = h1 - h2;
            if (!(d > EPS && st.load[b]! + d < st.load[a]! - EPS)) continue;
            const s2 = p.candShift[bPair]!;
            const aPairForS2 = pairOf.get(a * nS + s2);
            if (aPairForS2 === undefined || st.x[aPairForS2]) continue;
            // Apply, then check both can hold their new shift; undo if not.
            st.unassign(aPair);
            st.unassign(bPair);
            if (st.canTake(aPairForS2) && st.canTake(bPairForS1)) {
              st.assign(aPairForS2);
              st.assign(bPairForS1);
              improved = true;
              done = true;
              break;
            }
            st.assign(aPair);
            st.assign(bPair);
          }
        }
      }
    }
    if (!improved) break;
  }
  return st.x;
}
