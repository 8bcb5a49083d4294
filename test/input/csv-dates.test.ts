import { expect } from 'chai';
import { readCsvRequest } from '../../src/input/csv.js';

const BOM = '\ufeff';
const crlf = (lines: string[]): Buffer => Buffer.from(BOM + lines.join('\r\n') + '\r\n', 'utf8');
const volunteersWith = (...available: string[]): Buffer =>
  crlf(['ID,Name,Group,Max Hours,Available', ...available.map((cell, i) => `v${i + 1},V${i + 1},kitchen,8,"${cell}"`)]);
const NO_WINDOWS = crlf(['ID,Name,Group,Max Hours', 'v1,Ana,kitchen,8']);
const shiftsWith = (...times: Array<[string, string]>): Buffer =>
  crlf(['ID,Name,Start,End,Groups', ...times.map(([start, end], i) => `s${i + 1},Shift ${i + 1},${start},${end},kitchen:1`)]);

function read(volunteers: Buffer, shifts: Buffer, zone = 'UTC') {
  const r = readCsvRequest(volunteers, shifts, zone);
  if (!r.ok) throw new Error(JSON.stringify(r));
  return {
    shifts: r.request.unassigned_shifts.map((s) => [s.start, s.end]),
    windows: r.request.volunteers.map((v) => (v.available ?? []).map((w) => [w.start, w.end])),
  };
}
function errorsOf(volunteers: Buffer, shifts: Buffer, zone = 'UTC') {
  const r = readCsvRequest(volunteers, shifts, zone);
  if (r.ok || !('errors' in r)) throw new Error('expected errors');
  return r.errors;
}

describe('CSV dates: one form per file, one day/month order per upload', () => {
  it('reads each file in its own form: ISO windows with 24-hour shifts, 12-hour windows with ISO shifts', () => {
    expect(
      read(volunteersWith('2026-06-13 08:00 - 2026-06-13 17:00; 2026-06-13 22:00 - 02:00'), shiftsWith(['13/6/2026 7:00', '13/6/2026 19:30'])),
    ).to.deep.equal({
      shifts: [['2026-06-13T07:00:00Z', '2026-06-13T19:30:00Z']],
      windows: [
        [
          ['2026-06-13T08:00:00Z', '2026-06-13T17:00:00Z'],
          ['2026-06-13T22:00:00Z', '2026-06-14T02:00:00Z'],
        ],
      ],
    });
    expect(read(volunteersWith('6/13/2026 8:00 AM - 5:00 PM'), shiftsWith(['2026-06-13T07:00:00', '2026-06-13T19:30:00']), 'America/Chicago')).to.deep.equal({
      shifts: [['2026-06-13T12:00:00Z', '2026-06-14T00:30:00Z']],
      windows: [[['2026-06-13T13:00:00Z', '2026-06-13T22:00:00Z']]],
    });
  });

  it('refuses a date in another form than most of its file, naming the form, where it was first seen, and the cell rewritten', () => {
    const shifts = shiftsWith(['2026-06-13 07:00', '2026-06-13 11:00'], ['6/13/2026 11:00 AM', '2026-06-13 15:00'], ['2026-06-13 15:00', '6/13/2026 19:00']);
    expect(errorsOf(NO_WINDOWS, shifts)).to.deep.equal([
      {
        file: 'shifts',
        row: 3,
        column: 'Start',
        id: 's2',
        message:
          "Start '6/13/2026 11:00 AM' is written MM/DD/YYYY hh:mm AM|PM, but this file writes its dates as YYYY-MM-DD HH:MM (first in row 2, Start: '2026-06-13 07:00'); write every date of the file in one form, here 2026-06-13 11:00.",
      },
      {
        file: 'shifts',
        row: 4,
        column: 'End',
        id: 's3',
        message:
          "End '6/13/2026 19:00' is written MM/DD/YYYY HH:MM, but this file writes its dates as YYYY-MM-DD HH:MM (first in row 2, Start: '2026-06-13 07:00'); write every date of the file in one form, here 2026-06-13 19:00.",
      },
    ]);
    // Most of the file wins, even when the first row is the odd one; on a tie, the form seen first.
    const firstOdd = shiftsWith(['6/13/2026 7:00 AM', '2026-06-13 11:00'], ['2026-06-13 11:00', '2026-06-13 15:00']);
    expect(errorsOf(NO_WINDOWS, firstOdd).map((e) => [e.row, e.column])).to.deep.equal([[2, 'Start']]);
    const tie = shiftsWith(['6/13/2026 7:00 AM', '2026-06-13 11:00']);
    expect(errorsOf(NO_WINDOWS, tie).map((e) => [e.row, e.column, e.message.slice(0, 40)])).to.deep.equal([
      [2, 'End', "End '2026-06-13 11:00' is written YYYY-M"],
    ]);
  });

  it('refuses mixed forms within one window cell, with the window start and end told apart', () => {
    const errors = errorsOf(
      volunteersWith('2026-06-13 08:00 - 2026-06-13 17:00', '2026-06-13 08:00 - 6/13/2026 5:00 PM', '13/6/2026 8:00 - 17:00'),
      shiftsWith(['2026-06-13 07:00', '2026-06-13 19:30']),
    );
    expect(errors.map((e) => [e.file, e.row, e.column, e.id, e.message.split(' is written')[0]])).to.deep.equal([
      ['volunteers', 3, 'Available', 'v2', "Available window end '6/13/2026 5:00 PM'"],
      ['volunteers', 4, 'Available', 'v3', "Available window start '13/6/2026 8:00'"],
    ]);
  });

  describe('the day/month order of 24-hour slash dates', () => {
    it('reads every 24-hour date of the upload day first when one date has a first number over 12 (windows from the shifts file’s evidence)', () => {
      expect(read(volunteersWith('7/6/2026 8:00 - 17:00'), shiftsWith(['13/6/2026 7:00', '13/6/2026 19:30']))).to.deep.equal({
        shifts: [['2026-06-13T07:00:00Z', '2026-06-13T19:30:00Z']],
        windows: [[['2026-06-07T08:00:00Z', '2026-06-07T17:00:00Z']]],
      });
    });

    it('reads them month first when one date has a second number over 12 (shifts from the volunteers file’s evidence)', () => {
      expect(read(volunteersWith('6/13/2026 8:00 - 17:00'), shiftsWith(['7/6/2026 7:00', '7/6/2026 19:30']))).to.deep.equal({
        shifts: [['2026-07-06T07:00:00Z', '2026-07-06T19:30:00Z']],
        windows: [[['2026-06-13T08:00:00Z', '2026-06-13T17:00:00Z']]],
      });
    });

    it('reads dates whose day equals their month without evidence: they read the same either way', () => {
      expect(read(volunteersWith('6/6/2026 8:00 - 6/6/2026 17:00'), shiftsWith(['7/7/2026 7:00', '7/7/2026 19:30'])).shifts).to.deep.equal([
        ['2026-07-07T07:00:00Z', '2026-07-07T19:30:00Z'],
      ]);
    });

    it('refuses an upload where neither order is proven and a date reads two ways, naming that cell', () => {
      expect(
        errorsOf(volunteersWith('6/6/2026 8:00 - 17:00'), shiftsWith(['6/6/2026 7:00', '6/6/2026 19:30'], ['6/7/2026 7:00', '6/7/2026 19:30'])),
      ).to.deep.equal([
        {
          file: 'shifts',
          row: 3,
          column: 'Start',
          id: 's2',
          message:
            "Start '6/7/2026 7:00' could be June 7 or July 6: no 24-hour date in this upload has a number over 12 that tells whether the day or the month comes first. Write dates as YYYY-MM-DD HH:MM (2026-06-07 07:00 for June 7) or with AM/PM, month first (6/7/2026 7:00 AM).",
        },
      ]);
    });

    it('refuses an upload that proves both orders, naming a cell of each', () => {
      expect(errorsOf(volunteersWith('13/6/2026 8:00 - 17:00'), shiftsWith(['6/14/2026 7:00', '6/14/2026 19:30']))).to.deep.equal([
        {
          file: 'shifts',
          row: 2,
          column: 'Start',
          id: 's1',
          message:
            "Start '6/14/2026 7:00' has the month first (there is no month 14), but volunteers row 2, Available has '13/6/2026 8:00' with the day first (there is no month 13): the 24-hour dates of one upload must all be in one order. Write them all day first or all month first, or write dates as YYYY-MM-DD HH:MM (2026-06-14 07:00).",
        },
      ]);
    });

    it('does not take 12-hour or ISO dates as evidence: AM/PM dates are always month first', () => {
      const errors = errorsOf(volunteersWith('6/13/2026 8:00 AM - 5:00 PM'), shiftsWith(['6/7/2026 7:00', '6/7/2026 19:30']));
      expect(errors.map((e) => [e.file, e.row, e.column])).to.deep.equal([['shifts', 2, 'Start']]);
      expect(errors[0]!.message).to.match(/^Start '6\/7\/2026 7:00' could be June 7 or July 6/);
    });

    it('takes no evidence from a 24-hour date in a file of another form (that date is an error of its own)', () => {
      const errors = errorsOf(volunteersWith('2026-06-13 08:00 - 17:00', '13/6/2026 8:00 - 17:00'), shiftsWith(['6/14/2026 7:00', '6/14/2026 19:30']));
      expect(errors).to.deep.equal([
        {
          file: 'volunteers',
          row: 3,
          column: 'Available',
          id: 'v2',
          message:
            "Available window start '13/6/2026 8:00' is written DD/MM/YYYY HH:MM, but this file writes its dates as YYYY-MM-DD HH:MM (first in row 2, Available: '2026-06-13 08:00'); write every date of the file in one form, here 2026-06-13 08:00.",
        },
      ]);
    });

    it('still reports a date that is no date in either order', () => {
      const errors = errorsOf(NO_WINDOWS, shiftsWith(['13/6/2026 7:00', '31/6/2026 19:30'], ['13/13/2026 7:00', '14/6/2026 8:00']));
      expect(errors.map((e) => [e.row, e.column, e.message])).to.deep.equal([
        [2, 'End', "End '31/6/2026 19:30' is not DD/MM/YYYY HH:MM: 2026-06 has 30 days."],
        [3, 'Start', "Start '13/13/2026 7:00' is not DD/MM/YYYY HH:MM: month 13 does not exist."],
      ]);
    });
  });
});
