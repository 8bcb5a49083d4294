// Recommendations (POST /api/recommendations' engine) on random small published schedules:
// every entry, applied to the schedule as it stands, passes the independent checker (which
// shares no code with the engine); the entries with no move are exactly the volunteers a brute
// force finds could join; the list is in the contract's order. The schedule as it stands is
// rebuilt here from the contract with the checker's reading of the request, not the engine's.
// And the check each entry goes through before it is returned can fail.
import { expect } from 'chai';
import fc from 'fast-check';
import { loadConfig } from '../../src/config/config.js';
import { checkApplied } from '../../src/engine/recommend.js';
import { PublishedSchedule } from '../../src/engine/published-schedule.js';
import { checkScheduleRequest } from '../../src/input/validate-request.js';
import { lockWarnings } from '../../src/rules/lock-warnings.js';
import { recommendBody } from '../../src/service/recommend.js';
import { fixture, schemas } from '../helpers/app.js';
import { tinyRequests } from '../helpers/exhaustive.js';
import { checkSchedule, excluded, lockGroups, pairKey, readRequest, tooClose, type RequestFacts } from '../helpers/schedule-checker.js';

type Json = Record<string, any>;
type Facts = RequestFacts;
type Shift = Facts['shifts'][number];
type Volunteer = Facts['volunteers'][number];

/** One assignment of a schedule. */
interface Held {
  v: Volunteer;
  s: Shift;
  group: string | null;
  locked: boolean;
}

/** The violations of the checker that are about rules (the rest is about a full result's summaries and explanations, which an applied entry has none of). */
const RULE_CODES = new Set([
  'two_slots_one_shift',
  'lock_dropped',
  'lock_group',
  'wrong_group',
  'group_not_required',
  'over_headcount',
  'unavailable',
  'rest',
  'max_shifts_per_day',
  'over_max_hours',
  'added_past_locked_hours',
  'overlap',
  'roster_mismatch',
  'roster_locked',
]);

/**
 * The schedule as it stands, from the contract: the locks (in the group the lock rule gives),
 * then each previous assignment in request order (a pair listed twice once, a locked pair left to
 * its lock) in the first of its groups the shift requires with room, if the volunteer is free
 * then and keeps every rule beside what is placed.
 */
function publishedSchedule(facts: Facts, request: Json): Held[] {
  const lockGroup = lockGroups(facts.locks);
  const held: Held[] = facts.locks.map(({ v, s }) => ({ v, s, group: lockGroup.get(pairKey(v.id, s.id))!, locked: true }));
  const seen = new Set<string>();
  for (const a of (request.previous_assignments ?? []) as Json[]) {
    const v = facts.vById.get(a.volunteer_id)!;
    const s = facts.sById.get(a.shift_id)!;
    const key = pairKey(v.id, s.id);
    if (seen.has(key)) continue;
    seen.add(key);
    if (held.some((h) => h.v === v && h.s === s)) continue;
    const groups = v.groups.filter((g) => (s.required[g] ?? 0) > 0 && (a.group === undefined || a.group === g));
    const group = groups.find((g) => room(held, s, g) > 0);
    if (group !== undefined && fitsBeside(held, v, s)) held.push({ v, s, group, locked: false });
  }
  return held;
}

const room = (held: readonly Held[], s: Shift, g: string): number => (s.required[g] ?? 0) - held.filter((h) => h.s === s && h.group === g).length;

/** Whether the volunteer may newly join s beside `held`: free then, not on it, rest, the daily limit and hours. */
function fitsBeside(held: readonly Held[], v: Volunteer, s: Shift): boolean {
  const mine = held.filter((h) => h.v === v).map((h) => h.s);
  return (
    !excluded(v, s) &&
    !mine.includes(s) &&
    !mine.some((t) => tooClose(v, t, s)) &&
    (v.maxPerDay === undefined || mine.filter((t) => t.day === s.day).length < v.maxPerDay) &&
    mine.reduce((sum, t) => sum + t.hours, 0) + s.hours <= v.cap + 1e-9
  );
}

/** The rules the schedule breaks, by the independent checker (a result built from the assignments). */
function ruleViolations(request: Json, held: readonly Held[]): string[] {
  const sorted = [...held].sort((a, b) => a.s.i - b.s.i || a.v.i - b.v.i);
  const assigned: Record<string, string[]> = {};
  for (const h of sorted) (assigned[h.s.id] ??= []).push(h.v.id);
  const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
  const result = {
    assigned_shifts: assigned,
    unfilled_shifts: [],
    fairness_score: 0,
    conflicts: [],
    volunteers: {},
    warnings: [],
    roster: sorted.map((h) => ({ shift_id: h.s.id, group: h.group, volunteer_id: h.v.id, locked: h.locked, start: iso(h.s.start), end: iso(h.s.end) })),
  };
  return checkSchedule(request, result)
    .filter((x) => RULE_CODES.has(x.code))
    .map((x) => x.message);
}

const config = loadConfig({});
const ask = (body: Json): Json => recommendBody(body, { schemas: schemas(), limits: config.limits });

/** A random published schedule and a question about one of its shifts. */
const questions = fc.record({
  request: tinyRequests(7, 6, { rules: true, wishes: true }),
  previous: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined })), { maxLength: 8 }),
  shift: fc.nat(),
  group: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }),
  replace: fc.option(fc.nat(), { nil: undefined }),
});

type Question = typeof questions extends fc.Arbitrary<infer T> ? T : never;

/** The body and the schedule as it stands for a random question; `replaced` is taken off the shift. */
function setUp(q: Question): {
  body: Json;
  facts: Facts;
  base: Held[];
  s: Shift;
  replaced?: Held;
} {
  const request = q.request;
  const nV = request.volunteers.length;
  const nS = request.unassigned_shifts.length;
  if (q.previous.length > 0)
    request.previous_assignments = q.previous.map(([v, s, group]) => ({ volunteer_id: `v${v % nV}`, shift_id: `s${s % nS}`, ...(group ? { group } : {}) }));
  const facts = readRequest(request);
  let base = publishedSchedule(facts, request);
  const s = facts.shifts[q.shift % nS]!;
  const body: Json = { request, shift_id: s.id, limit: 100 };
  // Only previous assignments are replaced here (a locked one leaves the checker's locks: the HTTP tests cover it).
  const movable = base.filter((h) => h.s === s && !h.locked);
  const replaced = q.replace !== undefined && movable.length > 0 ? movable[q.replace % movable.length] : undefined;
  if (replaced) {
    body.replace_volunteer_id = replaced.v.id;
    base = base.filter((h) => h !== replaced);
  } else if (q.group !== undefined && (s.required[q.group] ?? 0) > 0) body.group = q.group;
  return { body, facts, base, s, ...(replaced ? { replaced } : {}) };
}

/** The schedule with an entry applied: its moves, then the candidate joining s. */
function applied(base: readonly Held[], facts: Facts, s: Shift, entry: Json): Held[] {
  let held = [...base];
  for (const m of entry.moves as Json[]) {
    if (m.to_shift_id === null) {
      const gone = held.find((h) => h.v.id === m.volunteer_id && h.s.id === m.from_shift_id);
      expect(gone, `${m.volunteer_id} leaves ${m.from_shift_id}, which they hold`).to.not.equal(undefined);
      expect(gone!.locked, 'a lock never moves').to.equal(false);
      held = held.filter((h) => h !== gone);
    } else {
      const t = facts.sById.get(m.to_shift_id)!;
      const left = base.find((h) => h.s === t && entry.moves.some((x: Json) => x.from_shift_id === t.id && x.volunteer_id === h.v.id));
      held.push({ v: facts.vById.get(m.volunteer_id)!, s: t, group: left!.group, locked: false });
    }
  }
  held.push({ v: facts.vById.get(entry.volunteer_id)!, s, group: entry.group, locked: false });
  return held;
}

describe('engine: recommendations on random published schedules', function () {
  this.timeout(120_000);

  it('the schedule as it stands, and every entry applied to it, pass the independent checker', () => {
    fc.assert(
      fc.property(questions, (q) => {
        const { body, facts, base, s } = setUp(q);
        const answer = ask(body);
        expect(ruleViolations(body.request, base), 'the schedule as it stands').to.deep.equal([]);
        for (const entry of answer.candidates) {
          expect(entry.moves.length).to.be.at.most(2);
          expect(ruleViolations(body.request, applied(base, facts, s, entry)), JSON.stringify(entry)).to.deep.equal([]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('lists exactly the volunteers who could join with no move (brute force), in the contract order', () => {
    fc.assert(
      fc.property(questions, (q) => {
        const { body, facts, base, s, replaced } = setUp(q);
        const answer = ask(body);
        const groups: string[] = replaced ? [replaced.group!] : body.group !== undefined ? [body.group] : Object.keys(s.required);
        const open = groups.filter((g) => room(base, s, g) > 0);
        const direct = facts.volunteers.filter(
          (v) =>
            v !== replaced?.v &&
            !base.some((h) => h.v === v && h.s === s) &&
            v.groups.some((g) => open.includes(g) && ruleViolations(body.request, [...base, { v, s, group: g, locked: false }]).length === 0),
        );
        const listed = (answer.candidates as Json[]).filter((c) => c.moves.length === 0).map((c) => c.volunteer_id);
        expect([...listed].sort()).to.deep.equal(direct.map((v) => v.id).sort());
        // The contract's order: fewest moves, preferred, not avoided, fewest hours after, request order.
        const key = (c: Json): number[] => [c.moves.length, c.preferred ? 0 : 1, c.avoided ? 1 : 0, c.hours_after, facts.vById.get(c.volunteer_id)!.i];
        const keys = (answer.candidates as Json[]).map(key);
        for (let i = 1; i < keys.length; i++) {
          const [a, b] = [keys[i - 1]!, keys[i]!];
          const k = a.findIndex((x, j) => x !== b[j]);
          expect(k >= 0 && a[k]! < b[k]! + 0.005, `${JSON.stringify(a)} before ${JSON.stringify(b)}`).to.equal(true);
        }
        if (answer.candidates.length === 0) expect(answer.reasons.length).to.be.greaterThan(0);
        else expect(answer.reasons).to.deep.equal([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('engine: the check of an entry applied', () => {
  const problem = checkScheduleRequest(fixture('requests/recommendations.json'), schemas(), lockWarnings).problem!;
  const schedule = new PublishedSchedule(problem);
  const index = (id: string): number => problem.volunteers.findIndex((v) => v.id === id);
  const shift = (id: string): number => problem.shifts.findIndex((s) => s.id === id);

  it('accepts a volunteer who is free and has the hours', () => {
    expect(checkApplied(schedule, [{ volunteer: index('v2'), shift: shift('sat-am'), group: 'kitchen', join: true }])).to.deep.equal([]);
  });

  it('refuses a volunteer unavailable then, one in an overlapping shift, and a slot past the headcount', () => {
    expect(checkApplied(schedule, [{ volunteer: index('v9'), shift: shift('sat-am'), group: 'kitchen', join: true }])).to.deep.equal([
      "v9 is not available for 'sat-am'",
    ]);
    expect(checkApplied(schedule, [{ volunteer: index('v5'), shift: shift('sat-am'), group: 'kitchen', join: true }])).to.deep.equal([
      "v5 would be in 'sat-mid' and 'sat-am', which overlap or leave too little rest",
    ]);
    expect(
      checkApplied(schedule, [
        { volunteer: index('v2'), shift: shift('sat-am'), group: 'kitchen', join: true },
        { volunteer: index('v10'), shift: shift('sat-am'), group: 'kitchen', join: true },
      ]),
    ).to.deep.equal(["'sat-am' would have 3 of group 'kitchen' for 2 slots"]);
  });

  it('refuses moving a lock, a group the volunteer lacks, and a second slot in one shift', () => {
    expect(checkApplied(schedule, [{ volunteer: index('v8'), shift: shift('sat-lock'), group: 'bar', join: false }])).to.deep.equal([
      "v8 cannot leave 'sat-lock': it is locked",
    ]);
    expect(checkApplied(schedule, [{ volunteer: index('v2'), shift: shift('sat-early'), group: 'driver', join: true }])).to.deep.equal([
      "'sat-early' would have 2 of group 'driver' for 1 slots",
      "v2 cannot fill a slot of group 'driver' in 'sat-early'",
    ]);
    expect(checkApplied(schedule, [{ volunteer: index('v1'), shift: shift('sat-am'), group: 'kitchen', join: true }])).to.include(
      "v1 would fill two slots of 'sat-am'",
    );
  });
});
