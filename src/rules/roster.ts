// The one roster state every step of the engine shares (construction, local search, suggestions,
// explanations): per volunteer, their placements sorted by start (locked and new), their hours
// and their shifts per day, and the one question every step asks: what keeps this volunteer out
// of this shift? Each answer comes from the rule module that owns it.
import { isAvailable, unavailability } from './availability.js';
import { dailyFit } from './daily.js';
import { hoursFit } from './hours.js';
import type { Block, Placement, RuleShift, RuleVolunteer } from './model.js';
import { conflicts } from './spacing.js';

export class Roster {
  private readonly placed: Placement[][];
  private readonly load: Float64Array;
  private readonly days: Array<Map<number, number> | undefined>;

  constructor(readonly volunteers: readonly RuleVolunteer[]) {
    this.placed = volunteers.map(() => []);
    this.load = new Float64Array(volunteers.length);
    this.days = volunteers.map((v) => (Number.isFinite(v.maxShiftsPerDay) ? new Map() : undefined));
  }

  add(v: number, p: Placement): void {
    const list = this.placed[v]!;
    let i = list.length;
    while (i > 0 && list[i - 1]!.start > p.start) i--;
    list.splice(i, 0, p);
    this.load[v]! += p.hours;
    const days = this.days[v];
    if (days) days.set(p.day, (days.get(p.day) ?? 0) + 1);
  }

  /** Takes the volunteer off the shift (request index); returns the placement removed. */
  remove(v: number, shift: number): Placement {
    const list = this.placed[v]!;
    const i = list.findIndex((p) => p.index === shift);
    const [p] = list.splice(i, 1);
    this.load[v]! -= p!.hours;
    const days = this.days[v];
    if (days) days.set(p!.day, days.get(p!.day)! - 1);
    return p!;
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

  holding(v: number, shift: number): Placement | undefined {
    return this.placed[v]!.find((p) => p.index === shift);
  }

  /** The volunteer's placements in other shifts that conflict with s (overlap or rest), except the shift `without`. */
  clashes(v: number, s: RuleShift, without = -1): Placement[] {
    const vol = this.volunteers[v]!;
    const out: Placement[] = [];
    const horizon = s.end + vol.restHours * 3_600_000;
    for (const p of this.placed[v]!) {
      if (p.start >= horizon) break;
      if (p.index !== s.index && p.index !== without && conflicts(vol, p, s)) out.push(p);
    }
    return out;
  }

  /**
   * Whether the volunteer could newly take s as the roster stands, if they gave up the shift
   * `without` (a request index, or -1): every rule but the ones a candidate pair already passed
   * (group and availability).
   */
  fits(v: number, s: RuleShift, without = -1): boolean {
    const vol = this.volunteers[v]!;
    let freedHours = 0;
    let freedToday = 0;
    const horizon = s.end + vol.restHours * 3_600_000;
    for (const p of this.placed[v]!) {
      if (p.index === without) {
        freedHours = p.hours;
        if (p.day === s.day) freedToday = 1;
        continue;
      }
      if (p.index === s.index) return false;
      if (p.start < horizon && conflicts(vol, p, s)) return false;
    }
    if (!hoursFit(vol, this.load[v]! - freedHours, s.hours)) return false;
    return this.days[v] === undefined || dailyFit(vol, this.dayCount(v, s.day) - freedToday);
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
