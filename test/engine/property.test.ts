import { expect } from 'chai';
import fc from 'fast-check';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { filledSlots, solve, type Json } from '../helpers/engine.js';

const GROUPS = ['a', 'b'];
const CAPS = [0, 2, 4, 6, 8, 12, 999];

/** Random small requests: up to `maxV` volunteers and `maxS` shifts over two days, some locks. */
function requests(maxV: number, maxS: number): fc.Arbitrary<Json> {
  const vol = fc.record({ group: fc.constantFrom(...GROUPS), cap: fc.constantFrom(...CAPS) });
  const sh = fc.record({
    start: fc.integer({ min: 0, max: 40 }),
    length: fc.integer({ min: 1, max: 8 }),
    a: fc.integer({ min: 0, max: 2 }),
    b: fc.integer({ min: 0, max: 2 }),
  });
  return fc
    .record({
      vols: fc.array(vol, { minLength: 1, maxLength: maxV }),
      shifts: fc.array(sh, { minLength: 1, maxLength: maxS }),
      locks: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 3 }),
    })
    .map(({ vols, shifts, locks }) => {
      const at = (h: number): string => new Date(Date.UTC(2026, 5, 6) + h * 1_800_000).toISOString().replace('.000Z', 'Z');
      const request: Json = {
        volunteers: vols.map((v, i) => ({ id: `v${i}`, group: v.group, max_hours: v.cap })),
        unassigned_shifts: shifts.map((s, i) => ({
          id: `s${i}`,
          start: at(s.start),
          end: at(s.start + s.length),
          required_groups: { ...(s.a ? { a: s.a } : {}), ...(s.b ? { b: s.b } : {}) },
        })),
      };
      if (locks.length > 0) request.current_assignments = locks.map(([v, s]) => ({ volunteer_id: `v${v % vols.length}`, shift_id: `s${s % shifts.length}` }));
      return request;
    });
}

/** Most slots any schedule can fill, by trying every set of additions (independent of the engine). */
function bestCoverage(request: Json): number {
  const hours = (s: Json): number => (Date.parse(s.end) - Date.parse(s.start)) / 3_600_000;
  const overlap = (a: Json, b: Json): boolean => Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);
  const vols: Json[] = request.volunteers;
  const shifts: Json[] = request.unassigned_shifts;
  const lockKeys = new Set<string>((request.current_assignments ?? []).map((a: Json) => `${a.volunteer_id}|${a.shift_id}`));
  const inShift = shifts.map((s) => vols.filter((v) => lockKeys.has(`${v.id}|${s.id}`)));
  let base = 0;
  shifts.forEach((s, i) => {
    for (const [g, n] of Object.entries(s.required_groups as Record<string, number>)) base += Math.min(n, inShift[i]!.filter((v) => v.group === g).length);
  });
  const pairs: Array<[number, number]> = [];
  vols.forEach((v, vi) => {
    shifts.forEach((s, si) => {
      if ((s.required_groups[v.group] ?? 0) > 0 && !lockKeys.has(`${v.id}|${s.id}`)) pairs.push([vi, si]);
    });
  });
  const held: number[][] = vols.map((v) => shifts.flatMap((s, si) => (lockKeys.has(`${v.id}|${s.id}`) ? [si] : [])));
  const lockedHours = held.map((list) => list.reduce((t, si) => t + hours(shifts[si]!), 0));
  const added = vols.map(() => [] as number[]);
  const count = shifts.map((s, si) => new Map(Object.keys(s.required_groups).map((g) => [g, inShift[si]!.filter((v) => v.group === g).length])));
  let best = 0;
  const dfs = (k: number, total: number): void => {
    if (total + (pairs.length - k) <= best) return;
    if (k === pairs.length) {
      best = Math.max(best, total);
      return;
    }
    const [vi, si] = pairs[k]!;
    const v = vols[vi]!;
    const s = shifts[si]!;
    const cap: number = v.max_hours === 999 ? Infinity : v.max_hours;
    const h = lockedHours[vi]! + added[vi]!.reduce((t, x) => t + hours(shifts[x]!), 0) + hours(s);
    const c = count[si]!.get(v.group)!;
    const fits = h <= cap + 1e-9 && c < s.required_groups[v.group] && ![...held[vi]!, ...added[vi]!].some((x) => overlap(shifts[x]!, s));
    if (fits) {
      added[vi]!.push(si);
      count[si]!.set(v.group, c + 1);
      dfs(k + 1, total + 1);
      added[vi]!.pop();
      count[si]!.set(v.group, c);
    }
    dfs(k + 1, total);
  };
  dfs(0, 0);
  return base + best;
}

describe('engine: properties on random instances', function () {
  this.timeout(120_000);

  it('every result passes the independent checker', async () => {
    await fc.assert(
      fc.asyncProperty(requests(8, 8), async (request) => {
        const { result } = await solve(request);
        expect(checkSchedule(request, result)).to.deep.equal([]);
      }),
      { numRuns: 60 },
    );
  });

  it('coverage equals an exhaustive search on tiny instances', async () => {
    await fc.assert(
      fc.asyncProperty(requests(4, 4), async (request) => {
        const { result, status } = await solve(request);
        expect(status).to.equal('optimal');
        expect(filledSlots(request, result)).to.equal(bestCoverage(request));
      }),
      { numRuns: 80 },
    );
  });

  it('both backends reach the same coverage', async () => {
    await fc.assert(
      fc.asyncProperty(requests(5, 5), async (request) => {
        const highs = await solve(request, { backend: 'highs' });
        const jslp = await solve(request, { backend: 'jslp' });
        expect(checkSchedule(request, jslp.result)).to.deep.equal([]);
        expect(filledSlots(request, jslp.result)).to.equal(filledSlots(request, highs.result));
      }),
      { numRuns: 40 },
    );
  });
});
