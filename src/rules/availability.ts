// The availability rule: a volunteer with `available` windows may be newly assigned only to
// shifts wholly inside their union; a shift overlapping an `unavailable` window is excluded.
// Eligibility only (no MIP row: such pairs never become variables). Owns the explanation, the
// extend_availability relaxation and the lock warning.
import type { Detail, Suggestion, Warning } from '../types/schema-types.js';
import { formatWindow, isoUtc } from '../input/format.js';
import { displayName, overlaps, type Problem, type TimeWindow } from '../input/problem.js';
import type { CappedEntries } from '../input/entry-caps.js';
import type { RuleShift, RuleVolunteer } from './model.js';
import { lockPointer } from './lock-pointer.js';

type Availability = Pick<RuleVolunteer, 'available' | 'unavailable'>;

/** Why the volunteer cannot come to the shift: outside every available window, or the unavailable window it overlaps. */
export function unavailability(v: Availability, s: Pick<RuleShift, 'start' | 'end'>): { window?: TimeWindow } | undefined {
  if (v.available !== null && !v.available.some((w) => w.start <= s.start && s.end <= w.end)) return {};
  const window = v.unavailable.find((w) => overlaps(w, s));
  return window ? { window } : undefined;
}

/** unavailability(v, s) === undefined, without building its answer: every candidate pair asks this. */
export function isAvailable(v: Availability, s: Pick<RuleShift, 'start' | 'end'>): boolean {
  if (v.available !== null) {
    let inside = false;
    for (const w of v.available) if (w.start <= s.start && s.end <= w.end) inside = true;
    if (!inside) return false;
  }
  for (const w of v.unavailable) if (overlaps(w, s)) return false;
  return true;
}

const isoWindow = (w: TimeWindow): { start: string; end: string } => ({ start: isoUtc(w.start), end: isoUtc(w.end) });

/** `zone`: the IANA zone the sentence writes times in (Problem.zone). */
export function availabilityDetail(v: RuleVolunteer, why: { window?: TimeWindow }, zone: string): { detail: Detail; sentence: string } {
  if (why.window) {
    return {
      detail: { code: 'unavailable', volunteer_id: v.id, window: isoWindow(why.window) },
      sentence: `${displayName(v)} is unavailable ${formatWindow(why.window.start, why.window.end, zone)}.`,
    };
  }
  const offered = v.available!.length === 0 ? 'offered no time' : 'is available only at other times';
  return { detail: { code: 'unavailable', volunteer_id: v.id }, sentence: `${displayName(v)} ${offered}.` };
}

/** The relaxation: the volunteer becomes available during the shift's own window. */
export function extendAvailability(v: RuleVolunteer, s: RuleShift): Suggestion {
  return { code: 'extend_availability', volunteer_id: v.id, window: isoWindow(s), filled: 1 };
}

export function extendAvailabilitySentence(v: RuleVolunteer, s: RuleShift, zone: string): string {
  return `Asking ${displayName(v)} to be available ${formatWindow(s.start, s.end, zone)} would fill one more slot`;
}

/** A warning per locked assignment to a shift the volunteer cannot come to. */
export function availabilityLockWarnings(problem: Problem, out: CappedEntries<Warning>): void {
  for (const lock of problem.locks) {
    const v = problem.volunteers[lock.volunteer]!;
    const s = problem.shifts[lock.shift]!;
    const why = unavailability(v, s);
    if (!why) continue;
    out.add('lock_unavailable', () => ({
      code: 'lock_unavailable',
      message: `The locked assignment of ${displayName(v)} to '${s.id}' (${formatWindow(s.start, s.end, problem.zone)}) is kept, but ${
        why.window
          ? `it overlaps their unavailable window ${formatWindow(why.window.start, why.window.end, problem.zone)}`
          : 'it lies outside their available windows'
      }.`,
      pointer: lockPointer(lock),
    }));
  }
}
