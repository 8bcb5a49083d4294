// Seeded generators of benchmark requests: a multi-day festival with many groups, a weekly food
// bank, a scarce family (demand well above supply), and locked variants. The same seed always
// gives the same request.

import type { CurrentAssignment, ScheduleRequest, Shift, Volunteer } from '../src/types/schema-types.js';

/** mulberry32: a small, fast, seedable PRNG. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

/** A weekly food bank: three groups, morning/afternoon/evening shifts every day. */
export function foodBank(seed: number, volunteers: number, weeks = 1): ScheduleRequest {
  const r = rng(seed);
  const groups = ['warehouse', 'drivers', 'intake'];
  const vols = Array.from({ length: volunteers }, (_, i) => ({
    id: `fb${i + 1}`,
    name: `Helper ${i + 1}`,
    group: pick(r, groups),
    max_hours: pick(r, [4, 6, 8, 8, 12, 16]),
  }));
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
