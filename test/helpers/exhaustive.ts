// Exhaustive search for tiny instances, independent of src/: it tries every set of new
// (volunteer, shift, group) assignments that keeps every rule and returns the lexicographic
// optimum of filled slots per priority class, 5 down to 1; and, for the soft goals, the value of
// every objective level in order (bestLevels). It reads the request and the rules
// with the independent checker's functions, so it shares the checker's reading of the contract
// and nothing of the engine's. Also here: the random tiny requests it can settle, with or
// without the 2.2 rules, for the property tests.
import fc from 'fast-check';
import { excluded, lockGroups, pairKey, readRequest, tooClose, type RequestFacts } from './schedule-checker.js';

type Json = Record<string, any>;
type Shift = RequestFacts['shifts'][number];

/** Priority classes, highest first: index 0 counts the slots of priority 5, index 4 those of 1. */
const CLASSES = 5;
const classOf = (s: Shift): number => CLASSES - s.priority;
const zeros = (): number[] => new Array<number>(CLASSES).fill(0);

/** Filled slots per priority class (5 first) of a result, by the groups its roster gives. */
export function filledByPriority(request: Json, result: Json): number[] {
  const filled = zeros();
  for (const s of readRequest(request).shifts) {
    const entries = (result.roster as Json[]).filter((e) => e.shift_id === s.id);
    for (const [g, n] of Object.entries(s.required)) filled[classOf(s)]! += Math.min(n, entries.filter((e) => e.group === g).length);
  }
  return filled;
}

/** a beats b: more slots in the first class where they differ. */
function better(a: readonly number[], b: readonly number[]): boolean {
  for (let c = 0; c < CLASSES; c++) if (a[c] !== b[c]) return a[c]! > b[c]!;
  return false;
}

/** A (volunteer, shift) pair a new assignment could take, in one of `groups`. */
interface Candidate {
  v: number;
  s: Shift;
  groups: string[];
}

/** Where a search stands: each volunteer's shifts, hours and shifts per day, and the slots taken per (shift, group). */
interface SearchState {
  /** Adds (sign 1) or removes (-1, the last added) an assignment. */
  take: (v: number, s: Shift, group: string | null, sign: 1 | -1) => void;
  /** Whether the volunteer can take the shift as the search stands (hours, spacing, shifts per day). */
  fits: (v: number, s: Shift) => boolean;
  /** Slots of (shift, group) taken (pairKey(shift id, group)). */
  count: Map<string, number>;
  /** Slots filled and still open per priority class, the locks placed. */
  filled: number[];
  open: number[];
  /** Every (volunteer, shift) a new assignment could take, with the groups it could fill. */
  candidates: Candidate[];
  /** Per k: the candidates from k on, per class (a bound on what the rest can add). */
  left: number[][];
}

/** The search over `facts` with the locks placed; `onTake` hears each assignment added or removed. */
function searchState(
  facts: RequestFacts,
  order: 'priority' | 'request',
  onTake?: (v: number, s: Shift, group: string | null, sign: 1 | -1) => void,
): SearchState {
  const { volunteers } = facts;
  const held = volunteers.map((): Shift[] => []);
  const hours = volunteers.map(() => 0);
  const perDay = volunteers.map(() => new Map<string, number>());
  const count = new Map<string, number>();
  const take = (v: number, s: Shift, group: string | null, sign: 1 | -1): void => {
    if (sign > 0) held[v]!.push(s);
    else held[v]!.pop();
    onTake?.(v, s, group, sign);
    hours[v]! += sign * s.hours;
    perDay[v]!.set(s.day, (perDay[v]!.get(s.day) ?? 0) + sign);
    if (group !== null) count.set(pairKey(s.id, group), (count.get(pairKey(s.id, group)) ?? 0) + sign);
  };
  const lockGroup = lockGroups(facts.locks);
  for (const l of facts.locks) take(l.v.i, l.s, lockGroup.get(pairKey(l.v.id, l.s.id))!, 1);
  const filled = zeros();
  const open = zeros();
  for (const s of facts.shifts) {
    for (const [g, n] of Object.entries(s.required)) {
      const c = count.get(pairKey(s.id, g)) ?? 0;
      filled[classOf(s)]! += Math.min(n, c);
      open[classOf(s)]! += Math.max(0, n - c);
    }
  }
  const fits = (vi: number, s: Shift): boolean => {
    const v = volunteers[vi]!;
    return (
      hours[vi]! + s.hours <= v.cap + 1e-9 &&
      !held[vi]!.some((t) => tooClose(v, t, s)) &&
      (v.maxPerDay === undefined || (perDay[vi]!.get(s.day) ?? 0) < v.maxPerDay)
    );
  };
  const locked = new Set(facts.locks.map((l) => pairKey(l.v.id, l.s.id)));
  const candidates: Candidate[] = [];
  for (const s of facts.shifts) {
    for (const v of volunteers) {
      const groups = v.groups.filter((g) => (s.required[g] ?? 0) > 0);
      if (groups.length > 0 && !locked.has(pairKey(v.id, s.id)) && !excluded(v, s) && fits(v.i, s)) candidates.push({ v: v.i, s, groups });
    }
  }
  if (order === 'priority') candidates.sort((a, b) => b.s.priority - a.s.priority);
  const left = candidates.map(zeros).concat([zeros()]);
  for (let k = candidates.length - 1; k >= 0; k--) {
    left[k] = [...left[k + 1]!];
    left[k]![classOf(candidates[k]!.s)]!++;
  }
  return { take, fits, count, filled, open, candidates, left };
}

/** The most slots any schedule fills per priority class (5 first), locks included. */
export function bestFilledByPriority(request: Json): number[] {
  const { take, fits, count, filled, open, candidates, left } = searchState(readRequest(request), 'priority');
  let best = [...filled];
  const search = (k: number): void => {
    if (
      !better(
        filled.map((f, c) => f + Math.min(open[c]!, left[k]![c]!)),
        best,
      )
    )
      return;
    if (k === candidates.length) {
      best = [...filled];
      return;
    }
    const { v, s, groups } = candidates[k]!;
    if (fits(v, s)) {
      for (const g of groups) {
        if ((count.get(pairKey(s.id, g)) ?? 0) >= s.required[g]!) continue;
        take(v, s, g, 1);
        filled[classOf(s)]!++;
        open[classOf(s)]!--;
        search(k + 1);
        take(v, s, g, -1);
        filled[classOf(s)]!--;
        open[classOf(s)]!++;
      }
    }
    search(k + 1);
  };
  search(0);
  return best;
}

// ---------------------------------------------------------------------------------------------
// Every objective level (CONTRACT.md section 11): coverage per class, fully staffed slot kinds
// (a (shift, group) at its headcount, as the engine counts level 2), assignments to avoided
// shifts, hours short of min_hours, assignments to preferred shifts, and the sum of squared hours.

export interface LevelValues {
  filled: number[];
  staffed: number;
  /** Previous assignments kept (level 3). */
  kept: number;
  avoided: number;
  short: number;
  preferred: number;
  squares: number;
}

/** Shortfalls (sums of hours) equal within this are equal. */
const SHORT_TOL = 1e-6;

/** >0 when a is better than b on levels 1 to 6 (coverage, staffed, previous kept, avoided, short, preferred), <0 when worse, 0 when tied. */
export function compareLevels(a: LevelValues, b: LevelValues): number {
  for (let c = 0; c < CLASSES; c++) if (a.filled[c] !== b.filled[c]) return a.filled[c]! - b.filled[c]!;
  if (a.staffed !== b.staffed) return a.staffed - b.staffed;
  if (a.kept !== b.kept) return a.kept - b.kept;
  if (a.avoided !== b.avoided) return b.avoided - a.avoided;
  if (Math.abs(a.short - b.short) > SHORT_TOL) return b.short - a.short;
  return a.preferred - b.preferred;
}

/** The level values of a schedule: `groups` gives each (volunteer, shift) pair's group, null for a lock that fills none. */
function levelValues(facts: RequestFacts, pairs: ReadonlyArray<{ v: number; s: Shift; group: string | null }>): LevelValues {
  const filled = zeros();
  let staffed = 0;
  for (const s of facts.shifts) {
    for (const [g, n] of Object.entries(s.required)) {
      if (!(n > 0)) continue;
      const here = pairs.filter((a) => a.s === s && a.group === g).length;
      filled[classOf(s)]! += Math.min(n, here);
      if (here >= n) staffed++;
    }
  }
  let kept = 0;
  for (const prev of facts.previous ?? []) {
    const held = pairs.find((a) => facts.volunteers[a.v]!.id === prev.volunteerId && a.s.id === prev.shiftId);
    const locked = facts.locks.some((l) => l.v.id === prev.volunteerId && l.s.id === prev.shiftId);
    if (held && (prev.group === undefined || locked || held.group === prev.group)) kept++;
  }
  let avoided = 0;
  let preferred = 0;
  let short = 0;
  let squares = 0;
  const raw = facts.volunteers.map(() => ({ hours: 0 }));
  for (const a of pairs) raw[a.v]!.hours += a.s.hours;
  facts.volunteers.forEach((v, i) => {
    const mine = pairs.filter((a) => a.v === i);
    avoided += mine.filter((a) => v.avoided.has(a.s.id)).length;
    preferred += mine.filter((a) => v.preferred.has(a.s.id)).length;
    short += Math.max(0, v.minHours - raw[i]!.hours);
    squares += raw[i]!.hours ** 2;
  });
  return { filled, staffed, kept, avoided, short, preferred, squares };
}

/** The level values of a result, read from its roster. */
export function levelsOfResult(request: Json, result: Json): LevelValues {
  const facts = readRequest(request);
  const pairs = (result.roster as Json[]).map((e) => ({
    v: facts.vById.get(e.volunteer_id)!.i,
    s: facts.sById.get(e.shift_id)!,
    group: e.group as string | null,
  }));
  return levelValues(facts, pairs);
}

/**
 * The lexicographic optimum of levels 1 to 6 over every schedule that keeps the rules, and the
 * least sum of squared hours among the schedules that reach it (level 7). Branches that cannot
 * reach the best coverage are cut; everything else is tried.
 */
export function bestLevels(request: Json): LevelValues {
  const facts = readRequest(request);
  const bestCoverage = bestFilledByPriority(request);
  const pairs: Array<{ v: number; s: Shift; group: string | null }> = [];
  const { take, fits, count, filled, open, candidates, left } = searchState(facts, 'request', (v, s, group, sign) => {
    if (sign > 0) pairs.push({ v, s, group });
    else pairs.pop();
  });
  let best: LevelValues | undefined;
  const search = (k: number): void => {
    if (
      better(
        bestCoverage,
        filled.map((f, c) => f + Math.min(open[c]!, left[k]![c]!)),
      )
    )
      return;
    if (k === candidates.length) {
      const here = levelValues(facts, pairs);
      const order = best === undefined ? 1 : compareLevels(here, best);
      if (order > 0 || (order === 0 && here.squares < best!.squares)) best = here;
      return;
    }
    const { v, s, groups } = candidates[k]!;
    if (fits(v, s)) {
      for (const g of groups) {
        if ((count.get(pairKey(s.id, g)) ?? 0) >= s.required[g]!) continue;
        take(v, s, g, 1);
        filled[classOf(s)]!++;
        open[classOf(s)]!--;
        search(k + 1);
        take(v, s, g, -1);
        filled[classOf(s)]!--;
        open[classOf(s)]!++;
      }
    }
    search(k + 1);
  };
  search(0);
  return best!;
}

// ---------------------------------------------------------------------------------------------

const CAPS = [0, 2, 4, 6, 8, 12, 999];
const ZONES = ['America/Chicago', 'UTC', 'Asia/Kolkata'];
/** A time `halfHours` half-hours after 2026-06-06 00:00 UTC (19:00 the day before in Chicago). */
const at = (halfHours: number): string => new Date(Date.UTC(2026, 5, 6) + halfHours * 1_800_000).toISOString().replace('.000Z', 'Z');
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined, freq: 2 });
/** The object without its undefined properties (a request is JSON). */
const defined = (o: Json): Json => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined));
const windows = fc.array(
  fc
    .record({ start: fc.integer({ min: 0, max: 80 }), length: fc.integer({ min: 1, max: 48 }) })
    .map((w) => ({ start: at(w.start), end: at(w.start + w.length) })),
  { maxLength: 2 },
);

/**
 * Random small requests: up to `maxV` volunteers and `maxS` shifts, some locks. Without the 2.2
 * rules, 2.1 requests of groups a and b over a day; with them, groups a to c over two days,
 * additional groups, available and unavailable windows, rest (0 to 10 h, per volunteer or for
 * all), daily limits (1 to 3), priorities (1 to 5) and a time zone. With `wishes`, volunteers may
 * also have preferred_shifts, avoid_shifts (never the same shift) and min_hours (0 to 12).
 */
export function tinyRequests(maxV: number, maxS: number, { rules, wishes = false }: { rules: boolean; wishes?: boolean }): fc.Arbitrary<Json> {
  const groups = rules ? ['a', 'b', 'c'] : ['a', 'b'];
  const halfHours = rules ? 80 : 40;
  const volunteer = fc.record({
    group: fc.constantFrom(...groups),
    max_hours: fc.constantFrom(...CAPS),
    ...(rules && {
      additional_groups: maybe(fc.subarray(groups)),
      available: maybe(windows),
      unavailable: maybe(windows),
      min_rest_hours: maybe(fc.integer({ min: 0, max: 20 }).map((x) => x / 2)),
      max_shifts_per_day: maybe(fc.integer({ min: 1, max: 3 })),
    }),
    ...(wishes && {
      preferred: maybe(fc.array(fc.nat(), { maxLength: 3 })),
      avoid: maybe(fc.array(fc.nat(), { maxLength: 3 })),
      min_hours: maybe(fc.integer({ min: 0, max: 24 }).map((x) => x / 2)),
    }),
  });
  const shift = fc.record({
    start: fc.integer({ min: 0, max: halfHours }),
    length: fc.integer({ min: 1, max: rules ? 12 : 8 }),
    counts: fc.tuple(...groups.map(() => fc.integer({ min: 0, max: 2 }))),
    priority: rules ? maybe(fc.integer({ min: 1, max: 5 })) : fc.constant(undefined),
  });
  const ruleSet = rules
    ? maybe(
        fc.record({
          min_rest_hours: maybe(fc.integer({ min: 0, max: 10 })),
          max_shifts_per_day: maybe(fc.integer({ min: 1, max: 3 })),
          timezone: maybe(fc.constantFrom(...ZONES)),
        }),
      )
    : fc.constant(undefined);
  return fc
    .record({
      vols: fc.array(volunteer, { minLength: 1, maxLength: maxV }),
      shifts: fc.array(shift, { minLength: 1, maxLength: maxS }),
      locks: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
      rules: ruleSet,
    })
    .map(({ vols, shifts, locks, rules: set }) => {
      // Wishes name shifts by index; a shift both preferred and avoided is kept preferred only (the pair is an error).
      const ids = (list: number[] | undefined, not: string[] = []): string[] | undefined =>
        list && [...new Set(list.map((k) => `s${k % shifts.length}`))].filter((id) => !not.includes(id));
      const request: Json = {
        volunteers: vols.map(({ preferred, avoid, ...v }: Json, i) => {
          const preferred_shifts = ids(preferred);
          return defined({ id: `v${i}`, ...v, preferred_shifts, avoid_shifts: ids(avoid, preferred_shifts) });
        }),
        unassigned_shifts: shifts.map((s, i) =>
          defined({
            id: `s${i}`,
            start: at(s.start),
            end: at(s.start + s.length),
            required_groups: Object.fromEntries(groups.flatMap((g, k) => (s.counts[k] ? [[g, s.counts[k]]] : []))),
            priority: s.priority,
          }),
        ),
      };
      if (set) request.rules = defined(set);
      if (locks.length > 0) request.current_assignments = locks.map(([v, s]) => ({ volunteer_id: `v${v % vols.length}`, shift_id: `s${s % shifts.length}` }));
      return request;
    });
}
