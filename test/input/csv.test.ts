import { expect } from 'chai';
import { readCsvRequest } from '../../src/input/csv.js';
import { readWallClock } from '../../src/input/wall-clock.js';

const BOM = '\ufeff';
const crlf = (lines: string[]): Buffer => Buffer.from(BOM + lines.join('\r\n') + '\r\n', 'utf8');
const VOLUNTEERS = crlf(['Name,Group,Max Hours,Email,Phone', 'Ana Ruiz,kitchen,8,ana@example.org,555', '"Ode, Ben ""The Bear""",bar,999,,']);
const SHIFTS = crlf(['Name,Start,End,Groups', 'Sat AM,6/6/2026 8:00 AM,6/6/2026 12:00 PM,"kitchen:1, bar:1"']);

function errorsOf(volunteers: Buffer, shifts: Buffer, zone = 'UTC') {
  const r = readCsvRequest(volunteers, shifts, zone);
  if (r.ok || !('errors' in r)) throw new Error('expected errors');
  return r.errors;
}

describe('CSV input', () => {
  it('stops at the row limit before any per-row work, counting blank rows out', () => {
    const rows = crlf(['Name,Group,Max Hours', 'Ana,g,8', '', 'Ben,g,8', 'Cy,g,8']);
    expect(readCsvRequest(rows, SHIFTS, 'UTC', { volunteers: 3, shifts: 10 }).ok).to.equal(true);
    expect(readCsvRequest(rows, SHIFTS, 'UTC', { volunteers: 2, shifts: 10 })).to.deep.equal({
      ok: false,
      tooManyRows: { file: 'volunteers', rows: 3, max: 2 },
    });
  });

  it('reads spreadsheet exports: BOM, CRLF, quoted fields with commas and doubled quotes', () => {
    const r = readCsvRequest(VOLUNTEERS, SHIFTS, 'UTC');
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect(r.request).to.deep.equal({
      volunteers: [
        { id: 'Ana Ruiz', name: 'Ana Ruiz', group: 'kitchen', max_hours: 8 },
        { id: 'Ode, Ben "The Bear"', name: 'Ode, Ben "The Bear"', group: 'bar', max_hours: 999 },
      ],
      unassigned_shifts: [{ id: 'Sat AM', start: '2026-06-06T08:00:00Z', end: '2026-06-06T12:00:00Z', required_groups: { kitchen: 1, bar: 1 } }],
      rules: { timezone: 'UTC' },
    });
    expect(r.warnings).to.deep.equal([]);
  });

  it('matches headers by name, case-insensitive and trimmed, in any order; ignores extra columns with a warning; skips blank lines; takes LF too', () => {
    const v = Buffer.from(' max hours ,NOTES, name ,GROUP\n\n8,likes mornings,Ana,kitchen\n\n');
    const s = Buffer.from('groups,END,start,Name\n"  kitchen : 2 ,bar:1 ",1/5/2026 5:00 PM,1/5/2026 9:00 AM,Mon\n');
    const r = readCsvRequest(v, s, 'UTC');
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect(r.request.volunteers).to.deep.equal([{ id: 'Ana', name: 'Ana', group: 'kitchen', max_hours: 8 }]);
    expect(r.request.unassigned_shifts[0]).to.deep.equal({
      id: 'Mon',
      start: '2026-01-05T09:00:00Z',
      end: '2026-01-05T17:00:00Z',
      required_groups: { kitchen: 2, bar: 1 },
    });
    expect(r.warnings).to.deep.equal([
      { code: 'csv_column_ignored', message: "Column 'NOTES' of the volunteers file is not used and is ignored.", file: 'volunteers', row: 1, column: 'NOTES' },
    ]);
  });

  it('uses the ID column where present, else names with #2, #3 for repeats', () => {
    const withIds = readCsvRequest(crlf(['ID,Name,Group,Max Hours', 'v1,Ana,k,8', 'v2,Ana,k,8']), SHIFTS, 'UTC');
    expect(withIds.ok && withIds.request.volunteers.map((v) => v.id)).to.deep.equal(['v1', 'v2']);
    const byName = readCsvRequest(crlf(['Name,Group,Max Hours', 'Ana,k,8', 'Ana,k,8', 'Ana,k,8']), SHIFTS, 'UTC');
    if (!byName.ok) throw new Error('expected ok');
    expect(byName.request.volunteers.map((v) => v.id)).to.deep.equal(['Ana', 'Ana #2', 'Ana #3']);
    expect(byName.warnings.map((w) => w.message)).to.deep.equal([
      "Volunteer name 'Ana' in row 3 repeats an earlier row; it is identified as 'Ana #2'.",
      "Volunteer name 'Ana' in row 4 repeats an earlier row; it is identified as 'Ana #3'.",
    ]);
  });

  describe('date-times', () => {
    const ms = (value: string, zone = 'UTC') => {
      const r = readWallClock('Start', value, zone);
      if ('error' in r) throw new Error(r.error);
      return new Date(r.ms).toISOString();
    };
    it('accepts one-digit month, day and hour, and gets 12 AM and 12 PM right', () => {
      expect(ms('1/5/2026 9:05 AM')).to.equal('2026-01-05T09:05:00.000Z');
      expect(ms('01/05/2026 09:05 am')).to.equal('2026-01-05T09:05:00.000Z');
      expect(ms('1/5/2026 12:00 AM')).to.equal('2026-01-05T00:00:00.000Z');
      expect(ms('1/5/2026 12:30 PM')).to.equal('2026-01-05T12:30:00.000Z');
      expect(ms('1/5/2026 11:59 PM')).to.equal('2026-01-05T23:59:00.000Z');
    });
    it('reads wall-clock time in the time zone, across DST', () => {
      expect(ms('1/13/2026 9:00 AM', 'America/Chicago')).to.equal('2026-01-13T15:00:00.000Z');
      expect(ms('6/6/2026 9:00 AM', 'America/Chicago')).to.equal('2026-06-06T14:00:00.000Z');
      expect(ms('11/1/2026 1:30 AM', 'America/Chicago')).to.equal('2026-11-01T06:30:00.000Z'); // first of the two 1:30s
      expect(readWallClock('Start', '3/8/2026 2:30 AM', 'America/Chicago')).to.deep.equal({
        error: "Start '3/8/2026 2:30 AM' does not exist in America/Chicago: the clocks skip that hour (daylight saving time).",
      });
    });
    it('explains what is wrong with a bad value', () => {
      expect(readWallClock('Start', '13/01/2026 9:00 AM', 'UTC')).to.deep.equal({
        error:
          "Start '13/01/2026 9:00 AM' is not MM/DD/YYYY hh:mm AM|PM: month 13 does not exist; dates with AM/PM are month first: for January 13 write 1/13/2026 9:00 AM.",
      });
      expect(readWallClock('Start', '2026/01/13 09:00', 'UTC')).to.deep.equal({
        error:
          "Start '2026/01/13 09:00' is not a date and time; write MM/DD/YYYY hh:mm AM|PM (6/6/2026 8:00 AM), MM/DD/YYYY HH:MM in 24 hours (6/6/2026 19:30) or YYYY-MM-DD HH:MM (2026-06-06 19:30).",
      });
      expect(readWallClock('End', '2/30/2026 9:00 AM', 'UTC')).to.deep.equal({
        error: "End '2/30/2026 9:00 AM' is not MM/DD/YYYY hh:mm AM|PM: 2026-02 has 28 days.",
      });
      expect(readWallClock('End', '2/3/2026 13:00 PM', 'UTC')).to.deep.equal({
        error: "End '2/3/2026 13:00 PM' is not MM/DD/YYYY hh:mm AM|PM: the hour must be 1 to 12 with AM or PM.",
      });
      expect(readWallClock('End', '', 'UTC')).to.deep.equal({ error: 'End is blank; write a date and time such as 6/6/2026 8:00 AM.' });
    });
  });

  it('reports every bad cell at once, with file, spreadsheet row and column', () => {
    const v = crlf(['Name,Group,Max Hours', 'Ana,kitchen,', ',bar,-3', 'Cy,,8h']);
    const s = crlf([
      'Name,Start,End,Groups',
      'A,13/01/2026 9:00 AM,1/13/2026 5:00 PM,kitchen:2',
      'B,1/13/2026 5:00 PM,1/13/2026 9:00 AM,"kitchen:two"',
      'C,1/13/2026 5:00 PM,1/13/2026 9:00 PM,',
      'D,1/13/2026 5:00 PM,1/13/2026 9:00 PM,"kitchen:1,kitchen:2"',
      'E,1/13/2026 5:00 PM,1/13/2026 9:00 PM,kitchen',
    ]);
    expect(errorsOf(v, s)).to.deep.equal([
      { file: 'volunteers', row: 2, column: 'Max Hours', id: 'Ana', message: 'Max Hours is blank; write a number of hours, or 999 for unlimited.' },
      { file: 'volunteers', row: 3, column: 'Name', message: 'Name is blank; every volunteer needs a name.' },
      { file: 'volunteers', row: 3, column: 'Max Hours', message: "Max Hours '-3' is not a number >= 0; write hours such as 8, or 999 for unlimited." },
      { file: 'volunteers', row: 4, column: 'Group', id: 'Cy', message: "Group is blank; write the volunteer's group, such as kitchen." },
      {
        file: 'volunteers',
        row: 4,
        column: 'Max Hours',
        id: 'Cy',
        message: "Max Hours '8h' is not a number >= 0; write hours such as 8, or 999 for unlimited.",
      },
      {
        file: 'shifts',
        row: 2,
        column: 'Start',
        id: 'A',
        message:
          "Start '13/01/2026 9:00 AM' is not MM/DD/YYYY hh:mm AM|PM: month 13 does not exist; dates with AM/PM are month first: for January 13 write 1/13/2026 9:00 AM.",
      },
      {
        file: 'shifts',
        row: 3,
        column: 'End',
        id: 'B',
        message: "End '1/13/2026 9:00 AM' is not after Start '1/13/2026 5:00 PM'; a shift that ends after midnight ends on the next day's date.",
      },
      {
        file: 'shifts',
        row: 3,
        column: 'Groups',
        id: 'B',
        message: "The count 'two' for group 'kitchen' is not a whole number; write, for example, kitchen:2.",
      },
      { file: 'shifts', row: 4, column: 'Groups', id: 'C', message: 'Groups is blank; write group:count pairs such as "kitchen:2, bar:1".' },
      { file: 'shifts', row: 5, column: 'Groups', id: 'D', message: "Group 'kitchen' is listed twice in 'kitchen:1,kitchen:2'; list each group once." },
      { file: 'shifts', row: 6, column: 'Groups', id: 'E', message: 'Groups entry \'kitchen\' has no count; write group:count, such as "kitchen:2, bar:1".' },
    ]);
  });

  it('counts rows as a spreadsheet does: blank rows and multi-line quoted cells', () => {
    const v = Buffer.from('Name,Group,Max Hours\n\n"Ana\nRuiz",kitchen,x\n');
    expect(errorsOf(v, SHIFTS)).to.deep.equal([
      {
        file: 'volunteers',
        row: 3,
        column: 'Max Hours',
        id: 'Ana\nRuiz',
        message: "Max Hours 'x' is not a number >= 0; write hours such as 8, or 999 for unlimited.",
      },
    ]);
  });

  it('names a missing column, a header-less file, a repeated column and duplicate IDs', () => {
    expect(errorsOf(crlf(['Name,Group,Email', 'Ana,k,a@x']), SHIFTS)).to.deep.equal([
      { file: 'volunteers', row: 1, column: 'Max Hours', message: "Column 'Max Hours' is missing; the header has 'Name', 'Group', 'Email'." },
    ]);
    expect(errorsOf(crlf(['Ana Ruiz,kitchen,8']), SHIFTS)).to.deep.equal([
      { file: 'volunteers', row: 1, message: "The first row must be the header, with the columns Name, Group, Max Hours; found 'Ana Ruiz,kitchen,8'." },
    ]);
    expect(errorsOf(crlf(['Name,Group,Max Hours,name', 'Ana,k,8,x']), SHIFTS)[0]).to.deep.equal({
      file: 'volunteers',
      row: 1,
      column: 'name',
      message: "Column 'Name' appears twice in the header; keep one.",
    });
    expect(errorsOf(crlf(['ID,Name,Group,Max Hours', 'v1,Ana,k,8', 'v1,Ben,k,8', ',Cy,k,8']), SHIFTS)).to.deep.equal([
      { file: 'volunteers', row: 3, column: 'ID', id: 'v1', message: "ID 'v1' is already used in row 2; IDs must be unique." },
      { file: 'volunteers', row: 4, column: 'ID', message: 'ID is blank; give every row an ID, or remove the ID column to use names.' },
    ]);
  });

  it('refuses files that are not UTF-8 text, and empty or malformed CSV', () => {
    const latin1 = Buffer.concat([Buffer.from('Name,Group,Max Hours\nJos'), Buffer.from([0xe9]), Buffer.from(',k,8\n')]);
    expect(errorsOf(latin1, SHIFTS)).to.deep.equal([
      { file: 'volunteers', row: 2, message: 'The file is not UTF-8 text: byte 0xE9 in row 2 is not valid UTF-8. Save it as "CSV UTF-8".' },
    ]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Name,Group', 'utf16le')]);
    expect(errorsOf(utf16, SHIFTS)[0]!.message).to.equal('The file is UTF-16 text; save it as "CSV UTF-8" and upload it again.');
    expect(errorsOf(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), SHIFTS)[0]!.message).to.match(/^The file is not text/);
    expect(errorsOf(VOLUNTEERS, Buffer.from('\n\n'))[0]).to.deep.equal({
      file: 'shifts',
      message: 'The file is empty; it needs a header row (Name, Start, End, Groups) and a row per shift.',
    });
    expect(errorsOf(VOLUNTEERS, Buffer.from('Name,Start,End,Groups\n"A,1/1/2026 8:00 AM\n'))[0]!.message).to.match(/^The file is not valid CSV: /);
  });
  describe('version 2.2 columns', () => {
    const SHIFT = crlf(['Name,Start,End,Groups', 'Sat AM,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:1']);
    const read = (volunteers: string[], shifts = SHIFT, zone = 'UTC', rules = {}) => {
      const r = readCsvRequest(crlf(volunteers), shifts, zone, undefined, rules);
      if (!r.ok) throw new Error(JSON.stringify(r));
      return r;
    };
    const windowsOf = (cell: string, zone: string) =>
      read(['Name,Group,Max Hours,Available', `Ana,kitchen,8,"${cell}"`], SHIFT, zone).request.volunteers[0]!.available;

    it('reads every optional volunteer column as a spreadsheet exports it (BOM, CRLF, quoted cells with commas); blank cells leave the field out', () => {
      const r = read([
        'Name,Group,Max Hours,Additional Groups,Available,Unavailable,Min Rest Hours,Max Shifts Per Day',
        'Ana,kitchen,8,"driver, bar","6/6/2026 8:00 AM - 6/6/2026 8:00 PM; 6/7/2026 9:00 AM - 1:00 PM",6/6/2026 12:00 PM - 1:00 PM,10.5,2',
        'Ben,bar,999,,,,,',
        'Cy,bar,4,", driver, ,kitchen ,",,,0,1',
      ]);
      expect(r.request.volunteers).to.deep.equal([
        {
          id: 'Ana',
          name: 'Ana',
          group: 'kitchen',
          max_hours: 8,
          additional_groups: ['driver', 'bar'],
          available: [
            { start: '2026-06-06T08:00:00Z', end: '2026-06-06T20:00:00Z' },
            { start: '2026-06-07T09:00:00Z', end: '2026-06-07T13:00:00Z' },
          ],
          unavailable: [{ start: '2026-06-06T12:00:00Z', end: '2026-06-06T13:00:00Z' }],
          min_rest_hours: 10.5,
          max_shifts_per_day: 2,
        },
        { id: 'Ben', name: 'Ben', group: 'bar', max_hours: 999 },
        { id: 'Cy', name: 'Cy', group: 'bar', max_hours: 4, additional_groups: ['driver', 'kitchen'], min_rest_hours: 0, max_shifts_per_day: 1 },
      ]);
      expect(r.warnings).to.deep.equal([]);
    });

    it('matches the new headers case-insensitively, with any spacing, in any order', () => {
      const r = read([
        'max shifts per day,  ADDITIONAL   groups ,name,group,max hours,min rest HOURS,unavailable',
        '3,driver,Ana,kitchen,8,12,6/6/2026 8:00 AM - 9:00 AM',
      ]);
      expect(r.request.volunteers[0]).to.deep.equal({
        id: 'Ana',
        name: 'Ana',
        group: 'kitchen',
        max_hours: 8,
        additional_groups: ['driver'],
        unavailable: [{ start: '2026-06-06T08:00:00Z', end: '2026-06-06T09:00:00Z' }],
        min_rest_hours: 12,
        max_shifts_per_day: 3,
      });
    });

    it('reads Priority on shifts; blank is the default', () => {
      const r = read(
        ['Name,Group,Max Hours', 'Ana,kitchen,8'],
        crlf(['Name,Start,End,Groups,priority', 'A,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:1,5', 'B,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:1,']),
      );
      expect(r.request.unassigned_shifts.map((s) => s.priority)).to.deep.equal([5, undefined]);
      expect(r.request.unassigned_shifts[1]).to.not.have.property('priority');
    });

    it('sets rules.timezone to the zone the times were read in, with the rules of the text fields', () => {
      expect(read(['Name,Group,Max Hours', 'Ana,kitchen,8']).request.rules).to.deep.equal({ timezone: 'UTC' });
      const r = read(['Name,Group,Max Hours', 'Ana,kitchen,8'], SHIFT, 'America/Chicago', { min_rest_hours: 8, max_shifts_per_day: 2 });
      expect(r.request.rules).to.deep.equal({ min_rest_hours: 8, max_shifts_per_day: 2, timezone: 'America/Chicago' });
      expect(r.request.unassigned_shifts[0]!.start).to.equal('2026-06-06T13:00:00Z');
    });

    it('reads windows in the time zone; an end time before the start time is the next day, across months and years', () => {
      expect(windowsOf('6/6/2026 10:00 PM - 2:00 AM', 'America/Chicago')).to.deep.equal([{ start: '2026-06-07T03:00:00Z', end: '2026-06-07T07:00:00Z' }]);
      expect(windowsOf('6/30/2026 11:00 PM - 1:00 AM; 12/31/2026 11:30 PM - 12:30 AM', 'UTC')).to.deep.equal([
        { start: '2026-06-30T23:00:00Z', end: '2026-07-01T01:00:00Z' },
        { start: '2026-12-31T23:30:00Z', end: '2027-01-01T00:30:00Z' },
      ]);
      expect(windowsOf('2/28/2028 9:00 PM - 6:00 AM', 'UTC')).to.deep.equal([{ start: '2028-02-28T21:00:00Z', end: '2028-02-29T06:00:00Z' }]);
      expect(windowsOf('6/6/2026 8:00 PM - 6/8/2026 8:00 AM', 'Europe/Paris')).to.deep.equal([{ start: '2026-06-06T18:00:00Z', end: '2026-06-08T06:00:00Z' }]);
      // En dashes, as word processors write them, and 12 AM / 12 PM.
      expect(windowsOf('6/6/2026 12:00 AM \u2013 12:00 PM', 'UTC')).to.deep.equal([{ start: '2026-06-06T00:00:00Z', end: '2026-06-06T12:00:00Z' }]);
    });

    it('gets DST days right: 1:00 AM - 4:00 AM is 2 real hours on spring-forward day and 4 on fall-back day (America/Chicago)', () => {
      const hours = (w: { start: string; end: string }): number => (Date.parse(w.end) - Date.parse(w.start)) / 3_600_000;
      const spring = windowsOf('3/8/2026 1:00 AM - 4:00 AM', 'America/Chicago')!;
      expect(spring).to.deep.equal([{ start: '2026-03-08T07:00:00Z', end: '2026-03-08T09:00:00Z' }]);
      expect(hours(spring[0]!)).to.equal(2);
      const fall = windowsOf('11/1/2026 1:00 AM - 4:00 AM', 'America/Chicago')!;
      expect(fall).to.deep.equal([{ start: '2026-11-01T06:00:00Z', end: '2026-11-01T10:00:00Z' }]);
      expect(hours(fall[0]!)).to.equal(4);
      // Across midnight into the spring-forward day, and the full form across the fall-back hour.
      expect(windowsOf('3/7/2026 10:00 PM - 3:00 AM', 'America/Chicago')).to.deep.equal([{ start: '2026-03-08T04:00:00Z', end: '2026-03-08T08:00:00Z' }]);
      expect(windowsOf('10/31/2026 10:00 PM - 11/1/2026 3:00 AM', 'America/Chicago')).to.deep.equal([
        { start: '2026-11-01T03:00:00Z', end: '2026-11-01T09:00:00Z' },
      ]);
      // A time the clocks show twice is its first occurrence, whatever the server's own zone (TZDate alone would follow it).
      expect(windowsOf('10/25/2026 2:30 AM - 3:30 AM', 'Europe/Paris')).to.deep.equal([{ start: '2026-10-25T00:30:00Z', end: '2026-10-25T02:30:00Z' }]);
      // The same wall-clock window on an ordinary day is 3 hours.
      expect(windowsOf('3/15/2026 1:00 AM - 4:00 AM', 'America/Chicago')).to.deep.equal([{ start: '2026-03-15T06:00:00Z', end: '2026-03-15T09:00:00Z' }]);
    });

    it('lists the first 10 bad windows of a cell, then how many more', () => {
      const cell = Array.from({ length: 25 }, (_, i) => `6/${i + 1}/2026 9:00 AM - 6/${i + 1}/2026 8:00 AM`).join('; ');
      const errors = errorsOf(crlf(['Name,Group,Max Hours,Available', `Ana,kitchen,8,${cell}; 7/1/2026 9:00 AM - 5:00 PM`]), SHIFT);
      expect(errors).to.have.length(11);
      expect(errors[9]!.message).to.match(/^Available window '6\/10\/2026 9:00 AM - 6\/10\/2026 8:00 AM' does not end after it starts/);
      expect(errors[10]).to.deep.equal({
        file: 'volunteers',
        row: 2,
        column: 'Available',
        id: 'Ana',
        message: 'Available has 15 more bad windows in this cell besides the 10 listed; fix those and upload again.',
      });
    });

    it('reports every bad cell of the new columns, each bad window on its own, with file, row and column', () => {
      const v = crlf([
        'Name,Group,Max Hours,additional groups,Available,UNAVAILABLE,Min Rest Hours,Max Shifts Per Day',
        'Ana,kitchen,8,"driver, driver",3/8/2026 2:30 AM - 4:00 AM; 6/6/2026 8:00 AM,;,49,0',
        'Ben,bar,8,,"6/6/2026 9:00 AM - 6/6/2026 8:00 AM;6/6/2026 8:00 AM - 8:00 AM",6/6/2026 9:00 AM - 13:00 PM,-1,1.5',
        'Cy,bar,8,,3/8/2026 1:00 AM - 2:30 AM,6/6/2026 9:00 AM - 5pm,ten,100001',
        'Di,bar,8,,6/31/2026 9:00 AM - 5:00 PM,6/6/2026 9:00 AM -,,',
      ]);
      const s = crlf([
        'Name,Start,End,Groups,Priority',
        'A,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:1,6',
        'B,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:1,high',
        'C,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:1,2.0',
      ]);
      const window = '6/6/2026 8:00 AM - 6/6/2026 5:00 PM, or 6/6/2026 8:00 AM - 5:00 PM within a day';
      expect(errorsOf(v, s, 'America/Chicago')).to.deep.equal([
        {
          file: 'volunteers',
          row: 2,
          column: 'additional groups',
          id: 'Ana',
          message: "Additional Groups lists 'driver' twice in 'driver, driver'; list each group once, such as \"driver, kitchen\".",
        },
        {
          file: 'volunteers',
          row: 2,
          column: 'Available',
          id: 'Ana',
          message: "Available window start '3/8/2026 2:30 AM' does not exist in America/Chicago: the clocks skip that hour (daylight saving time).",
        },
        {
          file: 'volunteers',
          row: 2,
          column: 'Available',
          id: 'Ana',
          message: `Available window '6/6/2026 8:00 AM' is not start - end; write it as ${window}.`,
        },
        {
          file: 'volunteers',
          row: 2,
          column: 'UNAVAILABLE',
          id: 'Ana',
          message: `Unavailable ';' has no window; write windows such as ${window}, separated by ;, or leave the cell blank.`,
        },
        { file: 'volunteers', row: 2, column: 'Min Rest Hours', id: 'Ana', message: "Min Rest Hours '49' is not a number of hours from 0 to 48, such as 10." },
        {
          file: 'volunteers',
          row: 2,
          column: 'Max Shifts Per Day',
          id: 'Ana',
          message: "Max Shifts Per Day '0' is not a whole number of shifts from 1 to 100000, such as 2.",
        },
        {
          file: 'volunteers',
          row: 3,
          column: 'Available',
          id: 'Ben',
          message:
            "Available window '6/6/2026 9:00 AM - 6/6/2026 8:00 AM' does not end after it starts; a window that ends after midnight ends on the next day's date (or give only the end time, such as 2:00 AM).",
        },
        {
          file: 'volunteers',
          row: 3,
          column: 'Available',
          id: 'Ben',
          message:
            "Available window '6/6/2026 8:00 AM - 8:00 AM' ends when it starts; write a later end time, or an earlier one for a window that ends the next day.",
        },
        {
          file: 'volunteers',
          row: 3,
          column: 'UNAVAILABLE',
          id: 'Ben',
          message: "Unavailable window end '13:00 PM' is not hh:mm AM|PM: the hour must be 1 to 12 with AM or PM.",
        },
        { file: 'volunteers', row: 3, column: 'Min Rest Hours', id: 'Ben', message: "Min Rest Hours '-1' is not a number of hours from 0 to 48, such as 10." },
        {
          file: 'volunteers',
          row: 3,
          column: 'Max Shifts Per Day',
          id: 'Ben',
          message: "Max Shifts Per Day '1.5' is not a whole number of shifts from 1 to 100000, such as 2.",
        },
        {
          file: 'volunteers',
          row: 4,
          column: 'Available',
          id: 'Cy',
          message:
            "Available window '3/8/2026 1:00 AM - 2:30 AM' ends at a time that does not exist in America/Chicago: the clocks skip that hour (daylight saving time).",
        },
        {
          file: 'volunteers',
          row: 4,
          column: 'UNAVAILABLE',
          id: 'Cy',
          message: `Unavailable window end '5pm' is not MM/DD/YYYY hh:mm AM|PM nor hh:mm AM|PM; write the window as ${window}.`,
        },
        { file: 'volunteers', row: 4, column: 'Min Rest Hours', id: 'Cy', message: "Min Rest Hours 'ten' is not a number of hours from 0 to 48, such as 10." },
        {
          file: 'volunteers',
          row: 4,
          column: 'Max Shifts Per Day',
          id: 'Cy',
          message: "Max Shifts Per Day '100001' is not a whole number of shifts from 1 to 100000, such as 2.",
        },
        {
          file: 'volunteers',
          row: 5,
          column: 'Available',
          id: 'Di',
          message: "Available window start '6/31/2026 9:00 AM' is not MM/DD/YYYY hh:mm AM|PM: 2026-06 has 30 days.",
        },
        { file: 'volunteers', row: 5, column: 'UNAVAILABLE', id: 'Di', message: `Unavailable window '6/6/2026 9:00 AM -' has no end; write it as ${window}.` },
        {
          file: 'shifts',
          row: 2,
          column: 'Priority',
          id: 'A',
          message: "Priority '6' is not a whole number from 1 (the default) to 5, where 5 is filled first, such as 3.",
        },
        {
          file: 'shifts',
          row: 3,
          column: 'Priority',
          id: 'B',
          message: "Priority 'high' is not a whole number from 1 (the default) to 5, where 5 is filled first, such as 3.",
        },
        {
          file: 'shifts',
          row: 4,
          column: 'Priority',
          id: 'C',
          message: "Priority '2.0' is not a whole number from 1 (the default) to 5, where 5 is filled first, such as 3.",
        },
      ]);
    });
  });
});
