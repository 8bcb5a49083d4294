// Properties of re-planning (CONTRACT.md section 14) on random tiny instances with the 2.2
// rules, locks and wishes: re-planning a schedule against itself changes nothing; with random
// previous assignments (some naming volunteers or shifts that are gone), every level from
// coverage through previous assignments kept to preferred shifts equals an exhaustive search,
// so the number dropped is the least that coverage and staffing allow; taking one volunteer
// off a solved roster drops no more than exhaustive search says it must; every result passes
// the independent checker, which verifies `changes` itself.
import { expect } from 'chai';
import fc from 'fast-check';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { bestLevels, compareLevels, levelsOfResult, tinyRequests } from '../helpers/exhaustive.js';
import { shift, solve, volunteer, type Json } from '../helpers/engine.js';

/** The subproblems all proven (no solve stopped at the clock or a stall on a busy machine). */
async function solvedProven(request: Json): Promise<{ result: Json; proven: boolean }> {
  const { result } = await solve(request, { debug: 'true' });
  const proven = (result.diagnostics.subproblems as Array<{ status: string }>).every((s) => s.status === 'optimal');
  delete result.diagnostics;
  return { result, proven };
}

/** The result's new assignments as previous_assignments (with their groups, as the roster gives them). */
const published = (result: Json): Json[] =>
  (result.roster as Json[]).filter((e) => !e.locked).map((e) => ({ shift_id: e.shift_id, volunteer_id: e.volunteer_id, group: e.group }));

/** Random tiny requests with random previous assignments; about one in ten names an id the request does not have. */
const withPrevious = (maxV: number, maxS: number): fc.Arbitrary<Json> => {
  /** An index into a list of `n`, or -1 (an id the request does not have) one time in ten. */
  const index = fc.oneof({ weight: 9, arbitrary: fc.nat() }, { weight: 1, arbitrary: fc.constant(-1) });
  return fc.boolean().chain((rules) =>
    tinyRequests(maxV, maxS, { rules, wishes: true }).chain((request) =>
      fc.array(fc.tuple(index, index, fc.boolean()), { maxLength: 2 * maxS }).map((pairs) => ({
        ...request,
        previous_assignments: pairs.map(([v, s, group]) => {
          const volunteer = v < 0 ? undefined : (request.volunteers[v % request.volunteers.length] as Json);
          const shift = s < 0 ? undefined : (request.unassigned_shifts[s % request.unassigned_shifts.length] as Json);
          return {
            volunteer_id: volunteer?.id ?? 'gone',
            shift_id: shift?.id ?? 'gone',
            ...(group && volunteer ? { group: volunteer.group } : {}),
          };
        }),
      })),
    ),
  );
};

describe('engine: properties of re-planning on random instances', function () {
  this.timeout(300_000);

  it('re-planning a schedule against itself changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean().chain((rules) => tinyRequests(6, 6, { rules, wishes: true })),
        async (request) => {
          const first = await solvedProven(request);
          fc.pre(first.proven);
          const again = { ...request, previous_assignments: published(first.result) };
          const { result } = await solvedProven(again);
          expect(checkSchedule(again, result)).to.deep.equal([]);
          expect(result.changes.dropped, JSON.stringify(result.changes)).to.deep.equal([]);
          expect(result.changes.added).to.deep.equal([]);
          expect(result.roster).to.deep.equal(first.result.roster);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with random previous assignments, every level (previous assignments kept included) equals an exhaustive search', async () => {
    await fc.assert(
      fc.asyncProperty(withPrevious(4, 4), async (request) => {
        const { result, proven } = await solvedProven(request);
        expect(checkSchedule(request, result)).to.deep.equal([]);
        const got = levelsOfResult(request, result);
        const best = bestLevels(request);
        expect(compareLevels(got, best), JSON.stringify({ got, best, proven })).to.equal(0);
      }),
      { numRuns: 100 },
    );
  });

  it('the counterexample fast-check found: staffing is not stopped short by the previous assignments’ bias', async () => {
    // Seed -304775491: v0 leaves; keeping all three previous assignments gives one fully staffed
    // shift, dropping two gives two. The staffing MIP's objective (2 + bias against 1 + bias)
    // differed by 0.995, under the 0.999 gap it stopped at.
    const request: Json = {
      volunteers: [volunteer('v0', 'b', 8), volunteer('v1', 'b', 8), volunteer('v2', 'b', 4)],
      unassigned_shifts: [shift('s0', 0, 4, { b: 2 }), shift('s1', 8, 8.5, { b: 2 }), shift('s2', 4, 8, { b: 1 })],
    };
    const first = await solvedProven(request);
    const after: Json = { ...request, volunteers: (request.volunteers as Json[]).slice(1), previous_assignments: published(first.result) };
    const { result } = await solvedProven(after);
    expect(checkSchedule(after, result)).to.deep.equal([]);
    expect(result.summary.fully_staffed_shifts).to.equal(2);
    expect(compareLevels(levelsOfResult(after, result), bestLevels(after))).to.equal(0);
  });

  it('taking one volunteer off a solved roster drops no more than exhaustive search says it must', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .boolean()
          .chain((rules) =>
            tinyRequests(5, 5, { rules, wishes: false }).chain((request) => fc.tuple(fc.constant(request), fc.nat({ max: request.volunteers.length - 1 }))),
          ),
        async ([request, gone]) => {
          const first = await solvedProven(request);
          fc.pre(first.proven);
          const leaving = request.volunteers[gone].id as string;
          const locks = ((request.current_assignments ?? []) as Json[]).filter((a) => a.volunteer_id !== leaving);
          const after: Json = {
            ...request,
            volunteers: (request.volunteers as Json[]).filter((v) => v.id !== leaving),
            current_assignments: locks,
            previous_assignments: published(first.result),
          };
          const { result } = await solvedProven(after);
          expect(checkSchedule(after, result)).to.deep.equal([]);
          const best = bestLevels(after);
          const got = levelsOfResult(after, result);
          expect(compareLevels(got, best), JSON.stringify({ got, best })).to.equal(0);
          // The volunteer's own assignments go, with the reason; everyone else's that must go is the minimum.
          const theirs = published(first.result).filter((a) => a.volunteer_id === leaving).length;
          const removed = (result.changes.dropped as Json[]).filter((d) => d.reason === 'volunteer_removed').length;
          expect(removed).to.equal(theirs);
          expect(result.summary.previous_dropped).to.equal(published(first.result).length - best.kept);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('both backends keep as many previous assignments', async () => {
    await fc.assert(
      fc.asyncProperty(withPrevious(5, 5), async (request) => {
        const highs = await solve(request, { backend: 'highs' });
        const jslp = await solve(request, { backend: 'jslp' });
        expect(checkSchedule(request, jslp.result)).to.deep.equal([]);
        const [a, b] = [levelsOfResult(request, highs.result), levelsOfResult(request, jslp.result)];
        expect(compareLevels(a, b), JSON.stringify({ highs: a, jslp: b })).to.equal(0);
      }),
      { numRuns: 40 },
    );
  });
});
