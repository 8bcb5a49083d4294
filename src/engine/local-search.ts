// Fast improvements in plain code, before (and often instead of) a MIP: ejection moves that fill
// one more slot by moving a volunteer's shift to someone else, transfers and swaps that meet the
// volunteers' wishes better, and transfers and swaps that even out hours, neither changing
// which slots are filled (fairness's trade-downs and gap moves change which, never how many per
// priority). Deterministic: fixed scan order and
// move caps, never the clock, decide where they stop (the budget only guards the deadline and
// cancellation).
import { HOURS_EPS } from '../rules/hours.js';
import { conflictsWithRest, restMs } from '../rules/spacing.js';
import type { Roster } from '../rules/roster.js';
import type { Budget } from './budget.js';
import { pairAt, placementOf, type Prepared } from './candidates.js';
import { rosterOf } from './greedy.js';
import { SHORT_EPS, type SoftGoals, type moveKeepsWishes } from './soft-goals.js';
import type { SubShift } from './subproblem.js';

/** Hours are compared with the hours rule's tolerance. */
const EPS = HOURS_EPS;
/** LocalState.clashing: no assignment conflicts, or more than one does. */
const NO_CLASH = -1;
const MANY_CLASHES = -2;

/** The mutable state of one subproblem's schedule: the 0/1 vector over pairs, kept in step with the roster every rule reads. */
export class LocalState {
  readonly x: Uint8Array;
  readonly filled: Int32Array;
  private readonly roster: Roster;
  /** Assigned pairs per volunteer, kept sorted by shift start. */
  private readonly mine: number[][];
  /**
   * Per volunteer, a count of their changes; per pair, that count (plus 1) when canTake last asked
   * the roster, and its answer. Whether a volunteer fits a shift depends on their own schedule
   * alone, so an answer holds until they change: the chains ask the same pairs again and again.
   */
  private readonly version: Int32Array;
  /** Per volunteer: their rest in ms. */
  private readonly rest: Float64Array;
  private readonly askedAt: Int32Array;
  private readonly fitted: Uint8Array;
  /** Assignments and unassignments made so far: the schedule is unchanged while this is. */
  private changes = 0;
  /**
   * Per slot kind, the outright takers found (outrightTaker) while `changes` was `takersAt` - 1:
   * the first pair whose volunteer can take the slot kind as the schedule stands, and the first
   * after it of another volunteer (-1: none). A chain's last links ask the same slot kinds again
   * and again without a move in between (on a scarce roster with the rules, half the questions).
   */
  private readonly takersAt: Float64Array;
  private readonly firstTaker: Int32Array;
  private readonly secondTaker: Int32Array;

  constructor(
    readonly p: Prepared,
    x: Uint8Array,
  ) {
    this.x = Uint8Array.from(x);
    ({ roster: this.roster, filled: this.filled } = rosterOf(p, this.x));
    this.mine = p.sub.volunteers.map(() => []);
    for (let pair = 0; pair < x.length; pair++) if (x[pair]) this.insert(pair);
    this.version = new Int32Array(p.sub.volunteers.length);
    this.rest = Float64Array.from(p.sub.volunteers, restMs);
    this.askedAt = new Int32Array(p.candShift.length);
    this.fitted = new Uint8Array(p.candShift.length);
    this.takersAt = new Float64Array(p.sub.shifts.length);
    this.firstTaker = new Int32Array(p.sub.shifts.length);
    this.secondTaker = new Int32Array(p.sub.shifts.length);
  }

  private insert(pair: number): void {
    const list = this.mine[this.p.candVolunteer[pair]!]!;
    const start = this.shiftOf(pair).start;
    let i = list.length;
    while (i > 0 && this.shiftOf(list[i - 1]!).start > start) i--;
    list.splice(i, 0, pair);
  }

  private shiftOf(pair: number): SubShift {
    return this.p.sub.shifts[this.p.candShift[pair]!]!;
  }

  /** Hours of the pair's shift. */
  hoursOf(pair: number): number {
    return this.shiftOf(pair).hours;
  }

  /** Hours of the volunteer, locks included. */
  load(v: number): number {
    return this.roster.hours(v);
  }

  assign(pair: number): void {
    this.changes++;
    this.version[this.p.candVolunteer[pair]!]!++;
    this.x[pair] = 1;
    this.filled[this.p.candShift[pair]!]!++;
    this.roster.add(this.p.candVolunteer[pair]!, placementOf(this.shiftOf(pair)));
    this.insert(pair);
  }

  unassign(pair: number): void {
    this.changes++;
    const v = this.p.candVolunteer[pair]!;
    this.version[v]!++;
    this.x[pair] = 0;
    this.filled[this.p.candShift[pair]!]!--;
    this.roster.remove(v, this.shiftOf(pair));
    const list = this.mine[v]!;
    list.splice(list.indexOf(pair), 1);
  }

  /** Gives up the pairs `out`, then takes the pairs `into` (a transfer or a swap). */
  move(out: readonly number[], into: readonly number[]): void {
    for (const pair of out) this.unassign(pair);
    for (const pair of into) this.assign(pair);
  }

  /**
   * The one pair of the volunteer's new assignments that conflicts with `pair`'s shift (overlap
   * or rest: the spacing rule); NO_CLASH where none does, MANY_CLASHES where more than one does.
   */
  clashing(pair: number): number {
    const v = this.p.candVolunteer[pair]!;
    const s = this.shiftOf(pair);
    const rest = this.rest[v]!;
    let found = NO_CLASH;
    for (const q of this.mine[v]!) {
      const t = this.shiftOf(q);
      if (t.start >= s.end + rest) break;
      if (t.index !== s.index && conflictsWithRest(rest, t, s)) {
        if (found !== NO_CLASH) return MANY_CLASHES;
        found = q;
      }
    }
    return found;
  }

  /** Whether one filled slot moved from slot kind `from` to slot kind `to` leaves no fewer slot kinds fully staffed. */
  keepsStaffing(from: number, to: number): boolean {
    const full = (s: number, change: number): number => (this.filled[s]! + change >= this.p.demand[s]! ? 1 : 0);
    return full(to, 1) - full(to, 0) >= full(from, 0) - full(from, -1);
  }

  /** Can `pair`'s volunteer take its shift, if the volunteer gave up `without` (a pair or -1)? */
  canTake(pair: number, without = -1): boolean {
    if (this.x[pair]) return false;
    const v = this.p.candVolunteer[pair]!;
    if (without >= 0) return this.roster.fits(v, this.shiftOf(pair), this.shiftOf(without));
    const stamp = this.version[v]! + 1;
    if (this.askedAt[pair] !== stamp) {
      this.askedAt[pair] = stamp;
      this.fitted[pair] = this.roster.fits(v, this.shiftOf(pair)) ? 1 : 0;
    }
    return this.fitted[pair] === 1;
  }

  /** The first candidate pair of slot kind `s`, not volunteer `but`'s, whose volunteer can take it as the schedule stands; -1 if none. */
  outrightTaker(s: number, but: number): number {
    if (this.takersAt[s] !== this.changes + 1) {
      let first = -1;
      let second = -1;
      // A volunteer has one pair per slot kind (prepare), so the taker after the first is another volunteer.
      for (const pair of this.p.byShift[s]!) {
        if (!this.canTake(pair)) continue;
        if (first < 0) first = pair;
        else {
          second = pair;
          break;
        }
      }
      this.takersAt[s] = this.changes + 1;
      this.firstTaker[s] = first;
      this.secondTaker[s] = second;
    }
    const first = this.firstTaker[s]!;
    return first < 0 || this.p.candVolunteer[first] !== but ? first : this.secondTaker[s]!;
  }

  /** The volunteer's assigned pairs, in start order. */
  assignedPairs(v: number): readonly number[] {
    return this.mine[v]!;
  }
}

/** How far improveCoverage's chains search, and which slots they may fill. */
export interface ChainOptions {
  /** Links in a chain at most (default 6). */
  maxDepth?: number;
  /** Nodes a chain's search may try from one open slot in the first pass (default 5,000; LATER_PASS_NODES after). */
  maxNodes?: number;
  search?: ChainSearch;
  /**
   * Only this priority class (Prepared.slotClass) gains: the chains start from its open slots
   * alone, and the trades keep every other class's count (a one-for-two trade gives up a slot of
   * the class of one it takes; a trade for a shorter slot stays in its class). For the lowest
   * class after the classes above were solved (levels.ts chainsForLowestClass): a chain from an
   * open slot of a class above can only fail there, or fill more of a class its level proved or
   * held, which that step refuses; such searches took most of its time.
   */
  onlyClass?: number;
}

/**
 * Fills more slots with augmenting chains: volunteer B takes a short shift s by giving up one of
 * their shifts s', which C takes by giving up s'', and so on, until someone takes the last one
 * outright. Each chain fills one more slot. Depth and the nodes tried per slot are capped.
 */
export function improveCoverage(p: Prepared, x: Uint8Array, budget: Budget, options: ChainOptions = {}): Uint8Array {
  const { maxDepth = 6, maxNodes = 5000, search = augment, onlyClass } = options;
  const st = new LocalState(p, x);
  const visited: Visited = { mark: new Int32Array(p.sub.volunteers.length), chain: 0 };
  const fill = (state: LocalState, nodes: number): void => {
    let improved = true;
    for (let pass = 0; improved && !budget.expired(); pass++) {
      improved = false;
      for (let s = 0; s < p.sub.shifts.length && !budget.expired(); s++) {
        if (onlyClass !== undefined && p.slotClass[s] !== onlyClass) continue;
        while (state.filled[s]! < p.demand[s]!) {
          const budget = { nodes: pass === 0 ? nodes : Math.min(nodes, LATER_PASS_NODES) };
          visited.chain++;
          if (!search(state, s, maxDepth, visited, budget)) break;
          improved = true;
        }
      }
      // Once no chain fills a slot: a volunteer trades one shift for two open slots, and the
      // chains get another try at the slot given up (with onlyClass, where it is of that class).
      if (!improved) improved = oneForTwo(state, budget, onlyClass);
    }
  };
  fill(st, maxNodes);
  // Then, on a copy: volunteers trade shifts for shorter open ones (the same slots filled, fewer
  // hours used), and the chains and trades try again with the hours freed. Kept only when it
  // fills more: where hours are scarce, the best schedules fill the short shifts.
  const total = (state: LocalState): number => state.filled.reduce((t, n) => t + n, 0);
  if (budget.expired() || !p.demand.some((d, s) => st.filled[s]! < d && (onlyClass === undefined || p.slotClass[s] === onlyClass))) return st.x;
  const trial = new LocalState(p, st.x);
  // Shorter chains here: each round searches every open slot again, and most gains are direct.
  while (!budget.expired() && tradeDown(trial, onlyClass !== undefined)) fill(trial, TRIAL_NODES);
  return total(trial) > total(st) ? trial.x : st.x;
}

const TRIAL_NODES = 200;
/**
 * Nodes a chain's search may try in the passes over the open slots after the first (maxNodes in
 * the first). Those passes retry every slot still open once a chain or a trade has changed the
 * schedule; measured on 11 instances (Curtois 9, 12, 13 and 24, the scarce festivals, a 400 x 300
 * festival with the rules), every chain they found took at most 29 nodes, while searches of up to
 * 5,000 nodes that found nothing were a third to two thirds of the augmenting time (on a scarce
 * roster with the rules, 150 x 300: 1.5 of 2.5 s).
 */
const LATER_PASS_NODES = 200;

/**
 * Each volunteer gives up a shift for the shortest open slot of no lower priority they can take
 * in its place (the same slots filled, fewer hours used), of the same priority with `sameClass`
 * (every class's count kept). True when a trade was made.
 */
function tradeDown(st: LocalState, sameClass: boolean): boolean {
  const { p } = st;
  const shiftOf = p.candShift;
  let traded = false;
  for (let v = 0; v < p.sub.volunteers.length; v++) {
    for (const o of [...st.assignedPairs(v)]) {
      let best = -1;
      const from = p.slotClass[shiftOf[o]!]!;
      for (const q of p.byVolunteer[v]!) {
        const s = shiftOf[q]!;
        if (st.x[q] || s === shiftOf[o] || st.filled[s]! >= p.demand[s]! || p.slotClass[s]! > from || (sameClass && p.slotClass[s] !== from)) continue;
        if (!(st.hoursOf(q) < (best >= 0 ? st.hoursOf(best) : st.hoursOf(o)) - EPS) || !st.canTake(q, o)) continue;
        best = q;
      }
      if (best >= 0) {
        st.move([o], [best]);
        traded = true;
      }
    }
  }
  return traded;
}

/**
 * Fills one more slot where a volunteer's hours or time are what limit them (scarce supply):
 * they give up one shift and take two open slots in its place (shorter shifts, or two that fit
 * where the one did). The slot given up stays open. Coverage per priority class never gets
 * worse: the shift given up is of a priority no higher than the higher of the two taken. With
 * `onlyClass`, one of the two taken is of that class and the other of the given-up shift's, so
 * only that class gains (ChainOptions.onlyClass). True when a trade was made.
 */
function oneForTwo(st: LocalState, budget: Budget, onlyClass?: number): boolean {
  const { p } = st;
  const shiftOf = p.candShift;
  const isOpen = (q: number): boolean => !st.x[q] && st.filled[shiftOf[q]!]! < p.demand[shiftOf[q]!]!;
  let improved = false;
  for (let v = 0; v < p.sub.volunteers.length && !budget.expired(); v++) {
    const open = p.byVolunteer[v]!.filter(isOpen);
    if (open.length < 2) continue;
    trades: for (const o of [...st.assignedPairs(v)]) {
      for (const q1 of open) {
        if (shiftOf[q1] === shiftOf[o] || !isOpen(q1) || !st.canTake(q1, o)) continue;
        st.move([o], [q1]);
        for (const q2 of open) {
          if (q2 === q1 || shiftOf[q2] === shiftOf[o] || !isOpen(q2)) continue;
          const c1 = p.slotClass[shiftOf[q1]!]!;
          const c2 = p.slotClass[shiftOf[q2]!]!;
          const given = p.slotClass[shiftOf[o]!]!;
          if (Math.min(c1, c2) > given) continue;
          if (onlyClass !== undefined && !((c1 === onlyClass && c2 === given) || (c2 === onlyClass && c1 === given))) continue;
          if (st.canTake(q2)) {
            st.assign(q2);
            improved = true;
            break trades;
          }
        }
        st.move([q1], [o]);
      }
    }
  }
  return improved;
}

/** The volunteers a chain has moved already: mark[v] === chain (one number per chain, so nothing is cleared). */
export interface Visited {
  mark: Int32Array;
  chain: number;
}

/** One augmenting chain's search from open slot kind `s` (chainSearch): true when it filled a slot. */
export type ChainSearch = (st: LocalState, s: number, depth: number, visited: Visited, budget: { nodes: number }) => boolean;

/**
 * The augmenting chain's search: B takes slot kind s by giving up old, and the search goes on
 * from old's slot kind, `depth` links at most. With `directLastLink` (the engine's), the last
 * link is found without the move made and undone: someone takes old's slot kind outright. Not B,
 * who could not hold both (the first loop found pair out of B's reach beside old, and the rules
 * read the two the same way round); anyone else's answer the move does not change. So it finds
 * the taker the move-then-search order finds (without it: the tests' reference), in half the
 * time on scarce rosters, where most links searched are last ones.
 */
export function chainSearch(directLastLink: boolean): ChainSearch {
  const search: ChainSearch = (st, s, depth, visited, budget) => {
    const { p } = st;
    for (const pair of p.byShift[s]!) {
      if (st.canTake(pair)) {
        st.assign(pair);
        return true;
      }
    }
    if (depth === 0) return false;
    for (const pair of p.byShift[s]!) {
      const b = p.candVolunteer[pair]!;
      if (st.x[pair] || visited.mark[b] === visited.chain) continue;
      // What B could give up: the one shift conflicting with s, or (none conflicting) any, for hours
      // or the day's count. A last link changes nothing until it returns, so it reads B's own list.
      const clash = st.clashing(pair);
      if (clash === MANY_CLASHES) continue;
      const give = clash !== NO_CLASH ? [clash] : directLastLink && depth === 1 ? st.assignedPairs(b) : [...st.assignedPairs(b)];
      for (const old of give) {
        if (--budget.nodes < 0) return false;
        if (directLastLink && depth === 1) {
          // Whether anyone takes old's slot kind first: most often no one does, and the answer
          // is kept until the schedule changes, where B's check below asks the rules anew.
          const taker = st.outrightTaker(p.candShift[old]!, b);
          if (taker < 0 || !st.canTake(pair, old)) continue;
          st.unassign(old);
          st.assign(pair);
          st.assign(taker);
          return true;
        }
        if (!st.canTake(pair, old)) continue;
        st.unassign(old);
        st.assign(pair);
        visited.mark[b] = visited.chain;
        if (search(st, p.candShift[old]!, depth - 1, visited, budget)) return true;
        visited.mark[b] = 0;
        st.unassign(pair);
        st.assign(old);
      }
    }
    return false;
  };
  return search;
}

const augment = chainSearch(true);

/**
 * More fully staffed slot kinds, without fewer slots filled of any priority: a slot kind a few
 * slots short of full is completed by volunteers who move to it from slot kinds that are not
 * full anyway (of the same or a lower priority), or who take it outright. The slot kinds
 * closest to full go first; a slot kind is completed whole or not at all, so every move made
 * adds a fully staffed slot kind and loses none. Deterministic: scan order, never the clock.
 */
export function improveStaffing(p: Prepared, x: Uint8Array, budget: Budget): Uint8Array {
  const st = new LocalState(p, x);
  const nS = p.sub.shifts.length;
  const shiftOf = p.candShift;
  const used = new Int32Array(p.sub.volunteers.length);
  let round = 0;
  let improved = true;
  while (improved && !budget.expired()) {
    improved = false;
    const short = Array.from({ length: nS }, (_, s) => s)
      .filter((s) => p.demand[s]! > 0 && st.filled[s]! < p.demand[s]!)
      .sort((a, b) => p.demand[a]! - st.filled[a]! - (p.demand[b]! - st.filled[b]!) || a - b);
    for (const s of short) {
      if (budget.expired()) break;
      const missing = p.demand[s]! - st.filled[s]!;
      if (missing <= 0) continue;
      // One move per volunteer: [pair taken, pair given up or -1].
      const moves: Array<[number, number]> = [];
      round++;
      for (const q of p.byShift[s]!) {
        if (moves.length === missing) break;
        const w = p.candVolunteer[q]!;
        if (st.x[q] || used[w] === round) continue;
        if (st.canTake(q)) {
          moves.push([q, -1]);
          used[w] = round;
          continue;
        }
        for (const o of st.assignedPairs(w)) {
          const from = shiftOf[o]!;
          if (from === s || st.filled[from]! >= p.demand[from]! || p.slotClass[from]! < p.slotClass[s]!) continue;
          if (!st.canTake(q, o)) continue;
          moves.push([q, o]);
          used[w] = round;
          break;
        }
      }
      if (moves.length < missing) continue;
      // A slot kind several volunteers leave stays not full (it was not); each move is one volunteer's.
      st.move(
        moves.flatMap(([, o]) => (o >= 0 ? [o] : [])),
        moves.map(([q]) => q),
      );
      improved = true;
    }
  }
  return st.x;
}

/** The wishes a move must keep (after their levels ran), and the test that says whether it does. */
export interface KeepWishes {
  goals: SoftGoals;
  moveKeepsWishes: typeof moveKeepsWishes;
}

/**
 * Evens out hours without filling fewer slots of any priority or staffing fewer slot kinds fully:
 * transfers (a shift moves from a busier to a less busy volunteer), swaps (two volunteers
 * exchange shifts of different lengths) and trade-downs (a volunteer gives up a shift for a
 * shorter empty slot of the same priority), each strictly lowering the sum of squared hours, then
 * chains (see fairnessChains) unless `enough` says the schedule needs no more. With `keep`, a
 * move is made only when no wish ends less well met (fewer avoided, less short, more preferred).
 */
export function improveFairness(
  p: Prepared,
  x: Uint8Array,
  budget: Budget,
  keep?: KeepWishes,
  enough?: (x: Uint8Array) => boolean,
  maxPasses = 50,
): Uint8Array {
  const st = new LocalState(p, x);
  const newLoad = (v: number): number => st.load(v) - p.lockedHours[v]!;
  const keeps = (out: number[], into: number[]): boolean => !keep || keep.moveKeepsWishes(p, keep.goals, out, into, newLoad);
  for (let pass = 0; pass < maxPasses && !budget.expired(); pass++) {
    let improved = false;
    // Transfers.
    for (let s = 0; s < p.sub.shifts.length; s++) {
      if (budget.expired()) return st.x;
      const pairs = p.byShift[s]!;
      for (const from of pairs) {
        if (!st.x[from]) continue;
        const a = p.candVolunteer[from]!;
        const h = st.hoursOf(from);
        let best = -1;
        let bestLoad = st.load(a) - h - EPS;
        for (const to of pairs) {
          const b = p.candVolunteer[to]!;
          if (b === a || st.x[to] || !(st.load(b) < bestLoad)) continue;
          if (!st.canTake(to) || !keeps([from], [to])) continue;
          best = to;
          bestLoad = st.load(b);
        }
        if (best >= 0) {
          st.move([from], [best]);
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
        const h1 = st.hoursOf(aPair);
        let done = false;
        for (const bPairForS1 of p.byShift[s1]!) {
          if (done) break;
          const b = p.candVolunteer[bPairForS1]!;
          // Only a less busy B can make the swap pay.
          if (b === a || st.x[bPairForS1] || !(st.load(b) < st.load(a) - EPS)) continue;
          for (const bPair of st.assignedPairs(b)) {
            const h2 = st.hoursOf(bPair);
            const d = h1 - h2;
            if (!(d > EPS && st.load(b) + d < st.load(a) - EPS)) continue;
            const s2 = p.candShift[bPair]!;
            const aPairForS2 = pairAt(p, a, s2);
            if (aPairForS2 < 0 || st.x[aPairForS2]) continue;
            // Each can hold their new shift once they give up the old one (two volunteers: the checks are independent).
            if (st.canTake(aPairForS2, aPair) && st.canTake(bPairForS1, bPair) && keeps([aPair, bPair], [aPairForS2, bPairForS1])) {
              st.move([aPair, bPair], [aPairForS2, bPairForS1]);
              improved = true;
              done = true;
              break;
            }
          }
        }
      }
    }
    // Trade-downs: a volunteer gives up a shift for a shorter empty slot of the same priority
    // (coverage per priority stays, and no slot kind stops being fully staffed that another does
    // not start being): the same slots filled, fewer hours worked.
    for (let v = 0; v < p.sub.volunteers.length; v++) {
      if (budget.expired()) return st.x;
      for (const o of [...st.assignedPairs(v)]) {
        const s1 = p.candShift[o]!;
        let best = -1;
        for (const q of p.byVolunteer[v]!) {
          const s2 = p.candShift[q]!;
          if (st.x[q] || s2 === s1 || st.filled[s2]! >= p.demand[s2]! || p.slotClass[s2] !== p.slotClass[s1]) continue;
          if (!(st.hoursOf(q) < (best >= 0 ? st.hoursOf(best) : st.hoursOf(o)) - EPS)) continue;
          if (!st.keepsStaffing(s1, s2) || !st.canTake(q, o) || !keeps([o], [q])) continue;
          best = q;
        }
        if (best >= 0) {
          st.move([o], [best]);
          improved = true;
        }
      }
    }
    // Chains, once transfers and swaps find nothing and the schedule is not yet good enough
    // (within the level's gap of its bound): A gives a shift to B, who gives one to C, ...
    if (!improved && !enough?.(st.x)) improved = fairnessChains(st, keeps, budget);
    if (!improved) break;
  }
  return st.x;
}

/** A step of a fairness chain's search: volunteer `v` takes `inPair` (-1 for the chain's first volunteer), given up by the step `parent`. */
interface ChainStep {
  v: number;
  inPair: number;
  parent: number;
  /** The pair the parent gives up (its shift is inPair's). */
  viaOut: number;
  /** The pair the chain's first volunteer gave up (-1 for the first volunteer's own step). */
  firstOut: number;
  /** The change of the sum of squared hours of the volunteers before this one. */
  prefix: number;
  depth: number;
  /** Whether the chain has moved a gap already (see fairnessChains). */
  gap: boolean;
}

/** A chain search's first step: `root` itself, before any hand-over. */
const rootStep = (root: number): ChainStep => ({ v: root, inPair: -1, parent: -1, viaOut: -1, firstOut: -1, prefix: 0, depth: 0, gap: false });

/** The pairs a chain gives up and takes: step `i`'s volunteer gives up `out`, taken as `to`, after the hand-overs that led to step `i`. */
function handOvers(steps: readonly ChainStep[], i: number, out: number, to: number): { outs: number[]; into: number[] } {
  const outs = [out];
  const into = [to];
  for (let k = i; steps[k]!.inPair >= 0; k = steps[k]!.parent) {
    outs.push(steps[k]!.viaOut);
    into.push(steps[k]!.inPair);
  }
  return { outs, into };
}

/** The step after steps[i]: volunteer `v` takes `to`, given up by steps[i]'s volunteer as `out`. */
function nextStep(steps: readonly ChainStep[], i: number, v: number, out: number, to: number, prefix: number, gap: boolean): ChainStep {
  const step = steps[i]!;
  return { v, inPair: to, parent: i, viaOut: out, firstOut: step.depth === 0 ? out : step.firstOut, prefix, depth: step.depth + 1, gap };
}

/** Volunteers after the first in a fairness chain, and the steps searched from one first volunteer. */
const CHAIN_DEPTH = 4;
const CHAIN_STEPS = 400;
/** Hand-overs looked at in one pass over all first volunteers (work, not the clock: the same request stops at the same point). */
const CHAIN_WORK = 200_000;

/**
 * Chains that even out hours where no transfer or swap does: the busy volunteer A gives a shift
 * to B, who gives another shift to C, and so on, until someone takes the last one outright or
 * A takes it in place of the first (a cycle);
 * every shift keeps its headcount and each volunteer's fit is checked for their own change (the
 * rules bind one volunteer's shifts). A breadth-first search from each volunteer, busiest
 * first (until CHAIN_WORK hand-overs looked at in all), over at most CHAIN_STEPS volunteers and CHAIN_DEPTH hand-overs, never through a
 * volunteer twice and only while the chain so far lowers the sum of squared hours; the first
 * chain that lowers it in all is made. True when one was.
 *
 * Where slots are left empty, one hand-over of a chain may move the gap instead: the shift given
 * up stays one short, and the next volunteer takes an empty slot of another shift of the same
 * priority (so coverage per priority stays), when no fewer slot kinds end fully staffed.
 */
function fairnessChains(st: LocalState, keeps: (out: number[], into: number[]) => boolean, budget: Budget): boolean {
  const { p } = st;
  const nV = p.sub.volunteers.length;
  let minLoad = Infinity;
  let minHours = Infinity;
  for (let v = 0; v < nV; v++) if (p.byVolunteer[v]!.length > 0) minLoad = Math.min(minLoad, st.load(v));
  for (const s of p.sub.shifts) minHours = Math.min(minHours, s.hours);
  const roots = Array.from({ length: nV }, (_, v) => v)
    .filter((v) => st.assignedPairs(v).length > 0 && st.load(v) > minLoad + minHours + EPS)
    .sort((a, b) => st.load(b) - st.load(a) || a - b);
  const seen = new Int32Array(nV);
  // Shifts with an empty slot, per priority class (rebuilt after each chain: a gap move changes them).
  const shortShifts = (): number[][] => {
    const byClass: number[][] = p.classes.map(() => []);
    for (let s = 0; s < p.sub.shifts.length; s++) if (st.filled[s]! < p.demand[s]!) byClass[p.slotClass[s]!]!.push(s);
    return byClass;
  };
  let short = shortShifts();
  /** The shifts whose slot may take what `out`'s shift gives up: its own, then (one gap per chain) short ones of its class keeping staffing. */
  const receivers = function* (out: number, gapUsed: boolean): Generator<[number, boolean]> {
    const s1 = p.candShift[out]!;
    yield [s1, false];
    if (gapUsed) return;
    for (const s2 of short[p.slotClass[s1]!]!) {
      if (s2 !== s1 && st.keepsStaffing(s1, s2)) yield [s2, true];
    }
  };
  let search = 0;
  let improved = false;
  const sq = (v: number, change: number): number => (st.load(v) + change) ** 2 - st.load(v) ** 2;
  let work = 0;
  for (const root of roots) {
    if (budget.expired() || work >= CHAIN_WORK) break;
    search++;
    seen[root] = search;
    const steps: ChainStep[] = [rootStep(root)];
    let done = false;
    for (let i = 0; i < steps.length && !done && work < CHAIN_WORK; i++) {
      const step = steps[i]!;
      const gain = step.inPair >= 0 ? st.hoursOf(step.inPair) : 0;
      for (const out of st.assignedPairs(step.v)) {
        if (done) break;
        if (step.inPair >= 0 && !st.canTake(step.inPair, out)) continue;
        const h = st.hoursOf(out);
        const prefix = step.prefix + sq(step.v, gain - h);
        if (!(prefix < -EPS)) continue;
        for (const [shift, gap] of receivers(out, step.gap)) {
          if (done) break;
          for (const to of p.byShift[shift]!) {
            work++;
            const w = p.candVolunteer[to]!;
            const h2 = st.hoursOf(to);
            if (st.x[to]) continue;
            // Back at the first volunteer (a cycle): they take `to` for the shift they gave up first.
            const cycle = w === root && step.depth > 0;
            if (seen[w] === search && !cycle) continue;
            const closing = cycle ? (st.load(w) - st.hoursOf(step.firstOut) + h2) ** 2 - (st.load(w) - st.hoursOf(step.firstOut)) ** 2 : sq(w, h2);
            if (prefix + closing < -EPS && (cycle ? st.canTake(to, step.firstOut) : st.canTake(to))) {
              const { outs, into } = handOvers(steps, i, out, to);
              if (keeps(outs, into)) {
                st.move(outs, into);
                if (gap || steps[i]!.gap) short = shortShifts();
                improved = true;
                done = true;
                break;
              }
            }
            if (!cycle && step.depth < CHAIN_DEPTH - 1 && steps.length < CHAIN_STEPS) {
              seen[w] = search;
              steps.push(nextStep(steps, i, w, out, to, prefix, step.gap || gap));
            }
          }
        }
      }
    }
  }
  return improved;
}

/** A change of the wishes' levels by a move: assignments to avoided shifts, hours short, assignments to preferred shifts. */
interface WishDelta {
  previous: number;
  avoided: number;
  short: number;
  preferred: number;
}

/** Whether a move's change is better for the wishes in their order: more previous assignments kept, fewer avoided, then less short, then more preferred. */
function betterForWishes(d: WishDelta, eps: number): boolean {
  if (d.previous !== 0) return d.previous > 0;
  if (d.avoided !== 0) return d.avoided < 0;
  if (Math.abs(d.short) > eps) return d.short < 0;
  return d.preferred > 0;
}

/**
 * Meets the wishes better without changing how many slots each slot kind has (so coverage and
 * staffing stay as they are): transfers (a shift moves to another volunteer of its slot kind)
 * and swaps (two volunteers exchange shifts), and where a pass of those finds nothing, chains of
 * hand-overs (wishChains), each making the wishes strictly better in their
 * order (fewer avoided, then fewer hours short, then more preferred). It gives the MIPs of the
 * wishes' levels their start, and often meets their LP bounds outright.
 */
export function improveWishes(p: Prepared, x: Uint8Array, goals: SoftGoals, budget: Budget, maxPasses = 20): Uint8Array {
  const st = new LocalState(p, x);
  const nS = p.sub.shifts.length;
  const newLoad = (v: number): number => st.load(v) - p.lockedHours[v]!;
  const short = (v: number, load: number): number => Math.max(0, goals.wanted[v]! - load);
  // The volunteers a move changes and their change of hours, in first-seen order (a scratch list
  // rather than a map per call: delta runs for every transfer and swap tried).
  const changed: number[] = [];
  const hoursChange: number[] = [];
  const addChange = (pair: number, sign: number): void => {
    const v = p.candVolunteer[pair]!;
    const hours = sign * st.hoursOf(pair);
    const i = changed.indexOf(v);
    if (i >= 0) hoursChange[i]! += hours;
    else {
      changed.push(v);
      hoursChange.push(hours);
    }
  };
  /** The change of giving up `out` and taking `into` (a transfer, a swap or a chain's hand-overs). */
  const delta = (out: readonly number[], into: readonly number[]): WishDelta => {
    const d: WishDelta = { previous: 0, avoided: 0, short: 0, preferred: 0 };
    changed.length = 0;
    hoursChange.length = 0;
    for (const pair of out) {
      d.previous -= goals.previous[pair]!;
      d.avoided -= goals.avoided[pair]!;
      d.preferred -= goals.preferred[pair]!;
      addChange(pair, -1);
    }
    for (const pair of into) {
      d.previous += goals.previous[pair]!;
      d.avoided += goals.avoided[pair]!;
      d.preferred += goals.preferred[pair]!;
      addChange(pair, 1);
    }
    for (let i = 0; i < changed.length; i++) {
      const v = changed[i]!;
      d.short += short(v, newLoad(v) + hoursChange[i]!) - short(v, newLoad(v));
    }
    return d;
  };
  for (let pass = 0; pass < maxPasses && !budget.expired(); pass++) {
    let improved = false;
    for (let s = 0; s < nS && !budget.expired(); s++) {
      for (const from of p.byShift[s]!) {
        if (!st.x[from]) continue;
        for (const to of p.byShift[s]!) {
          if (st.x[to] || p.candVolunteer[to] === p.candVolunteer[from] || !st.canTake(to)) continue;
          if (!betterForWishes(delta([from], [to]), SHORT_EPS)) continue;
          st.move([from], [to]);
          improved = true;
          break;
        }
      }
    }
    for (let s1 = 0; s1 < nS && !budget.expired(); s1++) {
      for (const aPair of p.byShift[s1]!) {
        if (!st.x[aPair]) continue;
        const a = p.candVolunteer[aPair]!;
        let done = false;
        for (const bPairForS1 of p.byShift[s1]!) {
          if (done) break;
          const b = p.candVolunteer[bPairForS1]!;
          if (b === a || st.x[bPairForS1]) continue;
          for (const bPair of st.assignedPairs(b)) {
            const aPairForS2 = pairAt(p, a, p.candShift[bPair]!);
            if (aPairForS2 < 0 || st.x[aPairForS2]) continue;
            if (!betterForWishes(delta([aPair, bPair], [aPairForS2, bPairForS1]), SHORT_EPS)) continue;
            if (!st.canTake(aPairForS2, aPair) || !st.canTake(bPairForS1, bPair)) continue;
            st.move([aPair, bPair], [aPairForS2, bPairForS1]);
            improved = true;
            done = true;
            break;
          }
        }
      }
    }
    if (!improved && !wishChains(st, goals, delta, budget)) break;
  }
  return st.x;
}

/** Hand-overs a wish chain searches from one first volunteer, and in one pass over them all (work, not the clock). */
const WISH_CHAIN_STEPS = 100;
const WISH_CHAIN_WORK = 1_000_000;

/**
 * Chains that meet the wishes better where no transfer or swap does: volunteer A gives a shift
 * that B prefers (or that A asked to avoid) to B, B gives another of theirs to C, and so on, until
 * someone takes the last one outright or A takes it in place of the first (a cycle). Every slot
 * kind keeps its headcount (so coverage and staffing stay) and each volunteer's fit is checked for
 * their own change. A breadth-first search from each volunteer holding such a shift, at most
 * CHAIN_DEPTH hand-overs and WISH_CHAIN_STEPS volunteers, never through a volunteer twice; no one
 * after A gives up a shift they prefer or keep from before; the first chain that makes the wishes
 * better in their order (betterForWishes) is made. Where a joined subproblem has no wish MIPs
 * (local search only), measured at 10 s: wishes-rules-festival-400x300 met 123 preferred shifts
 * where transfers and swaps met 100, an unseen 200 x 150 one 55 where they met 37 (BENCHMARKS.md).
 */
function wishChains(st: LocalState, goals: SoftGoals, delta: (out: readonly number[], into: readonly number[]) => WishDelta, budget: Budget): boolean {
  const { p } = st;
  const nV = p.sub.volunteers.length;
  // Slot kinds that a candidate not on them prefers: with avoided pairs, what a chain hands over first.
  const wanted = new Uint8Array(p.sub.shifts.length);
  const findWanted = (): void => {
    wanted.fill(0);
    for (let pair = 0; pair < p.candShift.length; pair++) if (!st.x[pair] && goals.preferred[pair]) wanted[p.candShift[pair]!] = 1;
  };
  findWanted();
  const firstOut = (out: number): boolean => goals.avoided[out] === 1 || (wanted[p.candShift[out]!] === 1 && !goals.preferred[out]);
  const keptOut = (out: number): boolean => goals.preferred[out] === 1 || goals.previous[out] === 1;
  const seen = new Int32Array(nV);
  let search = 0;
  let work = 0;
  let improved = false;
  for (let root = 0; root < nV; root++) {
    if (budget.expired() || work >= WISH_CHAIN_WORK) break;
    if (!st.assignedPairs(root).some(firstOut)) continue;
    search++;
    seen[root] = search;
    const steps: ChainStep[] = [rootStep(root)];
    let done = false;
    for (let i = 0; i < steps.length && !done && work < WISH_CHAIN_WORK; i++) {
      const step = steps[i]!;
      for (const out of step.depth === 0 ? st.assignedPairs(step.v).filter(firstOut) : st.assignedPairs(step.v)) {
        if (done) break;
        if (step.depth > 0 && (keptOut(out) || !st.canTake(step.inPair, out))) continue;
        for (const to of p.byShift[p.candShift[out]!]!) {
          work++;
          const w = p.candVolunteer[to]!;
          // The first hand-over: an avoided shift to anyone, another to someone who prefers it.
          if (st.x[to] || (step.depth === 0 && !goals.avoided[out] && !goals.preferred[to])) continue;
          const cycle = w === root && step.depth > 0;
          if (seen[w] === search && !cycle) continue;
          // The fit first: it is cached per pair, where the wishes' change builds the chain's lists.
          if (cycle ? st.canTake(to, step.firstOut) : st.canTake(to)) {
            const { outs, into } = handOvers(steps, i, out, to);
            if (betterForWishes(delta(outs, into), SHORT_EPS)) {
              st.move(outs, into);
              findWanted();
              improved = done = true;
              break;
            }
          }
          if (!cycle && step.depth < CHAIN_DEPTH - 1 && steps.length < WISH_CHAIN_STEPS) {
            seen[w] = search;
            steps.push(nextStep(steps, i, w, out, to, 0, false));
          }
        }
      }
    }
  }
  return improved;
}

/** A seeded mulberry32: numbers in [0, 1), the same sequence for the same seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Kicks (kickFairness): rounds at most, rounds in a row without a better schedule that end them,
 * and random moves per kick. Measured on rules-festival-400x300 (one joined subproblem of 20,829
 * pairs, local search only): from local search's 26,644 (bound 26,487), 20 rounds of 5 moves
 * reached 26,618 in 0.34 s, 20 of 20 26,584 in 0.42 s, 50 of 20 26,560 in 0.71 s, 100 of 20
 * 26,554 in 1.2 s, 50 of 50 26,574 in 0.86 s.
 */
export const KICK_ROUNDS = 50;
export const KICK_IDLE_ROUNDS = 15;
export const KICK_MOVES = 20;

/** The caps of a kick phase: rounds at most, and rounds in a row without a better schedule. */
export interface KickCaps {
  rounds: number;
  idle: number;
}

/**
 * Iterated local search for fairness, where no MIP follows the local search (and, briefly, before
 * one: levels.ts PRE_MIP_KICKS): each round kicks the best schedule so far with KICK_MOVES random
 * moves, then evens hours out again
 * (improveFairness), and keeps the result when its `value` is lower. A move gives one of a
 * volunteer's shifts to another candidate of the same slot kind (every headcount stays) or, half
 * the time where the slot kind's priority has short shifts, moves the gap: the shift given up is
 * left one short and one of those short shifts is filled (coverage per priority stays, and no
 * fewer slot kinds end fully staffed); each taker must fit the shift and, with `keep`, every wish
 * stays as met. Local search alone stops where no single transfer, swap or chain lowers the sum;
 * a kick lets it start from elsewhere. Seeded by the round: the same request, the same rounds.
 * Ends after KICK_ROUNDS rounds, KICK_IDLE_ROUNDS in a row without gain (or `o.caps`), once
 * `enough` says the best value needs no more, or when the budget is spent. Returns the best
 * schedule and its value.
 */
export function kickFairness(
  p: Prepared,
  x: Uint8Array,
  budget: Budget,
  value: (x: Uint8Array) => number,
  o: { keep?: KeepWishes; enough?: (value: number) => boolean; caps?: KickCaps } = {},
): { x: Uint8Array; value: number; rounds: number } {
  let best = x;
  let bestValue = value(x);
  let idle = 0;
  let rounds = 0;
  const caps = o.caps ?? { rounds: KICK_ROUNDS, idle: KICK_IDLE_ROUNDS };
  while (rounds < caps.rounds && idle < caps.idle && !budget.expired() && !o.enough?.(bestValue)) {
    const random = seededRandom((rounds + 1) * 0x9e3779b9);
    rounds++;
    const st = new LocalState(p, best);
    kick(st, random, o.keep);
    const next = improveFairness(p, st.x, budget, o.keep);
    const nextValue = value(next);
    if (nextValue < bestValue - 1e-9) {
      best = next;
      bestValue = nextValue;
      idle = 0;
    } else idle++;
  }
  return { x: best, value: bestValue, rounds };
}

/** KICK_MOVES random moves of kickFairness on `st`. */
function kick(st: LocalState, random: () => number, keep: KeepWishes | undefined): void {
  const { p } = st;
  const newLoad = (v: number): number => st.load(v) - p.lockedHours[v]!;
  const assigned: number[] = [];
  for (let pair = 0; pair < st.x.length; pair++) if (st.x[pair]) assigned.push(pair);
  if (assigned.length === 0) return;
  for (let k = 0; k < KICK_MOVES; k++) {
    const i = Math.floor(random() * assigned.length);
    const out = assigned[i]!;
    const s1 = p.candShift[out]!;
    let shifts = [s1];
    if (random() < 0.5) {
      const short: number[] = [];
      for (let s2 = 0; s2 < p.sub.shifts.length; s2++)
        if (s2 !== s1 && st.filled[s2]! < p.demand[s2]! && p.slotClass[s2] === p.slotClass[s1] && st.keepsStaffing(s1, s2)) short.push(s2);
      if (short.length > 0) shifts = short;
    }
    const options: number[] = [];
    for (const s of shifts)
      for (const to of p.byShift[s]!) {
        const own = p.candVolunteer[to] === p.candVolunteer[out];
        if ((own && s === s1) || !st.canTake(to, own ? out : -1)) continue;
        if (keep && !keep.moveKeepsWishes(p, keep.goals, [out], [to], newLoad)) continue;
        options.push(to);
      }
    if (options.length === 0) continue;
    const into = options[Math.floor(random() * options.length)]!;
    st.move([out], [into]);
    assigned[i] = into;
  }
}
