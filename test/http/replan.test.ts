// Re-planning over HTTP (CONTRACT.md section 14): previous_assignments in JSON and as a
// Previous Volunteers column of a real shifts CSV (BOM, CRLF, quoted names); the result's
// `changes` (schema-valid, verified by the independent checker); /api/validate's warnings and
// errors with their pointers; the limit; and the roster CSV export marking added, kept and
// dropped rows.
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { expectSchema } from '../helpers/schema-assert.js';
import { testApp } from '../helpers/app.js';

type Json = Record<string, any>;

/** A published Saturday: ana, ben and cy on the morning and afternoon; dev cancels (taken off the list). */
function request(): Json {
  return {
    timezone: 'America/Chicago',
    volunteers: [
      { id: 'ana', name: 'Ruiz, Ana', group: 'kitchen', max_hours: 8 },
      { id: 'ben', name: 'Ben Ode', group: 'kitchen', max_hours: 8 },
      { id: 'cy', name: 'Cy Park', group: 'kitchen', max_hours: 8 },
      { id: 'eve', name: 'Eve Li', group: 'kitchen', max_hours: 8 },
    ],
    unassigned_shifts: [
      { id: 'am', start: '2026-06-06T08:00', end: '2026-06-06T12:00', required_groups: { kitchen: 2 } },
      { id: 'pm', start: '2026-06-06T12:00', end: '2026-06-06T16:00', required_groups: { kitchen: 2 } },
    ],
    previous_assignments: [
      { shift_id: 'am', volunteer_id: 'ana' },
      { shift_id: 'am', volunteer_id: 'dev' },
      { shift_id: 'pm', volunteer_id: 'ben' },
      { shift_id: 'pm', volunteer_id: 'cy' },
    ],
  };
}

const binary = (res: any, done: (err: Error | null, body: any) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => {
    done(null, Buffer.concat(chunks));
  });
};

/** A spreadsheet export: BOM, CRLF line ends. */
const csvFile = (lines: string[]): Buffer => Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf8');

describe('re-planning over HTTP', function () {
  this.timeout(60_000);

  it('POST /api/schedule keeps the published schedule, fills the cancelled slot, and says so in changes', async () => {
    const res = await testApp().request.post('/api/schedule').send(request());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectSchema('schedule-result', res.body);
    expect(checkSchedule(request(), res.body)).to.deep.equal([]);
    expect(res.body.assigned_shifts).to.deep.equal({ am: ['ana', 'eve'], pm: ['ben', 'cy'] });
    expect(res.body.changes.kept).to.equal(3);
    expect(res.body.changes.dropped).to.deep.equal([
      {
        shift_id: 'am',
        volunteer_id: 'dev',
        reason: 'volunteer_removed',
        message: "Volunteer 'dev' is no longer in volunteers, so their previous assignment to 'am' is dropped.",
      },
    ]);
    expect(res.body.changes.added).to.deep.equal([{ shift_id: 'am', volunteer_id: 'eve', group: 'kitchen' }]);
    expect(res.body.summary.previous_dropped).to.equal(1);
    expect(res.body.warnings).to.deep.include({
      code: 'previous_dropped',
      message: "Volunteer 'dev' is no longer in volunteers, so their previous assignment to 'am' is dropped.",
      pointer: '/previous_assignments/1',
      id: 'dev',
    });
  });

  it('POST /api/validate warns about each previous assignment that can no longer hold, and points at every bad entry', async () => {
    const ok = await testApp().request.post('/api/validate').send(request());
    expect(ok.status).to.equal(200);
    expect(ok.body.valid).to.equal(true);
    expect(ok.body.warnings.map((w: Json) => [w.code, w.pointer])).to.deep.equal([['previous_dropped', '/previous_assignments/1']]);

    const bad = {
      ...request(),
      previous_assignments: [
        { shift_id: 'am' },
        { shift_id: 'am', volunteer_id: 7 },
        { shift_id: 'pm', volunteer_id: 'ana', group: '' },
        'ana',
        { shift_id: 'pm', volunteer_id: 'ben', grup: 'kitchen' },
      ],
    };
    const res = await testApp().request.post('/api/validate').send(bad);
    expect(res.status).to.equal(200);
    expect(res.body.valid).to.equal(false);
    const errors = res.body.errors.map((e: Json) => [e.pointer, e.code]);
    expect(errors).to.deep.equal([
      ['/previous_assignments/0/volunteer_id', 'required'],
      ['/previous_assignments/1/volunteer_id', 'invalid_type'],
      ['/previous_assignments/2/group', 'empty_string'],
      ['/previous_assignments/3', 'invalid_type'],
    ]);
    expect(res.body.errors[0].message).to.equal('volunteer_id is required in previous_assignments[0]: the id of a volunteer, such as "v1".');
    expect(res.body.errors[3].message).to.match(/^previous_assignments\[3\] must be an object such as \{"shift_id": "sat-am", "volunteer_id": "v1"\}/);
    expect(res.body.warnings.map((w: Json) => [w.code, w.pointer])).to.deep.include(['unknown_property', '/previous_assignments/4/grup']);
    const notList = await testApp()
      .request.post('/api/schedule')
      .send({ ...request(), previous_assignments: { am: 'ana' } });
    expect(notList.status).to.equal(400);
    expect(notList.body.errors.map((e: Json) => e.pointer)).to.deep.equal(['/previous_assignments']);
  });

  it('refuses more previous assignments than MAX_LOCKED_ASSIGNMENTS with a 413 naming the field', async () => {
    const res = await testApp({ MAX_LOCKED_ASSIGNMENTS: '3' }).request.post('/api/schedule').send(request());
    expect(res.status).to.equal(413);
    expect(res.body.detail).to.match(/previous_assignments/);
    expect(res.body.detail).to.match(/MAX_LOCKED_ASSIGNMENTS/);
  });

  it('POST /api/schedule/csv reads a Previous Volunteers column (names or IDs; a name no longer listed is dropped with a warning at its cell)', async () => {
    const volunteers = csvFile(['Name,Group,Max Hours', '"Ruiz, Ana",kitchen,8', 'Ben Ode,kitchen,8', 'Cy Park,kitchen,8', 'Eve Li,kitchen,8']);
    const shifts = csvFile([
      'Name,Start,End,Groups,Previous Volunteers',
      'Sat AM,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:2,"Ruiz, Ana; Dev Gone"',
      'Sat PM,6/6/2026 12:00 PM,6/6/2026 4:00 PM,kitchen:2,Ben Ode; Cy Park',
    ]);
    const upload = (accept = 'application/json') =>
      testApp()
        .request.post('/api/schedule/csv')
        .set('Accept', accept)
        .attach('volunteers', volunteers, 'volunteers.csv')
        .attach('shifts', shifts, 'shifts.csv')
        .field('timezone', 'America/Chicago');
    const res = await upload();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectSchema('schedule-result', res.body);
    expect(res.body.assigned_shifts).to.deep.equal({ 'Sat AM': ['Ruiz, Ana', 'Eve Li'], 'Sat PM': ['Ben Ode', 'Cy Park'] });
    expect(res.body.changes.dropped.map((d: Json) => [d.volunteer_id, d.reason])).to.deep.equal([['Dev Gone', 'volunteer_removed']]);
    const warning = res.body.warnings.find((w: Json) => w.code === 'previous_dropped');
    expect(warning).to.include({ file: 'shifts', row: 2, column: 'Previous Volunteers', pointer: '/previous_assignments/1' });

    const exported = await upload('text/csv').buffer(true).parse(binary);
    expect(exported.status).to.equal(200);
    const table: string[][] = parse(exported.body as Buffer, { bom: true });
    const [header, ...rows] = table;
    expect(header).to.deep.equal(['Shift ID', 'Start', 'End', 'Group', 'Volunteer ID', 'Volunteer Name', 'Locked', 'Change', 'Change Reason']);
    expect(rows).to.deep.equal([
      ['Sat AM', '6/6/2026 8:00 AM', '6/6/2026 12:00 PM', 'kitchen', 'Ruiz, Ana', 'Ruiz, Ana', 'no', 'kept', ''],
      ['Sat AM', '6/6/2026 8:00 AM', '6/6/2026 12:00 PM', 'kitchen', 'Eve Li', 'Eve Li', 'no', 'added', ''],
      ['Sat PM', '6/6/2026 12:00 PM', '6/6/2026 4:00 PM', 'kitchen', 'Ben Ode', 'Ben Ode', 'no', 'kept', ''],
      ['Sat PM', '6/6/2026 12:00 PM', '6/6/2026 4:00 PM', 'kitchen', 'Cy Park', 'Cy Park', 'no', 'kept', ''],
      [
        'Sat AM',
        '6/6/2026 8:00 AM',
        '6/6/2026 12:00 PM',
        '',
        'Dev Gone',
        '',
        'no',
        'dropped',
        "Volunteer 'Dev Gone' is no longer in volunteers, so their previous assignment to 'Sat AM' is dropped.",
      ],
    ]);
  });

  it('POST /api/schedule/csv refuses a Previous Volunteers name two volunteers share, at its cell', async () => {
    const volunteers = csvFile(['ID,Name,Group,Max Hours', 'a1,Ana,kitchen,8', 'a2,Ana,kitchen,8']);
    const shifts = csvFile(['Name,Start,End,Groups,Previous Volunteers', 'Sat AM,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:1,Ana']);
    const res = await testApp()
      .request.post('/api/schedule/csv')
      .attach('volunteers', volunteers, 'volunteers.csv')
      .attach('shifts', shifts, 'shifts.csv')
      .field('timezone', 'UTC');
    expect(res.status).to.equal(400);
    expect(res.body.type).to.equal('/problems/invalid-csv');
    expect(res.body.errors).to.have.length(1);
    expect(res.body.errors[0]).to.include({ file: 'shifts', row: 2, column: 'Previous Volunteers' });
    expect(res.body.errors[0].message).to.equal("Previous Volunteers names 'Ana', the Name of 2 volunteers ('a1', 'a2'); write the ID of the one meant.");
  });

  it('the export without previous_assignments has no Change columns (2.1 and 2.2 requests unchanged)', async () => {
    const plain = { ...request(), previous_assignments: undefined };
    const res = await testApp().request.post('/api/schedule').set('Accept', 'text/csv').buffer(true).parse(binary).send(plain);
    const table: string[][] = parse(res.body as Buffer, { bom: true });
    const [header] = table;
    expect(header).to.deep.equal(['Shift ID', 'Start', 'End', 'Group', 'Volunteer ID', 'Volunteer Name', 'Locked']);
    const json = await testApp().request.post('/api/schedule').send(plain);
    expect(json.body).to.not.have.property('changes');
  });
});
