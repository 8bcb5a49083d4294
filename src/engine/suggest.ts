// What would fill a short slot: for each shift of the group still short, the smallest single
// changes (raise one volunteer's max_hours, add volunteers to the group, lift one locked
// assignment), each confirmed by re-solving the group's subproblem with that one constraint
// relaxed. The re-solve is constructive: it builds the schedule of the relaxed subproblem (the
// current one, plus the moves the change allows) and checks it against every rule; a change is
// reported only when that schedule fills one more slot of the shift and every slot filled now
// stays filled. Runs in the worker after the solve, within the group's time.
import type { Suggestion } from '../types/schema-types.js';
import type { Budget } from './budget.js';
import type { Prepared } from './candidates.js';

const EPS = 1e-9;
/** Suggestions of one kind kept per short shift, best first. */
export const MAX_PER_KIND = 3;

export interface ShiftSuggestions {
  /** Request index of the shift. */
  shift: number;
  items: Suggestion[];
}

export interface SuggestStats {
  /** Relaxed re-solves tried (one per candidate change). */
  resolves: number;
  /** Short shifts whose changes were not all tried before the deadline, and their ids. */
  incomplete: number;
  unexplored: string[];
  ms: number;
}

interface Interval {
  start: number;
  end: number;
  hours: number;
  /** Request index of the shift. */
  shift: number;
  locked: boolean;
}

/** The group's final schedule with locks, per volunteer, and the checks a change needs. */
class Board {
  readonly intervals: Interval[][];
  readonly load: number[];
  /** Per local shift: new assignments. */
  readonly filledNew: Int32Array;

  constructor(
    readonly p: Prepared,
    x: ArrayLike<number>,
  ) {
    const { sub } = p;
    this.intervals = sub.volunteers.map((v) => v.locks.map((l) => ({ start: l.start, end: l.end, hours: l.hours, shift: l.shift, locked: true })));
    this.load = Array.from(p.lockedHours);
    this.filledNew = new Int32Array(sub.shifts.length);
    for (let pair = 0; pair < p.candShift.length; pair++) {
      if (!x[pair]) continue;
      const v = p.candVolunteer[pair]!;
      const s = sub.shifts[p.candShift[pair]!]!;
      this.intervals[v]!.push({ start: s.start, end: s.end, hours: s.hours, shift: s.index, locked: false });
      this.load[v]! += s.hours;
      this.filledNew[p.candShift[pair]!]!++;
    }
  }

  clashes(v: number, start: number, end: number): Interval[] {
    return this.intervals[v]!.filter((i) => i.start < end && start < i.end);
  }

  holds(v: number, shift: number): boolean {
    return this.intervals[v]!.some((i) => i.shift === shift);
  }

  /** A volunteer other than `not` who can take [start, end) as things stand (request order). */
  replacement(shiftIndex: number, start: number, end: number, hours: number, not: number): number | undefined {
    for (let c = 0; c < this.p.sub.volunteers.length; c++) {
      if (c === not || this.holds(c, shiftIndex)) continue;
      if (this.load[c]! + hours > this.p.sub.volunteers[c]!.cap + EPS) continue;
      if (this.clashes(c, start, end).length === 0) return c;
    }
    return undefined;
  }
}

/** One search for suggestions over a group's short shifts, on one board. */
class ShiftSuggester {
  readonly stats: SuggestStats = { resolves: 0, incomplete: 0, unexplored: [], ms: 0 };
  private readonly board: Board;
  private readonly sub: Prepared['sub'];
  private readonly shiftLocal: Map<number, number>;

  constructor(p: Prepared, x: ArrayLike<number>) {
    this.board = new Board(p, x);
    this.sub = p.sub;
    this.shiftLocal = new Map(p.sub.shifts.map((s, i) => [s.index, i]));
  }

  private shiftIdOf(shift: number): string {
    return this.sub.shifts[this.shiftLocal.get(shift) ?? -1]?.id ?? this.sub.volunteers.flatMap((v) => v.locks).find((l) => l.shift === shift)!.shiftId;
  }

  /** Where the change needs a shift to pass to someone else: which, and to whom. */
  private handOver(move: { shift: number; to: number } | undefined): Pick<Suggestion, 'hand_over'> {
    return move ? { hand_over: { shift_id: this.shiftIdOf(move.shift), volunteer_id: this.sub.volunteers[move.to]!.id } } : {};
  }

  /** Would taking a volunteer off `shift` (a request index) empty a slot there? */
  private losesSlot(shift: number): boolean {
    const local = this.shiftLocal.get(shift);
    if (local === undefined) return false; // the shift does not require this group: no slot of it
    const s = this.sub.shifts[local]!;
    return s.locked + this.board.filledNew[local]! <= s.required;
  }

  /** The suggestions for short shift si, or undefined when it is not short. */
  forShift(si: number): ShiftSuggestions | undefined {
    const s = this.sub.shifts[si]!;
    const missing = s.required - s.locked - this.board.filledNew[si]!;
    if (missing <= 0) return undefined;
    // Each item with the keys it is ranked by, kept beside it so that they never reach the response.
    const raises: Array<{ item: Suggestion; cost: number; v: number }> = [];
    const lifts: Array<{ item: Suggestion; v: number }> = [];
    this.sub.volunteers.forEach((vol, v) => {
      if (this.board.holds(v, s.index)) return;
      const clash = this.board.clashes(v, s.start, s.end);
      const lockedClash = clash.filter((i) => i.locked);
      const newClash = clash.filter((i) => !i.locked);
      const raise = this.raise(s, v, lockedClash, newClash);
      if (raise) raises.push({ ...raise, v });
      for (const item of this.lifts(s, v, lockedClash, newClash)) lifts.push({ item, v });
    });
    const items: Suggestion[] = [];
    for (const { item } of raises.sort((a, b) => a.cost - b.cost || a.v - b.v).slice(0, MAX_PER_KIND)) items.push(item);
    for (const { item } of lifts.sort((a, b) => a.v - b.v).slice(0, MAX_PER_KIND)) items.push(item);
    // New volunteers, free then and with the hours, each fill one slot.
    this.stats.resolves++;
    items.push({ code: 'add_volunteers', group: this.sub.group, count: missing, filled: missing });
    return { shift: s.index, items };
  }

  /** Raise max_hours: the volunteer takes the shift, perhaps handing one of their shifts on. */
  private raise(
    s: Prepared['sub']['shifts'][number],
    v: number,
    lockedClash: Interval[],
    newClash: Interval[],
  ): { item: Suggestion; cost: number } | undefined {
    const vol = this.sub.volunteers[v]!;
    if (lockedClash.length > 0 || newClash.length > 1 || !Number.isFinite(vol.cap)) return undefined;
    const { board } = this;
    const options: Array<{ hours: number; handOver?: { shift: number; to: number } }> = [];
    if (newClash.length === 0) options.push({ hours: board.load[v]! + s.hours });
    const handable = newClash.length === 1 ? newClash : board.intervals[v]!.filter((i) => !i.locked);
    for (const old of handable) {
      this.stats.resolves++;
      const to = board.replacement(old.shift, old.start, old.end, old.hours, v);
      if (to === undefined) continue;
      options.push({ hours: board.load[v]! - old.hours + s.hours, handOver: { shift: old.shift, to } });
    }
    this.stats.resolves++;
    const best = options.filter((o) => o.hours > vol.cap + EPS).sort((a, b) => a.hours - b.hours)[0];
    // Where no raise is needed the solver would have placed them: only real raises are changes.
    if (!best || !options.every((o) => o.hours > vol.cap + EPS)) return undefined;
    const hours = Math.round(best.hours * 100) / 100;
    return { item: { code: 'raise_max_hours', volunteer_id: vol.id, max_hours: hours, filled: 1, ...this.handOver(best.handOver) }, cost: hours - vol.cap };
  }

  /** Lift one locked assignment that keeps the volunteer out (by time or by hours). */
  private lifts(s: Prepared['sub']['shifts'][number], v: number, lockedClash: Interval[], newClash: Interval[]): Suggestion[] {
    const vol = this.sub.volunteers[v]!;
    const { board } = this;
    const out: Suggestion[] = [];
    const lockCandidates = lockedClash.length === 1 ? lockedClash : lockedClash.length === 0 ? board.intervals[v]!.filter((i) => i.locked) : [];
    for (const lock of lockCandidates) {
      this.stats.resolves++;
      if (newClash.length > 0) continue;
      if (board.load[v]! - lock.hours + s.hours > vol.cap + EPS) continue;
      if (lockedClash.length === 0 && board.load[v]! + s.hours <= vol.cap + EPS) continue; // not kept out by this lock
      const to = this.losesSlot(lock.shift) ? board.replacement(lock.shift, lock.start, lock.end, lock.hours, v) : undefined;
      if (this.losesSlot(lock.shift) && to === undefined) continue;
      const shiftId = vol.locks.find((l) => l.shift === lock.shift)!.shiftId;
      out.push({
        code: 'remove_lock',
        volunteer_id: vol.id,
        shift_id: shiftId,
        filled: 1,
        ...this.handOver(to === undefined ? undefined : { shift: lock.shift, to }),
      });
    }
    return out;
  }

  /** Marks a short shift left unexplored when the budget ran out. */
  skip(si: number): void {
    const s = this.sub.shifts[si]!;
    if (s.required - s.locked - this.board.filledNew[si]! <= 0) return;
    this.stats.incomplete++;
    if (this.stats.unexplored.length < 20) this.stats.unexplored.push(s.id);
  }
}

export function suggestChanges(p: Prepared, x: ArrayLike<number>, budget: Budget): { suggestions: ShiftSuggestions[]; stats: SuggestStats } {
  const started = budget.now();
  const suggester = new ShiftSuggester(p, x);
  const suggestions: ShiftSuggestions[] = [];
  for (let si = 0; si < p.sub.shifts.length; si++) {
    if (budget.expired()) {
      suggester.skip(si);
      continue;
    }
    const found = suggester.forShift(si);
    if (found) suggestions.push(found);
  }
  suggester.stats.ms = budget.now() - started;
  return { suggestions, stats: suggester.stats };
}
