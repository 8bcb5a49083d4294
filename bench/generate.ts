// Seeded generators of benchmark requests: a multi-day festival with many groups, a weekly food
// bank, a scarce family (demand well above supply), and locked variants; and for version 2.2, the
// same kinds with every rule in play (availability, additional groups, rest, daily limits,
// priorities). The same seed always gives the same request.

import { readFileSync } from 'node:fs';
import { seededRandom } from '../src/engine/local-search.js';
import type { CurrentAssignment, ScheduleRequest, Shift, Volunteer } from '../src/types/schema-types.js';

/** mulberry32: a small, fast, seedable PRNG (the engine's own, so both draw the same numbers from a seed). */
export const rng = seededRandom;

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const int = (r: () => number, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const iso = (base: number, hours: number): string => new Date(base + hours * 3_600_000).toISOString().replace('.000Z', 'Z');
const BASE = Date.UTC(2026, 5, 5);

const GROUP_NAMES = ['bar', 'kitchen', 'stage', 'gate', 'medical', 'cleanup', 'parking', 'info', 'merch', 'security', 'water', 'recycling'];

export interface FestivalOptions {
  seed: number;
  volunteers: number;
  shifts: number;
  days?: number;
  groups?: number;
  /** Multiplier on headcounts: > 1 makes demand exceed supply. */
  demand?: number;
  caps?: readonly number[];
  /** Fraction of volunteers with locked assignments. */
  locked?: number;
}

/** A festival: many groups, 2-6 h shifts from 06:00 to past midnight, some needing two groups. */
export function festival(o: FestivalOptions): ScheduleRequest {
  const r = rng(o.seed);
  const days = o.days ?? 3;
  const groups = GROUP_NAMES.slice(0, o.groups ?? 6);
  // Group sizes vary: weight each group.
  const weights = groups.map(() => 0.5 + r());
  const total = weights.reduce((a, b) => a + b, 0);
  const groupOf = (x: number): string => {
    let acc = 0;
    for (let i = 0; i < groups.length; i++) {
      acc += weights[i]! / total;
      if (x < acc) return groups[i]!;
    }
    return groups[groups.length - 1]!;
  };
  const caps = o.caps ?? [8, 12, 12, 16, 20, 24, 999];
  const volunteers = Array.from({ length: o.volunteers }, (_, i) => ({
    id: `v${i + 1}`,
    name: `Volunteer ${i + 1}`,
    group: groupOf(r()),
    max_hours: pick(r, caps),
  }));
  const shifts = Array.from({ length: o.shifts }, (_, i) => {
    const day = int(r, 0, days - 1);
    const start = int(r, 6, 22) + (r() < 0.3 ? 0.5 : 0);
    const length = int(r, 2, 6);
    const g1 = groupOf(r());
    const required: Record<string, number> = { [g1]: Math.max(1, Math.round(int(r, 1, 4) * (o.demand ?? 1))) };
    if (r() < 0.2) {
      const g2 = groupOf(r());
      if (g2 !== g1) required[g2] = Math.max(1, Math.round(int(r, 1, 2) * (o.demand ?? 1)));
    }
    return { id: `${g1}-d${day + 1}-${i + 1}`, start: iso(BASE, day * 24 + start), end: iso(BASE, day * 24 + start + length), required_groups: required };
  });
  const request: ScheduleRequest = { volunteers, unassigned_shifts: shifts };
  if (o.locked) request.current_assignments = locks(r, volunteers, shifts, o.locked);
  return request;
}

/** Locks for a fraction of volunteers: mostly in shifts of their group, a few that break a rule. */
function locks(r: () => number, volunteers: Volunteer[], shifts: Shift[], fraction: number): CurrentAssignment[] {
  const out: CurrentAssignment[] = [];
  const byGroup = new Map<string, Shift[]>();
  for (const s of shifts) for (const g of Object.keys(s.required_groups)) byGroup.set(g, [...(byGroup.get(g) ?? []), s]);
  for (const v of volunteers) {
    if (r() >= fraction) continue;
    const mine = byGroup.get(v.group) ?? shifts;
    const n = int(r, 1, 2);
    for (let k = 0; k < n; k++) out.push({ shift_id: pick(r, r() < 0.1 ? shifts : mine).id, volunteer_id: v.id });
  }
  return out;
}

const FOOD_BANK_GROUPS = ['warehouse', 'drivers', 'intake'];

/** A food bank's helpers: one of its three groups each, caps of 4 to 16 hours. */
function foodBankHelpers(r: () => number, count: number): Volunteer[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `fb${i + 1}`,
    name: `Helper ${i + 1}`,
    group: pick(r, FOOD_BANK_GROUPS),
    max_hours: pick(r, [4, 6, 8, 8, 12, 16]),
  }));
}

/** A weekly food bank: three groups, morning/afternoon/evening shifts every day. */
export function foodBank(seed: number, volunteers: number, weeks = 1): ScheduleRequest {
  const r = rng(seed);
  const groups = FOOD_BANK_GROUPS;
  const vols = foodBankHelpers(r, volunteers);
  const shifts: Shift[] = [];
  for (let d = 0; d < weeks * 7; d++) {
    for (const [label, from, to] of [
      ['am', 8, 12],
      ['pm', 12, 16],
      ['eve', 16, 20],
    ] as const) {
      for (const g of groups) {
        if (d % 7 === 6 && label === 'eve') continue;
        shifts.push({
          id: `${g}-${label}-d${d + 1}`,
          start: iso(BASE, d * 24 + from),
          end: iso(BASE, d * 24 + to),
          required_groups: { [g]: int(r, 1, Math.max(1, Math.round(volunteers / 25))) },
        });
      }
    }
  }
  return { volunteers: vols, unassigned_shifts: shifts };
}

export interface Instance {
  name: string;
  family: string;
  request: ScheduleRequest;
}

export function generatedInstances(): Instance[] {
  return [
    { name: 'festival-50x30', family: 'festival', request: festival({ seed: 1, volunteers: 50, shifts: 30, days: 2, groups: 4 }) },
    { name: 'foodbank-60x60', family: 'food bank', request: foodBank(2, 60) },
    { name: 'festival-400x300', family: 'festival', request: festival({ seed: 3, volunteers: 400, shifts: 300, days: 3, groups: 6 }) },
    {
      name: 'festival-locked-400x300',
      family: 'festival, locks',
      request: festival({ seed: 4, volunteers: 400, shifts: 300, days: 3, groups: 6, locked: 0.15 }),
    },
    {
      name: 'scarce-150x400',
      family: 'scarce',
      request: festival({ seed: 5, volunteers: 150, shifts: 400, days: 3, groups: 4, demand: 1, caps: [8, 10, 12, 16] }),
    },
    { name: 'festival-2500x1200', family: 'festival', request: festival({ seed: 6, volunteers: 2500, shifts: 1200, days: 4, groups: 12 }) },
  ];
}

// ---- Version 2.2 rules: availability, additional groups, rest, daily limits, priorities ----

export interface RuleMix {
  /** The instance's rules.min_rest_hours and rules.timezone; max_shifts_per_day is always 2. */
  minRestHours: number;
  timezone: string;
  /** The first day (UTC midnight, ms) and the number of days the shifts span. */
  firstDay: number;
  days: number;
  /** Hours to add to a local clock time to get UTC (the zone's offset in the season, negated). */
  utcShift: number;
}

/**
 * Puts every 2.2 rule in play on a request, drawing from its own seeded stream (so the request it
 * decorates is exactly what its generator made): 40% of volunteers available only in windows
 * (a third of them also unavailable for a few hours), 20% with one or two additional groups,
 * 10% with their own min_rest_hours and 5% their own max_shifts_per_day (exact shares, each
 * drawn from its own shuffle, so the rules overlap at random), every shift a priority
 * from 1 to 5 (1 the most common), rules.min_rest_hours, max_shifts_per_day 2 and a time zone.
 */
export function withRules(seed: number, request: ScheduleRequest, mix: RuleMix): ScheduleRequest {
  const r = rng(seed);
  const groups = [...new Set(request.volunteers.map((v) => v.group))];
  const at = (day: number, localHour: number): string => iso(mix.firstDay, day * 24 + localHour + mix.utcShift);
  // Exact shares: each rule goes to the first share of its own seeded shuffle of the volunteers.
  const n = request.volunteers.length;
  const share = (fraction: number): Set<number> => new Set(shuffled(r, n).slice(0, Math.round(fraction * n)));
  const windowed = share(0.4);
  const alsoUnavailable = new Set([...windowed].filter((_, k) => k % 3 === 0));
  const multiGroup = share(0.2);
  const ownRest = share(0.1);
  const ownDaily = share(0.05);
  const volunteers = request.volunteers.map((v, i): Volunteer => {
    const out: Volunteer = { ...v };
    if (windowed.has(i)) {
      const days = Array.from({ length: mix.days }, (_, d) => d).filter(() => r() < 0.6);
      if (days.length === 0) days.push(int(r, 0, mix.days - 1));
      // Local windows of 8-16 h from 06:00-14:00; the later ones run past midnight.
      out.available = days.map((d) => {
        const from = int(r, 6, 14);
        return { start: at(d, from), end: at(d, from + int(r, 8, 16)) };
      });
    }
    if (alsoUnavailable.has(i)) {
      const d = int(r, 0, mix.days - 1);
      const from = int(r, 8, 20);
      out.unavailable = [{ start: at(d, from), end: at(d, from + int(r, 2, 6)) }];
    }
    if (multiGroup.has(i)) {
      const others = shuffled(r, groups.length)
        .map((k) => groups[k]!)
        .filter((g) => g !== v.group);
      out.additional_groups = others.slice(0, Math.min(others.length, int(r, 1, 2)));
    }
    if (ownRest.has(i)) out.min_rest_hours = pick(r, [6, 8, 10, 12]);
    if (ownDaily.has(i)) out.max_shifts_per_day = pick(r, [1, 3]);
    return out;
  });
  const unassigned_shifts = request.unassigned_shifts.map((s) => ({ ...s, priority: pick(r, [1, 1, 1, 2, 2, 3, 3, 4, 5]) }));
  return { ...request, volunteers, unassigned_shifts, rules: { min_rest_hours: mix.minRestHours, max_shifts_per_day: 2, timezone: mix.timezone } };
}

/** 0..n-1 in a seeded random order (Fisher-Yates). */
function shuffled(r: () => number, n: number): number[] {
  const out = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A five-day food bank week in Chicago (local 8-12, 12-16, 16-20): seven shifts a day, three groups. */
export function foodBankWeek(seed: number, volunteers: number): ScheduleRequest {
  const r = rng(seed);
  const vols = foodBankHelpers(r, volunteers);
  const monday = Date.UTC(2026, 5, 8);
  const cdt = 5;
  const day: ReadonlyArray<readonly [string, string, number, number]> = [
    ['warehouse', 'am', 8, 12],
    ['intake', 'am', 8, 12],
    ['drivers', 'am', 8, 12],
    ['warehouse', 'pm', 12, 16],
    ['intake', 'pm', 12, 16],
    ['warehouse', 'eve', 16, 20],
    ['intake', 'eve', 16, 20],
  ];
  const shifts: Shift[] = [];
  for (let d = 0; d < 5; d++) {
    for (const [g, label, from, to] of day) {
      shifts.push({
        id: `${g}-${label}-d${d + 1}`,
        start: iso(monday, d * 24 + from + cdt),
        end: iso(monday, d * 24 + to + cdt),
        required_groups: { [g]: int(r, 1, 3) },
      });
    }
  }
  return { volunteers: vols, unassigned_shifts: shifts };
}

/** The rule-heavy instances of the "rules" table (npm run bench). */
export function rulesInstances(): Instance[] {
  // The festival generator's shifts start 06:00-22:30 UTC on days from 2026-06-05; read in Berlin (UTC+2 in June).
  const festivalMix = (days: number, minRestHours: number): RuleMix => ({ minRestHours, timezone: 'Europe/Berlin', firstDay: BASE, days, utcShift: -2 });
  return [
    {
      name: 'rules-foodbank-40x35',
      family: 'food bank, 2.2 rules',
      request: withRules(107, foodBankWeek(7, 40), { minRestHours: 9, timezone: 'America/Chicago', firstDay: Date.UTC(2026, 5, 8), days: 5, utcShift: 5 }),
    },
    {
      name: 'rules-festival-400x300',
      family: 'festival, 2.2 rules',
      request: withRules(108, festival({ seed: 8, volunteers: 400, shifts: 300, days: 3, groups: 6, locked: 0.05 }), festivalMix(3, 8)),
    },
    {
      name: 'rules-festival-2500x1200',
      family: 'festival, 2.2 rules',
      request: withRules(109, festival({ seed: 9, volunteers: 2500, shifts: 1200, days: 4, groups: 12 }), festivalMix(4, 10)),
    },
  ];
}

// ---- Soft goals (CONTRACT.md section 11): preferred and avoided shifts, minimum hours ----

/**
 * Puts every wish in play on a request, from its own seeded stream: 40% of volunteers prefer 1-3
 * shifts their groups are asked for, 30% avoid 1-3 such shifts (never one they prefer), and 40%
 * hope for min_hours of 4-16 (at most their max_hours; a tenth of them above it, which
 * validation warns about). Shares are exact, each from its own shuffle.
 */
export function withWishes(seed: number, request: ScheduleRequest): ScheduleRequest {
  const r = rng(seed);
  const n = request.volunteers.length;
  const share = (fraction: number): Set<number> => new Set(shuffled(r, n).slice(0, Math.round(fraction * n)));
  const preferring = share(0.4);
  const avoiding = share(0.3);
  const hoping = share(0.4);
  const shiftsOf = new Map<string, string[]>();
  for (const s of request.unassigned_shifts) for (const g of Object.keys(s.required_groups)) shiftsOf.set(g, [...(shiftsOf.get(g) ?? []), s.id]);
  const volunteers = request.volunteers.map((v, i): Volunteer => {
    const out: Volunteer = { ...v };
    const mine = [...new Set([v.group, ...(v.additional_groups ?? [])].flatMap((g) => shiftsOf.get(g) ?? []))];
    const some = (count: number, not: readonly string[] = []): string[] => {
      const free = mine.filter((id) => !not.includes(id));
      return shuffled(r, free.length)
        .slice(0, Math.min(count, free.length))
        .map((k) => free[k]!);
    };
    if (preferring.has(i) && mine.length > 0) out.preferred_shifts = some(int(r, 1, 3));
    if (avoiding.has(i) && mine.length > 0) out.avoid_shifts = some(int(r, 1, 3), out.preferred_shifts ?? []);
    if (hoping.has(i)) {
      const cap = v.max_hours === 999 ? 24 : v.max_hours;
      out.min_hours = r() < 0.1 ? cap + 4 : Math.min(cap, int(r, 4, 16));
    }
    return out;
  });
  return { ...request, volunteers };
}

/** The request without any wish: what coordinators would get if they asked nobody. */
export function withoutWishes(request: ScheduleRequest): ScheduleRequest {
  return {
    ...request,
    volunteers: request.volunteers.map((v) => {
      const out: Volunteer = { ...v };
      delete out.preferred_shifts;
      delete out.avoid_shifts;
      delete out.min_hours;
      return out;
    }),
  };
}

/** The wish-heavy instances ("wishes" table of npm run bench): the targets' festivals, and every family of the other tables with wishes. */
export function wishesInstances(): Instance[] {
  const wished = (name: string, seed: number, request: ScheduleRequest, family: string): Instance => ({ name, family, request: withWishes(seed, request) });
  const base = (name: string): ScheduleRequest => generatedInstance(name)!.request;
  return [
    wished('wishes-festival-150x100', 201, festival({ seed: 10, volunteers: 150, shifts: 100, days: 2, groups: 4 }), 'festival, wishes'),
    wished('wishes-festival-400x300', 202, base('festival-400x300'), 'festival, wishes'),
    wished('wishes-foodbank-60x60', 203, base('foodbank-60x60'), 'food bank, wishes'),
    wished('wishes-festival-locked-400x300', 204, base('festival-locked-400x300'), 'festival, locks, wishes'),
    wished('wishes-scarce-150x400', 205, base('scarce-150x400'), 'scarce, wishes'),
    wished('wishes-rules-foodbank-40x35', 206, base('rules-foodbank-40x35'), 'food bank, 2.2 rules, wishes'),
    wished('wishes-rules-festival-400x300', 207, base('rules-festival-400x300'), 'festival, 2.2 rules, wishes'),
  ];
}

/**
 * Any generated instance by name: the 2.1 set, the rules set or the wishes set; `nowish-<name>`
 * is a wishes instance with its wishes taken out (the price of wishes compares the two).
 */
export function generatedInstance(name: string): Instance | undefined {
  if (name.startsWith('nowish-')) {
    const wished = generatedInstance(name.slice('nowish-'.length));
    return wished && { ...wished, name, request: withoutWishes(wished.request) };
  }
  const plain = [...generatedInstances(), ...rulesInstances()].find((i) => i.name === name);
  return plain ?? (name.startsWith('wishes-') ? wishesInstances().find((i) => i.name === name) : undefined);
}

/** The request a benchmark argument names: a generated instance by name, or a request file (.json). */
export function requestFor(spec: string): ScheduleRequest {
  if (spec.endsWith('.json')) return JSON.parse(readFileSync(spec, 'utf8')) as ScheduleRequest;
  const generated = generatedInstance(spec);
  if (!generated) throw new Error(`"${spec}" is neither a generated instance (bench/generate.ts) nor a request file (.json)`);
  return generated.request;
}
