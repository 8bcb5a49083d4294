// Local moves (local-search.ts) on crafted schedules where the simpler moves find nothing:
// fairness chains (fairnessChains: a chain of hand-overs, a cycle back to the first volunteer, a
// gap moved to another shift), coverage's one-for-two trade (oneForTwo) and trades for shorter
// shifts (tradeDown), and staffing's moves (improveStaffing). Each checks the
// schedule returned: the sum of squares or slots filled, every rule (the engine's own check),
// and what the move must keep (headcounts, coverage per priority).
import { expect } from 'chai';
import { Budget } from '../../src/engine/budget.js';
import { pairAt, prepare, type Prepared } from '../../src/engine/candidates.js';
import { checkAssignment, filledByClass } from '../../src/engine/greedy.js';
import { chainSearch, improveCoverage, improveFairness, improveStaffing, LocalState } from '../../src/engine/local-search.js';
import { moveKeepsWishes, softGoals } from '../../src/engine/soft-goals.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import { decompose } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import type { ScheduleRequest } from '../../src/types/schema-types.js';
import { eRulesScarce, shift, volunteer, type Json } from '../helpers/engine.js';
import fc from 'fast-check';
import { bestGreedyFill } from '../../src/engine/greedy.js';
import { tinyRequests } from '../helpers/exhaustive.js';

/** The one subproblem of a request, prepared, and the 0/1 vector of the given (volunteer, shift) pairs. */
function crafted(request: Json, assigned: Array<[string, string]>): { p: Prepared; x: Uint8Array } {
  const [sub] = decompose(normalizeRequest(request as ScheduleRequest));
  const p = prepare(sub!);
  const x = new Uint8Array(p.candShift.length);
  for (const [v, s] of assigned) {
    let found = -1;
    for (let pair = 0; pair < x.length; pair++) {
      if (p.sub.volunteers[p.candVolunteer[pair]!]!.id === v && p.sub.shifts[p.candShift[pair]!]!.id === s) found = pair;
    }
    if (found < 0) throw new Error(`${v} is no candidate for ${s}`);
    x[found] = 1;
  }
  expect(checkAssignment(p, x)).to.equal(undefined);
  return { p, x };
}

/** Hours per volunteer id, the sum of their squares, slots filled per shift id. */
function measured(p: Prepared, x: Uint8Array): { hours: Record<string, number>; squares: number; filled: Record<string, number> } {
  const hours: Record<string, number> = Object.fromEntries(p.sub.volunteers.map((v) => [v.id, 0]));
  const filled: Record<string, number> = Object.fromEntries(p.sub.shifts.map((s) => [s.id, 0]));
  x.forEach((b, pair) => {
    if (!b) return;
    const s = p.sub.shifts[p.candShift[pair]!]!;
    hours[p.sub.volunteers[p.candVolunteer[pair]!]!.id]! += s.hours;
    filled[s.id]!++;
  });
  return { hours, squares: Object.values(hours).reduce((t, h) => t + h * h, 0), filled };
}

const budget = (): Budget => new Budget(Date.now() + 60_000);

/** An ISO time on 2026-06-06 at hour h (as the shift helper). */
const at = (h: number): string => new Date(Date.UTC(2026, 5, 6) + h * 3_600_000).toISOString().replace('.000Z', 'Z');
/** A volunteer of group k available only in the given hour windows. */
const only = (id: string, ...windows: Array<[number, number]>): Json => ({
  ...volunteer(id, 'k', 99),
  available: windows.map(([a, b]) => ({ start: at(a), end: at(b) })),
});

/** improveFairness from a crafted schedule whose sum of squares is `before`: it must reach `hours` per volunteer, keeping every headcount and rule. */
function expectFairer(request: Json, assigned: Array<[string, string]>, before: number, hours: Record<string, number>): void {
  const { p, x } = crafted(request, assigned);
  expect(measured(p, x).squares).to.equal(before);
  const after = improveFairness(p, x, budget());
  expect(checkAssignment(p, after)).to.equal(undefined);
  const m = measured(p, after);
  expect(m.hours).to.deep.equal(hours);
  expect(m.squares).to.equal(Object.values(hours).reduce((t, h) => t + h * h, 0));
  expect(m.filled).to.deep.equal(measured(p, x).filled);
}

describe('engine: fairness chains in the local search', () => {
  it('hands a shift on through a volunteer whose hours stay the same when nobody lighter can take it directly', () => {
    // a holds s0 and s1 (4 h); of the others only b can take s1, and b holds s2, which only c
    // (idle) can take. No transfer (b would reach 4 h) and no swap (a cannot take s2) lowers the
    // sum; the chain a -> b -> c does: 2 + 2 + 2 hours, 12 instead of 20.
    const request = {
      volunteers: [only('a', [6, 10]), only('b', [8, 14]), only('c', [12, 14])],
      unassigned_shifts: [shift('s0', 6, 8, { k: 1 }), shift('s1', 8, 10, { k: 1 }), shift('s2', 12, 14, { k: 1 })],
    };
    expectFairer(
      request,
      [
        ['a', 's0'],
        ['a', 's1'],
        ['b', 's2'],
      ],
      20,
      { a: 2, b: 2, c: 2 },
    );
  });

  it('closes a cycle back to the first volunteer to trade a long shift for a shorter one', () => {
    // a: s6 (6 h) and s2 (2 h); b: s4; c: s4c. a can take s4c but not s4, c cannot take s6, and
    // nobody else can take s2, so no transfer or swap helps (96). The cycle a -> b -> c -> a (a
    // gives s6 to b, b gives s4 to c, c gives s4c to a) leaves 6, 6 and 4 hours: 88.
    const request = {
      volunteers: [only('a', [8, 17], [23, 27]), only('b', [8, 14], [18, 22]), only('c', [18, 22], [23, 27])],
      unassigned_shifts: [shift('s6', 8, 14, { k: 1 }), shift('s2', 15, 17, { k: 1 }), shift('s4', 18, 22, { k: 1 }), shift('s4c', 23, 27, { k: 1 })],
    };
    expectFairer(
      request,
      [
        ['a', 's6'],
        ['a', 's2'],
        ['b', 's4'],
        ['c', 's4c'],
      ],
      96,
      { a: 6, b: 6, c: 4 },
    );
  });

  it('moves an empty slot to another shift of the same priority, keeping coverage and fully staffed shifts', () => {
    // a holds s0 and s1 (4 h); b can take only s2 and is idle. Every shift keeping its headcount,
    // nothing helps; moving the gap (a gives up one of its shifts, b takes s2) gives 2 + 2 hours
    // with two slots filled and two shifts fully staffed, as before.
    const request = {
      volunteers: [only('a', [6, 10]), only('b', [12, 14])],
      unassigned_shifts: [shift('s0', 6, 8, { k: 1 }), shift('s1', 8, 10, { k: 1 }), shift('s2', 12, 14, { k: 1 })],
    };
    const { p, x } = crafted(request, [
      ['a', 's0'],
      ['a', 's1'],
    ]);
    const after = improveFairness(p, x, budget());
    expect(checkAssignment(p, after)).to.equal(undefined);
    const m = measured(p, after);
    expect(m.hours).to.deep.equal({ a: 2, b: 2 });
    // a gives up s0 or s1 (either leaves the same hours): one of them empty, s2 filled.
    expect(m.filled.s0! + m.filled.s1!).to.equal(1);
    expect(m.filled.s2).to.equal(1);
  });

  it('never moves a gap to a shift of another priority (coverage per priority is held)', () => {
    // As above, but a's shifts have priority 3 and s2 priority 1: the schedule stays as it is.
    const request = {
      volunteers: [only('a', [6, 10]), only('b', [12, 14])],
      unassigned_shifts: [{ ...shift('s0', 6, 8, { k: 1 }), priority: 3 }, { ...shift('s1', 8, 10, { k: 1 }), priority: 3 }, shift('s2', 12, 14, { k: 1 })],
    };
    const { p, x } = crafted(request, [
      ['a', 's0'],
      ['a', 's1'],
    ]);
    const after = improveFairness(p, x, budget());
    expect(measured(p, after).filled).to.deep.equal({ s0: 1, s1: 1, s2: 0 });
  });
});

describe('engine: fairness trade-downs in the local search', () => {
  it('gives up a long shift for a shorter empty slot of the same priority: the same slots filled, fewer hours', () => {
    // a alone holds the 6-hour s6; the 2-hour s2 is empty and a can take it instead (b can take
    // neither). No transfer, swap or chain changes a's hours (a is the only one working); the
    // trade leaves one slot filled and one shift fully staffed, as before, with 2 hours: 4 not 36.
    const request = {
      volunteers: [only('a', [6, 14]), only('b', [20, 22])],
      unassigned_shifts: [shift('s6', 6, 12, { k: 1 }), shift('s2', 12, 14, { k: 1 })],
    };
    const { p, x } = crafted(request, [['a', 's6']]);
    const after = improveFairness(p, x, budget());
    expect(checkAssignment(p, after)).to.equal(undefined);
    const m = measured(p, after);
    expect(m.hours).to.deep.equal({ a: 2, b: 0 });
    expect(m.filled).to.deep.equal({ s6: 0, s2: 1 });
  });

  it('keeps the wishes: no trade-down that leaves a volunteer short of min_hours, also when no MIP runs', () => {
    // a wants at least 6 hours and holds the 6-hour s6; the 2-hour s2 overlaps it. Without the
    // wish a trades down (2 hours); with it the schedule stays, in the local search with the
    // wishes' check, and on the path without a solver (local search only).
    const shifts = [shift('s6', 6, 12, { k: 1 }), shift('s2', 10, 12, { k: 1 })];
    const plain = { volunteers: [only('a', [6, 14])], unassigned_shifts: shifts };
    const wishing = { volunteers: [{ ...only('a', [6, 14]), min_hours: 6 }], unassigned_shifts: shifts };
    const { p, x } = crafted(wishing, [['a', 's6']]);
    const keep = { goals: softGoals(p), moveKeepsWishes };
    expect(measured(p, improveFairness(p, x, budget(), keep)).filled).to.deep.equal({ s6: 1, s2: 0 });
    expect(measured(p, improveFairness(p, x, budget())).filled).to.deep.equal({ s6: 0, s2: 1 });
    const held = (request: Json): string[] => {
      const [sub] = decompose(normalizeRequest(request as ScheduleRequest));
      return solveSubproblem(sub!, { budget: budget() }).assignments.map(([, shiftIndex]) => (request as ScheduleRequest).unassigned_shifts[shiftIndex]!.id);
    };
    expect(held(wishing)).to.deep.equal(['s6']);
    expect(held(plain)).to.deep.equal(['s2']);
  });

  it('never trades when a fully staffed shift would be lost for one that is not, nor across priorities', () => {
    // s2 needs two: taking one of its slots would not staff it fully, while s6 would lose its
    // only slot. And s2p (priority 3) is not the same priority as s6. The schedule stays.
    const request = {
      volunteers: [only('a', [6, 16])],
      unassigned_shifts: [shift('s6', 6, 12, { k: 1 }), shift('s2', 12, 14, { k: 2 }), { ...shift('s2p', 14, 16, { k: 1 }), priority: 3 }],
    };
    const { p, x } = crafted(request, [['a', 's6']]);
    const after = improveFairness(p, x, budget());
    expect(measured(p, after).filled).to.deep.equal({ s6: 1, s2: 0, s2p: 0 });
  });
});

describe('engine: coverage trades in the local search', () => {
  it('trades one long shift for two short open ones when hours are what limit a volunteer', () => {
    // a (at most 4 hours) holds the 4-hour s4; the 2-hour s2a and s2b are open and only a can
    // take them. No chain fills them (nobody else can take s4); the trade fills two for one.
    const request = {
      volunteers: [volunteer('a', 'k', 4)],
      unassigned_shifts: [shift('s4', 6, 10, { k: 1 }), shift('s2a', 12, 14, { k: 1 }), shift('s2b', 15, 17, { k: 1 })],
    };
    const { p, x } = crafted(request, [['a', 's4']]);
    const after = improveCoverage(p, x, budget());
    expect(checkAssignment(p, after)).to.equal(undefined);
    expect(measured(p, after).filled).to.deep.equal({ s4: 0, s2a: 1, s2b: 1 });
  });

  it('trades shifts for shorter open ones when the hours freed fill another slot', () => {
    // b (at most 7 hours) holds s4a (08-12) and s3a (13-16). Open: s3b (08-11), s2b (13-15) and sX
    // (17-19), which only b can take. No chain and no one-for-two trade fills a slot; trading
    // s4a for s3b and s3a for s2b frees two hours, and sX then fits: three slots, not two.
    const request = {
      volunteers: [volunteer('b', 'k', 7)],
      unassigned_shifts: [
        shift('s4a', 8, 12, { k: 1 }),
        shift('s3a', 13, 16, { k: 1 }),
        shift('s3b', 8, 11, { k: 1 }),
        shift('s2b', 13, 15, { k: 1 }),
        shift('sX', 17, 19, { k: 1 }),
      ],
    };
    const { p, x } = crafted(request, [
      ['b', 's4a'],
      ['b', 's3a'],
    ]);
    const after = improveCoverage(p, x, budget());
    expect(checkAssignment(p, after)).to.equal(undefined);
    expect(measured(p, after).filled).to.deep.equal({ s4a: 0, s3a: 0, s3b: 1, s2b: 1, sX: 1 });
  });

  it('keeps the schedule when trading down fills nothing more', () => {
    // As above without sX: trading down would fill as many slots with fewer hours; the schedule stays.
    const request = {
      volunteers: [volunteer('b', 'k', 7)],
      unassigned_shifts: [shift('s4a', 8, 12, { k: 1 }), shift('s3a', 13, 16, { k: 1 }), shift('s3b', 8, 11, { k: 1 }), shift('s2b', 13, 15, { k: 1 })],
    };
    const { p, x } = crafted(request, [
      ['b', 's4a'],
      ['b', 's3a'],
    ]);
    expect(measured(p, improveCoverage(p, x, budget())).filled).to.deep.equal({ s4a: 1, s3a: 1, s3b: 0, s2b: 0 });
  });

  describe('for one priority class alone (onlyClass)', () => {
    /** Slots filled per priority, highest first, as filledByClass counts them. */
    const byPriority = (p: Prepared, x: Uint8Array): Record<number, number> => Object.fromEntries(filledByClass(p, x).map((n, c) => [p.classes[c], n]));
    const lowestOf = (p: Prepared): number => p.classes.indexOf(1);
    /** A shift of one slot of group k, of that priority. */
    const kShift = (id: string, from: number, to: number, priority: number): Json => ({ ...shift(id, from, to, { k: 1 }), priority });

    it('starts chains from open slots of that class only', () => {
      // a can take both open slots outright: s3 (priority 3) and s1 (priority 1).
      const request = {
        volunteers: [volunteer('a', 'k', 40)],
        unassigned_shifts: [kShift('s3', 8, 10, 3), kShift('s1', 12, 14, 1)],
      };
      const { p, x } = crafted(request, []);
      expect(measured(p, improveCoverage(p, x, budget())).filled).to.deep.equal({ s3: 1, s1: 1 });
      const only1 = improveCoverage(p, x, budget(), { onlyClass: lowestOf(p) });
      expect(checkAssignment(p, only1)).to.equal(undefined);
      expect(measured(p, only1).filled).to.deep.equal({ s3: 0, s1: 1 });
    });

    /**
     * a (at most 4 hours) holds the 4-hour s4 (priority `given`); the 2-hour s2a (priority
     * `second`) and s2b (priority 1) are open and only a can take them: the trade fills both for s4.
     */
    const oneForTwoCase = (second: number, given = 1): { p: Prepared; x: Uint8Array } =>
      crafted(
        {
          volunteers: [volunteer('a', 'k', 4)],
          unassigned_shifts: [kShift('s4', 6, 10, given), kShift('s2a', 12, 14, second), kShift('s2b', 15, 17, 1), kShift('s3', 18, 19, 3)],
        },
        [['a', 's4']],
      );

    it('makes no one-for-two trade that moves a slot into another class', () => {
      // With s2a of priority 3 the trade gives one more slot of priority 3 and as many of
      // priority 1: for priority 1 alone, no gain, so no trade.
      const { p, x } = oneForTwoCase(3);
      const all = improveCoverage(p, x, budget());
      expect(measured(p, all).filled).to.deep.equal({ s4: 0, s2a: 1, s2b: 1, s3: 0 });
      expect(byPriority(p, all)).to.deep.equal({ 3: 1, 1: 1 });
      const only1 = improveCoverage(p, x, budget(), { onlyClass: lowestOf(p) });
      expect(measured(p, only1).filled).to.deep.equal({ s4: 1, s2a: 0, s2b: 0, s3: 0 });
    });

    it('makes the one-for-two trade that fills one more of that class and keeps the other', () => {
      // With s2a of priority 1 the trade gives up a priority-1 slot for two.
      const { p, x } = oneForTwoCase(1);
      const only1 = improveCoverage(p, x, budget(), { onlyClass: lowestOf(p) });
      expect(checkAssignment(p, only1)).to.equal(undefined);
      expect(measured(p, only1).filled).to.deep.equal({ s4: 0, s2a: 1, s2b: 1, s3: 0 });
    });

    it('makes the one-for-two trade that gives up a slot of a class above for one of that class and one of the lowest', () => {
      // s4 and s2a of priority 3: priority 3 keeps its one slot, priority 1 gains s2b.
      const { p, x } = oneForTwoCase(3, 3);
      const only1 = improveCoverage(p, x, budget(), { onlyClass: lowestOf(p) });
      expect(checkAssignment(p, only1)).to.equal(undefined);
      expect(measured(p, only1).filled).to.deep.equal({ s4: 0, s2a: 1, s2b: 1, s3: 0 });
    });

    it('trades down within a class only', () => {
      // b (at most 7 hours) holds s4a (08-12) and s3a (13-16), both of priority 1. Open: s2c
      // (08-10, priority 3), s2b (13-15) and sX (17-20). Trading s4a for s2c, the shortest, and
      // s3a for s2b frees the hours sX needs: three slots, but one moved from priority 1 to 3. For
      // priority 1 alone the trades stay in the class (s4a for sX, s3a for s2b) and free too little.
      const request = {
        volunteers: [volunteer('b', 'k', 7)],
        unassigned_shifts: [kShift('s4a', 8, 12, 1), kShift('s3a', 13, 16, 1), kShift('s2c', 8, 10, 3), kShift('s2b', 13, 15, 1), kShift('sX', 17, 20, 1)],
      };
      const { p, x } = crafted(request, [
        ['b', 's4a'],
        ['b', 's3a'],
      ]);
      const all = improveCoverage(p, x, budget());
      expect(measured(p, all).filled).to.deep.equal({ s4a: 0, s3a: 0, s2c: 1, s2b: 1, sX: 1 });
      const only1 = improveCoverage(p, x, budget(), { onlyClass: lowestOf(p) });
      expect(measured(p, only1).filled).to.deep.equal({ s4a: 1, s3a: 1, s2c: 0, s2b: 0, sX: 0 });
    });
  });

  it('answers who takes a slot kind outright as the schedule stands, after every move, and never the volunteer left out', () => {
    // b, c and d can each take s0; b holds sx, which overlaps it; c and d are free.
    const request = {
      volunteers: [volunteer('b', 'k', 40), volunteer('c', 'k', 40), volunteer('d', 'k', 40)],
      unassigned_shifts: [shift('s0', 8, 12, { k: 1 }), shift('sx', 10, 14, { k: 1 }), shift('sy', 9, 11, { k: 2 })],
    };
    const { p, x } = crafted(request, [['b', 'sx']]);
    const st = new LocalState(p, x);
    const slot = (id: string): number => p.sub.shifts.findIndex((s) => s.id === id);
    const pairOf = (v: string, s: string): number =>
      pairAt(
        p,
        p.sub.volunteers.findIndex((u) => u.id === v),
        slot(s),
      );
    const who = (pair: number): string | undefined => (pair < 0 ? undefined : p.sub.volunteers[p.candVolunteer[pair]!]!.id);
    const s0 = slot('s0');
    expect(who(st.outrightTaker(s0, -1))).to.equal('c');
    // The same question, the volunteer left out being the first taker: the next one.
    expect(who(st.outrightTaker(s0, p.candVolunteer[pairOf('c', 's0')]!))).to.equal('d');
    // c takes sy (overlapping s0): the answer changes at once, though nothing else moved.
    st.assign(pairOf('c', 'sy'));
    expect(who(st.outrightTaker(s0, -1))).to.equal('d');
    st.assign(pairOf('d', 'sy'));
    expect(st.outrightTaker(s0, -1)).to.equal(-1);
    // b gives up sx: b can take s0 again; and once c gives up sy, c is first again.
    st.unassign(pairOf('b', 'sx'));
    expect(who(st.outrightTaker(s0, -1))).to.equal('b');
    expect(st.outrightTaker(s0, p.candVolunteer[pairOf('b', 's0')]!)).to.equal(-1);
    st.unassign(pairOf('c', 'sy'));
    expect(who(st.outrightTaker(s0, -1))).to.equal('b');
    expect(who(st.outrightTaker(s0, p.candVolunteer[pairOf('b', 's0')]!))).to.equal('c');
  });

  it('answers as a plain scan of the slot kind does, after random moves (random tiny requests with the rules)', () => {
    let asked = 0;
    let takers = 0;
    fc.assert(
      fc.property(tinyRequests(8, 10, { rules: true }), fc.array(fc.nat(), { minLength: 1, maxLength: 40 }), (request, picks) => {
        for (const sub of decompose(normalizeRequest(request as ScheduleRequest))) {
          const p = prepare(sub);
          const st = new LocalState(p, bestGreedyFill(p));
          const nV = p.sub.volunteers.length;
          const nS = p.sub.shifts.length;
          if (p.candShift.length === 0) continue;
          // The reference: the first pair of the slot kind, not `but`'s, whose volunteer can take it now.
          const scan = (s: number, but: number): number => p.byShift[s]!.find((pair) => p.candVolunteer[pair] !== but && st.canTake(pair)) ?? -1;
          for (const pick of picks) {
            // Each pick asks twice (the answer kept, then asked again), then moves: a pair given up or taken.
            const s = pick % nS;
            const but = ((pick >> 4) % (nV + 1)) - 1;
            for (let twice = 0; twice < 2; twice++) {
              const got = st.outrightTaker(s, but);
              expect(got).to.equal(scan(s, but));
              asked++;
              if (got >= 0) takers++;
            }
            const pair = (pick >> 8) % p.candShift.length;
            if (st.x[pair]) st.unassign(pair);
            else if (st.canTake(pair)) st.assign(pair);
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(asked).to.be.above(1000);
    expect(takers).to.be.above(0);
    expect(takers).to.be.below(asked);
  });

  it('searches again, in a later pass, the slots a chain found later has opened', () => {
    // Chains of one hand-over (maxDepth 1), slots in start order. s0 (only b, who holds the
    // overlapping sx) comes first and fails: sx's other taker c holds s9, which overlaps it. s1
    // (only c) is filled last, by c giving s9 to e; c can then take sx, and the next pass fills
    // s0 with a short chain.
    const request = {
      volunteers: [
        { ...volunteer('b', 'B', 40), additional_groups: ['X'] },
        { ...volunteer('c', 'C', 40), additional_groups: ['X', 'C1'] },
        volunteer('e', 'C', 40),
      ],
      unassigned_shifts: [shift('s0', 6, 9, { B: 1 }), shift('sx', 8, 11, { X: 1 }), shift('s9', 10, 13, { C: 1 }), shift('s1', 12, 14, { C1: 1 })],
    };
    const { p, x } = crafted(request, [
      ['b', 'sx'],
      ['c', 's9'],
    ]);
    const after = improveCoverage(p, x, budget(), { maxDepth: 1 });
    expect(checkAssignment(p, after)).to.equal(undefined);
    expect(measured(p, after).filled).to.deep.equal({ s0: 1, sx: 1, s9: 1, s1: 1 });
  });

  it('the chains find their last link without making and undoing a move, and end in the same schedules as when they did (random tiny requests with the rules, a scarce roster with the rules)', () => {
    const same = (request: Json, depth: number, nodes: number): number => {
      let chains = 0;
      for (const sub of decompose(normalizeRequest(request as ScheduleRequest))) {
        const p = prepare(sub);
        const x = bestGreedyFill(p);
        const ours = improveCoverage(p, x, budget(), { maxDepth: depth, maxNodes: nodes });
        expect(checkAssignment(p, ours)).to.equal(undefined);
        // The reference: every link made, the next slot kind searched from there, and undone.
        expect([...ours]).to.deep.equal([...improveCoverage(p, x, budget(), { maxDepth: depth, maxNodes: nodes, search: chainSearch(false) })]);
        chains += ours.reduce((t, b) => t + b, 0) - x.reduce((t, b) => t + b, 0);
      }
      return chains;
    };
    let filled = 0;
    fc.assert(
      fc.property(tinyRequests(8, 10, { rules: true }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 200 }), (request, depth, nodes) => {
        filled += same(request, depth, nodes);
      }),
      { numRuns: 300 },
    );
    // A scarce festival with the rules (BENCHMARKS.md's e-rules-scarce-150x300): many chains, long
    // and cut short by the node budget. The tiny requests rarely have two volunteers who could end
    // a chain; here the last link's taker, taken in another order, changes the schedule.
    const scarce = eRulesScarce();
    const scarceChains = same(scarce, 6, 5000);
    // Both fill slots beyond the greedy fill: the comparison is of searches that did something.
    expect(filled).to.be.above(0);
    expect(scarceChains).to.be.above(0);
  });

  it("finds each volunteer's pair of a slot kind by binary search, and -1 where there is none (random tiny requests with the rules, several groups)", () => {
    let found = 0;
    fc.assert(
      fc.property(tinyRequests(8, 10, { rules: true }), (request) => {
        for (const sub of decompose(normalizeRequest(request as ScheduleRequest))) {
          const p = prepare(sub);
          for (let v = 0; v < p.sub.volunteers.length; v++) {
            for (let s = 0; s < p.sub.shifts.length; s++) {
              // The reference: a scan of every candidate pair.
              let pair = -1;
              for (let q = 0; q < p.candShift.length; q++) if (p.candVolunteer[q] === v && p.candShift[q] === s) pair = q;
              expect(pairAt(p, v, s)).to.equal(pair);
              if (pair >= 0) found++;
            }
          }
        }
      }),
      { numRuns: 300 },
    );
    expect(found).to.be.above(0);
  });

  it('never gives up a shift of a higher priority than both it takes', () => {
    const request = {
      volunteers: [volunteer('a', 'k', 4)],
      unassigned_shifts: [{ ...shift('s4', 6, 10, { k: 1 }), priority: 5 }, shift('s2a', 12, 14, { k: 1 }), shift('s2b', 15, 17, { k: 1 })],
    };
    const { p, x } = crafted(request, [['a', 's4']]);
    expect(measured(p, improveCoverage(p, x, budget())).filled).to.deep.equal({ s4: 1, s2a: 0, s2b: 0 });
  });
});

describe('engine: staffing moves in the local search', () => {
  // s1 and s2 need two volunteers each and overlap; a holds a slot of s1 and b one of s2: neither is full.
  const overlapping = (priority2?: number): Json => ({
    volunteers: [volunteer('a', 'k', 99), volunteer('b', 'k', 99)],
    unassigned_shifts: [shift('s1', 8, 12, { k: 2 }), { ...shift('s2', 9, 11, { k: 2 }), ...(priority2 ? { priority: priority2 } : {}) }],
  });

  it('moves a volunteer from a slot kind that is not full to complete another', () => {
    const { p, x } = crafted(overlapping(), [
      ['a', 's1'],
      ['b', 's2'],
    ]);
    const after = improveStaffing(p, x, budget());
    expect(checkAssignment(p, after)).to.equal(undefined);
    // s1 is one short, s2 is one short: whichever completes, the other empties; slots filled stay two.
    const m = measured(p, after);
    expect([m.filled.s1, m.filled.s2].sort()).to.deep.equal([0, 2]);
  });

  it('never takes a volunteer from a slot kind of a higher priority', () => {
    // s2 has priority 5: b may not leave it for s1, while a may leave s1 (the lower priority) to
    // complete s2. So s2 ends full and s1 empty, never the other way round.
    const { p, x } = crafted(overlapping(5), [
      ['a', 's1'],
      ['b', 's2'],
    ]);
    const m = measured(p, improveStaffing(p, x, budget()));
    expect(m.filled).to.deep.equal({ s1: 0, s2: 2 });
  });

  it('never takes a volunteer from a full slot kind', () => {
    // s1 needs one (a holds it: full); s2 needs two and has b. Moving a would lose s1: nothing moves.
    const request = {
      volunteers: [volunteer('a', 'k', 99), volunteer('b', 'k', 99)],
      unassigned_shifts: [shift('s1', 8, 12, { k: 1 }), shift('s2', 9, 11, { k: 2 })],
    };
    const { p, x } = crafted(request, [
      ['a', 's1'],
      ['b', 's2'],
    ]);
    expect(measured(p, improveStaffing(p, x, budget())).filled).to.deep.equal({ s1: 1, s2: 1 });
  });
});
