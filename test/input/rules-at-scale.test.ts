// The 2.2 fields at the contract's largest sizes: every check stays one pass over the input,
// and what is listed stays capped (entry-caps.ts), with exact counts of what is left out.
import { expect } from 'chai';
import { readCsvRequest } from '../../src/input/csv.js';
import { ERRORS_PER_CODE, TRUNCATED_CODE, WARNINGS_PER_CODE } from '../../src/input/entry-caps.js';
import { loadSchemas } from '../../src/input/schema-registry.js';
import { checkScheduleRequest } from '../../src/input/validate-request.js';
import { lockWarnings } from '../../src/rules/lock-warnings.js';

const schemas = loadSchemas();
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
const T0 = Date.UTC(2026, 5, 1);
const HOUR = 3_600_000;

/** 10,000 volunteers with 5 available and 2 unavailable windows each, 1,000 shifts; `bad` reverses every window and repeats a group. */
function request(bad: boolean): Record<string, unknown> {
  const volunteers = Array.from({ length: 10_000 }, (_, i) => {
    const windows = Array.from({ length: 5 }, (_, k) => {
      const start = T0 + ((i % 7) + 24 * k) * HOUR;
      return { start: iso(start), end: iso(bad ? start - HOUR : start + 8 * HOUR) };
    });
    const extra = `g${(i + 1) % 50}`;
    return {
      id: `v${i}`,
      group: `g${i % 50}`,
      additional_groups: [extra, `unused${i % 300}`, ...(bad ? [extra] : [])],
      max_hours: 40,
      available: windows,
      unavailable: windows.slice(0, 2),
      min_rest_hours: 8,
      max_shifts_per_day: 2,
    };
  });
  const unassigned_shifts = Array.from({ length: 1000 }, (_, j) => ({
    id: `s${j}`,
    start: iso(T0 + j * HOUR),
    end: iso(T0 + (j + 4) * HOUR),
    required_groups: { [`g${j % 50}`]: 2 },
    priority: 1 + (j % 5),
  }));
  return { volunteers, unassigned_shifts, rules: { min_rest_hours: 8, max_shifts_per_day: 2, timezone: 'UTC' } };
}

describe('2.2 fields at the largest sizes', function () {
  this.timeout(60_000);

  it('validates 10,000 volunteers with 70,000 windows; a group no shift requires is one warning per group, capped', () => {
    const { result, problem } = checkScheduleRequest(request(false), schemas, lockWarnings);
    expect(result.valid).to.equal(true);
    expect(problem?.volunteers[9999]?.available).to.have.length(5);
    const unused = result.warnings.filter((w) => w.code === 'additional_group_not_required');
    expect(unused).to.have.length(WARNINGS_PER_CODE);
    expect(unused[0]!.message).to.equal("No shift requires group 'unused0', listed in the additional_groups of 34 volunteers (first: 'v0'); it fills no slot.");
    expect(result.warnings.filter((w) => w.code === TRUNCATED_CODE).map((w) => w.message)).to.deep.equal([
      "200 more warnings of code 'additional_group_not_required' are not listed (at most 100 per code are); fix the ones listed and check again.",
    ]);
  });

  it('counts every bad window and repeated group of 10,000 volunteers, listing 1,000 of each code', () => {
    const { result, errorCount } = checkScheduleRequest(request(true), schemas, lockWarnings);
    expect(result.valid).to.equal(false);
    expect(errorCount).to.equal(10_000 * 7 + 10_000);
    const count = (code: string): number => result.errors.filter((e) => e.code === code).length;
    expect([count('end_not_after_start'), count('duplicate_group')]).to.deep.equal([ERRORS_PER_CODE, ERRORS_PER_CODE]);
    expect(result.errors.filter((e) => e.code === TRUNCATED_CODE).map((e) => e.message)).to.deep.equal([
      "69,000 more errors of code 'end_not_after_start' are not listed (at most 1000 per code are); fix the ones listed and check again.",
      "9,000 more errors of code 'duplicate_group' are not listed (at most 1000 per code are); fix the ones listed and check again.",
    ]);
    expect(result.errors[0]).to.deep.equal({
      pointer: '/volunteers/0/additional_groups/2',
      id: 'v0',
      code: 'duplicate_group',
      message: "additional_groups[2] repeats 'g1', already additional_groups[0]; list each group once.",
    });
  });

  it('reads 4,000 CSV rows of windows in a time zone, and caps the bad cells of a column at 1,000 with the count of the rest', () => {
    const day = (d: number): string => `6/${d}/2026`;
    const rows = (bad: boolean): Buffer =>
      Buffer.from(
        [
          'Name,Group,Max Hours,Available,Unavailable',
          ...Array.from({ length: 4000 }, (_, i) => {
            const windows = [1, 2, 3, 4, 5].map((d) => `${day(d)} 8:00 AM - ${bad ? '8:00 AM' : `${day(d)} 5:00 PM`}`).join('; ');
            return `V${i},g,40,"${windows}",${day(1 + (i % 20))} 10:00 PM - 2:00 AM`;
          }),
        ].join('\r\n'),
      );
    const shifts = Buffer.from('Name,Start,End,Groups\r\nA,6/6/2026 8:00 AM,6/6/2026 12:00 PM,g:1\r\n');
    const good = readCsvRequest(rows(false), shifts, 'America/Chicago');
    if (!good.ok) throw new Error('expected the rows to read');
    expect(good.request.volunteers[3999]).to.deep.include({
      available: [1, 2, 3, 4, 5].map((d) => ({ start: `2026-06-0${d}T13:00:00Z`, end: `2026-06-0${d}T22:00:00Z` })),
      unavailable: [{ start: '2026-06-21T03:00:00Z', end: '2026-06-21T07:00:00Z' }], // 6/20 10:00 PM CDT
    });
    const bad = readCsvRequest(rows(true), shifts, 'America/Chicago');
    if (bad.ok || !('errors' in bad)) throw new Error('expected errors');
    expect(bad.errors).to.have.length(ERRORS_PER_CODE + 1);
    expect(bad.errors[ERRORS_PER_CODE]).to.deep.equal({
      file: 'volunteers',
      column: 'Available',
      message: "19,000 more problems in column 'Available' are not listed (at most 1000 per column are).",
    });
  });
});
