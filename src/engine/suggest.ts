// What would fill a short slot: for each slot kind of the subproblem still short, the smallest
// single changes (raise one volunteer's max_hours, lift one locked assignment, extend one
// volunteer's availability, lower their rest, raise their daily limit, add volunteers to the
// group), each confirmed by re-solving the subproblem with that one rule relaxed. The re-solve is
// constructive: it builds the schedule of the relaxed subproblem (the current one, plus the moves
// the change allows) and checks it against every rule through the roster; a change is reported
// only when that schedule fills one more slot of the shift and every slot filled now stays
// filled. Each relaxation's value comes from the rule that owns it (src/rules). Runs in the worker
// after the solve, within the subproblem's time; add_group, which looks beyond the subproblem,
// is found with the explanations (explain.ts).
import type { Suggestion } from '../types/schema-types.js';
import { extendAvailability, isAvailable } from '../rules/availability.js';
import { dailyFit, raiseMaxShiftsPerDay } from '../rules/daily.js';
import { addVolunteers, hasGroup } from '../rules/groups.js';
import { HOURS_EPS, hoursFit, raisedMaxHours } from '../rules/hours.js';
import type { Placement } from '../rules/model.js';
import type { Roster } from '../rules/roster.js';
import { reduceRest, reducedRest } from '../rules/spacing.js';
import type { Budget } from './budget.js';
import type { Prepared } from './candidates.js';
import { rosterOf } from './greedy.js';
import type { SubShift } from './subproblem.js';

/** Suggestions of one kind kept per short shift, best first. */
export const MAX_PER_KIND = 3;

export interface ShiftSuggestions {
  /** Request index of the shift, and the group short there. */
  shift: number;
  group: string;
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

type Ranked = { item: Suggestion; cost: number; v: number };

/** One search for suggestions over a subproblem's short slot kinds, on the final roster. */
class ShiftSuggester {
  readonly stats: SuggestStats = { resolves: 0, incomplete: 0, unexplored: [], ms: 0 };
  private readonly roster: Roster;
  /** Per slot kind: new assignments. */
  private readonly filledNew: Int32Array;
  private readonly sub: Prepared['sub'];
  private readonly slotOf: Map<string, number>;

  constructor(p: Prepared, x: ArrayLike<number>) {
    ({ roster: this.roster, filled: this.filledNew } = rosterOf(p, x));
    this.sub = p.sub;
    this.slotOf = new Map(p.sub.shifts.map((s, i) => [`${s.index}\u0000${s.group}`, i]));
  }

  /** Where the change needs a shift to pass to someone else: which, and to whom. */
  private handOver(move: { from: Placement; to: number } | undefined): Pick<Suggestion, 'hand_over'> {
    return move ? { hand_over: { shift_id: move.from.id, volunteer_id: this.sub.volunteers[move.to]!.id } } : {};
  }

  /** Would taking a volunteer off this placement empty a slot there? */
  private losesSlot(from: Placement): boolean {
    const local = this.slotOf.get(`${from.index}\u0000${from.group}`);
    if (local === undefined) return false; // it fills no slot of this subproblem
    const s = this.sub.shifts[local]!;
    return s.locked + this.filledNew[local]! <= s.required;
  }

  /** A volunteer other than `not` who can take the placement's slot as things stand (request order). */
  private replacement(from: Placement, not: number): number | undefined {
    for (let c = 0; c < this.sub.volunteers.length; c++) {
      const vol = this.sub.volunteers[c]!;
      if (c === not || from.group === null || !hasGroup(vol, from.group) || !isAvailable(vol, from)) continue;
      if (this.roster.fits(c, from)) return c;
    }
    return undefined;
  }

  /** The suggestions for short slot kind si, or undefined when it is not short. */
  forShift(si: number): ShiftSuggestions | undefined {
    const s = this.sub.shifts[si]!;
    const missing = s.required - s.locked - this.filledNew[si]!;
    if (missing <= 0) return undefined;
    const raises: Ranked[] = [];
    const lifts: Ranked[] = [];
    const relaxations: Ranked[] = [];
    this.sub.volunteers.forEach((vol, v) => {
      if (!hasGroup(vol, s.group) || this.roster.holding(v, s.index)) return;
      const clash = this.roster.clashes(v, s);
      const lockedClash = clash.filter((i) => i.locked);
      const newClash = clash.filter((i) => !i.locked);
      const available = isAvailable(vol, s);
      if (available) {
        const raise = this.raise(s, v, lockedClash, newClash);
        if (raise) raises.push({ ...raise, v });
        for (const item of this.lifts(s, v, lockedClash, newClash)) lifts.push({ item, cost: 0, v });
      }
      const relaxed = this.relaxOne(s, v, clash, available);
      if (relaxed) relaxations.push({ item: relaxed, cost: 0, v });
    });
    const items: Suggestion[] = [];
    const best = (list: Ranked[], code?: Suggestion['code']): void => {
      const kept = list.filter((r) => code === undefined || r.item.code === code).sort((a, b) => a.cost - b.cost || a.v - b.v);
      for (const { item } of kept.slice(0, MAX_PER_KIND)) items.push(item);
    };
    best(raises);
    best(lifts);
    best(relaxations, 'extend_availability');
    best(relaxations, 'reduce_rest');
    best(relaxations, 'raise_max_shifts_per_day');
    // New volunteers, free then and with the hours, each fill one slot.
    this.stats.resolves++;
    items.push(addVolunteers(s.group, missing));
    return { shift: s.index, group: s.group, items };
  }

  /**
   * The one rule other than hours whose relaxation alone lets the volunteer take the slot, with
   * nothing else changing: availability, rest (every conflicting shift leaves some rest), or the
   * daily limit. Undefined when no single such relaxation does it.
   */
  private relaxOne(s: SubShift, v: number, clash: readonly Placement[], available: boolean): Suggestion | undefined {
    const vol = this.sub.volunteers[v]!;
    const count = this.roster.dayCount(v, s.day);
    const blocked = { availability: !available, spacing: clash.length > 0, daily: !dailyFit(vol, count) };
    if (!hoursFit(vol, this.roster.hours(v), s.hours)) return undefined;
    if (Number(blocked.availability) + Number(blocked.spacing) + Number(blocked.daily) !== 1) return undefined;
    this.stats.resolves++;
    if (blocked.availability) return extendAvailability(vol, s);
    if (blocked.daily) return raiseMaxShiftsPerDay(vol, count);
    const rest = reducedRest(clash, s);
    return rest === undefined ? undefined : reduceRest(vol, rest);
  }

  /** Raise max_hours: the volunteer takes the shift, perhaps handing one of their shifts on. */
  private raise(s: SubShift, v: number, lockedClash: Placement[], newClash: Placement[]): { item: Suggestion; cost: number } | undefined {
    const vol = this.sub.volunteers[v]!;
    if (lockedClash.length > 0 || newClash.length > 1 || !Number.isFinite(vol.capHours)) return undefined;
    const { roster } = this;
    const load = roster.hours(v);
    const today = roster.dayCount(v, s.day);
    const options: Array<{ hours: number; handOver?: { from: Placement; to: number } }> = [];
    if (newClash.length === 0 && dailyFit(vol, today)) options.push({ hours: load + s.hours });
    const handable = newClash.length === 1 ? newClash : roster.placements(v).filter((i) => !i.locked);
    for (const old of handable) {
      this.stats.resolves++;
      if (!dailyFit(vol, today - (old.day === s.day ? 1 : 0))) continue;
      const to = this.replacement(old, v);
      if (to === undefined) continue;
      options.push({ hours: load - old.hours + s.hours, handOver: { from: old, to } });
    }
    this.stats.resolves++;
    const needsRaise = (o: { hours: number }): boolean => o.hours > vol.capHours + HOURS_EPS;
    const best = options.filter(needsRaise).sort((a, b) => a.hours - b.hours)[0];
    // Where no raise is needed the solver would have placed them: only real raises are changes.
    if (!best || !options.every(needsRaise)) return undefined;
    const hours = raisedMaxHours(best.hours - s.hours, s);
    return {
      item: { code: 'raise_max_hours', volunteer_id: vol.id, max_hours: hours, filled: 1, ...this.handOver(best.handOver) },
      cost: hours - vol.capHours,
    };
  }

  /** Lift one locked assignment that keeps the volunteer out (by time, rest, hours or the day's count). */
  private lifts(s: SubShift, v: number, lockedClash: Placement[], newClash: Placement[]): Suggestion[] {
    const vol = this.sub.volunteers[v]!;
    const { roster } = this;
    const out: Suggestion[] = [];
    const load = roster.hours(v);
    const today = roster.dayCount(v, s.day);
    const keptOutByCount = !hoursFit(vol, load, s.hours) || !dailyFit(vol, today);
    const lockCandidates = lockedClash.length === 1 ? lockedClash : lockedClash.length === 0 ? roster.placements(v).filter((i) => i.locked) : [];
    for (const lock of lockCandidates) {
      this.stats.resolves++;
      if (newClash.length > 0) continue;
      if (!hoursFit(vol, load - lock.hours, s.hours)) continue;
      if (!dailyFit(vol, today - (lock.day === s.day ? 1 : 0))) continue;
      if (lockedClash.length === 0 && !keptOutByCount) continue; // not kept out by this lock
      if (this.regroupsOthers(lock, v)) continue;
      const loses = this.losesSlot(lock);
      const to = loses ? this.replacement(lock, v) : undefined;
      if (loses && to === undefined) continue;
      out.push({
        code: 'remove_lock',
        volunteer_id: vol.id,
        shift_id: lock.id,
        filled: 1,
        ...this.handOver(to === undefined ? undefined : { from: lock, to }),
      });
    }
    return out;
  }

  /**
   * Whether lifting `lock` (of volunteer `v`) could move another lock of the same shift into the
   * group it frees: locks take the first of their volunteer's groups with room, in request order
   * (problem.ts lockGroup), so a volunteer locked into another group who can also fill this one
   * may take it once it is free, and the suggestion's slots would not be the ones counted (a
   * random instance: lifting v3's lock on s1/c put v4 into c and left s1/b empty).
   */
  private regroupsOthers(lock: Placement, v: number): boolean {
    return this.sub.volunteers.some(
      (other, o) => o !== v && other.groups.includes(lock.group ?? '') && other.locks.some((l) => l.index === lock.index && l.group !== lock.group),
    );
  }

  /** Marks a short shift left unexplored when the budget ran out. */
  skip(si: number): void {
    const s = this.sub.shifts[si]!;
    if (s.required - s.locked - this.filledNew[si]! <= 0) return;
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
