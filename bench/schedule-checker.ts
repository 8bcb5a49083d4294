// An independent checker of schedule results, written from the contract alone: it imports
// nothing from src/engine. Given a request and the result the service returned, it verifies
// groups, headcounts, hours, overlaps, locks, lock-break warnings, summaries, the fairness
// score, the unfilled list, and every conflict's counts and reasons. It returns the list of
// violations (empty when the result is right), each with a code and the ids it is about, so a
// test can assert exactly which rule broke and where. It lives with the benchmarks, which check
// every schedule they time; the tests use it through test/helpers/schedule-checker.ts.
import { loadSchemas, type SchemaRegistry } from '../src/input/schema-registry.js';

let registry: SchemaRegistry | undefined;
const schemas = (): SchemaRegistry => (registry ??= loadSchemas());

type Json = Record<string, any>;

/** One broken rule: a stable code, the entities it names, and a readable message. */
export interface Violation {
  code: ViolationCode;
  volunteer?: string;
  shift?: string;
  /** The second shift of an overlap. */
  other?: string;
  group?: string;
  message: string;
}

export type ViolationCode =
  | 'schema'
  | 'unknown_shift'
  | 'shift_order'
  | 'empty_shift'
  | 'repeated_volunteer'
  | 'unknown_volunteer'
  | 'volunteer_order'
  | 'lock_dropped'
  | 'group_not_required'
  | 'over_headcount'
  | 'over_max_hours'
  | 'added_past_locked_hours'
  | 'overlap'
  | 'summary_missing'
  | 'summary_hours'
  | 'summary_shifts'
  | 'summary_count'
  | 'fairness_score'
  | 'unfilled_shifts'
  | 'conflict_count'
  | 'conflict_pair'
  | 'conflict_counts'
  | 'conflict_no_reason'
  | 'false_reason'
  | 'unknown_reason'
  | 'fillable_slot'
  | 'too_many_named'
  | 'lock_warning_missing';

type Names = Omit<Violation, 'code' | 'message'>;

const hoursOf = (s: Json): number => (Date.parse(s.end) - Date.parse(s.start)) / 3_600_000;
const overlapping = (a: Json, b: Json): boolean => Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);

export interface CheckOptions {
  /** Allow the `time_limit` detail (a solve that stopped before completing). */
  allowIncomplete?: boolean;
}

export function checkSchedule(request: Json, result: Json, options: CheckOptions = {}): Violation[] {
  const problems: Violation[] = [];
  const fail = (code: ViolationCode, names: Names, message: string): void => {
    if (problems.length < 50) problems.push({ code, ...names, message });
  };
  const validate = schemas().validator('schedule-result');
  if (!validate(result)) fail('schema', {}, `schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`);

  const volunteers: Json[] = request.volunteers;
  const shifts: Json[] = request.unassigned_shifts;
  const vById = new Map<string, Json>(volunteers.map((v, i) => [v.id as string, { ...v, i }]));
  const sById = new Map<string, Json>(shifts.map((s, i) => [s.id as string, { ...s, i }]));
  const cap = (v: Json): number => (v.max_hours === 999 ? Infinity : v.max_hours);
  const locked = new Set<string>();
  for (const a of request.current_assignments ?? []) locked.add(`${a.volunteer_id}\u0000${a.shift_id}`);
  const isLocked = (v: string, s: string): boolean => locked.has(`${v}\u0000${s}`);

  // assigned_shifts: known ids, request order, no empty lists, no duplicates.
  const inShift = new Map<string, string[]>();
  let lastShift = -1;
  for (const [sid, list] of Object.entries(result.assigned_shifts as Record<string, string[]>)) {
    const s = sById.get(sid);
    if (!s) {
      fail('unknown_shift', { shift: sid }, `assigned_shifts names unknown shift ${sid}`);
      continue;
    }
    if (!/^\d+$/.test(sid) && s.i < lastShift) fail('shift_order', { shift: sid }, `assigned_shifts not in request order at ${sid}`);
    lastShift = Math.max(lastShift, s.i);
    if (list.length === 0) fail('empty_shift', { shift: sid }, `assigned_shifts lists ${sid} with no volunteer`);
    if (new Set(list).size !== list.length) fail('repeated_volunteer', { shift: sid }, `assigned_shifts ${sid} repeats a volunteer`);
    const order = list.map((v) => vById.get(v)?.i ?? -1);
    if (order.some((i) => i < 0)) fail('unknown_volunteer', { shift: sid }, `assigned_shifts ${sid} names an unknown volunteer`);
    if (order.some((i, k) => k > 0 && i < order[k - 1]!)) fail('volunteer_order', { shift: sid }, `assigned_shifts ${sid} volunteers not in request order`);
    inShift.set(sid, list);
  }
  const shiftsOf = new Map<string, string[]>(volunteers.map((v) => [v.id, []]));
  for (const [sid, list] of inShift) for (const v of list) shiftsOf.get(v)?.push(sid);

  // Locks kept.
  for (const key of locked) {
    const [v, s] = key.split('\u0000') as [string, string];
    if (!inShift.get(s)?.includes(v)) fail('lock_dropped', { volunteer: v, shift: s }, `locked assignment ${v} -> ${s} was not kept`);
  }

  // Groups and headcounts.
  for (const [sid, list] of inShift) {
    const s = sById.get(sid)!;
    const byGroup = new Map<string, { all: number; locked: number; added: number }>();
    for (const vid of list) {
      const v = vById.get(vid)!;
      const required = s.required_groups[v.group] ?? 0;
      const lock = isLocked(vid, sid);
      if (!lock && !(required > 0))
        fail('group_not_required', { volunteer: vid, shift: sid, group: v.group }, `${vid} added to ${sid}, which does not require group ${v.group}`);
      const c = byGroup.get(v.group) ?? { all: 0, locked: 0, added: 0 };
      c.all++;
      if (lock) c.locked++;
      else c.added++;
      byGroup.set(v.group, c);
    }
    for (const [g, c] of byGroup) {
      const required = s.required_groups[g] ?? 0;
      if (c.added > 0 && c.all > required)
        fail('over_headcount', { shift: sid, group: g }, `${sid} group ${g}: ${c.all} volunteers for ${required} slots with ${c.added} added`);
    }
  }

  // Hours and overlaps per volunteer.
  const hours = new Map<string, number>();
  for (const v of volunteers) {
    const mine = shiftsOf.get(v.id)!.map((sid) => sById.get(sid)!);
    const total = mine.reduce((t, s) => t + hoursOf(s), 0);
    hours.set(v.id, total);
    const added = mine.filter((s) => !isLocked(v.id, s.id));
    const lockedHours = total - added.reduce((t, s) => t + hoursOf(s), 0);
    if (added.length > 0 && total > cap(v) + 1e-6)
      fail('over_max_hours', { volunteer: v.id }, `${v.id} has ${total} h over max_hours ${v.max_hours} with additions`);
    if (added.length > 0 && lockedHours > cap(v) + 1e-6) fail('added_past_locked_hours', { volunteer: v.id }, `${v.id} locked over max_hours yet got more`);
    for (let i = 0; i < mine.length; i++) {
      for (let j = i + 1; j < mine.length; j++) {
        const a = mine[i]!;
        const b = mine[j]!;
        if (overlapping(a, b) && !(isLocked(v.id, a.id) && isLocked(v.id, b.id)))
          fail('overlap', { volunteer: v.id, shift: a.id, other: b.id }, `${v.id} is in overlapping ${a.id} and ${b.id}`);
      }
    }
    // Summary.
    const summary = result.volunteers[v.id];
    if (!summary) {
      fail('summary_missing', { volunteer: v.id }, `volunteers lacks ${v.id}`);
      continue;
    }
    if (Math.abs(summary.assigned_hours - Math.round(total * 100) / 100) > 1e-9)
      fail('summary_hours', { volunteer: v.id }, `${v.id} assigned_hours ${summary.assigned_hours} != ${total}`);
    const chrono = [...mine].sort((a, b) => Date.parse(a.start) - Date.parse(b.start) || Date.parse(a.end) - Date.parse(b.end) || a.i - b.i).map((s) => s.id);
    if (JSON.stringify(summary.assigned_shifts) !== JSON.stringify(chrono))
      fail('summary_shifts', { volunteer: v.id }, `${v.id} assigned_shifts ${JSON.stringify(summary.assigned_shifts)} != ${JSON.stringify(chrono)}`);
  }
  if (Object.keys(result.volunteers).length !== volunteers.length) fail('summary_count', {}, 'volunteers map size differs from the request');

  // Fairness score.
  const all = volunteers.map((v) => hours.get(v.id)!);
  const mean = all.reduce((a, b) => a + b, 0) / Math.max(1, all.length);
  const expected = mean > 0 ? Math.round((all.reduce((a, h) => a + (h - mean) ** 2, 0) / all.length / (mean * mean)) * 1e4) / 1e4 : 0;
  if (Math.abs(result.fairness_score - expected) > 1e-9) fail('fairness_score', {}, `fairness_score ${result.fairness_score} != ${expected}`);

  // Unfilled shifts and conflicts.
  const shortPairs: Array<{ s: Json; g: string; required: number; assigned: number }> = [];
  for (const s of shifts) {
    for (const [g, required] of Object.entries(s.required_groups as Record<string, number>)) {
      if (!(required > 0)) continue;
      const assigned = (inShift.get(s.id) ?? []).filter((v) => vById.get(v)!.group === g).length;
      if (assigned < required) shortPairs.push({ s, g, required, assigned });
    }
  }
  const expectedUnfilled = shifts.filter((s) => shortPairs.some((p) => p.s.id === s.id)).map((s) => s.id);
  if (JSON.stringify(result.unfilled_shifts) !== JSON.stringify(expectedUnfilled))
    fail('unfilled_shifts', {}, `unfilled_shifts ${JSON.stringify(result.unfilled_shifts)} != ${JSON.stringify(expectedUnfilled)}`);
  if (result.conflicts.length !== shortPairs.length)
    fail('conflict_count', {}, `${result.conflicts.length} conflicts for ${shortPairs.length} short (shift, group) pairs`);
  shortPairs.forEach((p, k) => {
    const c = result.conflicts[k];
    if (!c) return;
    const at: Names = { shift: p.s.id, group: p.g };
    if (c.shift_id !== p.s.id || c.group !== p.g) {
      fail('conflict_pair', at, `conflict ${k} is ${c.shift_id}/${c.group}, expected ${p.s.id}/${p.g}`);
      return;
    }
    if (c.required !== p.required || c.assigned !== p.assigned || c.missing !== p.required - p.assigned)
      fail('conflict_counts', at, `conflict ${p.s.id}/${p.g} counts wrong`);
    if (!(c.reasons.length >= 1)) fail('conflict_no_reason', at, `conflict ${p.s.id}/${p.g} has no reason`);
    const members = volunteers.filter((v) => v.group === p.g);
    const out = members.filter((v) => !(inShift.get(p.s.id) ?? []).includes(v.id));
    for (const d of c.details as Json[]) {
      const v = d.volunteer_id !== undefined ? vById.get(d.volunteer_id) : undefined;
      switch (d.code) {
        case 'no_group_members':
          if (members.length > 0) fail('false_reason', at, `${p.s.id}/${p.g}: no_group_members but the group has ${members.length}`);
          break;
        case 'group_too_small':
          if (out.length > 0) fail('false_reason', at, `${p.s.id}/${p.g}: group_too_small but ${out.length} members are not in the shift`);
          break;
        case 'max_hours':
          if (!v || v.group !== p.g)
            fail('false_reason', { ...at, volunteer: d.volunteer_id }, `${p.s.id}/${p.g}: max_hours names ${d.volunteer_id}, not in the group`);
          else if (!(hours.get(v.id)! + hoursOf(p.s) > cap(v) + 1e-9))
            fail('false_reason', { ...at, volunteer: v.id }, `${p.s.id}/${p.g}: ${v.id} is not at max_hours`);
          else if (Math.abs(d.assigned_hours - Math.round(hours.get(v.id)! * 100) / 100) > 1e-9)
            fail('false_reason', { ...at, volunteer: v.id }, `${p.s.id}/${p.g}: ${v.id} assigned_hours in detail wrong`);
          break;
        case 'overlap':
        case 'locked_overlap': {
          const o = sById.get(d.shift_id);
          if (!v || !o) fail('false_reason', { ...at, volunteer: d.volunteer_id }, `${p.s.id}/${p.g}: ${d.code} names unknown ids`);
          else if (!(inShift.get(o.id) ?? []).includes(v.id) || !overlapping(o, p.s))
            fail('false_reason', { ...at, volunteer: v.id, other: o.id }, `${p.s.id}/${p.g}: ${v.id} is not in overlapping ${o.id}`);
          else if ((d.code === 'locked_overlap') !== isLocked(v.id, o.id))
            fail('false_reason', { ...at, volunteer: v.id, other: o.id }, `${p.s.id}/${p.g}: ${d.code} for ${v.id} in ${o.id} has the wrong lock state`);
          break;
        }
        case 'summary':
          break;
        case 'time_limit':
          if (!options.allowIncomplete) fail('false_reason', at, `${p.s.id}/${p.g}: time_limit detail in a completed solve`);
          break;
        default:
          fail('unknown_reason', at, `${p.s.id}/${p.g}: unknown detail code ${d.code}`);
      }
    }
    // Every member outside the shift is kept out by some rule (no slot left while someone is free).
    if (!options.allowIncomplete) {
      for (const v of out) {
        const blocked = shiftsOf.get(v.id)!.some((sid) => overlapping(sById.get(sid)!, p.s)) || hours.get(v.id)! + hoursOf(p.s) > cap(v) + 1e-9;
        if (!blocked) fail('fillable_slot', { ...at, volunteer: v.id }, `${p.s.id}/${p.g}: ${v.id} could fill it but was not placed`);
      }
    }
    const named = (c.details as Json[]).filter((d) => d.volunteer_id !== undefined).length;
    if (named > 10) fail('too_many_named', at, `${p.s.id}/${p.g}: names ${named} volunteers, over 10`);
  });

  // Lock-break warnings: each break the request has is reported.
  const codes = new Set((result.warnings as Json[]).map((w) => w.code));
  const lockList: Json[] = request.current_assignments ?? [];
  for (const a of lockList) {
    const v = vById.get(a.volunteer_id)!;
    const s = sById.get(a.shift_id)!;
    if (!((s.required_groups[v.group] ?? 0) > 0) && !codes.has('lock_group_not_required'))
      fail('lock_warning_missing', { volunteer: v.id, shift: s.id }, `lock ${v.id}->${s.id}: group not required, no warning`);
  }
  for (const v of volunteers) {
    const lockedShifts = lockList.filter((a) => a.volunteer_id === v.id).map((a) => sById.get(a.shift_id)!);
    const unique = [...new Map(lockedShifts.map((s) => [s.id, s])).values()];
    if (unique.reduce((t, s) => t + hoursOf(s), 0) > cap(v) + 1e-9 && !codes.has('lock_max_hours_exceeded'))
      fail('lock_warning_missing', { volunteer: v.id }, `${v.id} locked over max_hours, no warning`);
    for (let i = 0; i < unique.length; i++)
      for (let j = i + 1; j < unique.length; j++)
        if (overlapping(unique[i]!, unique[j]!) && !codes.has('lock_overlap'))
          fail('lock_warning_missing', { volunteer: v.id, shift: unique[i]!.id, other: unique[j]!.id }, `${v.id} locked overlap, no warning`);
  }
  return problems;
}
