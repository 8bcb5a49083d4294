// The exports of POST /api/schedule and POST /api/schedule/csv (CONTRACT.md section 13):
// Accept: text/csv and text/calendar, read back with real parsers (csv-parse, ical.js) and
// checked row by row and event by event against the JSON result of the same request.
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { packageRoot } from '../../src/package-root.js';
import { testApp } from '../helpers/app.js';

type Json = Record<string, any>;
const example = (name: string): Buffer => readFileSync(join(packageRoot, 'examples', name));
const HEADER = ['Shift ID', 'Start', 'End', 'Group', 'Volunteer ID', 'Volunteer Name', 'Locked'];

/** The request: names a spreadsheet would misread (commas, quotes, formulas), a lock, an empty slot. */
function request(): Json {
  return {
    timezone: 'America/Chicago',
    volunteers: [
      { id: 'v1', name: 'Ruiz, Ana "Annie"', group: 'kitchen', max_hours: 8 },
      { id: 'v2', name: '=HYPERLINK("http://evil.example","click")', group: 'kitchen', max_hours: 8 },
      { id: 'v3', name: '@SUM(1+1)', group: 'bar', max_hours: 8 },
      { id: 'v4', name: '-2+3', group: 'bar', max_hours: 12 },
      { id: 'v5', name: '<img src=x onerror=alert(1)>', group: 'gate', max_hours: 12 },
    ],
    unassigned_shifts: [
      { id: 'sat-am', start: '2026-06-06T07:00', end: '2026-06-06T11:00', required_groups: { kitchen: 3 } },
      { id: 'sat-bar', start: '2026-06-06T18:00', end: '2026-06-06T23:30', required_groups: { bar: 2 } },
      { id: 'sun-gate', start: '2026-06-07T08:00', end: '2026-06-07T12:00', required_groups: { gate: 1, medical: 1 } },
    ],
    current_assignments: [{ shift_id: 'sat-am', volunteer_id: 'v1' }],
  };
}

/** The raw bytes of a response, whatever its type. */
function bytes(res: Response): Buffer {
  return res.body as Buffer;
}
const binary = (res: any, done: (err: Error | null, body: any) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => {
    done(null, Buffer.concat(chunks));
  });
};

/** "6/6/2026 7:00 AM" for an instant in a zone, written independently of the service (Intl). */
function wallClock(iso: string, zone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
  }).formatToParts(new Date(iso));
  const p = (t: string): string => parts.find((x) => x.type === t)!.value;
  return `${p('month')}/${p('day')}/${p('year')} ${p('hour')}:${p('minute')} ${p('dayPeriod').toUpperCase()}`;
}

function readCsv(raw: Buffer): string[][] {
  const rows: string[][] = parse(raw, { bom: true, relax_column_count: false });
  return rows;
}

function events(text: string): ICAL.Event[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
}

describe('exports: Accept text/csv and text/calendar', function () {
  this.timeout(60_000);
  let json: Json;

  before(async () => {
    const res = await testApp().request.post('/api/schedule').send(request());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    json = res.body;
    // The request leaves slots empty (kitchen and medical), so UNFILLED rows are exercised.
    expect(json.conflicts.length).to.be.greaterThan(0);
  });

  it('CSV: BOM, CRLF, the header, one row per roster entry in order then one per empty slot, names quoted and formulas neutralized, Chicago wall-clock times', async () => {
    const res = await testApp().request.post('/api/schedule').set('Accept', 'text/csv').buffer(true).parse(binary).send(request());
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/csv; charset=utf-8/);
    expect(res.headers['content-disposition']).to.equal('attachment; filename="roster.csv"');
    expect(res.headers.vary).to.match(/Accept/);
    const raw = bytes(res);
    expect([...raw.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const text = raw.toString('utf8');
    expect(text.split('\r\n').length).to.be.greaterThan(2);
    expect(text.replace(/\r\n/g, '')).to.not.match(/\n/);
    expect(text.endsWith('\r\n')).to.equal(true);
    const [header, ...rows] = readCsv(raw);
    expect(header).to.deep.equal(HEADER);
    const names: Record<string, string> = Object.fromEntries(request().volunteers.map((v: Json) => [v.id, v.name]));
    const guard = (s: string): string => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
    const expected = json.roster.map((r: Json) => [
      r.shift_id,
      wallClock(r.start, 'America/Chicago'),
      wallClock(r.end, 'America/Chicago'),
      r.group ?? '',
      r.volunteer_id,
      guard(names[r.volunteer_id]!),
      r.locked ? 'yes' : 'no',
    ]);
    const shiftsById = new Map(request().unassigned_shifts.map((s: Json) => [s.id, s]));
    for (const c of json.conflicts) {
      const s = shiftsById.get(c.shift_id) as Json;
      // The shift's wall-clock times, as the request wrote them in Chicago.
      const at = (local: string): string => {
        const [d, t] = local.split('T');
        const [y, m, day] = d!.split('-').map(Number);
        const [h, min] = t!.split(':').map(Number);
        return `${m}/${day}/${y} ${h! % 12 === 0 ? 12 : h! % 12}:${String(min).padStart(2, '0')} ${h! < 12 ? 'AM' : 'PM'}`;
      };
      for (let i = 0; i < c.missing; i++) expected.push([c.shift_id, at(s.start), at(s.end), c.group, '', 'UNFILLED', 'no']);
    }
    expect(rows).to.deep.equal(expected);
    // The spot checks a person would make.
    expect(rows[0]!.slice(0, 3)).to.deep.equal(['sat-am', '6/6/2026 7:00 AM', '6/6/2026 11:00 AM']);
    expect(rows.find((r) => r[4] === 'v1')![5]).to.equal('Ruiz, Ana "Annie"');
    expect(rows.find((r) => r[4] === 'v1')![6]).to.equal('yes');
    expect(rows.find((r) => r[4] === 'v2')?.[5]).to.equal(`'=HYPERLINK("http://evil.example","click")`);
    expect(rows.some((r) => r[5] === 'UNFILLED' && r[3] === 'medical')).to.equal(true);
    // No cell of the file starts a formula.
    for (const row of rows) for (const cell of row) expect(cell).to.not.match(/^[=+\-@\t\r]/);
  });

  it('CSV: ?timezone= overrides the request zone; a name that is not an IANA zone is a 400 naming the parameter', async () => {
    const res = await testApp().request.post('/api/schedule?timezone=UTC').set('Accept', 'text/csv').buffer(true).parse(binary).send(request());
    expect(res.status).to.equal(200);
    const [, first] = readCsv(bytes(res));
    expect(first!.slice(1, 3)).to.deep.equal([wallClock(json.roster[0].start, 'UTC'), wallClock(json.roster[0].end, 'UTC')]);
    expect(first![1]).to.equal('6/6/2026 12:00 PM');
    const bad = await testApp().request.post('/api/schedule?timezone=Chicago').set('Accept', 'text/csv').send(request());
    expect(bad.status).to.equal(400);
    expect(bad.headers['content-type']).to.match(/application\/problem\+json/);
    expect(bad.body.errors[0].message).to.match(/^query parameter timezone 'Chicago' is not an IANA time zone name/);
    expect(bad.body.errors[0].message).to.include('America/Chicago');
  });

  it('iCalendar: one VEVENT per roster entry with a stable UID, the summary, and UTC times equal to the JSON result', async () => {
    const res = await testApp().request.post('/api/schedule').set('Accept', 'text/calendar').buffer(true).parse(binary).send(request());
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).to.equal('attachment; filename="roster.ics"');
    const text = bytes(res).toString('utf8');
    expect(text.startsWith('BEGIN:VCALENDAR')).to.equal(true);
    const found = events(text);
    expect(found.length).to.equal(json.roster.length);
    const names: Record<string, string> = Object.fromEntries(request().volunteers.map((v: Json) => [v.id, v.name]));
    json.roster.forEach((r: Json, i: number) => {
      const e = found[i]!;
      expect(e.uid).to.equal(`${r.shift_id}.${r.volunteer_id}@volunteer-scheduler`);
      expect(e.startDate.toJSDate().toISOString().replace('.000Z', 'Z')).to.equal(r.start);
      expect(e.endDate.toJSDate().toISOString().replace('.000Z', 'Z')).to.equal(r.end);
      expect(e.startDate.zone.tzid).to.equal('UTC');
      expect(e.summary).to.equal(`${r.group}: ${r.shift_id} (${names[r.volunteer_id]})`);
    });
    // Written in UTC (DTSTART:...Z), and the same UIDs on a second run.
    expect(text).to.match(/DTSTART:20260606T120000Z/);
    const again = await testApp().request.post('/api/schedule').set('Accept', 'text/calendar').buffer(true).parse(binary).send(request());
    expect(events(bytes(again).toString('utf8')).map((e) => e.uid)).to.deep.equal(found.map((e) => e.uid));
  });

  it('?volunteer_id= gives one volunteer’s calendar and rows (no UNFILLED rows); an unknown id is a 400', async () => {
    const mine = json.roster.filter((r: Json) => r.volunteer_id === 'v4');
    expect(mine.length).to.be.greaterThan(0);
    const cal = await testApp().request.post('/api/schedule?volunteer_id=v4').set('Accept', 'text/calendar').buffer(true).parse(binary).send(request());
    expect(cal.status).to.equal(200);
    expect(cal.headers['content-disposition']).to.equal('attachment; filename="roster-v4.ics"');
    expect(events(bytes(cal).toString('utf8')).map((e) => e.uid)).to.deep.equal(mine.map((r: Json) => `${r.shift_id}.v4@volunteer-scheduler`));
    const csv = await testApp().request.post('/api/schedule?volunteer_id=v4').set('Accept', 'text/csv').buffer(true).parse(binary).send(request());
    const [, ...rows] = readCsv(bytes(csv));
    expect(rows.map((r) => [r[0], r[4]])).to.deep.equal(mine.map((r: Json) => [r.shift_id, 'v4']));
    const unknown = await testApp().request.post('/api/schedule?volunteer_id=nobody').set('Accept', 'text/calendar').send(request());
    expect(unknown.status).to.equal(400);
    expect(unknown.body.errors[0].code).to.equal('unknown_volunteer');
    expect(unknown.body.errors[0].message).to.match(/volunteer_id is 'nobody'/);
  });

  it('Accept: application/json, no Accept and an Accept it cannot serve all give the JSON result, byte for byte', async () => {
    const plain = await testApp().request.post('/api/schedule').send(request());
    const asked = await testApp().request.post('/api/schedule').set('Accept', 'application/json').send(request());
    const other = await testApp().request.post('/api/schedule').set('Accept', 'text/html').send(request());
    for (const res of [plain, asked, other]) {
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.headers['content-disposition']).to.equal(undefined);
      expect(res.text).to.equal(plain.text);
    }
  });

  it('an export counts against the quota exactly as JSON does (one call each)', async () => {
    const { request: agent } = testApp();
    const remaining = (res: Response): number => Number(res.headers['ratelimit-remaining']);
    const a = await agent.post('/api/schedule').send(request());
    const b = await agent.post('/api/schedule').set('Accept', 'text/csv').send(request());
    const c = await agent.post('/api/schedule').set('Accept', 'text/calendar').send(request());
    expect(remaining(a) - remaining(b)).to.equal(1);
    expect(remaining(b) - remaining(c)).to.equal(1);
  });

  it('POST /api/schedule/csv: the example exports in Chicago give the CSV input’s own wall-clock times, and a calendar', async () => {
    const upload = (accept: string, query = ''): Promise<Response> =>
      testApp()
        .request.post(`/api/schedule/csv${query}`)
        .set('Accept', accept)
        .buffer(true)
        .parse(binary)
        .attach('volunteers', example('volunteers.csv'), 'volunteers.csv')
        .attach('shifts', example('shifts.csv'), 'shifts.csv')
        .field('timezone', 'America/Chicago');
    const res = await upload('text/csv');
    expect(res.status).to.equal(200);
    const [header, ...rows] = readCsv(bytes(res));
    expect(header).to.deep.equal(HEADER);
    // examples/shifts.csv: "Sat Breakfast,6/6/2026 7:00 AM,6/6/2026 11:00 AM".
    const breakfast = rows.filter((r) => r[0] === 'Sat Breakfast');
    expect(breakfast.length).to.be.greaterThan(0);
    for (const r of breakfast) expect(r.slice(1, 3)).to.deep.equal(['6/6/2026 7:00 AM', '6/6/2026 11:00 AM']);
    // The repeated name of the example keeps its comma, quoted.
    expect(rows.some((r) => r[5] === 'Ruiz, Ana')).to.equal(true);
    const asJson = await testApp()
      .request.post('/api/schedule/csv')
      .attach('volunteers', example('volunteers.csv'), 'volunteers.csv')
      .attach('shifts', example('shifts.csv'), 'shifts.csv')
      .field('timezone', 'America/Chicago');
    expect(rows.filter((r) => r[5] !== 'UNFILLED').length).to.equal(asJson.body.roster.length);
    expect(rows.filter((r) => r[5] === 'UNFILLED').length).to.equal(asJson.body.conflicts.reduce((n: number, c: Json) => n + Number(c.missing), 0));
    const cal = await upload('text/calendar');
    expect(events(bytes(cal).toString('utf8')).length).to.equal(asJson.body.roster.length);
    const utc = await upload('text/csv', '?timezone=UTC');
    const [, first] = readCsv(bytes(utc));
    expect(first![0]).to.equal(rows[0]![0]);
    expect(first![1]).to.equal(wallClock(asJson.body.roster[0].start, 'UTC'));
  });

  it('the OpenAPI document lists the exports and their query parameters', async () => {
    const res = await testApp().anonymous.get('/openapi.json');
    for (const path of ['/api/schedule', '/api/schedule/csv']) {
      const op = res.body.paths[path].post;
      expect(Object.keys(op.responses['200'].content)).to.deep.equal(['application/json', 'text/csv', 'text/calendar']);
      expect(op.parameters.map((p: Json) => p.name)).to.include.members(['timezone', 'volunteer_id']);
    }
  });
});
