import { expect } from 'chai';
import fc from 'fast-check';
import { overlapCliques } from '../../src/engine/overlap-cliques.js';

const w = (start: number, end: number) => ({ start, end });

describe('overlapCliques', () => {
  it('finds the maximal sets of mutually overlapping windows', () => {
    // 0: 0-4, 1: 2-6, 2: 3-5, 3: 5-8, 4: 9-10
    expect(overlapCliques([w(0, 4), w(2, 6), w(3, 5), w(5, 8), w(9, 10)])).to.deep.equal([[0, 1, 2], [1, 3], [4]]);
  });

  it('does not join touching windows', () => {
    expect(overlapCliques([w(8, 12), w(12, 16)])).to.deep.equal([[0], [1]]);
  });

  it('covers every overlapping pair, and every clique is mutually overlapping and maximal', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 10 })), { maxLength: 25 }), (raw) => {
        const windows = raw.map(([s, d]) => w(s, s + d));
        const cliques = overlapCliques(windows);
        const ov = (a: number, b: number) => windows[a]!.start < windows[b]!.end && windows[b]!.start < windows[a]!.end;
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
      }),
      { numRuns: 300 },
    );
  });
});
