// The spacing rule: two shifts of one volunteer conflict when they overlap or leave less than the
// volunteer's rest between them: with rest r, s and t conflict when t.start < s.end + r and
// s.start < t.end + r (r = 0: plain overlap; touching shifts never conflict). Widening every
// shift's end by r keeps the conflicts an interval graph, so the MIP rows stay one "at most one"
// row per maximal clique: as tight as the overlaps alone were. Owns the explanation (overlap,
// locked_overlap, higher_priority, rest), the reduce_rest relaxation and the lock warnings.
import type { Detail, Suggestion, Warning } from '../types/schema-types.js';
import { formatHours, formatWindow } from '../input/format.js';
import { displayName, MS_PER_HOUR, type Lock, type Problem } from '../input/problem.js';
import type { CappedEntries } from '../input/entry-caps.js';
import type { Placement, RuleShift, RuleVolunteer } from './model.js';
import type { RowContext } from './rows.js';
import { lockPointer } from './lock-pointer.js';

type Span = Pick<RuleShift, 'start' | 'end'>;

export const restMs = (v: Pick<RuleVolunteer, 'restHours'>): number => v.restHours * MS_PER_HOUR;

/** Whether two shifts of the volunteer conflict (overlap, or too little rest between them). */
export function conflicts(v: Pick<RuleVolunteer, 'restHours'>, a: Span, b: Span): boolean {
  return conflictsWithRest(restMs(v), a, b);
}

/** The same, for a rest already in ms (the roster's hot path keeps each volunteer's). */
export function conflictsWithRest(restMs: number, a: Span, b: Span): boolean {
  return a.start < b.end + restMs && b.start < a.end + restMs;
}

/** Hours between two shifts that do not overlap (0 when they touch). */
export function gapHours(a: Span, b: Span): number {
  return Math.max(a.start - b.end, b.start - a.end, 0) / MS_PER_HOUR;
}

/**
 * Most of these shifts one volunteer can hold at once (no two conflicting): earliest end first
 * on the widened windows, exact for an interval graph. A bound for the volunteer's coverage.
 */
export function mostSpaced(v: Pick<RuleVolunteer, 'restHours'>, shifts: readonly Span[]): number {
  const r = restMs(v);
  let count = 0;
  let lastEnd = -Infinity;
  for (const s of [...shifts].sort((a, b) => a.end - b.end)) {
    if (s.start >= lastEnd) {
      count++;
      lastEnd = s.end + r;
    }
  }
  return count;
}

/**
 * Maximal cliques of the conflict graph on `windows` for rest r: the maximal sets of windows
 * that pairwise conflict, as index lists in time order. One sweep over starts and widened ends;
 * ends sort before starts at the same instant (touching is not conflicting).
 */
export function conflictCliques(windows: readonly Span[], r = 0): number[][] {
  const events: Array<[time: number, kind: 0 | 1, index: number]> = [];
  windows.forEach((w, i) => {
    events.push([w.start, 1, i], [w.end + r, 0, i]);
  });
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const active = new Set<number>();
  const cliques: number[][] = [];
  let lastWasStart = false;
  for (const [, kind, index] of events) {
    if (kind === 1) {
      active.add(index);
      lastWasStart = true;
    } else {
      // The active set just before the first end after a run of starts is a maximal clique.
      if (lastWasStart) cliques.push([...active].sort((a, b) => a - b));
      active.delete(index);
      lastWasStart = false;
    }
  }
  return cliques;
}

/**
 * Per volunteer: the maximal cliques of their candidate slots (as pair indexes), those with at
 * least two members. The cliques of all slots are found once per distinct rest and restricted
 * to each volunteer's candidates: every conflicting pair lies in one of them. The cliques come
 * in time order and each slot lies in a run of consecutive ones (an interval graph), so a sweep
 * over the runs of the volunteer's slots meets every restricted clique in clique order: the
 * rows come out as restricting every clique in turn (dropping repeats) would give them.
 */
export function volunteerCliques(c: Pick<RowContext, 'volunteers' | 'slots' | 'byVolunteer' | 'pairSlot'>): number[][][] {
  const byRest = new Map<number, { first: Int32Array; last: Int32Array }>();
  return c.byVolunteer.map((pairs, vi) => {
    const r = restMs(c.volunteers[vi]!);
    let runs = byRest.get(r);
    if (!runs) {
      runs = cliqueRuns(c.slots, r);
      byRest.set(r, runs);
    }
    const { first, last } = runs;
    // Events: a pair joins at its slot's first clique and leaves after its last.
    const events: Array<[clique: number, join: boolean, pair: number]> = [];
    for (const pair of pairs) {
      const slot = c.pairSlot[pair]!;
      if (first[slot]! < 0) continue;
      events.push([first[slot]!, true, pair], [last[slot]! + 1, false, pair]);
    }
    events.sort((a, b) => a[0] - b[0]);
    const active = new Set<number>();
    const seen = new Set<string>();
    const mine: number[][] = [];
    for (let i = 0; i < events.length;) {
      const at = events[i]![0];
      for (; i < events.length && events[i]![0] === at; i++) {
        const [, join, pair] = events[i]!;
        if (join) active.add(pair);
        else active.delete(pair);
      }
      if (active.size < 2) continue;
      const members = [...active].sort((a, b) => a - b);
      const key = members.join(',');
      if (seen.has(key)) continue;
      seen.add(key);
      mine.push(members);
    }
    return mine;
  });
}

/** Per slot, the first and last of the cliques (of two or more, in time order) that hold it; -1 for none. */
function cliqueRuns(slots: readonly Span[], r: number): { first: Int32Array; last: Int32Array } {
  const first = new Int32Array(slots.length).fill(-1);
  const last = new Int32Array(slots.length).fill(-1);
  conflictCliques(slots, r)
    .filter((k) => k.length > 1)
    .forEach((k, id) => {
      for (const slot of k) {
        if (first[slot]! < 0) first[slot] = id;
        last[slot] = id;
      }
    });
  return { first, last };
}

/** MIP rows: at most one slot of each clique of mutually conflicting candidate slots per volunteer. */
export function spacingRows(c: RowContext): void {
  volunteerCliques(c).forEach((cliques, vi) => {
    cliques.forEach((pairs, k) =>
      c.addRow(
        `clique_${c.vName(vi)}_c${k}`,
        -Infinity,
        1,
        pairs,
        pairs.map(() => 1),
      ),
    );
  });
}

export type SpacingCode = 'overlap' | 'locked_overlap' | 'higher_priority' | 'rest';

/** Which explanation a conflicting placement gives for shift s. */
export function spacingCode(other: Placement, s: RuleShift): SpacingCode {
  if (!(other.start < s.end && s.start < other.end)) return 'rest';
  if (other.locked) return 'locked_overlap';
  return other.priority > s.priority ? 'higher_priority' : 'overlap';
}

/** `zone`: the IANA zone the sentence writes times in (Problem.zone). */
export function spacingDetail(v: RuleVolunteer, other: Placement, s: RuleShift, zone: string): { detail: Detail; sentence: string } {
  const code = spacingCode(other, s);
  const name = displayName(v);
  const where = `'${other.id}' ${formatWindow(other.start, other.end, zone)}`;
  switch (code) {
    case 'locked_overlap':
      return { detail: { code, volunteer_id: v.id, shift_id: other.id }, sentence: `${name} is locked into ${where}, which overlaps.` };
    case 'overlap':
      return { detail: { code, volunteer_id: v.id, shift_id: other.id }, sentence: `${name} is in ${where}, which overlaps.` };
    case 'higher_priority':
      return {
        detail: { code, volunteer_id: v.id, shift_id: other.id, priority: other.priority },
        sentence: `${name} is in ${where}, which overlaps and has a higher priority (${other.priority} against ${s.priority}).`,
      };
    case 'rest': {
      const gap = gapHours(other, s);
      return {
        detail: {
          code,
          volunteer_id: v.id,
          shift_id: other.id,
          locked: other.locked,
          min_rest_hours: v.restHours,
          rest_hours: Math.round(gap * 100) / 100,
        },
        sentence: `${name} is ${other.locked ? 'locked into' : 'in'} ${where}, which would leave ${formatHours(gap)} hours of rest; they need ${formatHours(v.restHours)}.`,
      };
    }
  }
}

/**
 * The relaxation: the largest min_rest_hours (rounded down to 2 decimals) with which none of
 * `clashes` conflicts with s; undefined when one of them overlaps s (no rest would help).
 */
export function reducedRest(clashes: readonly Placement[], s: RuleShift): number | undefined {
  let rest = Infinity;
  for (const other of clashes) {
    if (other.start < s.end && s.start < other.end) return undefined;
    rest = Math.min(rest, gapHours(other, s));
  }
  return Number.isFinite(rest) ? Math.floor(rest * 100 + 1e-6) / 100 : undefined;
}

export function reduceRest(v: RuleVolunteer, minRestHours: number): Suggestion {
  return { code: 'reduce_rest', volunteer_id: v.id, min_rest_hours: minRestHours, filled: 1 };
}

export function reduceRestSentence(v: RuleVolunteer, minRestHours: number): string {
  return `Lowering the min_rest_hours of ${displayName(v)} from ${formatHours(v.restHours)} to ${formatHours(minRestHours)} would fill one more slot`;
}

/**
 * One warning per conflicting pair of a volunteer's locks: lock_overlap when they overlap,
 * lock_rest when they leave too little rest. Sorted by start, the locks conflicting with lock i
 * are exactly those after it starting before its widened end (durations are positive), found by
 * binary search; pairs past the cap are counted without being written.
 */
export function spacingLockWarnings(problem: Problem, vi: number, list: readonly Lock[], out: CappedEntries<Warning>): void {
  const { volunteers, shifts } = problem;
  const v = volunteers[vi]!;
  const r = restMs(v);
  const chrono = [...list].sort((a, b) => shifts[a.shift]!.start - shifts[b.shift]!.start || a.requestIndex - b.requestIndex);
  const starts = chrono.map((l) => shifts[l.shift]!.start);
  for (let i = 0; i < chrono.length; i++) {
    const a = shifts[chrono[i]!.shift]!;
    const overlapEnd = firstAtOrAfter(starts, a.end, i + 1);
    const restEnd = r > 0 ? firstAtOrAfter(starts, a.end + r, overlapEnd) : overlapEnd;
    for (let j = i + 1; j < restEnd; j++) {
      const code = j < overlapEnd ? 'lock_overlap' : 'lock_rest';
      if (out.full(code)) {
        out.addUnlisted(code, (code === 'lock_overlap' ? overlapEnd : restEnd) - j);
        if (code === 'lock_rest') break;
        j = overlapEnd - 1;
        continue;
      }
      const b = shifts[chrono[j]!.shift]!;
      const later = Math.max(chrono[i]!.requestIndex, chrono[j]!.requestIndex);
      out.add(code, () => ({
        code,
        message:
          code === 'lock_overlap'
            ? `${displayName(v)} is locked into '${a.id}' (${formatWindow(a.start, a.end, problem.zone)}) and '${b.id}' (${formatWindow(b.start, b.end, problem.zone)}), which overlap; both are kept.`
            : `${displayName(v)} is locked into '${a.id}' (${formatWindow(a.start, a.end, problem.zone)}) and '${b.id}' (${formatWindow(b.start, b.end, problem.zone)}), ${formatHours(gapHours(a, b))} hours apart, less than their rest of ${formatHours(v.restHours)} hours; both are kept.`,
        pointer: lockPointer({ requestIndex: later }),
      }));
    }
  }
}

/** The first index >= from whose value is >= target, in an ascending array. */
function firstAtOrAfter(sorted: readonly number[], target: number, from: number): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
