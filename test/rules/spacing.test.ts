import { expect } from 'chai';
import fc from 'fast-check';
import { conflictCliques, conflicts, reducedRest, spacingCode, spacingDetail } from '../../src/rules/spacing.js';

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

describe('rules: spacing (overlap and rest) explanations, relaxation and lock warnings', () => {
  const shift = (index: number, from: number, to: number, priority = 1) => ({
    index,
    id: `s${index}`,
    start: from * 3_600_000,
    end: to * 3_600_000,
    hours: to - from,
    priority,
    day: 0,
  });
  const placed = (index: number, from: number, to: number, locked = false, priority = 1) => ({ ...shift(index, from, to, priority), group: 'k', locked });

  it('tells overlap, locked overlap, higher priority and rest apart', () => {
    const s = shift(0, 10, 14, 2);
    expect(spacingCode(placed(1, 12, 16), s)).to.equal('overlap');
    expect(spacingCode(placed(1, 12, 16, true, 5), s)).to.equal('locked_overlap');
    expect(spacingCode(placed(1, 12, 16, false, 3), s)).to.equal('higher_priority');
    expect(spacingCode(placed(1, 16, 18), s)).to.equal('rest');
  });

  it('describes a rest conflict with the gap and the rest needed', async () => {
    const { problemOf } = await import('./helpers.js');
    const [v] = problemOf({ volunteers: [{ id: 'v', name: 'Vi', group: 'k', max_hours: 99, min_rest_hours: 10 }] }).volunteers;
    expect(spacingDetail(v!, placed(1, 20, 24), shift(0, 8, 14), 'UTC')).to.deep.equal({
      detail: { code: 'rest', volunteer_id: 'v', shift_id: 's1', locked: false, min_rest_hours: 10, rest_hours: 6 },
      sentence: "Vi (v) is in 's1' 1970-01-01 20:00 - 1970-01-02 00:00 UTC, which would leave 6 hours of rest; they need 10.",
    });
  });

  it('reduces rest to the smallest gap, and not when a conflicting shift overlaps', () => {
    const s = shift(0, 10, 14);
    expect(reducedRest([placed(1, 16, 18), placed(2, 5, 7)], s)).to.equal(2);
    expect(reducedRest([placed(1, 16, 18), placed(2, 13, 15)], s)).to.equal(undefined);
  });

  it('warns lock_overlap for overlapping locks and lock_rest for locks too close', async () => {
    const { problemOf, shiftAt, warningsOf } = await import('./helpers.js');
    const p = problemOf({
      rules: { min_rest_hours: 8 },
      volunteers: [{ id: 'v', group: 'k', max_hours: 999 }],
      unassigned_shifts: [shiftAt('a', 0, 4, { k: 1 }), shiftAt('b', 2, 6, { k: 1 }), shiftAt('c', 10, 12, { k: 1 }), shiftAt('d', 30, 31, { k: 1 })],
      current_assignments: ['a', 'b', 'c', 'd'].map((shift_id) => ({ shift_id, volunteer_id: 'v' })),
    });
    const warnings = warningsOf(p);
    expect(warnings.filter((w) => w.code === 'lock_overlap').map((w) => w.pointer)).to.deep.equal(['/current_assignments/1']);
    // a-c are 6 h apart and b-c 4 h, both under 8; d is far away.
    expect(warnings.filter((w) => w.code === 'lock_rest').map((w) => w.pointer)).to.deep.equal(['/current_assignments/2', '/current_assignments/2']);
  });
});
