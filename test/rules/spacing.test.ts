import { expect } from 'chai';
import fc from 'fast-check';
import { conflictCliques, conflicts } from '../../src/rules/spacing.js';

const w = (start: number, end: number) => ({ start, end });

describe('rules: spacing (overlap and rest) cliques', () => {
  it('finds the maximal sets of mutually overlapping windows', () => {
    // 0: 0-4, 1: 2-6, 2: 3-5, 3: 5-8, 4: 9-10
    expect(conflictCliques([w(0, 4), w(2, 6), w(3, 5), w(5, 8), w(9, 10)])).to.deep.equal([[0, 1, 2], [1, 3], [4]]);
  });

  it('does not join touching windows', () => {
    expect(conflictCliques([w(8, 12), w(12, 16)])).to.deep.equal([[0], [1]]);
  });

  it('with rest, joins shifts closer than the rest and not those exactly the rest apart', () => {
    // 0: 0-4, 1: 6-8 (2 apart), 2: 11-12 (3 after 1)
    expect(conflictCliques([w(0, 4), w(6, 8), w(11, 12)], 3)).to.deep.equal([[0, 1], [2]]);
    expect(conflicts({ restHours: 2 }, { start: 0, end: 4 * 3_600_000 }, { start: 6 * 3_600_000, end: 7 * 3_600_000 })).to.equal(false);
    expect(conflicts({ restHours: 2.5 }, { start: 0, end: 4 * 3_600_000 }, { start: 6 * 3_600_000, end: 7 * 3_600_000 })).to.equal(true);
  });

  it('covers every conflicting pair (overlap or rest), and every clique is mutually conflicting and maximal', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 10 })), { maxLength: 25 }),
        fc.integer({ min: 0, max: 6 }),
        (raw, rest) => {
          const windows = raw.map(([s, d]) => w(s, s + d));
          const cliques = conflictCliques(windows, rest);
          const ov = (a: number, b: number) => windows[a]!.start < windows[b]!.end + rest && windows[b]!.start < windows[a]!.end + rest;
          for (let a = 0; a < windows.length; a++) {
            for (let b = a + 1; b < windows.length; b++) {
              if (ov(a, b))
                expect(
                  cliques.some((c) => c.includes(a) && c.includes(b)),
                  `pair ${a},${b}`,
                ).to.equal(true);
            }
          }
          for (const c of cliques) {
            for (const a of c) for (const b of c) if (a !== b) expect(ov(a, b)).to.equal(true);
            for (let x = 0; x < windows.length; x++)
              if (!c.includes(x))
                expect(
                  c.every((a) => ov(a, x)),
                  `clique ${c.join(',')} extends by ${x}`,
                ).to.equal(false);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
