// The OpenAPI 3.1 document of the service, served at GET /openapi.json. Its schemas are the
// files in schemas/, by $ref ("schemas/<file>", which resolves to GET /schemas/<file> next to
// the document, and to the file on disk next to a saved copy), never copies.
import type { Config } from '../config/config.js';
import { problemTypes, type ProblemSlug } from '../service/problems.js';
import { optionParameters } from '../service/options.js';
import type { SchemaRegistry } from '../input/schema-registry.js';

type Json = Record<string, unknown>;

const ref = (file: string, pointer = ''): Json => ({ $ref: `schemas/${file}${pointer}` });

const HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description: 'The request id: a well-formed incoming one ([A-Za-z0-9._:-]{1,128}) is echoed, else a new UUID. Quote it when reporting a problem.',
    schema: { type: 'string' },
  },
  'API-Version': { description: 'The interface version the service implements.', schema: { type: 'string', const: '2.1' } },
  'RateLimit-Limit': { description: "The key's daily quota (authenticated responses).", schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current UTC day (authenticated responses).', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the quota resets at 00:00 UTC (authenticated responses).', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
  'WWW-Authenticate': { description: 'Bearer realm="volunteer-scheduler", error="invalid_token".', schema: { type: 'string' } },
  Allow: { description: 'The methods the path takes.', schema: { type: 'string' } },
};

const headerRefs = (...names: string[]): Json => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const COMMON = ['X-Request-Id', 'API-Version'];
const LIMITED = [...COMMON, 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

function problemResponse(slugs: ProblemSlug[], extraHeaders: string[] = []): Json {
  const first = problemTypes[slugs[0]!];
  return {
    description: slugs.map((s) => `${problemTypes[s].title} (/problems/${s})`).join('; '),
    headers: headerRefs(...COMMON, ...extraHeaders),
    content: {
      'application/problem+json': {
        schema: ref('problem-details.json'),
        example: {
          type: `/problems/${first.slug}`,
          title: first.title,
          status: first.status,
          detail: `${first.explanation.split('. ')[0]!}.`,
          request_id: '7f8d3c52-34a1-4b9e-9f7e-2c1f0c9d2b11',
        },
      },
    },
  };
}

const API_ERRORS: Json = {
  '401': problemResponse(['unauthorized'], ['WWW-Authenticate']),
  '405': problemResponse(['method-not-allowed'], ['Allow']),
  '429': problemResponse(['quota-exceeded'], ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
  '500': problemResponse(['internal']),
  '503': problemResponse(['overloaded'], ['Retry-After']),
};

/**
 * Request examples shown with POST /api/schedule and /api/validate. `rules` is examples/request.json
 * (a test keeps the two equal): a festival day in Chicago with every 2.2 rule in play, its
 * times written as Chicago wall-clock times under the top-level timezone. `wishes` is
 * examples/wishes.json (also kept equal): preferred and avoided shifts and min_hours.
 */
export const REQUEST_EXAMPLES: Record<string, { summary: string; description: string; value: Json }> = {
  rules: {
    summary: 'Availability, several roles, rest, a daily limit and priorities',
    description:
      'Ben can also work the bar; Chloe comes only from Saturday 3 PM to Sunday 3 AM (Chicago); Dev is away on Sunday and needs 10 h of rest; Eva is a medic who can help the kitchen, one shift a day. Everyone needs 8 h of rest between shifts and works at most 2 shifts a Chicago day. First aid (priority 5) is filled before the late bar (3), the afternoon (2) and the kitchen shifts (1). Ana is locked into the Saturday breakfast. The times are Chicago wall-clock times, read in the top-level timezone.',
    value: {
      timezone: 'America/Chicago',
      volunteers: [
        { id: 'v1', name: 'Ana Ruiz', group: 'kitchen', max_hours: 8 },
        { id: 'v2', name: 'Ben Ode', group: 'kitchen', additional_groups: ['bar'], max_hours: 999 },
        { id: 'v3', name: 'Chloe Ng', group: 'bar', max_hours: 6, available: [{ start: '2026-06-06T15:00', end: '2026-06-07T03:00' }] },
        { id: 'v4', name: 'Dev Patel', group: 'bar', max_hours: 12, unavailable: [{ start: '2026-06-07T00:00', end: '2026-06-08T00:00' }], min_rest_hours: 10 },
        { id: 'v5', name: 'Eva Novak', group: 'medical', additional_groups: ['kitchen'], max_hours: 10, max_shifts_per_day: 1 },
      ],
      unassigned_shifts: [
        { id: 'sat-am', start: '2026-06-06T07:00', end: '2026-06-06T11:00', required_groups: { kitchen: 2 } },
        { id: 'sat-first-aid', start: '2026-06-06T09:00', end: '2026-06-06T17:00', required_groups: { medical: 1 }, priority: 5 },
        { id: 'sat-pm', start: '2026-06-06T11:00', end: '2026-06-06T15:00', required_groups: { kitchen: 1, bar: 1 }, priority: 2 },
        { id: 'sat-night', start: '2026-06-06T20:00', end: '2026-06-07T02:00', required_groups: { bar: 2 }, priority: 3 },
        { id: 'sun-am', start: '2026-06-07T07:00', end: '2026-06-07T11:00', required_groups: { kitchen: 2 } },
      ],
      current_assignments: [{ shift_id: 'sat-am', volunteer_id: 'v1' }],
      rules: { min_rest_hours: 8, max_shifts_per_day: 2 },
    },
  },
  minimal: {
    summary: 'The fields every request needs',
    description: 'Two volunteers and one shift; no rules, every shift of priority 1.',
    value: {
      volunteers: [
        { id: 'v1', name: 'Ana Ruiz', group: 'kitchen', max_hours: 8 },
        { id: 'v2', name: 'Ben Ode', group: 'kitchen', max_hours: 999 },
      ],
      unassigned_shifts: [{ id: 'sat-am', start: '2026-06-06T08:00:00Z', end: '2026-06-06T12:00:00Z', required_groups: { kitchen: 2 } }],
    },
  },
  wishes: {
    summary: 'Preferred and avoided shifts, and the hours a volunteer hopes for',
    description:
      'examples/wishes.json. Wishes, never rules: after filling slots and staffing shifts, the schedule gives the fewest avoided shifts, then the fewest hours short of min_hours, then the most preferred shifts, before even hours. Dee hopes for 6 hours but may work 4 (a warning says so).',
    value: {
      volunteers: [
        { id: 'v1', name: 'Ana Ruiz', group: 'kitchen', max_hours: 8, preferred_shifts: ['sat-am'], min_hours: 8 },
        { id: 'v2', name: 'Ben Ode', group: 'kitchen', max_hours: 8, avoid_shifts: ['sat-late'] },
        { id: 'v3', name: 'Cy Park', group: 'kitchen', max_hours: 12, preferred_shifts: ['sat-late'], min_hours: 6 },
        { id: 'v4', name: 'Dee Lind', group: 'kitchen', max_hours: 4, avoid_shifts: ['sat-am'], min_hours: 6 },
      ],
      unassigned_shifts: [
        { id: 'sat-am', start: '2026-06-06T08:00:00Z', end: '2026-06-06T12:00:00Z', required_groups: { kitchen: 2 } },
        { id: 'sat-pm', start: '2026-06-06T12:00:00Z', end: '2026-06-06T16:00:00Z', required_groups: { kitchen: 2 } },
        { id: 'sat-late', start: '2026-06-06T18:00:00Z', end: '2026-06-06T22:00:00Z', required_groups: { kitchen: 1 } },
      ],
    },
  },
};

/** The JSON request body of POST /api/schedule and /api/validate: the schema file, with the examples above. */
const JSON_REQUEST_BODY: Json = { required: true, content: { 'application/json': { schema: ref('schedule-request.json'), examples: REQUEST_EXAMPLES } } };

/** How the CSV files write dates and times (Start, End and the windows). */
const CSV_DATES =
  'Dates and times, wall-clock times in timezone, in one of three forms, one form per file: "M/D/YYYY h:mm AM|PM" (12-hour, month first), "M/D/YYYY H:MM" (24-hour, as Excel exports it in the US and the UK: day first or month first as the whole upload proves it, a number over 12 being a day; an upload whose order cannot be told, or that shows both orders, is refused) or "YYYY-MM-DD HH:MM" (ISO; seconds and a T separator accepted). One-digit month, day and hour are accepted.';
const VOLUNTEER_COLUMNS =
  'Volunteers CSV: Name, Group, Max Hours (a number, 999 for unlimited); optional ID, Additional Groups ("driver, kitchen"), Available and Unavailable (windows separated by ";", each "start - end", such as "6/6/2026 8:00 AM - 6/6/2026 5:00 PM", "2026-06-06 22:00 - 2026-06-07 02:00", or with the end as a time of day alone, "6/6/2026 8:00 AM - 5:00 PM" or "2026-06-06 22:00 - 02:00", an end before the start meaning the next day), Min Rest Hours, Max Shifts Per Day (a blank cell: not given); Preferred Shifts and Avoid Shifts (shifts separated by ";", each an ID of the shifts file or the Name of exactly one shift: wishes, never rules) and Min Hours (hours hoped for, a target); Email and Phone are read and ignored. ' +
  CSV_DATES;
const SHIFT_COLUMNS =
  'Shifts CSV: Name, Start, End (such as "6/6/2026 7:00 AM", "6/6/2026 19:30" or "2026-06-06 19:30"), Groups ("kitchen:2, bar:1"); optional ID, Priority (1 to 5, higher filled first; blank or absent: 1) and Locked Volunteers (the volunteers already promised the shift, by ID or Name, separated by ";"; kept as locked assignments) and Previous Volunteers (the schedule already published, the same way: kept unless dropping one fills more; JSON previous_assignments). ' +
  CSV_DATES;

/** The OpenAPI document: info, the paths of each part of the service, and the shared components. */
export function openApiDocument(config: Pick<Config, 'limits' | 'solveTimeLimitDefault' | 'solveTimeLimitMax'>, registry: SchemaRegistry): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'volunteer-scheduler',
      version: '2.1',
      summary: 'Assigns volunteers to shift slots: most slots filled, fair hours, locked assignments kept, every empty slot explained.',
      description:
        'Implements the volunteer shift scheduling interface 2.1. Every /api endpoint needs `Authorization: Bearer <user_id>.<signature>`; the POST endpoints count against a daily quota (GET /api/usage and reading jobs do not). Every error is RFC 9457 problem+json.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This service' }],
    security: [{ bearerKey: [] }],
    tags: [
      { name: 'scheduling', description: 'Schedules and validation.' },
      { name: 'jobs', description: 'Schedules solved in the background, with progress, cancel and a callback.' },
      { name: 'account', description: 'Quota and usage of the key.' },
      { name: 'reference', description: 'Problem types and schemas (no key).' },
      { name: 'operations', description: 'Health, readiness and metrics (no key).' },
    ],
    paths: { ...apiPaths(config, registry), ...referencePaths(), ...operationsPaths() },
    components: COMPONENTS,
  };
}

/** The /api endpoints: scheduling, validation and usage (a key needed). */
function apiPaths(config: Pick<Config, 'limits'>, registry: SchemaRegistry): Json {
  // The scheduling options' query parameters come from schemas/schedule-options.json.
  const SCHEDULE_QUERY = optionParameters(registry);
  const scheduleOk = {
    description:
      'The schedule: the JSON result by default (and for an Accept it cannot serve); with Accept: text/csv the roster as a spreadsheet opens it, with Accept: text/calendar as iCalendar (Content-Disposition: attachment). The exports count against the quota like JSON.',
    headers: {
      ...headerRefs(...LIMITED),
      'Content-Disposition': {
        description: 'For the exports: attachment; filename="roster.csv", "roster.ics", or roster-<volunteer_id> with ?volunteer_id=.',
        schema: { type: 'string' },
      },
    },
    content: {
      'application/json': { schema: ref('schedule-result.json') },
      'text/csv': {
        schema: {
          type: 'string',
          description:
            "UTF-8 with BOM, CRLF. Header Shift ID,Start,End,Group,Volunteer ID,Volunteer Name,Locked; one row per assignment in the roster's order, then one row per empty slot (Volunteer ID empty, Volunteer Name UNFILLED). Start and End as the CSV input reads them (M/D/YYYY h:mm AM) in ?timezone=, else the request's timezone, else UTC. Locked is yes or no. A cell beginning with =, +, -, @, tab or CR is prefixed with '. With ?volunteer_id= only that volunteer's rows.",
        },
        example:
          '\uFEFFShift ID,Start,End,Group,Volunteer ID,Volunteer Name,Locked\r\nsat-am,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen,v1,Ana Ruiz,no\r\nsat-am,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen,,UNFILLED,no\r\n',
      },
      'text/calendar': {
        schema: {
          type: 'string',
          description:
            'RFC 5545 iCalendar: one VEVENT per assignment, UID <shift_id>.<volunteer_id>@volunteer-scheduler (URL-encoded; stable across runs), SUMMARY "<group>: <shift_id> (<volunteer name>)", DTSTART and DTEND in UTC. With ?volunteer_id= only that volunteer\'s events.',
        },
      },
    },
  };
  const CSV_REQUEST_BODY: Json = {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['volunteers', 'shifts'],
          properties: {
            volunteers: { type: 'string', contentMediaType: 'text/csv', description: VOLUNTEER_COLUMNS },
            shifts: { type: 'string', contentMediaType: 'text/csv', description: SHIFT_COLUMNS },
            timezone: {
              type: 'string',
              description: 'IANA time zone of Start, End and the availability windows, and whose calendar days max_shifts_per_day counts.',
              default: 'UTC',
              examples: ['America/Chicago'],
            },
            min_rest_hours: {
              type: 'string',
              description:
                "Least rest between two shifts of one volunteer, in hours, 0 to 48 (default 0: only overlapping shifts conflict). A volunteer's Min Rest Hours cell overrides it.",
              examples: ['8'],
            },
            max_shifts_per_day: {
              type: 'string',
              description:
                "Most shifts one volunteer may start on one calendar day of timezone, a whole number >= 1 (default: no limit). A volunteer's Max Shifts Per Day cell overrides it.",
              examples: ['2'],
            },
          },
        },
      },
    },
  };
  return {
    '/api/schedule': {
      post: {
        tags: ['scheduling'],
        operationId: 'schedule',
        summary: 'Schedule volunteers from JSON',
        description: `At most ${config.limits.maxVolunteers} volunteers, ${config.limits.maxShifts} shifts, ${config.limits.maxLockedAssignments} locked assignments and ${config.limits.maxJsonBodyBytes} bytes.`,
        parameters: SCHEDULE_QUERY,
        requestBody: JSON_REQUEST_BODY,
        responses: {
          '200': scheduleOk,
          '400': problemResponse(['invalid-request', 'invalid-json', 'invalid-encoding']),
          '413': problemResponse(['payload-too-large']),
          '415': problemResponse(['unsupported-media-type']),
          ...API_ERRORS,
        },
      },
    },
    '/api/schedule/csv': {
      post: {
        tags: ['scheduling'],
        operationId: 'scheduleCsv',
        summary: 'Schedule volunteers from two CSV exports',
        description: `Each file at most ${config.limits.maxCsvFileBytes} bytes. Start, End and the availability windows are wall-clock times in timezone, written M/D/YYYY h:mm AM|PM, M/D/YYYY H:MM (24-hour) or YYYY-MM-DD HH:MM, one form per file (see the file parts). A bad cell, or a problem validation finds once the cells are read, is a 400 invalid-csv whose errors give file, row, column and the row's id; warnings of the result carry file, row and column too. The text fields min_rest_hours and max_shifts_per_day are the request's rules (JSON: rules.min_rest_hours, rules.max_shifts_per_day); the Min Rest Hours and Max Shifts Per Day columns override them per volunteer, and days are counted in timezone.`,
        parameters: SCHEDULE_QUERY,
        requestBody: CSV_REQUEST_BODY,
        responses: {
          '200': scheduleOk,
          '400': problemResponse(['invalid-csv', 'invalid-multipart', 'invalid-request']),
          '413': problemResponse(['payload-too-large']),
          '415': problemResponse(['unsupported-media-type']),
          ...API_ERRORS,
        },
      },
    },
    '/api/validate': {
      post: {
        tags: ['scheduling'],
        operationId: 'validate',
        summary: 'Check a request without scheduling',
        requestBody: JSON_REQUEST_BODY,
        responses: {
          '200': {
            description: 'Every error and warning of the payload (200 whenever the body is JSON).',
            headers: headerRefs(...LIMITED),
            content: { 'application/json': { schema: ref('validation-result.json') } },
          },
          '400': problemResponse(['invalid-json', 'invalid-encoding']),
          '413': problemResponse(['payload-too-large']),
          '415': problemResponse(['unsupported-media-type']),
          ...API_ERRORS,
        },
      },
    },
    '/api/recommendations': recommendationsPath(config, registry),
    ...jobPaths(config, SCHEDULE_QUERY, CSV_REQUEST_BODY, scheduleOk),
    '/api/usage': {
      get: {
        tags: ['account'],
        operationId: 'usage',
        summary: "The key's quota and recent calls",
        parameters: [
          {
            name: 'limit',
            in: 'query',
            required: false,
            description: 'History entries to return.',
            schema: { type: 'integer', minimum: 1, maximum: 1000, default: 50 },
          },
        ],
        responses: {
          '200': {
            description: 'Quota, usage and history.',
            headers: headerRefs(...LIMITED),
            content: { 'application/json': { schema: ref('usage-result.json') } },
          },
          '400': problemResponse(['invalid-request']),
          ...API_ERRORS,
        },
      },
    },
  };
}

/**
 * POST /api/recommendations: who could take a slot of a published schedule's shift. The request
 * example is the one of schemas/recommendation-request.json; the response examples are what the
 * service answers for it (and for the same body asking about a full shift).
 */
function recommendationsPath(config: Pick<Config, 'limits'>, registry: SchemaRegistry): Json {
  const requestExample = (registry.schemas.get('recommendation-request')?.examples as Json[] | undefined)?.[0] ?? {};
  return {
    post: {
      tags: ['scheduling'],
      operationId: 'recommendations',
      summary: 'Who could take a slot of a shift (or replace someone there)',
      description: `The body's request is a complete POST /api/schedule body with the schedule already published (previous_assignments) and the locked assignments (current_assignments); it is validated exactly as POST /api/schedule validates its body, with every pointer under /request, and the same limits (at most ${config.limits.maxVolunteers} volunteers, ${config.limits.maxShifts} shifts and ${config.limits.maxJsonBodyBytes} bytes). No solver runs: the schedule as it stands is the locked assignments plus the previous assignments that can still hold, placed in request order (one that no longer fits beside those before it is left out, with a previous_dropped warning). A candidate is a volunteer of the slot's group who is free then and keeps every rule (moves empty), or one kept out by exactly one of their own non-locked shifts: they leave it and another volunteer who fits takes it over (two moves), or, when nobody can and that shift has a lower priority, it is left one short (one move). Ranked: no move first, then fewest moves, preferred, not avoided, fewest hours after, request order. Every entry is applied and re-checked against every rule before it is returned. Errors of the body's own fields: required, invalid_type, empty_string, out_of_range, not_integer; unknown_shift (/shift_id, with a did-you-mean), group_not_required (/group), not_on_shift (/replace_volunteer_id, naming who is on the shift), group_mismatch (/group differs from the replaced volunteer's). Counts against the daily quota.`,
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: ref('recommendation-request.json'),
            examples: {
              open: { summary: 'Who could take the open kitchen slot of sat-am', value: requestExample },
              replace: {
                summary: 'Who could replace Cy in sat-pm',
                value: { ...requestExample, shift_id: 'sat-pm', replace_volunteer_id: 'v3', limit: 3 },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'The ranked candidates (possibly none, with the reasons why), the open slots and the warnings.',
          headers: headerRefs(...LIMITED),
          content: {
            'application/json': {
              schema: ref('recommendation-result.json'),
              examples: {
                open: {
                  summary: 'Two volunteers could take the open slot; Ben prefers the shift',
                  value: {
                    shift_id: 'sat-am',
                    group: 'kitchen',
                    open_slots: { kitchen: 1 },
                    candidates: [
                      {
                        volunteer_id: 'v2',
                        name: 'Ben Ode',
                        group: 'kitchen',
                        hours_after: 4,
                        preferred: true,
                        avoided: false,
                        moves: [],
                        reasons: [
                          "Ben Ode (v2) is in group 'kitchen', free 2026-06-06 08:00-12:00 UTC and would have 4 of 8 hours.",
                          "'sat-am' is among their preferred shifts.",
                        ],
                      },
                      {
                        volunteer_id: 'v3',
                        name: 'Cy Park',
                        group: 'kitchen',
                        hours_after: 8,
                        preferred: false,
                        avoided: false,
                        moves: [],
                        reasons: ["Cy Park (v3) is in group 'kitchen', free 2026-06-06 08:00-12:00 UTC and would have 8 of 8 hours."],
                      },
                    ],
                    reasons: [],
                    warnings: [],
                  },
                },
                full: {
                  summary: 'Every slot of the shift is filled',
                  value: {
                    shift_id: 'sat-pm',
                    group: 'kitchen',
                    open_slots: { kitchen: 0 },
                    candidates: [],
                    reasons: ["The only slot of group 'kitchen' in 'sat-pm' is filled; name replace_volunteer_id to ask who could replace someone."],
                    warnings: [],
                  },
                },
              },
            },
          },
        },
        '400': problemResponse(['invalid-request', 'invalid-json', 'invalid-encoding']),
        '413': problemResponse(['payload-too-large']),
        '415': problemResponse(['unsupported-media-type']),
        ...API_ERRORS,
      },
    },
  };
}

const JOB_ID: Json = { name: 'id', in: 'path', required: true, description: 'The job id POST /api/jobs gave.', schema: { type: 'string' } };
const JOB_OK: Json = { description: 'The job.', headers: headerRefs(...LIMITED), content: { 'application/json': { schema: ref('job.json') } } };
const JOB_NOT_FOUND = problemResponse(['not-found']);

/** The jobs endpoints (CONTRACT.md section 12): solving in the background. */
function jobPaths(config: Pick<Config, 'limits'>, scheduleQuery: Array<Record<string, unknown>>, csvBody: Json, scheduleOk: Json): Json {
  const jsonBody = JSON_REQUEST_BODY.content as Json;
  const submitQuery = [
    ...scheduleQuery.map((p) =>
      p.name === 'time_limit'
        ? {
            ...p,
            description:
              'Solve budget in seconds, above 0 (default SOLVE_TIME_LIMIT_DEFAULT); above JOB_TIME_LIMIT_MAX (600 by default) it is capped with a warning.',
          }
        : p,
    ),
    {
      name: 'callback_url',
      in: 'query',
      required: false,
      description:
        'When the job ends, a POST of {"id", "status"} (application/json) to this URL, signed: X-Scheduler-Timestamp is the Unix time, X-Scheduler-Signature is sha256=<hex HMAC-SHA256 of "<timestamp>.<body>" under the service secret>. Only hosts the operator lists in WEBHOOK_ALLOWED_HOSTS are called (none by default: then the parameter is a 400); redirects are not followed; three tries.',
      schema: { type: 'string', format: 'uri' },
      example: 'https://hooks.example.org/schedule-done',
    },
  ];
  return {
    '/api/jobs': {
      post: {
        tags: ['jobs'],
        operationId: 'submitJob',
        summary: 'Schedule in the background',
        description: `The body of POST /api/schedule (application/json) or of POST /api/schedule/csv (multipart/form-data), with the same query options; time_limit up to JOB_TIME_LIMIT_MAX. Validated at once: an invalid body is the same 400 as there. Counts against the quota; reading the job does not. At most MAX_ACTIVE_JOBS_PER_USER jobs queued or solving per user. The result (GET /api/jobs/<id>/result) is the same bytes POST /api/schedule gives for the same request and options. Limits as there: ${config.limits.maxVolunteers} volunteers, ${config.limits.maxShifts} shifts.`,
        parameters: submitQuery,
        requestBody: { required: true, content: { ...jsonBody, ...(csvBody.content as Json) } },
        responses: {
          '202': {
            description: 'Queued. Location: /api/jobs/<id>.',
            headers: { ...headerRefs(...LIMITED), Location: { description: 'The job: /api/jobs/<id>.', schema: { type: 'string' } } },
            content: { 'application/json': { schema: ref('job-submitted.json') } },
          },
          '400': problemResponse(['invalid-request', 'invalid-json', 'invalid-csv', 'invalid-multipart', 'invalid-encoding']),
          '413': problemResponse(['payload-too-large']),
          '415': problemResponse(['unsupported-media-type']),
          ...API_ERRORS,
          '429': problemResponse(['too-many-jobs', 'quota-exceeded'], ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
        },
      },
      get: {
        tags: ['jobs'],
        operationId: 'listJobs',
        summary: "The key's own jobs, most recent first",
        parameters: [
          {
            name: 'status',
            in: 'query',
            required: false,
            description: 'Only jobs of this status.',
            schema: { type: 'string', enum: ['queued', 'solving', 'completed', 'failed', 'cancelled'] },
          },
          { name: 'limit', in: 'query', required: false, description: 'Jobs to return.', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
        ],
        responses: {
          '200': { description: 'The jobs.', headers: headerRefs(...LIMITED), content: { 'application/json': { schema: ref('job-list.json') } } },
          '400': problemResponse(['invalid-request']),
          ...API_ERRORS,
        },
      },
    },
    '/api/jobs/{id}': {
      get: {
        tags: ['jobs'],
        operationId: 'getJob',
        summary: "A job's status and progress",
        description: "Another user's job, or one deleted after JOB_RETENTION_HOURS, is a 404 like one that never existed.",
        parameters: [JOB_ID],
        responses: { '200': JOB_OK, '404': JOB_NOT_FOUND, ...API_ERRORS },
      },
      delete: {
        tags: ['jobs'],
        operationId: 'cancelJob',
        summary: 'Cancel a job',
        description:
          'A queued job is cancelled at once and never runs (200). A solving job is told to stop (202, cancel_requested: true); its worker stops within a second and keeps the best schedule found (status cancelled, result readable). Cancelling a cancelled job again is 200; a completed or failed one is 409 job-ended.',
        parameters: [JOB_ID],
        responses: {
          '200': { ...JOB_OK, description: 'Cancelled (it was queued, or was cancelled already).' },
          '202': { ...JOB_OK, description: 'Stopping: it was solving.' },
          '404': JOB_NOT_FOUND,
          '409': problemResponse(['job-ended']),
          ...API_ERRORS,
        },
      },
    },
    '/api/jobs/{id}/result': {
      get: {
        tags: ['jobs'],
        operationId: 'getJobResult',
        summary: "A job's schedule",
        description:
          'The schedule result, the same bytes POST /api/schedule gives for the same request and options; Accept: text/csv or text/calendar give the exports as there (with ?timezone= and ?volunteer_id=). A job cancelled while solving gives the best schedule it found.',
        parameters: [JOB_ID, ...scheduleQuery.filter((p) => p.name === 'timezone' || p.name === 'volunteer_id')],
        responses: {
          '200': scheduleOk,
          '400': problemResponse(['invalid-request']),
          '404': JOB_NOT_FOUND,
          '409': problemResponse(['job-not-finished', 'job-no-result'], ['Retry-After']),
          ...API_ERRORS,
        },
      },
    },
    '/api/jobs/{id}/events': {
      get: {
        tags: ['jobs'],
        operationId: 'jobEvents',
        summary: "A job's progress as server-sent events",
        description:
          'text/event-stream: a `retry: 2000` line, then an event `progress` with the job (schemas/job.json) at once and each time it changes (at most four times a second), and a last event `end` with its final status, after which the stream closes. A comment line every 15 s keeps an idle stream open. A client that reconnects gets the current state first. Browsers cannot send the Authorization header with EventSource: read the stream with fetch().',
        parameters: [JOB_ID],
        responses: {
          '200': {
            description: 'The event stream.',
            headers: headerRefs(...LIMITED),
            content: {
              'text/event-stream': {
                schema: { type: 'string', description: 'Events `progress` and `end`; each data line is a Job (schemas/job.json).' },
                example:
                  'retry: 2000\n\nevent: progress\nid: 1\ndata: {"id":"0b6f…","status":"solving",…}\n\nevent: end\nid: 2\ndata: {"id":"0b6f…","status":"completed",…}\n\n',
              },
            },
          },
          '404': JOB_NOT_FOUND,
          ...API_ERRORS,
        },
      },
    },
  };
}

/** Reference pages and files, no key needed: problem types, schemas, the docs page, this document. */
function referencePaths(): Json {
  return {
    '/problems': {
      get: {
        tags: ['reference'],
        operationId: 'problemTypes',
        summary: 'Every problem type',
        security: [],
        responses: {
          '200': {
            description: 'The problem types (HTML page, or JSON when asked).',
            headers: headerRefs(...COMMON),
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/ProblemType' } } },
              'text/html': { schema: { type: 'string' } },
            },
          },
          '405': API_ERRORS['405'],
        },
      },
    },
    '/problems/{slug}': {
      get: {
        tags: ['reference'],
        operationId: 'problemType',
        summary: 'What a problem type means and what to do',
        security: [],
        parameters: [
          { name: 'slug', in: 'path', required: true, description: 'The problem type.', schema: { type: 'string', enum: Object.keys(problemTypes) } },
        ],
        responses: {
          '200': {
            description: 'The explanation (HTML page, or JSON when asked).',
            headers: headerRefs(...COMMON),
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ProblemType' } }, 'text/html': { schema: { type: 'string' } } },
          },
          '404': problemResponse(['not-found']),
        },
      },
    },
    '/schemas/{file}': {
      get: {
        tags: ['reference'],
        operationId: 'schemaFile',
        summary: 'A JSON Schema file of the interface',
        security: [],
        parameters: [{ name: 'file', in: 'path', required: true, description: 'The file name, such as volunteer.json.', schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'The schema, exactly as the service validates with it.',
            headers: headerRefs(...COMMON),
            content: { 'application/schema+json': { schema: { type: 'object' } } },
          },
          '404': problemResponse(['not-found']),
        },
      },
    },
    '/docs': {
      get: {
        tags: ['reference'],
        operationId: 'docs',
        summary: 'This documentation, as a page',
        security: [],
        responses: {
          '200': {
            description: 'The HTML page (Swagger UI, served locally).',
            headers: headerRefs(...COMMON),
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '405': API_ERRORS['405'],
        },
      },
    },
    '/app': {
      get: {
        tags: ['reference'],
        operationId: 'app',
        summary: "The coordinator's page",
        description:
          'Upload the two CSV exports (or a JSON request), schedule with a key, and see the timeline, the hours per volunteer and why each empty slot is empty; download the CSV and iCalendar exports. Served by the service with its script and style (/app/assets/), no CDN.',
        security: [],
        responses: {
          '200': {
            description: 'The HTML page.',
            headers: headerRefs(...COMMON),
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '405': API_ERRORS['405'],
        },
      },
    },
    '/openapi.json': {
      get: {
        tags: ['reference'],
        operationId: 'openapi',
        summary: 'This document',
        security: [],
        responses: {
          '200': {
            description: 'The OpenAPI 3.1 document.',
            headers: headerRefs(...COMMON),
            content: { 'application/json': { schema: { type: 'object' } } },
          },
          '405': API_ERRORS['405'],
        },
      },
    },
  };
}

/** Health, readiness and metrics, no key needed. */
function operationsPaths(): Json {
  return {
    '/healthz': {
      get: {
        tags: ['operations'],
        operationId: 'health',
        summary: 'The process answers',
        security: [],
        responses: {
          '200': {
            description: 'Alive.',
            headers: headerRefs(...COMMON),
            content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string', const: 'ok' } } } } },
          },
          '405': API_ERRORS['405'],
        },
      },
    },
    '/readyz': {
      get: {
        tags: ['operations'],
        operationId: 'ready',
        summary: 'The database answers and the solver pool is ready',
        security: [],
        responses: {
          '200': {
            description: 'Ready.',
            headers: headerRefs(...COMMON),
            content: {
              'application/json': { schema: { type: 'object', properties: { status: { type: 'string', const: 'ready' }, checks: { type: 'object' } } } },
            },
          },
          '405': API_ERRORS['405'],
          '503': problemResponse(['overloaded'], ['Retry-After']),
        },
      },
    },
    '/metrics': {
      get: {
        tags: ['operations'],
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        security: [],
        responses: {
          '200': {
            description: 'Prometheus text exposition format.',
            headers: headerRefs(...COMMON),
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          '405': API_ERRORS['405'],
        },
      },
    },
  };
}

const COMPONENTS: Json = {
  securitySchemes: {
    bearerKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: '<user_id>.<signature>',
      description: 'A key issued by the operator (volunteer-scheduler keys issue). Only read from the Authorization header.',
    },
  },
  headers: HEADERS,
  schemas: {
    ProblemType: {
      type: 'object',
      description: 'A problem type of the catalog.',
      properties: {
        slug: { type: 'string', description: 'The slug.' },
        type: { type: 'string', description: 'The type URI.' },
        status: { type: 'integer', description: 'The HTTP status.' },
        title: { type: 'string', description: 'The title.' },
        explanation: { type: 'string', description: 'When it happens and what to do.' },
      },
    },
  },
};
