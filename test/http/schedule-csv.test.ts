import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UPLOAD_PREFIX } from '../../src/http/routes/schedule-csv.js';
import { packageRoot } from '../../src/package-root.js';
import { testApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { expectSchema } from '../helpers/schema-assert.js';

type Json = Record<string, any>;
const example = (name: string): Buffer => readFileSync(join(packageRoot, 'examples', name));
const uploads = (): string[] => readdirSync(tmpdir()).filter((f) => f.startsWith(UPLOAD_PREFIX));

describe('POST /api/schedule/csv', function () {
  this.timeout(30_000);
  let before: string[];
  beforeEach(() => (before = uploads()));
  afterEach(() => expect(uploads(), 'temporary upload folders left behind').to.deep.equal(before));

  it('schedules the example exports (BOM, CRLF, quoted fields) in a time zone; the checker accepts it', async () => {
    const { request } = testApp();
    const res = await request
      .post('/api/schedule/csv?debug=true')
      .attach('volunteers', example('volunteers.csv'), 'volunteers.csv')
      .attach('shifts', example('shifts.csv'), 'shifts.csv')
      .field('timezone', 'America/Chicago')
      .field('min_rest_hours', '8')
      .field('max_shifts_per_day', '2');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectSchema('schedule-result', res.body);
    expect(res.body.volunteers).to.have.property('Ruiz, Ana #2');
    // Every 2.2 column is read: the only warning is the repeated name.
    expect(res.body.warnings.map((w: Json) => w.code)).to.deep.equal(['csv_name_repeated']);
    expect(res.body.roster.some((r: Json) => r.group !== null)).to.equal(true);
    expect(res.body.assigned_shifts['Sat Breakfast']).to.be.an('array');
    // Rebuild the equivalent JSON request and check the result against it.
    const { readCsvRequest } = await import('../../src/input/csv.js');
    const read = readCsvRequest(example('volunteers.csv'), example('shifts.csv'), 'America/Chicago');
    if (!read.ok) throw new Error('examples must read');
    expect(read.request.unassigned_shifts[0]!.start).to.equal('2026-06-06T12:00:00Z'); // 7:00 AM CDT
    const withRules = { ...read.request, rules: { ...read.request.rules, min_rest_hours: 8, max_shifts_per_day: 2 } };
    expect(checkSchedule(withRules, res.body)).to.deep.equal([]);
  });

  it('gives the same schedule as the same request in JSON', async () => {
    const volunteers = 'ID,Name,Group,Max Hours\r\nv1,Ana,kitchen,8\r\nv2,Ben,kitchen,4\r\nv3,Cy,bar,999\r\n';
    const shifts =
      'ID,Name,Start,End,Groups\r\ns1,Breakfast,6/6/2026 7:00 AM,6/6/2026 11:00 AM,"kitchen:2, bar:1"\r\ns2,Lunch,6/6/2026 11:00 AM,6/6/2026 3:00 PM,kitchen:1\r\n';
    const json = {
      volunteers: [
        { id: 'v1', name: 'Ana', group: 'kitchen', max_hours: 8 },
        { id: 'v2', name: 'Ben', group: 'kitchen', max_hours: 4 },
        { id: 'v3', name: 'Cy', group: 'bar', max_hours: 999 },
      ],
      unassigned_shifts: [
        { id: 's1', start: '2026-06-06T12:00:00Z', end: '2026-06-06T16:00:00Z', required_groups: { kitchen: 2, bar: 1 } },
        { id: 's2', start: '2026-06-06T16:00:00Z', end: '2026-06-06T20:00:00Z', required_groups: { kitchen: 1 } },
      ],
    };
    const { request } = testApp();
    const fromCsv = await request
      .post('/api/schedule/csv')
      .attach('volunteers', Buffer.from(volunteers), 'v.csv')
      .attach('shifts', Buffer.from(shifts), 's.csv')
      .field('timezone', 'America/Chicago');
    const fromJson = await request.post('/api/schedule').send(json);
    expect(fromCsv.status).to.equal(200);
    expect(fromCsv.text).to.equal(fromJson.text);
    expect(checkSchedule(json, fromCsv.body)).to.deep.equal([]);
  });

  it('400 invalid-csv listing every bad cell with file, row and column', async () => {
    const res = await testApp()
      .request.post('/api/schedule/csv')
      .attach('volunteers', Buffer.from('Name,Group,Max Hours\nAna,kitchen,\n'), 'v.csv')
      .attach('shifts', Buffer.from('Name,Start,End,Groups\nA,13/01/2026 9:00 AM,1/13/2026 5:00 PM,kitchen:2\n'), 's.csv');
    expect(res.status).to.equal(400);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expectSchema('problem-details', res.body);
    expect(res.body.type).to.equal('/problems/invalid-csv');
    expect(res.body.detail).to.equal('The CSV files have 2 problems; each is listed in errors with its file, row and column.');
    expect(res.body.errors).to.deep.equal([
      { file: 'volunteers', row: 2, column: 'Max Hours', id: 'Ana', message: 'Max Hours is blank; write a number of hours, or 999 for unlimited.' },
      {
        file: 'shifts',
        row: 2,
        column: 'Start',
        id: 'A',
        message:
          "Start '13/01/2026 9:00 AM' is not MM/DD/YYYY hh:mm AM|PM: month 13 does not exist; dates with AM/PM are month first: for January 13 write 1/13/2026 9:00 AM.",
      },
    ]);
  });

  describe('version 2.2 columns and fields', () => {
    const BOM = '\ufeff';
    const VOLUNTEERS = [
      'ID,Name,Group,Max Hours,Additional Groups,Available,Unavailable,Min Rest Hours,Max Shifts Per Day',
      'v1,"Ruiz, Ana",kitchen,8,"driver, bar","6/6/2026 6:00 AM - 6/6/2026 2:00 PM; 6/6/2026 10:00 PM - 6:00 AM",,10,1',
      'v2,Ben,kitchen,4,,,"6/6/2026 7:00 AM - 9:00 AM",,',
      'v3,Cy,bar,999,kitchen,,,,2',
    ];
    const SHIFTS = [
      'ID,Name,Start,End,Groups,Priority',
      's1,Breakfast,6/6/2026 7:00 AM,6/6/2026 11:00 AM,"kitchen:2, bar:1",5',
      's2,Lunch,6/6/2026 11:00 AM,6/6/2026 3:00 PM,kitchen:1,',
      's3,Night,6/6/2026 11:00 PM,6/7/2026 3:00 AM,"bar:1, driver:1",2',
    ];
    const file = (lines: string[]): Buffer => Buffer.from(BOM + lines.join('\r\n') + '\r\n');
    const upload = (volunteers: string[], shifts: string[], fields: Record<string, string>) => {
      let req = testApp().request.post('/api/schedule/csv').attach('volunteers', file(volunteers), 'v.csv').attach('shifts', file(shifts), 's.csv');
      for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
      return req;
    };

    it('gives the same schedule as the same request in JSON, windows and rules read in the time zone', async () => {
      const json = {
        volunteers: [
          {
            id: 'v1',
            name: 'Ruiz, Ana',
            group: 'kitchen',
            max_hours: 8,
            additional_groups: ['driver', 'bar'],
            available: [
              { start: '2026-06-06T11:00:00Z', end: '2026-06-06T19:00:00Z' },
              { start: '2026-06-07T03:00:00Z', end: '2026-06-07T11:00:00Z' },
            ],
            min_rest_hours: 10,
            max_shifts_per_day: 1,
          },
          { id: 'v2', name: 'Ben', group: 'kitchen', max_hours: 4, unavailable: [{ start: '2026-06-06T12:00:00Z', end: '2026-06-06T14:00:00Z' }] },
          { id: 'v3', name: 'Cy', group: 'bar', max_hours: 999, additional_groups: ['kitchen'], max_shifts_per_day: 2 },
        ],
        unassigned_shifts: [
          { id: 's1', start: '2026-06-06T12:00:00Z', end: '2026-06-06T16:00:00Z', required_groups: { kitchen: 2, bar: 1 }, priority: 5 },
          { id: 's2', start: '2026-06-06T16:00:00Z', end: '2026-06-06T20:00:00Z', required_groups: { kitchen: 1 } },
          { id: 's3', start: '2026-06-07T04:00:00Z', end: '2026-06-07T08:00:00Z', required_groups: { bar: 1, driver: 1 }, priority: 2 },
        ],
        rules: { min_rest_hours: 2, max_shifts_per_day: 3, timezone: 'America/Chicago' },
      };
      const { readCsvRequest } = await import('../../src/input/csv.js');
      const read = readCsvRequest(file(VOLUNTEERS), file(SHIFTS), 'America/Chicago', undefined, { min_rest_hours: 2, max_shifts_per_day: 3 });
      expect(read.ok && read.request).to.deep.equal(json);
      const fromCsv = await upload(VOLUNTEERS, SHIFTS, { timezone: 'America/Chicago', min_rest_hours: '2', max_shifts_per_day: ' 3 ' });
      expect(fromCsv.status, JSON.stringify(fromCsv.body)).to.equal(200);
      expectSchema('schedule-result', fromCsv.body);
      const fromJson = await testApp().request.post('/api/schedule').send(json);
      expect(fromCsv.text).to.equal(fromJson.text);
      expect(checkSchedule(json, fromCsv.body)).to.deep.equal([]);
    });

    it("warns that a volunteer's own group in Additional Groups is ignored", async () => {
      const res = await upload(
        ['Name,Group,Max Hours,Additional Groups', 'Ana,kitchen,8,"kitchen, bar"'],
        ['Name,Start,End,Groups', 'A,6/6/2026 8:00 AM,6/6/2026 12:00 PM,"kitchen:1,bar:1"'],
        {},
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.warnings).to.deep.equal([
        {
          code: 'redundant_additional_group',
          pointer: '/volunteers/0/additional_groups/0',
          message: "'kitchen' is already this volunteer's group; listing it in additional_groups is ignored.",
          id: 'Ana',
          file: 'volunteers',
          row: 2,
          column: 'Additional Groups',
        },
      ]);
    });

    it('keeps the assignments of the Locked Volunteers column (by ID or name), with lock warnings at the cell', async () => {
      const volunteers = ['ID,Name,Group,Max Hours', 'v1,"Ruiz, Ana",kitchen,4', 'v2,Bo,kitchen,8', 'v3,Cy,kitchen,8'];
      const shifts = [
        'ID,Name,Start,End,Groups,Locked Volunteers',
        'am,Breakfast,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:1,"Ruiz, Ana"',
        'pm,Lunch,6/6/2026 12:00 PM,6/6/2026 4:00 PM,kitchen:2,v1; v3',
      ];
      const res = await upload(volunteers, shifts, {});
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectSchema('schedule-result', res.body);
      const locked = res.body.roster.filter((r: Json) => r.locked).map((r: Json) => [r.shift_id, r.volunteer_id]);
      expect(locked).to.deep.equal([
        ['am', 'v1'],
        ['pm', 'v1'],
        ['pm', 'v3'],
      ]);
      // Ana (4 hours) is locked into 8: the warning points at the cell of the lock that passed her hours.
      expect(res.body.warnings).to.deep.equal([
        {
          code: 'lock_max_hours_exceeded',
          message: 'Locked assignments give Ruiz, Ana (v1) 8 hours, over max_hours 4; they are kept and nothing more is added.',
          pointer: '/current_assignments/1',
          id: 'v1',
          file: 'shifts',
          row: 3,
          column: 'Locked Volunteers',
        },
      ]);
      const json = {
        volunteers: [
          { id: 'v1', name: 'Ruiz, Ana', group: 'kitchen', max_hours: 4 },
          { id: 'v2', name: 'Bo', group: 'kitchen', max_hours: 8 },
          { id: 'v3', name: 'Cy', group: 'kitchen', max_hours: 8 },
        ],
        unassigned_shifts: [
          { id: 'am', start: '2026-06-06T08:00:00Z', end: '2026-06-06T12:00:00Z', required_groups: { kitchen: 1 } },
          { id: 'pm', start: '2026-06-06T12:00:00Z', end: '2026-06-06T16:00:00Z', required_groups: { kitchen: 2 } },
        ],
        current_assignments: [
          { shift_id: 'am', volunteer_id: 'v1' },
          { shift_id: 'pm', volunteer_id: 'v1' },
          { shift_id: 'pm', volunteer_id: 'v3' },
        ],
        rules: { timezone: 'UTC' },
      };
      expect(checkSchedule(json, res.body)).to.deep.equal([]);
    });

    it('400 invalid-csv for a Locked Volunteers entry that names nobody, or a name two volunteers share', async () => {
      const res = await upload(
        ['Name,Group,Max Hours', 'Ana,kitchen,8', 'Ana,kitchen,8', 'Bo,kitchen,8'],
        ['Name,Start,End,Groups,Locked Volunteers', 'A,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:2,Boo; Ana'],
        {},
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.errors.map((e: Json) => [e.file, e.row, e.column, e.message])).to.deep.equal([
        [
          'shifts',
          2,
          'Locked Volunteers',
          "Locked Volunteers names 'Boo', who is in the volunteers file by neither ID nor Name; did you mean 'Bo'? Separate several with \";\".",
        ],
        ['shifts', 2, 'Locked Volunteers', "Locked Volunteers names 'Ana', the Name of 2 volunteers ('Ana', 'Ana #2'); write the ID of the one meant."],
      ]);
    });

    it('400 invalid-csv for a group asked in another case than the volunteers write it: the cell, the id and the code', async () => {
      const res = await upload(
        ['Name,Group,Max Hours', 'Ana,medic,8', 'Bo,kitchen,8'],
        ['Name,Start,End,Groups', 'Gate,6/6/2026 8:00 AM,6/6/2026 12:00 PM,"Medic:1, kitchen:1"'],
        { timezone: 'America/Chicago' },
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.body.type).to.equal('/problems/invalid-csv');
      expectSchema('problem-details', res.body);
      expect(res.body.errors).to.deep.equal([
        {
          file: 'shifts',
          row: 2,
          column: 'Groups',
          id: 'Gate',
          code: 'group_name_mismatch',
          message:
            "Shift 'Gate' asks for group 'Medic', which no volunteer has; volunteers have 'medic', which differs only in upper/lower case or spaces. Write 'medic' here (or rename the volunteers' group) so these slots can be filled.",
        },
      ]);
    });

    it('400 invalid-csv listing every bad cell of the new columns with file, row and column', async () => {
      const res = await upload(
        ['Name,Group,Max Hours,Additional Groups,Available,Min Rest Hours', 'Ana,kitchen,8,"driver,driver","3/8/2026 2:30 AM - 5:00 AM; 3/9/2026 9:00 AM",60'],
        ['Name,Start,End,Groups,Priority', 'A,3/9/2026 8:00 AM,3/9/2026 12:00 PM,kitchen:1,urgent'],
        { timezone: 'America/Chicago' },
      );
      expect(res.status).to.equal(400);
      expectSchema('problem-details', res.body);
      expect(res.body.type).to.equal('/problems/invalid-csv');
      expect(res.body.detail).to.equal('The CSV files have 5 problems; each is listed in errors with its file, row and column.');
      expect(res.body.errors.map((e: Json) => [e.file, e.row, e.column])).to.deep.equal([
        ['volunteers', 2, 'Additional Groups'],
        ['volunteers', 2, 'Available'],
        ['volunteers', 2, 'Available'],
        ['volunteers', 2, 'Min Rest Hours'],
        ['shifts', 2, 'Priority'],
      ]);
      expect(res.body.errors[1].message).to.equal(
        "Available window start '3/8/2026 2:30 AM' does not exist in America/Chicago: the clocks skip that hour (daylight saving time).",
      );
      expect(res.body.errors[4].message).to.equal("Priority 'urgent' is not a whole number from 1 (the default) to 5, where 5 is filled first, such as 3.");
    });

    it('413 when additional groups make more (volunteer, shift) pairs than MAX_CANDIDATE_PAIRS', async () => {
      const volunteers = ['Name,Group,Max Hours,Additional Groups', 'Ana,kitchen,8,"bar, driver"', 'Ben,bar,8,'];
      const shifts = ['Name,Start,End,Groups', 'A,6/6/2026 8:00 AM,6/6/2026 12:00 PM,"kitchen:1, bar:1, driver:1"'];
      // Ana counts for kitchen, bar and driver, Ben for bar: 4 pairs, not the 2 of their own groups.
      const ok = await testApp({ MAX_CANDIDATE_PAIRS: '4' })
        .request.post('/api/schedule/csv')
        .attach('volunteers', file(volunteers), 'v.csv')
        .attach('shifts', file(shifts), 's.csv');
      expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
      const over = await testApp({ MAX_CANDIDATE_PAIRS: '3' })
        .request.post('/api/schedule/csv')
        .attach('volunteers', file(volunteers), 'v.csv')
        .attach('shifts', file(shifts), 's.csv');
      expect(over.status).to.equal(413);
      expect(over.body.detail).to.match(/^The number of \(volunteer, shift\) pairs of the same group is 4; the limit is 3 pairs/);
    });

    it('400 invalid-csv naming every bad text field at once, and one sent twice', async () => {
      const res = await upload(VOLUNTEERS, SHIFTS, { timezone: 'America/Chicgo', min_rest_hours: '50', max_shifts_per_day: '0' });
      expect(res.status).to.equal(400);
      expect(res.body.type).to.equal('/problems/invalid-csv');
      expect(res.body.detail).to.equal(
        "timezone 'America/Chicgo' is not an IANA time zone name; use one such as America/Chicago, Europe/Paris or UTC (the default); did you mean 'America/Chicago'? " +
          "The text field min_rest_hours '50' is not a number of hours from 0 to 48, such as 10. " +
          "The text field max_shifts_per_day '0' is not a whole number of shifts from 1 to 100000, such as 2.",
      );
      const twice = await upload(VOLUNTEERS, SHIFTS, {}).field('min_rest_hours', '8').field('min_rest_hours', '10');
      expect(twice.status).to.equal(400);
      expect(twice.body.detail).to.equal('The text field min_rest_hours was sent 2 times; send it once.');
    });
  });

  describe('24-hour and ISO dates, and warnings and errors at the cell (2.2)', () => {
    const BOM = '\ufeff';
    /** A file as a spreadsheet saves it: BOM, CRLF, quoted cells. */
    const sheet = (lines: string[]): Buffer => Buffer.from(BOM + lines.join('\r\n') + '\r\n');
    const upload = (volunteers: string[], shifts: string[], timezone: string) =>
      testApp()
        .request.post('/api/schedule/csv')
        .attach('volunteers', sheet(volunteers), 'volunteers.csv')
        .attach('shifts', sheet(shifts), 'shifts.csv')
        .field('timezone', timezone);
    /** Schedules the upload and the same request in JSON: byte-identical results, which the checker accepts. */
    const sameAsJson = async (volunteers: string[], shifts: string[], timezone: string, json: Json): Promise<Json> => {
      const fromCsv = await upload(volunteers, shifts, timezone);
      expect(fromCsv.status, JSON.stringify(fromCsv.body)).to.equal(200);
      expectSchema('schedule-result', fromCsv.body);
      const fromJson = await testApp().request.post('/api/schedule').send(json);
      expect(fromCsv.text).to.equal(fromJson.text);
      expect(checkSchedule(json, fromCsv.body)).to.deep.equal([]);
      return fromCsv.body;
    };

    it('schedules a UK export in 24-hour day-first dates (13/6/2026 7:00) read in Europe/London, as the same JSON request', async () => {
      const volunteers = [
        'ID,Name,Group,Max Hours,Available,Unavailable',
        'v1,"Ruiz, Ana",kitchen,8,"13/6/2026 06:00 - 14:00; 13/6/2026 22:00 - 2:00",',
        'v2,Ben,kitchen,10,,"13/6/2026 18:00 \u2013 13/6/2026 23:00"',
        'v3,Cy,bar,999,,',
      ];
      const shifts = [
        'ID,Name,Start,End,Groups',
        's1,Breakfast,13/6/2026 7:00,13/6/2026 11:00,"kitchen:2, bar:1"',
        's2,Dinner,13/6/2026 18:00,13/6/2026 22:30,"kitchen:1, bar:1"',
        's3,Night,13/6/2026 23:00,14/6/2026 1:30,kitchen:1',
      ];
      const body = await sameAsJson(volunteers, shifts, 'Europe/London', {
        volunteers: [
          {
            id: 'v1',
            name: 'Ruiz, Ana',
            group: 'kitchen',
            max_hours: 8,
            available: [
              { start: '2026-06-13T05:00:00Z', end: '2026-06-13T13:00:00Z' },
              { start: '2026-06-13T21:00:00Z', end: '2026-06-14T01:00:00Z' },
            ],
          },
          { id: 'v2', name: 'Ben', group: 'kitchen', max_hours: 10, unavailable: [{ start: '2026-06-13T17:00:00Z', end: '2026-06-13T22:00:00Z' }] },
          { id: 'v3', name: 'Cy', group: 'bar', max_hours: 999 },
        ],
        unassigned_shifts: [
          { id: 's1', start: '2026-06-13T06:00:00Z', end: '2026-06-13T10:00:00Z', required_groups: { kitchen: 2, bar: 1 } },
          { id: 's2', start: '2026-06-13T17:00:00Z', end: '2026-06-13T21:30:00Z', required_groups: { kitchen: 1, bar: 1 } },
          { id: 's3', start: '2026-06-13T22:00:00Z', end: '2026-06-14T00:30:00Z', required_groups: { kitchen: 1 } },
        ],
        rules: { timezone: 'Europe/London' },
      });
      expect(body.assigned_shifts.s1).to.deep.equal(['v1', 'v2', 'v3']);
    });

    it('schedules ISO dates (a space or a T, seconds; windows with hyphens inside their dates) read in America/Chicago, as the same JSON request', async () => {
      const volunteers = [
        'Name,Group,Max Hours,Available',
        'Ana,kitchen,8,"2026-06-13 06:00 - 2026-06-13 14:00; 2026-06-13 22:00 - 02:00"',
        'Ben,kitchen,10,',
        'Cy,bar,999,2026-06-13T17:00:00 - 2026-06-14T01:00:00',
      ];
      const shifts = [
        'Name,Start,End,Groups',
        'Breakfast,2026-06-13T07:00:00,2026-06-13T11:00:00,"kitchen:2, bar:1"',
        'Dinner,2026-06-13 18:00,2026-06-13 22:30,"kitchen:1, bar:1"',
        'Night,2026-06-13 23:00,2026-06-14 01:30,kitchen:1',
      ];
      const body = await sameAsJson(volunteers, shifts, 'America/Chicago', {
        volunteers: [
          {
            id: 'Ana',
            name: 'Ana',
            group: 'kitchen',
            max_hours: 8,
            available: [
              { start: '2026-06-13T11:00:00Z', end: '2026-06-13T19:00:00Z' },
              { start: '2026-06-14T03:00:00Z', end: '2026-06-14T07:00:00Z' },
            ],
          },
          { id: 'Ben', name: 'Ben', group: 'kitchen', max_hours: 10 },
          { id: 'Cy', name: 'Cy', group: 'bar', max_hours: 999, available: [{ start: '2026-06-13T22:00:00Z', end: '2026-06-14T06:00:00Z' }] },
        ],
        unassigned_shifts: [
          { id: 'Breakfast', start: '2026-06-13T12:00:00Z', end: '2026-06-13T16:00:00Z', required_groups: { kitchen: 2, bar: 1 } },
          { id: 'Dinner', start: '2026-06-13T23:00:00Z', end: '2026-06-14T03:30:00Z', required_groups: { kitchen: 1, bar: 1 } },
          { id: 'Night', start: '2026-06-14T04:00:00Z', end: '2026-06-14T06:30:00Z', required_groups: { kitchen: 1 } },
        ],
        rules: { timezone: 'America/Chicago' },
      });
      expect(body.unfilled_shifts).to.deep.equal(['Breakfast']);
    });

    it('400 invalid-csv for 24-hour dates whose day/month order cannot be told, naming the cell and what to write', async () => {
      const res = await upload(
        ['Name,Group,Max Hours', 'Ana,kitchen,8'],
        ['ID,Name,Start,End,Groups', 's1,Breakfast,6/6/2026 7:00,6/6/2026 11:00,kitchen:1', 's2,Lunch,6/7/2026 11:00,6/7/2026 15:00,kitchen:1'],
        'UTC',
      );
      expect(res.status).to.equal(400);
      expectSchema('problem-details', res.body);
      expect(res.body.type).to.equal('/problems/invalid-csv');
      expect(res.body.errors).to.deep.equal([
        {
          file: 'shifts',
          row: 3,
          column: 'Start',
          id: 's2',
          message:
            "Start '6/7/2026 11:00' could be June 7 or July 6: no 24-hour date in this upload has a number over 12 that tells whether the day or the month comes first. Write dates as YYYY-MM-DD HH:MM (2026-06-07 11:00 for June 7) or with AM/PM, month first (6/7/2026 11:00 AM).",
        },
      ]);
    });

    it('gives each warning its file, row, column and id: a shift asking for group medic while the volunteers are in medics', async () => {
      const volunteers = ['Name,Group,Max Hours,Notes', 'Ana,medics,8,first aid', 'Ana,medics,8,'];
      const shifts = [
        'ID,Name,Start,End,Groups',
        's1,Gate,2026-06-13 08:00,2026-06-13 12:00,medics:1',
        's2,Aid tent,2026-06-13 08:00,2026-06-13 12:00,"medics:1, medic:1"',
      ];
      const res = await upload(volunteers, shifts, 'UTC');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expectSchema('schedule-result', res.body);
      expect(res.body.warnings).to.deep.equal([
        {
          code: 'csv_column_ignored',
          message: "Column 'Notes' of the volunteers file is not used and is ignored.",
          file: 'volunteers',
          row: 1,
          column: 'Notes',
        },
        {
          code: 'csv_name_repeated',
          message: "Volunteer name 'Ana' in row 3 repeats an earlier row; it is identified as 'Ana #2'.",
          id: 'Ana #2',
          file: 'volunteers',
          row: 3,
          column: 'Name',
        },
        {
          code: 'group_without_volunteers',
          message: "No volunteer belongs to group 'medic', which shift 's2' requires; those slots will stay empty. Did you mean 'medics'?",
          pointer: '/unassigned_shifts/1/required_groups/medic',
          id: 's2',
          file: 'shifts',
          row: 3,
          column: 'Groups',
        },
      ]);
      const { readCsvRequest } = await import('../../src/input/csv.js');
      const read = readCsvRequest(sheet(volunteers), sheet(shifts), 'UTC');
      if (!read.ok) throw new Error('the upload must read');
      expect(checkSchedule(read.request, res.body)).to.deep.equal([]);
    });

    it('400 invalid-csv, not invalid-request, for what validation finds once the cells are read: each entry with file, row, column, id and code', async () => {
      // Ids made from repeated names can meet a name already taken; a name can be too long for an id.
      const longName = 'x'.repeat(201);
      const res = await upload(
        ['Name,Group,Max Hours', 'Ana,kitchen,8', 'Ana,kitchen,8', 'Ana #2,kitchen,8', `${longName},kitchen,8`],
        [
          'Name,Start,End,Groups',
          'Lunch,2026-06-13 11:00,2026-06-13 15:00,kitchen:1',
          'Lunch,2026-06-14 11:00,2026-06-14 15:00,kitchen:1',
          'Lunch #2,2026-06-15 11:00,2026-06-15 15:00,kitchen:1',
        ],
        'UTC',
      );
      expect(res.status).to.equal(400);
      expectSchema('problem-details', res.body);
      expect(res.body.type).to.equal('/problems/invalid-csv');
      expect(res.body.detail).to.equal('The CSV files have 3 problems; each is listed in errors with its file, row and column.');
      expect(res.body.errors).to.deep.equal([
        {
          file: 'volunteers',
          row: 4,
          column: 'Name',
          id: 'Ana #2',
          code: 'duplicate_id',
          message: "id 'Ana #2' is already used by volunteers[1]; each volunteer needs its own id.",
        },
        {
          file: 'volunteers',
          row: 5,
          column: 'Name',
          id: longName,
          code: 'too_long',
          message: 'id must be 1 to 200 characters, not counting spaces at either end; found 201.',
        },
        {
          file: 'shifts',
          row: 4,
          column: 'Name',
          id: 'Lunch #2',
          code: 'duplicate_id',
          message: "id 'Lunch #2' is already used by unassigned_shifts[1]; each shift needs its own id.",
        },
      ]);
    });
  });

  it('400 for a missing part, an empty file, a text field instead of a file, and an unknown part', async () => {
    const { request } = testApp();
    const missing = await request.post('/api/schedule/csv').attach('volunteers', example('volunteers.csv'), 'v.csv');
    expect(missing.status).to.equal(400);
    expect(missing.body.errors).to.deep.equal([{ file: 'shifts', message: "The shifts file is missing; send it as the file part 'shifts'." }]);
    const empty = await request.post('/api/schedule/csv').attach('volunteers', Buffer.alloc(0), 'v.csv').attach('shifts', example('shifts.csv'), 's.csv');
    expect(empty.body.errors).to.deep.equal([{ file: 'volunteers', message: 'The volunteers file is empty.' }]);
    const asField = await request.post('/api/schedule/csv').field('volunteers', 'Name,Group,Max Hours').attach('shifts', example('shifts.csv'), 's.csv');
    expect(asField.body.errors[0].message).to.equal("Part 'volunteers' was sent as a text field; send it as a file (curl -F volunteers=@volunteers.csv).");
    const unknown = await request
      .post('/api/schedule/csv')
      .attach('volunteers', example('volunteers.csv'), 'v.csv')
      .attach('shifts', example('shifts.csv'), 's.csv')
      .field('tz', 'UTC');
    expect(unknown.status).to.equal(400);
    expect(unknown.body.type).to.equal('/problems/invalid-multipart');
    expect(unknown.body.detail).to.match(/parts it does not take \('tz'\)/);
  });

  it('400 for an unknown time zone', async () => {
    const res = await testApp()
      .request.post('/api/schedule/csv')
      .attach('volunteers', example('volunteers.csv'), 'v.csv')
      .attach('shifts', example('shifts.csv'), 's.csv')
      .field('timezone', 'Mars/Olympus');
    expect(res.status).to.equal(400);
    expect(res.body.detail).to.equal(
      "timezone 'Mars/Olympus' is not an IANA time zone name; use one such as America/Chicago, Europe/Paris or UTC (the default).",
    );
  });

  it('415 for a body that is not multipart, with the curl form to use', async () => {
    const res = await testApp().request.post('/api/schedule/csv').set('Content-Type', 'text/csv').send('Name,Group\n');
    expect(res.status).to.equal(415);
    expect(res.body.detail).to.match(/^This endpoint takes multipart\/form-data with file parts volunteers and shifts/);
  });

  it('413 for a file over MAX_CSV_FILE_BYTES, and no upload is left behind', async () => {
    const res = await testApp({ MAX_CSV_FILE_BYTES: '1kB' })
      .request.post('/api/schedule/csv')
      .attach('volunteers', example('volunteers.csv'), 'v.csv')
      .attach('shifts', example('shifts.csv'), 's.csv');
    expect(res.status).to.equal(413);
    expect(res.body.limit).to.deep.equal({ name: 'MAX_CSV_FILE_BYTES', value: 1024 });
  });

  it('applies the count limits to CSV rows', async () => {
    const res = await testApp({ MAX_VOLUNTEERS: '10' })
      .request.post('/api/schedule/csv')
      .attach('volunteers', example('volunteers.csv'), 'v.csv')
      .attach('shifts', example('shifts.csv'), 's.csv');
    expect(res.status).to.equal(413);
    expect(res.body.limit).to.deep.equal({ name: 'MAX_VOLUNTEERS', value: 10 });
  });

  it('the CLI schedules the example files too', async () => {
    const cli = await runCli([
      'schedule',
      '--volunteers',
      join(packageRoot, 'examples/volunteers.csv'),
      '--shifts',
      join(packageRoot, 'examples/shifts.csv'),
      '--timezone',
      'America/Chicago',
    ]);
    expect(cli.code, cli.stderr).to.equal(0);
    const http = await testApp()
      .request.post('/api/schedule/csv')
      .attach('volunteers', example('volunteers.csv'), 'v.csv')
      .attach('shifts', example('shifts.csv'), 's.csv')
      .field('timezone', 'America/Chicago');
    expect(JSON.parse(cli.stdout)).to.deep.equal(http.body);
  });
});
