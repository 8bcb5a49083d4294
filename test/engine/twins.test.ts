// Symmetry breaking between interchangeable volunteers (candidates.ts Prepared.twinBefore,
// formulate.ts symmetryRows and canonicalTwins): which volunteers count as interchangeable, that
// putting a schedule in their order changes nothing any level sees and satisfies the rows, and
// that the engine still reaches the exhaustive optimum of every level on requests made of copies
// of the same volunteers (where the rows cut the most).
import { expect } from 'chai';
import fc from 'fast-check';
import { prepare, type Prepared } from '../../src/engine/candidates.js';
import { canonicalTwins, formulate } from '../../src/engine/formulate.js';
import { plainSlot, plainVolunteer, type Subproblem, type SubVolunteer } from '../../src/engine/subproblem.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { decompose } from '../../src/engine/subproblem.js';
import { generatedInstance } from '../../bench/generate.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { bestLevels, compareLevels, levelsOfResult, tinyRequests } from '../helpers/exhaustive.js';
import { solve, type Json } from '../helpers/engine.js';

const H = 3_600_000;

/** A group of volunteers over four shifts, two of them overlapping. */
function subOf(volunteers: SubVolunteer[]): Subproblem {
  const shifts = [
    plainSlot(0, 's0', 'g', 0, 4 * H, 2),
    plainSlot(1, 's1', 'g', 2 * H, 5 * H, 2),
    plainSlot(2, 's2', 'g', 6 * H, 8 * H, 1),
    plainSlot(3, 's3', 'g', 9 * H, 15 * H, 3),
  ];
  return { group: 'g', groups: ['g'], volunteers, shifts };
}

/** Hours of each volunteer under the pair vector `x`. */
function hoursOf(p: Prepared, x: ArrayLike<number>): number[] {
  return p.byVolunteer.map((pairs) => pairs.reduce((t, pair) => t + (x[pair] ? p.sub.shifts[p.candShift[pair]!]!.hours : 0), 0));
}

/** New assignments per slot kind under `x`. */
function perSlot(p: Prepared, x: ArrayLike<number>): number[] {
  return p.byShift.map((pairs) => pairs.reduce((t, pair) => t + (x[pair] ? 1 : 0), 0));
}

describe('engine: interchangeable volunteers (symmetry breaking)', function () {
  this.timeout(300_000);

  it('links volunteers whom every rule, wish and candidate treats alike, and no others', () => {
    const v = (i: number, cap: number, change: Partial<SubVolunteer> = {}): SubVolunteer => ({ ...plainVolunteer(i, `v${i}`, 'g', cap), ...change });
    const p = prepare(
      subOf([
        v(0, 8),
        v(1, 8),
        v(2, 12), // another cap
        v(3, 8),
        v(4, 8, { preferred: [2] }), // a wish
        v(5, 8, { restHours: 2 }), // another rest
        v(6, 12),
        v(7, 8, { available: [{ start: 0, end: 5 * H }] }), // fewer candidates
        v(8, 8, { minHours: 4 }),
        v(9, Infinity),
        v(10, Infinity),
      ]),
    );
    expect([...p.twinBefore]).to.deep.equal([-1, 0, -1, 1, -1, -1, 2, -1, -1, -1, 9]);
  });

  it('puts any schedule in hours order by swapping whole schedules of twins: the same slots filled, the same hours, every twin row satisfied', () => {
    const sub = subOf(Array.from({ length: 6 }, (_, i) => plainVolunteer(i, `v${i}`, 'g', i < 4 ? 10 : Infinity)));
    const p = prepare(sub);
    const f = formulate(p);
    const twins = [...f.twinRow].filter((r) => r >= 0).length;
    expect(twins).to.equal(4);
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: p.candShift.length, maxLength: p.candShift.length }), (bits) => {
        const x = Uint8Array.from(bits, (b) => (b ? 1 : 0));
        const y = canonicalTwins(p, x);
        expect(perSlot(p, y)).to.deep.equal(perSlot(p, x));
        const [before, after] = [hoursOf(p, x), hoursOf(p, y)];
        expect([...after].sort((a, b) => a - b)).to.deep.equal([...before].sort((a, b) => a - b));
        p.twinBefore.forEach((t, v) => {
          if (t >= 0) expect(after[t]).to.be.at.least(after[v]!);
        });
        // Each twin row of the model holds for the ordered schedule.
        for (const row of f.twinRow) {
          if (row < 0) continue;
          let activity = 0;
          for (let k = f.model.rowStarts[row]!; k < f.model.rowStarts[row + 1]!; k++) activity += f.model.values[k]! * y[f.model.indices[k]!]!;
          expect(activity).to.be.at.least(-1e-9);
        }
        // Each volunteer keeps a whole schedule of one twin (no pair split between two).
        const schedules = (z: Uint8Array): string[] => p.byVolunteer.map((pairs) => pairs.map((pair) => z[pair]).join('')).sort();
        expect(schedules(y)).to.deep.equal(schedules(x));
        if (canonicalTwins(p, y) !== y) expect.fail('an ordered schedule is returned as it is');
      }),
      { numRuns: 300 },
    );
  });

  it('finds twins in the scarce benchmark (caps alone tell its volunteers apart)', () => {
    const subs = decompose(normalizeRequest(generatedInstance('scarce-150x400')!.request));
    const linked = subs.reduce((t, sub) => t + [...prepare(sub).twinBefore].filter((b) => b >= 0).length, 0);
    const volunteers = subs.reduce((t, sub) => t + sub.volunteers.length, 0);
    // 150 volunteers in 4 groups with 4 caps: at most 16 kinds, the rest are twins of one before them.
    expect(linked).to.be.at.least(volunteers - 16);
  });

  it('on requests of copies of the same volunteers, every level equals an exhaustive search and the checker passes', async () => {
    const copies = tinyRequests(2, 4, { rules: true, wishes: false }).map((request: Json) => {
      request.volunteers = (request.volunteers as Json[]).flatMap((v) => [v, { ...v, id: `${v.id}-copy` }]);
      return request;
    });
    let withTwins = 0;
    await fc.assert(
      fc.asyncProperty(copies, async (request) => {
        const { result } = await solve(request, { debug: 'true' });
        delete result.diagnostics;
        expect(checkSchedule(request, result)).to.deep.equal([]);
        const got = levelsOfResult(request, result);
        const best = bestLevels(request);
        expect(compareLevels(got, best), JSON.stringify({ got, best })).to.equal(0);
        if (subsWithTwins(request)) withTwins++;
      }),
      { numRuns: 80 },
    );
    // The generator's locks make some copies distinct; most requests keep twins.
    expect(withTwins).to.be.at.least(20);
  });
});

function subsWithTwins(request: Json): boolean {
  return decompose(normalizeRequest(request as never)).some((sub) => prepare(sub).twinBefore.some((b) => b >= 0));
}
