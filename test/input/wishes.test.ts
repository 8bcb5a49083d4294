// Reading the volunteers' wishes (CONTRACT.md section 11): validation of preferred_shifts,
// avoid_shifts and min_hours (an unknown shift is a warning, a shift both preferred and avoided
// an error, min_hours above max_hours a warning, each with its pointer and id and a message
// that says what would be right), and the CSV columns Preferred Shifts, Avoid Shifts and Min
// Hours (IDs or names, ";"-separated; bad cells with file, row and column).
import { expect } from 'chai';
import { readCsvRequest } from '../../src/input/csv.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { validateScheduleRequest } from '../../src/input/validate-request.js';
import { lockWarnings } from '../../src/rules/lock-warnings.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { schemas, testApp } from '../helpers/app.js';
import { shift, solve, volunteer, type Json } from '../helpers/engine.js';
import { checkSchedule } from '../helpers/schedule-checker.js';

const request = (ana: Json): Json => ({
  volunteers: [{ ...volunteer('ana', 'k', 8), ...ana }],
  unassigned_shifts: [shift('sat-am', 8, 12, { k: 1 }), shift('sat-pm', 12, 16, { k: 1 })],
});
const validate = (body: Json) => validateScheduleRequest(body, schemas(), lockWarnings);

describe('validation of wishes', () => {
  it('accepts preferred_shifts, avoid_shifts and min_hours', () => {
    const result = validate(request({ preferred_shifts: ['sat-am'], avoid_shifts: ['sat-pm'], min_hours: 4 }));
    expect(result.valid).to.equal(true);
    expect(result.warnings).to.deep.equal([]);
  });

  it('warns about a shift id no shift has, with its pointer, id and the closest id', () => {
    const result = validate(request({ preferred_shifts: ['sat-pn'], avoid_shifts: ['nowhere'] }));
    expect(result.valid).to.equal(true);
    expect(result.warnings).to.deep.equal([
      {
        code: 'unknown_wished_shift',
        message:
          "avoid_shifts[0] of volunteer 'ana' names 'nowhere', which is no shift of unassigned_shifts, so it is ignored; write the id of one of the shifts.",
        pointer: '/volunteers/0/avoid_shifts/0',
        id: 'ana',
      },
      {
        code: 'unknown_wished_shift',
        message: "preferred_shifts[0] of volunteer 'ana' names 'sat-pn', which is no shift of unassigned_shifts, so it is ignored; did you mean 'sat-pm'?",
        pointer: '/volunteers/0/preferred_shifts/0',
        id: 'ana',
      },
    ]);
  });

  it('refuses a shift both preferred and avoided by one volunteer, pointing at the avoid_shifts entry', () => {
    const result = validate(request({ preferred_shifts: ['sat-pm', 'sat-am'], avoid_shifts: ['sat-am'] }));
    expect(result.valid).to.equal(false);
    expect(result.errors).to.deep.equal([
      {
        pointer: '/volunteers/0/avoid_shifts/0',
        id: 'ana',
        code: 'preferred_and_avoided',
        message: "volunteer 'ana' both prefers and avoids shift 'sat-am' (preferred_shifts[1] and avoid_shifts[0]); keep it in one of the two lists.",
      },
    ]);
  });

  it('warns when min_hours is above max_hours, saying what would be right', () => {
    const result = validate(request({ min_hours: 10 }));
    expect(result.valid).to.equal(true);
    expect(result.warnings).to.deep.equal([
      {
        code: 'min_hours_above_max_hours',
        message:
          "min_hours 10 of volunteer 'ana' is above their max_hours 8: they can give at most 8 hours, so at least 2 will count as short. Lower min_hours to 8 or less, or raise max_hours.",
        pointer: '/volunteers/0/min_hours',
        id: 'ana',
      },
    ]);
    expect(validate({ ...request({ min_hours: 10 }), volunteers: [{ ...volunteer('ana', 'k', 999), min_hours: 10 }] }).warnings).to.deep.equal([]);
  });

  it('warns about a shift listed twice in one list, and refuses values of the wrong type', () => {
    expect(validate(request({ avoid_shifts: ['sat-am', 'sat-am'] })).warnings.map((w) => [w.code, w.pointer])).to.deep.equal([
      ['duplicate_wish', '/volunteers/0/avoid_shifts/1'],
    ]);
    const bad = validate(request({ preferred_shifts: 'sat-am', avoid_shifts: [3], min_hours: -1 }));
    expect(bad.errors.map((e) => [e.pointer, e.code, e.message])).to.deep.equal([
      ['/volunteers/0/avoid_shifts/0', 'invalid_type', 'avoid_shifts[0] must be the id of a shift in unassigned_shifts, such as "sat-am", not 3.'],
      ['/volunteers/0/min_hours', 'out_of_range', 'min_hours must be a number of hours from 0 to 100000, such as 6 (a target, never a limit), not -1.'],
      [
        '/volunteers/0/preferred_shifts',
        'invalid_type',
        'preferred_shifts must be an array of shift ids such as ["sat-am", "sun-am"], not a string ("sat-am").',
      ],
    ]);
  });

  it('normalizes wishes to shift indexes, each once, unknown ids dropped', () => {
    const problem = normalizeRequest(request({ preferred_shifts: ['sat-pm', 'x', 'sat-am', 'sat-pm'], min_hours: 3 }) as never);
    expect(problem.volunteers[0]).to.deep.include({ preferred: [0, 1], avoided: [], minHours: 3 });
  });
});

describe('CSV columns Preferred Shifts, Avoid Shifts and Min Hours', () => {
  const SHIFTS = Buffer.from(
    'ID,Name,Start,End,Groups\nsat-am,Saturday morning,6/6/2026 8:00 AM,6/6/2026 12:00 PM,k:1\nsat-pm,Saturday afternoon,6/6/2026 12:00 PM,6/6/2026 4:00 PM,k:1\n',
  );

  it('reads examples/volunteers-wishes.csv, whose schedule the checker accepts', async () => {
    const read = readCsvRequest(
      readFileSync(join(packageRoot, 'examples', 'volunteers-wishes.csv')),
      readFileSync(join(packageRoot, 'examples', 'shifts.csv')),
      'America/Chicago',
    );
    if (!read.ok) throw new Error('the example must read');
    expect(read.warnings.map((w) => w.code)).to.deep.equal(['csv_name_repeated']);
    const wishful = read.request.volunteers.filter((v) => v.preferred_shifts || v.avoid_shifts || v.min_hours !== undefined);
    expect(wishful.length).to.be.greaterThan(5);
    const { result } = await solve(read.request);
    expect(checkSchedule(read.request, result)).to.deep.equal([]);
  });

  it('reads shift IDs or names separated by ";" and a number of hours', () => {
    const v = Buffer.from('Name,Group,Max Hours,Preferred Shifts,Avoid Shifts,Min Hours\nAna,k,8,Saturday morning; ,sat-pm,4.5\nBen,k,8,,,\n');
    const r = readCsvRequest(v, SHIFTS, 'UTC');
    expect(r.ok).to.equal(true);
    if (!r.ok) return;
    expect(r.request.volunteers).to.deep.equal([
      { id: 'Ana', name: 'Ana', group: 'k', max_hours: 8, min_hours: 4.5, preferred_shifts: ['sat-am'], avoid_shifts: ['sat-pm'] },
      { id: 'Ben', name: 'Ben', group: 'k', max_hours: 8 },
    ]);
  });

  it('reports a bad Min Hours and a name two shifts share with file, row and column', () => {
    const shifts = Buffer.from('Name,Start,End,Groups\nSat,6/6/2026 8:00 AM,6/6/2026 12:00 PM,k:1\nSat,6/7/2026 8:00 AM,6/7/2026 12:00 PM,k:1\n');
    const v = Buffer.from('Name,Group,Max Hours,Avoid Shifts,Min Hours\nAna,k,8,Sat,-2\n');
    const r = readCsvRequest(v, shifts, 'UTC');
    expect(r.ok).to.equal(false);
    if (r.ok || !('errors' in r)) return;
    expect(r.errors).to.deep.equal([
      {
        file: 'volunteers',
        row: 2,
        column: 'Min Hours',
        id: 'Ana',
        message: "Min Hours '-2' is not a number of hours from 0 to 100000, such as 6 (a target, never a limit).",
      },
      {
        file: 'volunteers',
        row: 2,
        column: 'Avoid Shifts',
        id: 'Ana',
        message: "Avoid Shifts names 'Sat', the Name of 2 shifts ('Sat', 'Sat #2'); write the ID of the one meant.",
      },
    ]);
  });

  it('warns at the cell about an entry that names no shift, and schedules the rest (POST /api/schedule/csv)', async () => {
    const v = Buffer.from('Name,Group,Max Hours,Preferred Shifts\nAna,k,8,Sunday; sat-pm\n');
    const res = await testApp().request.post('/api/schedule/csv').attach('volunteers', v, 'v.csv').attach('shifts', SHIFTS, 's.csv');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.warnings).to.deep.equal([
      {
        code: 'unknown_wished_shift',
        message:
          "preferred_shifts[0] of volunteer 'Ana' names 'Sunday', which is no shift of unassigned_shifts, so it is ignored; write the id of one of the shifts.",
        pointer: '/volunteers/0/preferred_shifts/0',
        id: 'Ana',
        file: 'volunteers',
        row: 2,
        column: 'Preferred Shifts',
      },
    ]);
    expect(res.body.volunteers.Ana.preferred_assigned).to.equal(1);
  });
});
