// The one roster state every step of the engine shares (construction, local search, suggestions,
// explanations): per volunteer, their placements sorted by start (locked and new), their hours
// and their shifts per day, and the one question every step asks: what keeps this volunteer out
// of this shift? Each answer comes from the rule module that owns it.
import { isAvailable, unavailability } from './availability.js';
import { dailyFit } from './daily.js';
import { hoursFit } from './hours.js';
import type { Block, Placement, RuleShift, RuleVolunteer } from './model.js';
import { conflicts, conflictsWithRest } from './spacing.js';

/** Placements up to this many are scanned from the end; in more, a binary search finds where to start (both find the same conflicts). */
const SCAN_MAX = 8;

export class Roster {
  /** Per volunteer: placements sorted by start. */
  private readonly placed: Placement[][];
  /** Per volunteer: the same placements' starts (the searches read plain numbers, not objects). */
  private readonly starts: number[][];
  /** Per volunteer: the longest placement held so far (never shrinks): bounds how far back a conflict can start. */
  private readonly longest: Float64Array;
  private readonly load: Float64Array;
  private readonly days: Array<Map<number, number> | undefined>;
  /** Per volunteer: their rest in ms. */
  private readonly rest: Float64Array;

  constructor(readonly volunteers: readonly RuleVolunteer[]) {
    this.rest = Float64Array.from(volunteers, (v) => v.restHours * 3_600_000);
    this.placed = volunteers.map(() => []);
    this.starts = volunteers.map(() => []);
    this.longest = new Float64Array(volunteers.length);
    this.load = new Float64Array(volunteers.length);
    this.days = volunteers.map((v) => (Number.isFinite(v.maxShiftsPerDay) ? new Map() : undefined));
  }

  add(v: number, p: Placement): void {
    const at = this.firstStartingAtOrAfter(v, p.start + 1);
    this.placed[v]!.splice(at, 0, p);
    this.starts[v]!.splice(at, 0, p.start);
    this.longest[v] = Math.max(this.longest[v]!, p.end - p.start);
    this.load[v]! += p.hours;
    const days = this.days[v];
    if (days) days.set(p.day, (days.get(p.day) ?? 0) + 1);
  }

  /** Takes the volunteer off a shift they hold; returns the placement removed. */
  remove(v: number, shift: Pick<RuleShift, 'index' | 'start'>): Placement {
    const list = this.placed[v]!;
    let i = this.firstStartingAtOrAfter(v, shift.start);
    while (list[i]!.index !== shift.index) i++;
    const p = list[i]!;
    list.splice(i, 1);
    this.starts[v]!.splice(i, 1);
    this.load[v]! -= p.hours;
    const days = this.days[v];
    if (days) days.set(p.day, days.get(p.day)! - 1);
    return p;
  }

  placements(v: number): readonly Placement[] {
    return this.placed[v]!;
  }

  hours(v: number): number {
    return this.load[v]!;
  }

  dayCount(v: number, day: number): number {
    return this.days[v]?.get(day) ?? 0;
  }

  /** The volunteer's placement in the shift (request index), if any (explanations and suggestions ask; a scan). */
  holding(v: number, shift: number): Placement | undefined {
    return this.placed[v]!.find((p) => p.index === shift);
  }

  /** The index of the first placement starting at or after `time` (binary search). */
  private firstStartingAtOrAfter(v: number, time: number): number {
    const starts = this.starts[v]!;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The placements that could conflict with s lie in [nearFrom, nearTo): those starting before s
   * ends plus the rest, and not so early that even the longest placement would end before s
   * starts minus the rest. (Two functions, not one returning a pair: this is the hottest path of
   * the construction and the local search, and should not allocate.)
   */
  private nearFrom(v: number, s: RuleShift): number {
    return this.firstStartingAtOrAfter(v, s.start - this.rest[v]! - this.longest[v]!);
  }

  private nearTo(v: number, s: RuleShift): number {
    return this.firstStartingAtOrAfter(v, s.end + this.rest[v]!);
  }

  /** The volunteer's placements in other shifts that conflict with s (overlap or rest), except the shift `without`. */
  clashes(v: number, s: RuleShift, without = -1): Placement[] {
    const vol = this.volunteers[v]!;
    const list = this.placed[v]!;
    const out: Placement[] = [];
    if (list.length === 0) return out;
    for (let i = this.nearFrom(v, s), to = this.nearTo(v, s); i < to; i++) {
      const p = list[i]!;
      if (p.index !== s.index && p.index !== without && conflicts(vol, p, s)) out.push(p);
    }
    return out;
  }

  /**
   * Whether the volunteer could newly take s as the roster stands, if they gave up the shift
   * `without` (a shift they hold, if given): every rule but the ones a candidate pair already passed
   * (group and availability). The cheap rules first (hours, then the day's count): most refusals
   * in a busy roster are theirs, and the answer is the same in any order.
   */
  fits(v: number, s: RuleShift, without?: Pick<RuleShift, 'index' | 'hours' | 'day'>): boolean {
    const vol = this.volunteers[v]!;
    if (!hoursFit(vol, this.load[v]! - (without?.hours ?? 0), s.hours)) return false;
    if (this.days[v] !== undefined && !dailyFit(vol, this.dayCount(v, s.day) - (without?.day === s.day ? 1 : 0))) return false;
    const freed = without?.index ?? -1;
    const list = this.placed[v]!;
    const rest = this.rest[v]!;
    // Back from the last placement that could conflict (a binary search in long lists; short
    // ones, most volunteers', start at their end) to the first that could (it starts no earlier
    // than the longest placement before s less the rest). A placement in s itself starts with s,
    // so it lies in that range too: one slot per shift.
    const starts = this.starts[v]!;
    const low = s.start - rest - this.longest[v]!;
    for (let i = (list.length <= SCAN_MAX ? list.length : this.nearTo(v, s)) - 1; i >= 0; i--) {
      if (starts[i]! < low) break;
      const p = list[i]!;
      if (p.index === freed) continue;
      if (p.index === s.index || conflictsWithRest(rest, p, s)) return false;
    }
    return true;
  }

  /**
   * The rule that keeps the volunteer out of s, for an explanation: already in the shift, not
   * available, a conflicting shift (locked overlaps first, then overlaps, then rest), the daily
   * limit, then hours. Undefined when the volunteer could take it.
   */
  blocker(v: number, s: RuleShift): Block | undefined {
    const vol = this.volunteers[v]!;
    const same = this.holding(v, s.index);
    if (same) return { rule: 'same_shift', other: same };
    if (!isAvailable(vol, s)) return { rule: 'availability', ...unavailability(vol, s) };
    const clash = this.clashes(v, s).sort((a, b) => clashRank(a, s) - clashRank(b, s) || a.index - b.index)[0];
    if (clash) return { rule: 'spacing', other: clash };
    const count = this.dayCount(v, s.day);
    if (this.days[v] !== undefined && !dailyFit(vol, count)) return { rule: 'daily', count };
    if (!hoursFit(vol, this.load[v]!, s.hours)) return { rule: 'hours', load: this.load[v]! };
    return undefined;
  }
}

/** Which conflicting shift an explanation names first: a locked overlap, an overlap, then too little rest. */
function clashRank(p: Placement, s: RuleShift): number {
  const overlap = p.start < s.end && s.start < p.end;
  return overlap ? (p.locked ? 0 : 1) : 2;
}
