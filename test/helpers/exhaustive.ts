// Exhaustive search for tiny instances, independent of src/: it tries every set of new
// (volunteer, shift, group) assignments that keeps every rule and returns the lexicographic
// optimum of filled slots per priority class, 5 down to 1. It reads the request and the rules
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

/** The most slots any schedule fills per priority class (5 first), locks included. */
export function bestFilledByPriority(request: Json): number[] {
  const facts = readRequest(request);
  const { volunteers } = facts;
  const held = volunteers.map((): Shift[] => []);
  const hours = volunteers.map(() => 0);
  const perDay = volunteers.map(() => new Map<string, number>());
  const count = new Map<string, number>();
  const take = (v: number, s: Shift, group: string | null, sign: 1 | -1): void => {
    if (sign > 0) held[v]!.push(s);
    else held[v]!.pop();
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
  candidates.sort((a, b) => b.s.priority - a.s.priority);
  // Candidates left from k on, per class: with the open slots, a bound on what the rest can add.
  const left = candidates.map(zeros).concat([zeros()]);
  for (let k = candidates.length - 1; k >= 0; k--) {
    left[k] = [...left[k + 1]!];
    left[k]![classOf(candidates[k]!.s)]!++;
  }
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
 * all), daily limits (1 to 3), priorities (1 to 5) and a time zone.
 */
export function tinyRequests(maxV: number, maxS: number, { rules }: { rules: boolean }): fc.Arbitrary<Json> {
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
      const request: Json = {
        volunteers: vols.map((v, i) => defined({ id: `v${i}`, ...v })),
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
