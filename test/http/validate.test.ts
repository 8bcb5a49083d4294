import { expect } from 'chai';
import { fixture, testApp } from '../helpers/app.js';
import { expectSchema } from '../helpers/schema-assert.js';

type Req = Record<string, any>;
const base = (): Req => fixture('requests/festival-small.json');

async function validate(body: unknown): Promise<Req> {
  const { request } = testApp();
  const res = await request.post('/api/validate').set('Content-Type', 'application/json').send(JSON.stringify(body));
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.headers['content-type']).to.match(/^application\/json/);
  expectSchema('validation-result', res.body);
  return res.body as Req;
}

interface Case {
  rule: string;
  bad: (r: Req) => void;
  pointer: string;
  code: string;
  message: string | RegExp;
  /** A change near the bad one that is valid. */
  good?: (r: Req) => void;
}

const long = (n: number): string => 'x'.repeat(n);

const cases: Case[] = [
  // Volunteer
  {
    rule: 'volunteer id is required',
    bad: (r) => delete r.volunteers[0].id,
    pointer: '/volunteers/0/id',
    code: 'required',
    message: 'id is required in volunteers[0]: a non-empty string such as "v17".',
  },
  { rule: 'volunteer id is not empty', bad: (r) => (r.volunteers[0].id = ''), pointer: '/volunteers/0/id', code: 'empty_string', message: /must not be empty/ },
  {
    rule: 'volunteer id is not blank',
    bad: (r) => (r.volunteers[0].id = '   '),
    pointer: '/volunteers/0/id',
    code: 'empty_string',
    message: /must not be empty or blank/,
  },
  {
    rule: 'volunteer id is at most 200 characters once trimmed',
    bad: (r) => (r.volunteers[0].id = long(201)),
    pointer: '/volunteers/0/id',
    code: 'too_long',
    message: 'id must be 1 to 200 characters, not counting spaces at either end; found 201.',
    good: (r) => {
      r.volunteers[0].id = `  ${long(200)}  `;
      r.current_assignments = [];
    },
  },
  {
    rule: 'volunteer id is a string',
    bad: (r) => (r.volunteers[0].id = 5),
    pointer: '/volunteers/0/id',
    code: 'invalid_type',
    message: 'id must be a non-empty string such as "v17", not 5.',
  },
  {
    rule: 'volunteer ids are unique',
    bad: (r) => (r.volunteers[1].id = 'v1'),
    pointer: '/volunteers/1/id',
    code: 'duplicate_id',
    message: "id 'v1' is already used by volunteers[0]; each volunteer needs its own id.",
    good: (r) => (r.volunteers[1].id = 'v1b'),
  },
  {
    rule: 'volunteer name is a string',
    bad: (r) => (r.volunteers[0].name = 7),
    pointer: '/volunteers/0/name',
    code: 'invalid_type',
    message: /name must be a string/,
    good: (r) => delete r.volunteers[0].name,
  },
  {
    rule: 'volunteer group is required',
    bad: (r) => delete r.volunteers[2].group,
    pointer: '/volunteers/2/group',
    code: 'required',
    message: /group is required in volunteers\[2\]/,
  },
  {
    rule: 'volunteer group is not empty',
    bad: (r) => (r.volunteers[2].group = ''),
    pointer: '/volunteers/2/group',
    code: 'empty_string',
    message: /group must not be empty/,
  },
  {
    rule: 'max_hours is required',
    bad: (r) => delete r.volunteers[0].max_hours,
    pointer: '/volunteers/0/max_hours',
    code: 'required',
    message: 'max_hours is required in volunteers[0]: a number of hours from 0 to 100000, or 999 for unlimited.',
  },
  {
    rule: 'max_hours null is refused with "use 999 for unlimited"',
    bad: (r) => (r.volunteers[0].max_hours = null),
    pointer: '/volunteers/0/max_hours',
    code: 'invalid_type',
    message: 'max_hours must be a number, not null; use 999 for unlimited.',
    good: (r) => (r.volunteers[0].max_hours = 999),
  },
  {
    rule: 'max_hours is >= 0',
    bad: (r) => (r.volunteers[0].max_hours = -1),
    pointer: '/volunteers/0/max_hours',
    code: 'out_of_range',
    message: 'max_hours must be a number of hours from 0 to 100000, or 999 for unlimited, not -1.',
    good: (r) => (r.volunteers[3].max_hours = 0),
  },
  {
    rule: 'max_hours is a number',
    bad: (r) => (r.volunteers[0].max_hours = '8'),
    pointer: '/volunteers/0/max_hours',
    code: 'invalid_type',
    message: /not a string \("8"\)/,
    good: (r) => (r.volunteers[0].max_hours = 7.5),
  },
  {
    rule: 'a volunteer is an object',
    bad: (r) => (r.volunteers[1] = 'Ben'),
    pointer: '/volunteers/1',
    code: 'invalid_type',
    message: /volunteers\[1\] must be an object such as/,
  },
  // Shift
  {
    rule: 'shift id is required',
    bad: (r) => delete r.unassigned_shifts[1].id,
    pointer: '/unassigned_shifts/1/id',
    code: 'required',
    message: /id is required in unassigned_shifts\[1\]/,
  },
  {
    rule: 'shift ids are unique',
    bad: (r) => (r.unassigned_shifts[2].id = 'sat-pm'),
    pointer: '/unassigned_shifts/2/id',
    code: 'duplicate_id',
    message: "id 'sat-pm' is already used by unassigned_shifts[1]; each shift needs its own id.",
  },
  {
    rule: 'a start with no time zone, in a request without timezone, is refused without inviting a Z',
    bad: (r) => (r.unassigned_shifts[1].start = '2026-06-06T12:00:00'),
    pointer: '/unassigned_shifts/1/start',
    code: 'not_utc',
    message:
      'start \'2026-06-06T12:00:00\' has no time zone. Add "timezone": "America/Chicago" (the IANA zone the times are in) at the top of the request to read it as a local time, or write it with its UTC offset, e.g. 2026-06-06T12:00:00-05:00 for 5 hours behind UTC.',
    good: (r) => {
      r.timezone = 'Europe/Lisbon';
      r.unassigned_shifts[1].start = '2026-06-06T13:00';
    },
  },
  {
    rule: 'an offset is accepted and converted; an offset without its colon is refused',
    bad: (r) => (r.unassigned_shifts[0].start = '2026-06-06T10:00:00+0200'),
    pointer: '/unassigned_shifts/0/start',
    code: 'invalid_datetime',
    message: "start '2026-06-06T10:00:00+0200' has the offset +0200; write offsets with a colon, +02:00, as in 2026-06-01T08:00:00-05:00.",
    good: (r) => (r.unassigned_shifts[0].start = '2026-06-06T10:00:00+02:00'),
  },
  {
    rule: 'a local time the clocks skip is refused',
    bad: (r) => {
      r.timezone = 'America/Chicago';
      r.unassigned_shifts[0].start = '2026-03-08T02:30';
      r.unassigned_shifts[0].end = '2026-03-08T06:00';
    },
    pointer: '/unassigned_shifts/0/start',
    code: 'nonexistent_local_time',
    message:
      "start '2026-03-08T02:30' does not exist in America/Chicago: the clocks skip that hour (daylight saving time); write the time after the change, or with its UTC offset.",
    good: (r) => {
      r.timezone = 'America/Chicago';
      r.unassigned_shifts[0].start = '2026-03-08T03:30';
      r.unassigned_shifts[0].end = '2026-03-08T06:00';
    },
  },
  {
    rule: 'the request timezone is an IANA name',
    bad: (r) => (r.timezone = 'America/Chicgo'),
    pointer: '/timezone',
    code: 'invalid_timezone',
    message: /^timezone 'America\/Chicgo' is not an IANA time zone name; .*did you mean 'America\/Chicago'/,
    good: (r) => (r.timezone = 'America/Chicago'),
  },
  {
    rule: "a group asked for that differs from the volunteers' only in case is an error naming both",
    bad: (r) => (r.unassigned_shifts[0].required_groups = { Kitchen: 2 }),
    pointer: '/unassigned_shifts/0/required_groups/Kitchen',
    code: 'group_name_mismatch',
    message:
      "Shift 'sat-am' asks for group 'Kitchen', which no volunteer has; volunteers have 'kitchen', which differs only in upper/lower case or spaces. Write 'kitchen' here (or rename the volunteers' group) so these slots can be filled.",
    good: (r) => (r.unassigned_shifts[0].required_groups = { kitchen: 2 }),
  },
  {
    rule: 'a group asked for that differs only in surrounding spaces is an error',
    bad: (r) => (r.unassigned_shifts[2].required_groups = { ' bar ': 2 }),
    pointer: '/unassigned_shifts/2/required_groups/ bar ',
    code: 'group_name_mismatch',
    message: /^Shift 'sat-night' asks for group ' bar ', which no volunteer has; volunteers have 'bar'/,
  },
  {
    rule: 'a stray spelling of an asked-for group among the volunteers is an error at the volunteer',
    bad: (r) => (r.volunteers[1].group = 'KITCHEN '),
    pointer: '/volunteers/1/group',
    code: 'group_name_mismatch',
    message:
      "Volunteer 'v2' has group 'KITCHEN ', which no shift asks for; shifts ask for 'kitchen', which differs only in upper/lower case or spaces. Write 'kitchen' so this volunteer can fill its slots.",
  },
  {
    rule: 'a time with no zone under rules.timezone alone says that rules.timezone only counts days',
    bad: (r) => {
      r.rules = { timezone: 'America/Chicago' };
      r.unassigned_shifts[0].start = '2026-06-06T03:00';
    },
    pointer: '/unassigned_shifts/0/start',
    code: 'not_utc',
    message: / \(rules\.timezone only sets the days max_shifts_per_day counts; the top-level timezone sets how times are read\.\)$/,
  },
  {
    rule: 'a one-digit hour is refused with the two-digit form',
    bad: (r) => (r.unassigned_shifts[0].start = '2026-06-06T8:00'),
    pointer: '/unassigned_shifts/0/start',
    code: 'invalid_datetime',
    message: "start '2026-06-06T8:00' must write the month, day and hour with two digits, as in 2026-06-06T08:00.",
  },
  {
    rule: 'a zone abbreviation inside a date-time is refused with the timezone field named',
    bad: (r) => (r.unassigned_shifts[0].start = '2026-06-06T08:00:00 CDT'),
    pointer: '/unassigned_shifts/0/start',
    code: 'invalid_datetime',
    message:
      'start \'2026-06-06T08:00:00 CDT\' names its zone in words, which a date-time cannot carry; remove \'CDT\' and put "timezone": "America/Chicago" (the IANA zone) at the top of the request, or write the UTC offset, such as 2026-06-06T08:00:00-05:00.',
  },
  {
    rule: "a volunteer's name in place of its id is named as such",
    bad: (r) => (r.current_assignments = [{ shift_id: 'sat-am', volunteer_id: 'Ana Ruiz' }]),
    pointer: '/current_assignments/0/volunteer_id',
    code: 'unknown_volunteer',
    message: "volunteer_id 'Ana Ruiz' is the name of volunteer 'v1'; current assignments name volunteers by id: write 'v1'.",
    good: (r) => (r.current_assignments = [{ shift_id: 'sat-am', volunteer_id: 'v1' }]),
  },
  {
    rule: 'a date-time of another form is refused',
    bad: (r) => (r.unassigned_shifts[0].start = '06/06/2026 8:00 AM'),
    pointer: '/unassigned_shifts/0/start',
    code: 'invalid_datetime',
    message:
      "start must be an ISO 8601 date-time, YYYY-MM-DDTHH:MM[:SS[.fff]] with Z or an offset such as -05:00, e.g. 2026-06-01T08:00:00Z (found '06/06/2026 8:00 AM').",
  },
  {
    rule: 'start is a string',
    bad: (r) => (r.unassigned_shifts[0].start = 1780732800),
    pointer: '/unassigned_shifts/0/start',
    code: 'invalid_type',
    message: /start must be a date-time such as "2026-06-01T08:00:00Z" or "2026-06-01T03:00:00-05:00", not 1780732800/,
  },
  {
    rule: 'a date that does not exist is refused',
    bad: (r) => (r.unassigned_shifts[0].end = '2026-02-30T07:00:00Z'),
    pointer: '/unassigned_shifts/0/end',
    code: 'invalid_date',
    message: "end '2026-02-30T07:00:00Z' is not a real date-time: February 2026 has 28 days.",
  },
  {
    rule: 'end is after start',
    bad: (r) => (r.unassigned_shifts[0].end = r.unassigned_shifts[0].start),
    pointer: '/unassigned_shifts/0/end',
    code: 'end_not_after_start',
    message: /^end \(2026-06-06T08:00:00Z\) must be after start \(2026-06-06T08:00:00Z\)/,
    good: (r) => (r.unassigned_shifts[0].end = '2026-06-06T08:00:01Z'),
  },
  {
    rule: 'end is required',
    bad: (r) => delete r.unassigned_shifts[0].end,
    pointer: '/unassigned_shifts/0/end',
    code: 'required',
    message: /end is required in unassigned_shifts\[0\]: a date-time such as/,
  },
  {
    rule: 'required_groups as a string is refused',
    bad: (r) => (r.unassigned_shifts[0].required_groups = 'kitchen:2'),
    pointer: '/unassigned_shifts/0/required_groups',
    code: 'invalid_type',
    message: 'required_groups must be an object such as {"kitchen": 2}, not a string ("kitchen:2").',
  },
  {
    rule: 'required_groups as an array is refused',
    bad: (r) => (r.unassigned_shifts[0].required_groups = [{ kitchen: 2 }]),
    pointer: '/unassigned_shifts/0/required_groups',
    code: 'invalid_type',
    message: 'required_groups must be an object such as {"kitchen": 2}, not an array.',
  },
  {
    rule: 'required_groups null is refused',
    bad: (r) => (r.unassigned_shifts[0].required_groups = null),
    pointer: '/unassigned_shifts/0/required_groups',
    code: 'invalid_type',
    message: 'required_groups must be an object such as {"kitchen": 2}, not null.',
  },
  {
    rule: 'a headcount is a whole number',
    bad: (r) => (r.unassigned_shifts[0].required_groups.kitchen = 2.5),
    pointer: '/unassigned_shifts/0/required_groups/kitchen',
    code: 'not_integer',
    message: "the headcount of group 'kitchen' must be a whole number from 0 to 100000, such as 2, not 2.5.",
    good: (r) => (r.unassigned_shifts[0].required_groups.kitchen = 2.0),
  },
  {
    rule: 'a headcount is >= 0',
    bad: (r) => (r.unassigned_shifts[0].required_groups.kitchen = -1),
    pointer: '/unassigned_shifts/0/required_groups/kitchen',
    code: 'out_of_range',
    message: /not -1\.$/,
    good: (r) => (r.unassigned_shifts[0].required_groups.bar = 0),
  },
  {
    rule: 'a headcount is a number',
    bad: (r) => (r.unassigned_shifts[0].required_groups.kitchen = '2'),
    pointer: '/unassigned_shifts/0/required_groups/kitchen',
    code: 'invalid_type',
    message: /not a string \("2"\)/,
  },
  {
    rule: 'a group name is not empty',
    bad: (r) => (r.unassigned_shifts[0].required_groups[''] = 1),
    pointer: '/unassigned_shifts/0/required_groups/',
    code: 'empty_string',
    message: /group names in required_groups must not be empty/,
  },
  {
    rule: 'a group name with / and ~ is pointed at with RFC 6901 escapes',
    bad: (r) => (r.unassigned_shifts[0].required_groups['a/b~c'] = 'x'),
    pointer: '/unassigned_shifts/0/required_groups/a~1b~0c',
    code: 'invalid_type',
    message: /the headcount of group 'a\/b~c'/,
  },
  // Current assignments
  {
    rule: 'a current assignment has shift_id',
    bad: (r) => delete r.current_assignments[0].shift_id,
    pointer: '/current_assignments/0/shift_id',
    code: 'required',
    message: 'shift_id is required in current_assignments[0]: the id of a shift in unassigned_shifts.',
  },
  {
    rule: 'a current assignment has volunteer_id',
    bad: (r) => delete r.current_assignments[0].volunteer_id,
    pointer: '/current_assignments/0/volunteer_id',
    code: 'required',
    message: /volunteer_id is required/,
  },
  {
    rule: 'shift_id names a shift',
    bad: (r) => (r.current_assignments[0].shift_id = 'sat-amm'),
    pointer: '/current_assignments/0/shift_id',
    code: 'unknown_shift',
    message: "shift_id 'sat-amm' names no shift in unassigned_shifts; did you mean 'sat-am'?",
  },
  {
    rule: 'volunteer_id names a volunteer',
    bad: (r) => (r.current_assignments[0].volunteer_id = 'zz-top'),
    pointer: '/current_assignments/0/volunteer_id',
    code: 'unknown_volunteer',
    message: "volunteer_id 'zz-top' names no volunteer in volunteers.",
  },
  {
    rule: 'current_assignments is an array',
    bad: (r) => (r.current_assignments = { shift_id: 'sat-am', volunteer_id: 'v1' }),
    pointer: '/current_assignments',
    code: 'invalid_type',
    message: /current_assignments must be an array/,
    good: (r) => delete r.current_assignments,
  },
  // Version 2.2: availability windows
  {
    rule: 'a window ends after it starts, pointed at its end',
    bad: (r) =>
      (r.volunteers[3].available = [
        { start: '2026-06-06T08:00:00Z', end: '2026-06-06T20:00:00Z' },
        { start: '2026-06-06T22:00:00Z', end: '2026-06-06T21:00:00Z' },
      ]),
    pointer: '/volunteers/3/available/1/end',
    code: 'end_not_after_start',
    message:
      "available[1].end (2026-06-06T21:00:00Z) must be after available[1].start (2026-06-06T22:00:00Z); a window that crosses midnight ends on the next day's date.",
    good: (r) =>
      (r.volunteers[3].available = [
        { start: '2026-06-06T08:00:00Z', end: '2026-06-06T20:00:00Z' },
        { start: '2026-06-06T22:00:00Z', end: '2026-06-07T02:00:00Z' },
      ]),
  },
  {
    rule: 'an unavailable window of zero length is refused',
    bad: (r) => (r.volunteers[0].unavailable = [{ start: '2026-06-07T00:00:00Z', end: '2026-06-07T00:00:00Z' }]),
    pointer: '/volunteers/0/unavailable/0/end',
    code: 'end_not_after_start',
    message: /^unavailable\[0\]\.end \(2026-06-07T00:00:00Z\) must be after unavailable\[0\]\.start \(2026-06-07T00:00:00Z\)/,
    good: (r) => (r.volunteers[0].unavailable = [{ start: '2026-06-07T00:00:00Z', end: '2026-06-08T00:00:00Z' }]),
  },
  {
    rule: 'a window start with no time zone is refused with the shift times message',
    bad: (r) => (r.volunteers[3].unavailable = [{ start: '2026-06-06T08:00:00', end: '2026-06-06T20:00:00Z' }]),
    pointer: '/volunteers/3/unavailable/0/start',
    code: 'not_utc',
    message:
      'unavailable[0].start \'2026-06-06T08:00:00\' has no time zone. Add "timezone": "America/Chicago" (the IANA zone the times are in) at the top of the request to read it as a local time, or write it with its UTC offset, e.g. 2026-06-06T08:00:00-05:00 for 5 hours behind UTC.',
    good: (r) => (r.volunteers[3].unavailable = [{ start: '2026-06-06T08:00Z', end: '2026-06-06T20:00:00.500Z' }]),
  },
  {
    rule: 'a window whose end, after its offset, is not after its start is refused',
    bad: (r) => (r.volunteers[1].available = [{ start: '2026-06-06T08:00:00Z', end: '2026-06-06T09:00:00+02:00' }]),
    pointer: '/volunteers/1/available/0/end',
    code: 'end_not_after_start',
    message: /^available\[0\]\.end \(2026-06-06T09:00:00\+02:00\) must be after available\[0\]\.start/,
    good: (r) => (r.volunteers[1].available = [{ start: '2026-06-06T08:00:00Z', end: '2026-06-06T20:00:00-05:00' }]),
  },
  {
    rule: 'a window date that does not exist is refused',
    bad: (r) => (r.volunteers[3].available = [{ start: '2026-02-27T08:00:00Z', end: '2026-02-30T07:00:00Z' }]),
    pointer: '/volunteers/3/available/0/end',
    code: 'invalid_date',
    message: "available[0].end '2026-02-30T07:00:00Z' is not a real date-time: February 2026 has 28 days.",
  },
  {
    rule: 'a window is an object',
    bad: (r) => (r.volunteers[3].available = ['2026-06-06T08:00:00Z/2026-06-06T20:00:00Z']),
    pointer: '/volunteers/3/available/0',
    code: 'invalid_type',
    message:
      'available[0] must be an object such as {"start": "2026-06-06T08:00:00Z", "end": "2026-06-06T20:00:00Z"}, not a string ("2026-06-06T08:00:00Z/2026-06-06T20:00:00...").',
  },
  {
    rule: 'a window has an end',
    bad: (r) => (r.volunteers[3].available = [{ start: '2026-06-06T08:00:00Z' }]),
    pointer: '/volunteers/3/available/0/end',
    code: 'required',
    message: 'end is required in available[0]: a date-time such as "2026-06-06T20:00:00Z" or "2026-06-06T15:00:00-05:00".',
  },
  {
    rule: 'a window start is a string',
    bad: (r) => (r.volunteers[3].available = [{ start: 1780732800, end: '2026-06-06T20:00:00Z' }]),
    pointer: '/volunteers/3/available/0/start',
    code: 'invalid_type',
    message: 'available[0].start must be a date-time such as "2026-06-06T08:00:00Z" or "2026-06-06T03:00:00-05:00", not 1780732800.',
  },
  {
    rule: 'available is an array of windows',
    bad: (r) => (r.volunteers[3].available = { start: '2026-06-06T08:00:00Z', end: '2026-06-06T20:00:00Z' }),
    pointer: '/volunteers/3/available',
    code: 'invalid_type',
    message:
      'available must be an array of time windows such as [{"start": "2026-06-06T08:00:00Z", "end": "2026-06-06T20:00:00Z"}] ([] means never; leave it out for always), not an object.',
    good: (r) => (r.volunteers[3].available = []),
  },
  // Version 2.2: additional groups
  {
    rule: 'additional_groups lists a group once, the repeat pointed at',
    bad: (r) => (r.volunteers[2].additional_groups = ['kitchen', 'bar-back', 'kitchen']),
    pointer: '/volunteers/2/additional_groups/2',
    code: 'duplicate_group',
    message: "additional_groups[2] repeats 'kitchen', already additional_groups[0]; list each group once.",
    good: (r) => (r.volunteers[2].additional_groups = ['kitchen']),
  },
  {
    rule: 'additional_groups is an array, not a comma-separated string',
    bad: (r) => (r.volunteers[2].additional_groups = 'kitchen, driver'),
    pointer: '/volunteers/2/additional_groups',
    code: 'invalid_type',
    message: 'additional_groups must be an array of group names such as ["driver", "kitchen"], not a string ("kitchen, driver").',
  },
  {
    rule: 'an additional group is not blank',
    bad: (r) => (r.volunteers[2].additional_groups = ['kitchen', ' ']),
    pointer: '/volunteers/2/additional_groups/1',
    code: 'empty_string',
    message: 'additional_groups[1] must not be empty or blank: a group name such as "driver".',
  },
  // Version 2.2: rest, daily limits, priority
  {
    rule: 'min_rest_hours is at most 48',
    bad: (r) => (r.volunteers[0].min_rest_hours = 49),
    pointer: '/volunteers/0/min_rest_hours',
    code: 'out_of_range',
    message: 'min_rest_hours must be a number of hours from 0 to 48, such as 8, not 49.',
    good: (r) => (r.volunteers[0].min_rest_hours = 48),
  },
  {
    rule: 'min_rest_hours is not negative',
    bad: (r) => (r.volunteers[0].min_rest_hours = -0.5),
    pointer: '/volunteers/0/min_rest_hours',
    code: 'out_of_range',
    message: 'min_rest_hours must be a number of hours from 0 to 48, such as 8, not -0.5.',
    good: (r) => (r.volunteers[0].min_rest_hours = 0),
  },
  {
    rule: 'rules.min_rest_hours is from 0 to 48',
    bad: (r) => (r.rules = { min_rest_hours: 72 }),
    pointer: '/rules/min_rest_hours',
    code: 'out_of_range',
    message: 'rules.min_rest_hours must be a number of hours from 0 to 48, such as 8, not 72.',
    good: (r) => (r.rules = { min_rest_hours: 10.5 }),
  },
  {
    rule: 'max_shifts_per_day is at least 1',
    bad: (r) => (r.volunteers[1].max_shifts_per_day = 0),
    pointer: '/volunteers/1/max_shifts_per_day',
    code: 'out_of_range',
    message: 'max_shifts_per_day must be a whole number of shifts from 1 to 100000, such as 2, not 0.',
    good: (r) => (r.volunteers[1].max_shifts_per_day = 1),
  },
  {
    rule: 'max_shifts_per_day is a whole number',
    bad: (r) => (r.volunteers[1].max_shifts_per_day = 1.5),
    pointer: '/volunteers/1/max_shifts_per_day',
    code: 'not_integer',
    message: 'max_shifts_per_day must be a whole number of shifts from 1 to 100000, such as 2, not 1.5.',
  },
  {
    rule: 'rules.max_shifts_per_day is a number',
    bad: (r) => (r.rules = { max_shifts_per_day: '2' }),
    pointer: '/rules/max_shifts_per_day',
    code: 'invalid_type',
    message: 'rules.max_shifts_per_day must be a whole number of shifts from 1 to 100000, such as 2, not a string ("2").',
    good: (r) => (r.rules = { max_shifts_per_day: 2 }),
  },
  {
    rule: 'priority is at most 5',
    bad: (r) => (r.unassigned_shifts[1].priority = 6),
    pointer: '/unassigned_shifts/1/priority',
    code: 'out_of_range',
    message: 'priority must be a whole number from 1 to 5 (5 is filled first; 1, the default, last), such as 3, not 6.',
    good: (r) => (r.unassigned_shifts[1].priority = 5),
  },
  {
    rule: 'priority is at least 1',
    bad: (r) => (r.unassigned_shifts[1].priority = 0),
    pointer: '/unassigned_shifts/1/priority',
    code: 'out_of_range',
    message: /^priority must be a whole number from 1 to 5 .*, not 0\.$/,
    good: (r) => (r.unassigned_shifts[1].priority = 1),
  },
  {
    rule: 'priority is a whole number',
    bad: (r) => (r.unassigned_shifts[0].priority = 2.5),
    pointer: '/unassigned_shifts/0/priority',
    code: 'not_integer',
    message: /^priority must be a whole number from 1 to 5 .*, not 2\.5\.$/,
  },
  // Version 2.2: rules
  {
    rule: 'rules.timezone is an IANA zone, with the closest name',
    bad: (r) => (r.rules = { timezone: 'America/Chicgo' }),
    pointer: '/rules/timezone',
    code: 'invalid_timezone',
    message:
      "rules.timezone 'America/Chicgo' is not an IANA time zone name; use one such as America/Chicago, Europe/Paris or UTC (the default); did you mean 'America/Chicago'?",
    good: (r) => (r.rules = { timezone: 'UTC' }),
  },
  {
    rule: 'rules.timezone is a zone name, not an offset',
    bad: (r) => (r.rules = { timezone: '+02:00' }),
    pointer: '/rules/timezone',
    code: 'invalid_timezone',
    message: "rules.timezone '+02:00' is not an IANA time zone name; use one such as America/Chicago, Europe/Paris or UTC (the default).",
    good: (r) => (r.rules = { timezone: 'Etc/UTC', min_rest_hours: 0, max_shifts_per_day: 3 }),
  },
  {
    rule: 'rules.timezone is not empty',
    bad: (r) => (r.rules = { timezone: '' }),
    pointer: '/rules/timezone',
    code: 'empty_string',
    message: 'rules.timezone must not be empty: an IANA time zone name such as "America/Chicago".',
    good: (r) => (r.rules = { timezone: 'America/Chicago' }),
  },
  {
    rule: 'rules is an object',
    bad: (r) => (r.rules = [{ min_rest_hours: 8 }]),
    pointer: '/rules',
    code: 'invalid_type',
    message: 'rules must be an object such as {"min_rest_hours": 8, "max_shifts_per_day": 2, "timezone": "America/Chicago"}, not an array.',
    good: (r) => (r.rules = {}),
  },
  // Request
  {
    rule: 'volunteers is required',
    bad: (r) => delete r.volunteers,
    pointer: '/volunteers',
    code: 'required',
    message: /^volunteers is required: an array of volunteers/,
  },
  {
    rule: 'unassigned_shifts is required',
    bad: (r) => delete r.unassigned_shifts,
    pointer: '/unassigned_shifts',
    code: 'required',
    message: /^unassigned_shifts is required: an array of shifts/,
    good: (r) => {
      r.unassigned_shifts = [];
      delete r.current_assignments;
    },
  },
  {
    rule: 'volunteers is an array',
    bad: (r) => (r.volunteers = { v1: {} }),
    pointer: '/volunteers',
    code: 'invalid_type',
    message: /volunteers must be an array of volunteers such as .*, not an object\./,
  },
];

describe('POST /api/validate', () => {
  it('accepts the fixture payload with a summary', async () => {
    const body = await validate(base());
    expect(body).to.deep.equal({ valid: true, errors: [], warnings: [], summary: { volunteers: 4, shifts: 3, slots: 6, groups: 2, locked: 1 } });
  });

  for (const c of cases) {
    it(`rule: ${c.rule}`, async () => {
      const bad = base();
      c.bad(bad);
      const body = await validate(bad);
      expect(body.valid).to.equal(false);
      const entry = body.errors.find((e: Req) => e.pointer === c.pointer);
      expect(entry, JSON.stringify(body.errors)).to.not.equal(undefined);
      expect(entry.code).to.equal(c.code);
      if (typeof c.message === 'string') expect(entry.message).to.equal(c.message);
      else expect(entry.message).to.match(c.message);
      if (c.good) {
        const good = base();
        c.good(good);
        const ok = await validate(good);
        expect(ok.errors, JSON.stringify(ok.errors)).to.deep.equal([]);
        expect(ok.valid).to.equal(true);
      }
    });
  }

  it("reports the interface's three typical causes at once, each with its own pointer", async () => {
    const r = base();
    r.unassigned_shifts[0].start = '2026-06-06T08:00:00';
    r.unassigned_shifts[1].required_groups = 'kitchen:1, bar:1';
    r.volunteers[3].max_hours = null;
    const body = await validate(r);
    expect(body.errors.map((e: Req) => [e.pointer, e.code])).to.deep.equal([
      ['/unassigned_shifts/0/start', 'not_utc'],
      ['/unassigned_shifts/1/required_groups', 'invalid_type'],
      ['/volunteers/3/max_hours', 'invalid_type'],
    ]);
  });

  it('reports every error, schema and semantic, in document order', async () => {
    const r = base();
    r.volunteers[1].id = 'v1';
    r.volunteers[2].max_hours = -3;
    r.unassigned_shifts[2].end = '2026-06-06T21:00:00Z';
    r.current_assignments.push({ shift_id: 'nope', volunteer_id: 'v3' }, {});
    const body = await validate(r);
    expect(body.errors.map((e: Req) => e.pointer)).to.deep.equal([
      '/current_assignments/1/shift_id',
      '/current_assignments/2/shift_id',
      '/current_assignments/2/volunteer_id',
      '/unassigned_shifts/2/end',
      '/volunteers/1/id',
      '/volunteers/2/max_hours',
    ]);
    expect(body.summary).to.deep.equal({ volunteers: 4, shifts: 3, slots: 6, groups: 2, locked: 2 });
  });

  it('answers 200 with valid false when the JSON body is not an object', async () => {
    for (const body of [[], 42, 'text', null]) {
      const res = await validate(body);
      expect(res.valid).to.equal(false);
      expect(res.errors).to.have.length(1);
      expect(res.errors[0].pointer).to.equal('');
      expect(res.errors[0].message).to.match(/^the request body must be a JSON object with volunteers and unassigned_shifts, not /);
    }
  });

  it('accepts an empty request and an overnight shift', async () => {
    expect((await validate({ volunteers: [], unassigned_shifts: [] })).valid).to.equal(true);
    const r = base();
    r.unassigned_shifts[2].start = '2026-06-06T23:30:00Z';
    r.unassigned_shifts[2].end = '2026-06-07T00:30:00Z';
    expect((await validate(r)).valid).to.equal(true);
  });

  it('names the volunteer or shift of every entry by its id beside the pointer', async () => {
    const r = base();
    r.volunteers[2].max_hours = -1;
    r.unassigned_shifts[1].end = r.unassigned_shifts[1].start;
    r.current_assignments = [{ shift_id: 'sat-xx', volunteer_id: 'v2' }];
    r.unassigned_shifts[0].requiredGroup = {};
    const body = await validate(r);
    expect(body.errors.map((e: Req) => [e.pointer, e.id, e.code])).to.deep.equal([
      ['/current_assignments/0/shift_id', 'sat-xx', 'unknown_shift'],
      ['/unassigned_shifts/1/end', 'sat-pm', 'end_not_after_start'],
      ['/volunteers/2/max_hours', 'v3', 'out_of_range'],
    ]);
    expect(body.warnings.map((w: Req) => [w.pointer, w.id, w.code])).to.deep.equal([['/unassigned_shifts/0/requiredGroup', 'sat-am', 'unknown_property']]);
  });

  it('reads times without a zone in the top-level timezone, and warns when rules.timezone counts days elsewhere', async () => {
    const r = base();
    r.timezone = 'America/Chicago';
    r.unassigned_shifts[0].start = '2026-06-06T03:00';
    r.unassigned_shifts[0].end = '2026-06-06T07:00';
    r.volunteers[0].unavailable = [{ start: '2026-06-07T00:00', end: '2026-06-07T16:00:00+02:00' }];
    expect(await validate(r)).to.deep.include({ valid: true, errors: [], warnings: [] });
    r.rules = { timezone: 'Europe/Paris', max_shifts_per_day: 2 };
    const body = await validate(r);
    expect(body.valid).to.equal(true);
    expect(body.warnings).to.deep.equal([
      {
        code: 'timezones_differ',
        message:
          "rules.timezone 'Europe/Paris' differs from the request's timezone 'America/Chicago': times are read in 'America/Chicago' but max_shifts_per_day counts the days of 'Europe/Paris'. Leave rules.timezone out to count the days of the request's timezone.",
        pointer: '/rules/timezone',
      },
    ]);
  });

  it('reports only the timezone, not every time it leaves unread, when the timezone is not one', async () => {
    const r = base();
    r.timezone = 'Central';
    r.unassigned_shifts[0].start = '2026-06-06T03:00';
    const body = await validate(r);
    expect(body.errors.map((e: Req) => e.code)).to.deep.equal(['invalid_timezone']);
  });

  it('warns about zone names that keep one offset all year, and about max_hours 0', async () => {
    const r = base();
    r.timezone = 'EST';
    r.rules = { timezone: 'Etc/GMT+5' };
    r.volunteers[2].max_hours = 0;
    const body = await validate(r);
    expect(body.valid).to.equal(true);
    expect(body.warnings.map((w: Req) => [w.pointer, w.code, w.message])).to.deep.equal([
      [
        '/rules/timezone',
        'fixed_offset_timezone',
        "rules.timezone 'Etc/GMT+5' keeps UTC-05:00 (Etc/GMT+5 means 5 hours behind UTC) all year, with no daylight saving time; for a place, use its IANA name, such as America/Chicago or Europe/London.",
      ],
      [
        '/rules/timezone',
        'timezones_differ',
        "rules.timezone 'Etc/GMT+5' differs from the request's timezone 'EST': times are read in 'EST' but max_shifts_per_day counts the days of 'Etc/GMT+5'. Leave rules.timezone out to count the days of the request's timezone.",
      ],
      [
        '/timezone',
        'fixed_offset_timezone',
        "timezone 'EST' keeps UTC-05:00 all year, with no daylight saving time; for a place, use its IANA name, such as America/New_York.",
      ],
      [
        '/volunteers/2/max_hours',
        'zero_max_hours',
        "Volunteer 'v3' has max_hours 0, so no shift is added for them (locked ones are kept); for no limit, write 999.",
      ],
    ]);
  });

  it('a stray case spelling in additional_groups is an error at the item, not an unused-group warning', async () => {
    const r = base();
    r.volunteers[0].additional_groups = ['Bar'];
    const body = await validate(r);
    expect(body.valid).to.equal(false);
    expect(body.errors.map((e: Req) => [e.pointer, e.id, e.code])).to.deep.equal([['/volunteers/0/additional_groups/0', 'v1', 'group_name_mismatch']]);
    expect(body.warnings).to.deep.equal([]);
  });

  it('keeps other near misses as warnings with a likely spelling', async () => {
    const r = base();
    r.unassigned_shifts[0].required_groups = { kitchens: 2 };
    delete r.current_assignments;
    const body = await validate(r);
    expect(body.valid).to.equal(true);
    expect(body.warnings.map((w: Req) => [w.code, w.message])).to.deep.equal([
      [
        'group_without_volunteers',
        "No volunteer belongs to group 'kitchens', which shift 'sat-am' requires; those slots will stay empty. Did you mean 'kitchen'?",
      ],
    ]);
  });

  describe('warnings', () => {
    it('lists unknown properties with a likely spelling, and stays valid', async () => {
      const r = base();
      r.volunteers[0].max_hour = 3;
      r.unassigned_shifts[0].requiredGroups = {};
      r.extra = true;
      const body = await validate(r);
      expect(body.valid).to.equal(true);
      expect(body.warnings).to.deep.include({
        code: 'unknown_property',
        pointer: '/volunteers/0/max_hour',
        id: 'v1',
        message: "Property 'max_hour' is not part of a volunteer and is ignored; did you mean 'max_hours'?",
      });
      expect(body.warnings).to.deep.include({
        code: 'unknown_property',
        pointer: '/unassigned_shifts/0/requiredGroups',
        id: 'sat-am',
        message: "Property 'requiredGroups' is not part of a shift and is ignored; did you mean 'required_groups'?",
      });
      expect(body.warnings).to.deep.include({
        code: 'unknown_property',
        pointer: '/extra',
        message: "Property 'extra' is not part of the request and is ignored.",
      });
    });

    it('names a group no volunteer belongs to, once, with the shifts that need it', async () => {
      const r = base();
      r.unassigned_shifts[0].required_groups.medical = 1;
      r.unassigned_shifts[2].required_groups.medical = 2;
      const body = await validate(r);
      expect(body.valid).to.equal(true);
      expect(body.warnings).to.deep.equal([
        {
          code: 'group_without_volunteers',
          pointer: '/unassigned_shifts/0/required_groups/medical',
          id: 'sat-am',
          message: "No volunteer belongs to group 'medical', which 2 shifts require (first: 'sat-am'); those slots will stay empty.",
        },
      ]);
    });

    it('warns about a shift over 24 hours and a shift that needs nobody', async () => {
      const r = base();
      r.unassigned_shifts[0].end = '2026-06-07T10:00:00Z';
      r.unassigned_shifts[1].required_groups = { kitchen: 0 };
      delete r.current_assignments;
      const body = await validate(r);
      expect(body.warnings.map((w: Req) => [w.code, w.pointer])).to.deep.equal([
        ['long_shift', '/unassigned_shifts/0'],
        ['empty_shift', '/unassigned_shifts/1/required_groups'],
      ]);
      expect(body.warnings[0].message).to.equal("Shift 'sat-am' lasts 26 hours, over 24; check its start and end.");
    });

    it('lists every rule that locked assignments break, and the repeated pair', async () => {
      const body = await validate(fixture('requests/lock-breaks.json'));
      expect(body.valid).to.equal(true);
      expect(body.summary.locked).to.equal(4);
      expect(body.warnings).to.deep.equal([
        {
          code: 'lock_max_hours_exceeded',
          pointer: '/current_assignments/1',
          id: 'v1',
          message: 'Locked assignments give Ana Ruiz (v1) 8 hours, over max_hours 6; they are kept and nothing more is added.',
        },
        {
          code: 'lock_overlap',
          pointer: '/current_assignments/1',
          id: 'v1',
          message: "Ana Ruiz (v1) is locked into 'a' (2026-06-06 08:00-12:00 UTC) and 'b' (2026-06-06 10:00-14:00 UTC), which overlap; both are kept.",
        },
        {
          code: 'lock_headcount_exceeded',
          pointer: '/current_assignments/2',
          id: 'a',
          message: "'a' has 2 locked volunteers of group 'kitchen' but requires 1; all are kept and no more of the group are added.",
        },
        {
          code: 'lock_group_not_required',
          pointer: '/current_assignments/3',
          id: 'v3',
          message: "The locked assignment of Chloe Ng (v3) to 'c' is kept, but 'c' requires no volunteer of group 'bar', so it fills no slot.",
        },
        {
          code: 'duplicate_lock',
          pointer: '/current_assignments/4',
          id: 'v1',
          message: "current_assignments[4] repeats current_assignments[0] (Ana Ruiz (v1) in 'a'); it is kept once.",
        },
      ]);
    });

    it('does not count touching locked shifts as overlapping, and 999 as a cap', async () => {
      const r = fixture('requests/lock-breaks.json') as Req;
      r.current_assignments = [
        { shift_id: 'b', volunteer_id: 'v2' },
        { shift_id: 'c', volunteer_id: 'v2' },
      ];
      r.volunteers[1].max_hours = 999;
      const body = await validate(r);
      expect(body.warnings).to.deep.equal([]);
    });

    it("ignores the volunteer's own group in additional_groups, with a warning at the item", async () => {
      const r = base();
      r.volunteers[0].additional_groups = ['bar', 'kitchen'];
      const body = await validate(r);
      expect(body.valid).to.equal(true);
      expect(body.warnings).to.deep.equal([
        {
          code: 'redundant_additional_group',
          pointer: '/volunteers/0/additional_groups/1',
          id: 'v1',
          message: "'kitchen' is already this volunteer's group; listing it in additional_groups is ignored.",
        },
      ]);
    });

    it('names an additional group no shift requires, once per group, with the closest required group', async () => {
      const r = base();
      r.volunteers[1].additional_groups = ['bar', 'kitchn'];
      r.volunteers[2].additional_groups = ['kitchn', 'forklift'];
      r.volunteers[3].additional_groups = ['kitchn'];
      const body = await validate(r);
      expect(body.valid).to.equal(true);
      expect(body.warnings).to.deep.equal([
        {
          code: 'additional_group_not_required',
          pointer: '/volunteers/1/additional_groups/1',
          id: 'v2',
          message: "No shift requires group 'kitchn', listed in the additional_groups of 3 volunteers (first: 'v2'); it fills no slot. Did you mean 'kitchen'?",
        },
        {
          code: 'additional_group_not_required',
          pointer: '/volunteers/2/additional_groups/1',
          id: 'v3',
          message: "No shift requires group 'forklift', listed in the additional_groups of volunteer 'v3'; it fills no slot.",
        },
      ]);
      // A group some shift requires with a headcount of 0 is not required.
      const zero = base();
      zero.unassigned_shifts[0].required_groups.driver = 0;
      zero.volunteers[0].additional_groups = ['driver'];
      expect((await validate(zero)).warnings.map((w: Req) => [w.code, w.pointer])).to.deep.equal([
        ['additional_group_not_required', '/volunteers/0/additional_groups/0'],
      ]);
    });

    it('counts additional_groups as membership: no "no volunteer belongs" warning, hints from them, and groups in the summary', async () => {
      const r = base();
      r.unassigned_shifts[0].required_groups.medical = 1;
      r.volunteers[1].additional_groups = ['medical'];
      const body = await validate(r);
      expect(body).to.deep.include({ valid: true, warnings: [] });
      expect(body.summary.groups).to.equal(3);
      const near = base();
      near.unassigned_shifts[0].required_groups.medics = 1;
      near.volunteers[1].additional_groups = ['medical'];
      const warned = await validate(near);
      expect(warned.warnings).to.deep.include({
        code: 'group_without_volunteers',
        pointer: '/unassigned_shifts/0/required_groups/medics',
        id: 'sat-am',
        message: "No volunteer belongs to group 'medics', which shift 'sat-am' requires; those slots will stay empty. Did you mean 'medical'?",
      });
    });

    it('lists unknown properties of the rules and of a window', async () => {
      const r = base();
      r.rules = { max_shift_per_day: 2, timezone: 'UTC' };
      r.volunteers[0].available = [{ start: '2026-06-06T08:00:00Z', end: '2026-06-06T20:00:00Z', note: 'mornings' }];
      const body = await validate(r);
      expect(body.valid).to.equal(true);
      expect(body.warnings).to.deep.equal([
        {
          code: 'unknown_property',
          pointer: '/rules/max_shift_per_day',
          message: "Property 'max_shift_per_day' is not part of the rules and is ignored; did you mean 'max_shifts_per_day'?",
        },
        {
          code: 'unknown_property',
          pointer: '/volunteers/0/available/0/note',
          id: 'v1',
          message: "Property 'note' is not part of a time window and is ignored.",
        },
      ]);
    });
  });

  it('accepts a request with every 2.2 field, and reports every bad one at once in document order', async () => {
    const r = base();
    r.rules = { min_rest_hours: 8, max_shifts_per_day: 2, timezone: 'America/Chicago' };
    r.volunteers[0] = {
      ...r.volunteers[0],
      additional_groups: ['bar'],
      available: [
        { start: '2026-06-06T06:00:00Z', end: '2026-06-06T13:00:00Z' },
        { start: '2026-06-06T12:00:00Z', end: '2026-06-07T06:00:00Z' },
      ],
      unavailable: [],
      min_rest_hours: 0,
      max_shifts_per_day: 3,
    };
    r.volunteers[2].unavailable = [{ start: '2026-06-06T16:00:00Z', end: '2026-06-06T22:00:00Z' }];
    r.unassigned_shifts[0].priority = 5;
    r.unassigned_shifts[2].priority = 1;
    expect(await validate(r)).to.deep.equal({ valid: true, errors: [], warnings: [], summary: { volunteers: 4, shifts: 3, slots: 6, groups: 2, locked: 1 } });

    r.rules.timezone = 'Mars/Olympus';
    r.volunteers[0].available[1].end = '2026-06-06T11:00:00Z';
    r.volunteers[0].available.push('all day');
    r.volunteers[0].additional_groups.push('bar');
    r.volunteers[2].unavailable[0].start = '6/6/2026 4:00 PM';
    r.volunteers[3].max_shifts_per_day = 0;
    r.unassigned_shifts[1].priority = 9;
    const body = await validate(r);
    expect(body.valid).to.equal(false);
    expect(body.errors.map((e: Req) => [e.pointer, e.code])).to.deep.equal([
      ['/rules/timezone', 'invalid_timezone'],
      ['/unassigned_shifts/1/priority', 'out_of_range'],
      ['/volunteers/0/additional_groups/1', 'duplicate_group'],
      ['/volunteers/0/available/1/end', 'end_not_after_start'],
      ['/volunteers/0/available/2', 'invalid_type'],
      ['/volunteers/2/unavailable/0/start', 'invalid_datetime'],
      ['/volunteers/3/max_shifts_per_day', 'out_of_range'],
    ]);
  });

  it('413 for a name over MAX_STRING_LENGTH in the 2.2 fields, before any message or pointer echoes it', async () => {
    const { request } = testApp({ MAX_STRING_LENGTH: '200' });
    const long = 'k'.repeat(201);
    const cases: Array<[(r: Req) => void, string]> = [
      [(r) => (r.rules = { [long]: 1 }), 'a property name in rules is 201 characters long'],
      [
        (r) => (r.volunteers[1].unavailable = [{ start: '2026-06-06T08:00:00Z', end: '2026-06-06T09:00:00Z', [long]: 1 }]),
        'a property name in volunteers[1].unavailable[0] is 201',
      ],
      [(r) => (r.volunteers[2].additional_groups = ['bar', long]), 'volunteers[2].additional_groups[1] is 201 characters long'],
    ];
    for (const [change, detail] of cases) {
      const r = base();
      change(r);
      const res = await request.post('/api/validate').send(r);
      expect(res.status).to.equal(413);
      expect(res.body.limit).to.deep.equal({ name: 'MAX_STRING_LENGTH', value: 200 });
      expect(res.body.detail).to.include(detail);
    }
  });

  it('applies the configured count limits with 413', async () => {
    const { request } = testApp({ MAX_VOLUNTEERS: '3' });
    const res = await request.post('/api/validate').send(base());
    expect(res.status).to.equal(413);
    expect(res.body.type).to.equal('/problems/payload-too-large');
    expect(res.body.detail).to.equal('volunteers is 4 entries; the limit is 3 entries (MAX_VOLUNTEERS).');
    expect(res.body.limit).to.deep.equal({ name: 'MAX_VOLUNTEERS', value: 3 });
    const others = [
      ['MAX_SHIFTS', '2', 'unassigned_shifts'],
      ['MAX_LOCKED_ASSIGNMENTS', '0', 'current_assignments'],
    ] as const;
    for (const [name, value, key] of others) {
      const t = testApp({ [name]: value });
      const r = await t.request.post('/api/validate').send(base());
      expect(r.status).to.equal(413);
      expect(r.body.limit.name).to.equal(name);
      expect(r.body.detail).to.match(new RegExp(`^${key} is `));
    }
  });
});
