// Checks a schedule request against the schema files and the contract's semantic rules, and
// reports every error and warning at once with a JSON Pointer and a message that says what is
// wrong and what would be right. POST /api/validate returns this; the scheduling endpoints
// reject with the same entries.
import type { FieldError, ScheduleRequest, ValidationResult, Warning } from '../types/schema-types.js';
import { comparePointers, parsePointer, toPointer } from './json-pointer.js';
import { NameSuggester, newHintBudget } from './did-you-mean.js';
import { CappedEntries, ERRORS_PER_CODE, quoteName, TRUNCATED_CODE, truncatedMessage, WARNINGS_PER_CODE } from './entry-caps.js';
import { normalizeRequest, type Problem } from './problem.js';
import type { ErrorObject, JsonSchema, SchemaRegistry } from './schema-registry.js';
import { isTimeZone, notATimeZone } from './time-zone.js';
import { parseDateTime, UTC_EXAMPLE } from './utc-datetime.js';
import { ZoneClock } from './zone-clock.js';

type Json = unknown;
type Obj = Record<string, Json>;

const WINDOW_EXAMPLE = '{"start": "2026-06-06T08:00:00Z", "end": "2026-06-06T20:00:00Z"}';
const REST_HOURS = 'a number of hours from 0 to 48, such as 8';
const SHIFTS_PER_DAY = 'a whole number of shifts from 1 to 100000, such as 2';

const isObject = (x: Json): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isNonNegInt = (x: Json): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/** What a value of each field should look like, for messages. */
const EXPECTED: Record<string, string> = {
  request: 'a JSON object with volunteers and unassigned_shifts',
  'request.volunteers': 'an array of volunteers such as [{"id": "v1", "group": "kitchen", "max_hours": 8}]',
  'request.unassigned_shifts': `an array of shifts such as [{"id": "sat-am", "start": "${UTC_EXAMPLE}", "end": "2026-06-01T12:00:00Z", "required_groups": {"kitchen": 2}}]`,
  'request.current_assignments': 'an array of {"shift_id": ..., "volunteer_id": ...} objects',
  'request.previous_assignments': 'an array of {"shift_id": ..., "volunteer_id": ...} objects (a schedule already published)',
  previous:
    'an object such as {"shift_id": "sat-am", "volunteer_id": "v1"}, or with the group whose slot it filled: {"shift_id": "sat-am", "volunteer_id": "v1", "group": "kitchen"}',
  'previous.shift_id': 'the id of a shift, such as "sat-am"',
  'previous.volunteer_id': 'the id of a volunteer, such as "v1"',
  'previous.group': 'a group name such as "kitchen"',
  volunteer: 'an object such as {"id": "v1", "group": "kitchen", "max_hours": 8}',
  'volunteer.id': 'a non-empty string such as "v17"',
  'volunteer.name': 'a string such as "Ana Ruiz"',
  'volunteer.group': 'a group name such as "kitchen"',
  'volunteer.max_hours': 'a number of hours from 0 to 100000, or 999 for unlimited',
  'volunteer.additional_groups': 'an array of group names such as ["driver", "kitchen"]',
  'volunteer.additional_group': 'a group name such as "driver"',
  'volunteer.available': `an array of time windows such as [${WINDOW_EXAMPLE}] ([] means never; leave it out for always)`,
  'volunteer.unavailable': `an array of time windows such as [${WINDOW_EXAMPLE}]`,
  'volunteer.min_rest_hours': REST_HOURS,
  'volunteer.max_shifts_per_day': SHIFTS_PER_DAY,
  'volunteer.preferred_shifts': 'an array of shift ids such as ["sat-am", "sun-am"]',
  'volunteer.avoid_shifts': 'an array of shift ids such as ["sat-late"]',
  'volunteer.wished_shift': 'the id of a shift in unassigned_shifts, such as "sat-am"',
  'volunteer.min_hours': 'a number of hours from 0 to 100000, such as 6 (a target, never a limit)',
  window: `an object such as ${WINDOW_EXAMPLE}`,
  'window.start': 'a date-time such as "2026-06-06T08:00:00Z" or "2026-06-06T03:00:00-05:00"',
  'window.end': 'a date-time such as "2026-06-06T20:00:00Z" or "2026-06-06T15:00:00-05:00"',
  shift: `an object such as {"id": "sat-am", "start": "${UTC_EXAMPLE}", "end": "2026-06-01T12:00:00Z", "required_groups": {"kitchen": 2}}`,
  'shift.id': 'a non-empty string such as "kitchen-sat-1"',
  'shift.start': `a date-time such as "${UTC_EXAMPLE}" or "2026-06-01T03:00:00-05:00"`,
  'shift.end': 'a date-time such as "2026-06-01T12:00:00Z" or "2026-06-01T07:00:00-05:00"',
  'shift.required_groups': 'an object such as {"kitchen": 2}',
  'shift.headcount': 'a whole number from 0 to 100000, such as 2',
  'shift.priority': 'a whole number from 1 to 5 (5 is filled first; 1, the default, last), such as 3',
  assignment: 'an object such as {"shift_id": "sat-am", "volunteer_id": "v1"}',
  'assignment.shift_id': 'the id of a shift in unassigned_shifts',
  'assignment.volunteer_id': 'the id of a volunteer in volunteers',
  'request.rules': 'an object such as {"min_rest_hours": 8, "max_shifts_per_day": 2, "timezone": "America/Chicago"}',
  'rules.min_rest_hours': REST_HOURS,
  'rules.max_shifts_per_day': SHIFTS_PER_DAY,
  'rules.timezone': 'an IANA time zone name such as "America/Chicago"',
  'request.timezone': 'an IANA time zone name such as "America/Chicago"',
};

/** Kinds whose range the maximum's message gives whole (the older fields say "at most N"). */
const RANGE_KINDS = new Set(['volunteer.min_rest_hours', 'volunteer.max_shifts_per_day', 'rules.min_rest_hours', 'rules.max_shifts_per_day', 'shift.priority']);

const WINDOW_LISTS = new Set(['available', 'unavailable']);
const WISH_LISTS = new Set(['preferred_shifts', 'avoid_shifts']);

const COLLECTION_KIND: Record<string, string> = {
  volunteers: 'volunteer',
  unassigned_shifts: 'shift',
  current_assignments: 'assignment',
  previous_assignments: 'previous',
};

interface Field {
  /** Key into EXPECTED. */
  kind: string;
  /** How the message names the value: "max_hours", "volunteers[3]", "headcount of group 'bar'". */
  label: string;
}

function fieldOf(segments: string[]): Field {
  const [top, index, prop, key, sub] = segments;
  if (top === undefined) return { kind: 'request', label: 'the request body' };
  if (top === 'rules' && index !== undefined) return { kind: `rules.${index}`, label: `rules.${index}` };
  const item = COLLECTION_KIND[top];
  if (index === undefined || item === undefined) return { kind: `request.${top}`, label: top };
  if (prop === undefined) return { kind: item, label: `${top}[${index}]` };
  if (item === 'shift' && prop === 'required_groups' && key !== undefined) {
    return { kind: 'shift.headcount', label: `the headcount of group '${key}'` };
  }
  if (item === 'volunteer' && key !== undefined) {
    if (prop === 'additional_groups') return { kind: 'volunteer.additional_group', label: `additional_groups[${key}]` };
    if (WISH_LISTS.has(prop)) return { kind: 'volunteer.wished_shift', label: `${prop}[${key}]` };
    if (WINDOW_LISTS.has(prop))
      return sub === undefined ? { kind: 'window', label: `${prop}[${key}]` } : { kind: `window.${sub}`, label: `${prop}[${key}].${sub}` };
  }
  return { kind: `${item}.${prop}`, label: prop };
}

function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)})`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'boolean') return `the boolean ${value}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `${value}`;
  // Parsed JSON holds nothing else; an absent body reads 'undefined', as String() wrote it.
  return typeof value;
}

function expected(kind: string): string {
  return EXPECTED[kind] ?? 'a value of the documented type';
}

function schemaError(e: ErrorObject): FieldError | undefined {
  const base = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      const segments = [...base, missing];
      const f = fieldOf(segments);
      const where = base.length > 0 ? ` in ${fieldOf(base).label}` : '';
      return { pointer: toPointer(segments), code: 'required', message: `${missing} is required${where}: ${expected(f.kind)}.` };
    }
    case 'type': {
      const f = fieldOf(base);
      const pointer = toPointer(base);
      if ((e.params as { type: string }).type === 'integer' && typeof e.data === 'number') {
        return { pointer, code: 'not_integer', message: `${f.label} must be ${expected(f.kind)}, not ${e.data}.` };
      }
      if (f.kind === 'volunteer.max_hours' && e.data === null) {
        return { pointer, code: 'invalid_type', message: 'max_hours must be a number, not null; use 999 for unlimited.' };
      }
      return { pointer, code: 'invalid_type', message: `${f.label} must be ${expected(f.kind)}, not ${describe(e.data)}.` };
    }
    case 'minimum': {
      const f = fieldOf(base);
      return { pointer: toPointer(base), code: 'out_of_range', message: `${f.label} must be ${expected(f.kind)}, not ${describe(e.data)}.` };
    }
    case 'maximum': {
      const f = fieldOf(base);
      const limit = (e.params as { limit: number }).limit.toLocaleString('en-US');
      if (RANGE_KINDS.has(f.kind))
        return { pointer: toPointer(base), code: 'out_of_range', message: `${f.label} must be ${expected(f.kind)}, not ${describe(e.data)}.` };
      const unlimited = f.kind === 'volunteer.max_hours' ? '; use 999 for unlimited' : '';
      return { pointer: toPointer(base), code: 'out_of_range', message: `${f.label} must be at most ${limit}${unlimited}, not ${describe(e.data)}.` };
    }
    case 'pattern': {
      const f = fieldOf(base);
      const pointer = toPointer(base);
      const value = String(e.data);
      if (f.kind === 'shift.start' || f.kind === 'shift.end' || f.kind === 'window.start' || f.kind === 'window.end') {
        const parsed = parseDateTime(f.label, value);
        if (!parsed.ok) return { pointer, code: parsed.code, message: parsed.message };
      }
      if (value.trim() === '') return { pointer, code: 'empty_string', message: `${f.label} must not be empty or blank: ${expected(f.kind)}.` };
      if (f.kind === 'volunteer.id') {
        return { pointer, code: 'too_long', message: `id must be 1 to 200 characters, not counting spaces at either end; found ${value.trim().length}.` };
      }
      return { pointer, code: 'invalid_format', message: `${f.label} must be ${expected(f.kind)}, not ${describe(value)}.` };
    }
    case 'minLength': {
      // propertyNames of required_groups: an empty group name.
      const name = (e as ErrorObject & { propertyName?: string }).propertyName;
      if (name !== undefined) {
        return {
          pointer: toPointer([...base, name]),
          code: 'empty_string',
          message: 'group names in required_groups must not be empty: use a group name such as "kitchen".',
        };
      }
      const f = fieldOf(base);
      return { pointer: toPointer(base), code: 'empty_string', message: `${f.label} must not be empty: ${expected(f.kind)}.` };
    }
    case 'propertyNames':
      return undefined; // reported by the inner minLength error
    default: {
      const f = fieldOf(base);
      return { pointer: toPointer(base), code: 'invalid_value', message: `${f.label} ${e.message ?? 'is not valid'}: ${expected(f.kind)}.` };
    }
  }
}

/** Errors and warnings of one request, capped per code (see entry-caps.ts). */
class Findings {
  readonly errors = new CappedEntries<FieldError>(ERRORS_PER_CODE);
  readonly warnings = new CappedEntries<Warning>(WARNINGS_PER_CODE);
  /** One work budget for every "did you mean" hint of the request. */
  readonly hints = newHintBudget();
  error(pointer: string, code: string, message: string | (() => string)): void {
    this.errors.add(code, () => ({ pointer, code, message: typeof message === 'string' ? message : message() }));
  }
  warn(pointer: string, code: string, message: string | (() => string)): void {
    this.warnings.add(code, () => ({ code, message: typeof message === 'string' ? message : message(), pointer }));
  }
}

function unknownProperties(body: Obj, schemas: ReadonlyMap<string, JsonSchema>, out: Findings): void {
  const propsOf = (schema: JsonSchema | undefined): string[] => Object.keys(schema?.properties ?? {});
  /** A check of one kind of object: warns about each key its schema does not name. */
  const checker = (props: string[], what: string): ((value: Json, segments: Array<string | number>) => void) => {
    const known = new Set(props);
    const hints = new NameSuggester(props, out.hints);
    return (value, segments) => {
      if (!isObject(value)) return;
      for (const key in value) {
        if (!Object.hasOwn(value, key) || known.has(key)) continue;
        // Built only while under the cap: a body may carry hundreds of thousands of unknown keys.
        out.warnings.add('unknown_property', () => ({
          code: 'unknown_property',
          message: `Property ${quoteName(key)} is not part of ${what} and is ignored${hints.didYouMean(key)}`,
          pointer: toPointer([...segments, key]),
        }));
      }
    };
  };
  const request = schemas.get('schedule-request');
  const volunteer = schemas.get('volunteer');
  const windowSchema = (volunteer?.$defs as Record<string, JsonSchema> | undefined)?.window;
  checker(propsOf(request), 'the request')(body, []);
  checker(propsOf(request?.properties?.rules), 'the rules')(body.rules, ['rules']);
  const checkVolunteer = checker(propsOf(volunteer), 'a volunteer');
  const checkWindow = checker(propsOf(windowSchema), 'a time window');
  for (const [v, i] of items(body, 'volunteers')) {
    checkVolunteer(v, ['volunteers', i]);
    for (const list of WINDOW_LISTS) {
      const windows = v[list];
      if (Array.isArray(windows))
        windows.forEach((w, j) => {
          checkWindow(w, ['volunteers', i, list, j]);
        });
    }
  }
  const each = (key: string, check: (value: Json, segments: Array<string | number>) => void): void => {
    const list = body[key];
    if (Array.isArray(list))
      list.forEach((item, i) => {
        check(item, [key, i]);
      });
  };
  each('unassigned_shifts', checker(propsOf(schemas.get('shift')), 'a shift'));
  each('current_assignments', checker(propsOf(schemas.get('current-assignment')), 'a current assignment'));
  each('previous_assignments', checker(propsOf(schemas.get('previous-assignment')), 'a previous assignment'));
}

function items(body: Obj, key: string): Array<[Obj, number]> {
  const list = body[key];
  if (!Array.isArray(list)) return [];
  return list.flatMap((item, i): Array<[Obj, number]> => (isObject(item) ? [[item, i]] : []));
}

function checkIds(body: Obj, key: 'volunteers' | 'unassigned_shifts', out: Findings): Map<string, number> {
  const seen = new Map<string, number>();
  for (const [item, i] of items(body, key)) {
    const id = item.id;
    if (typeof id !== 'string' || id.trim() === '') continue;
    const first = seen.get(id);
    if (first !== undefined) {
      const what = key === 'volunteers' ? 'volunteer' : 'shift';
      out.error(toPointer([key, i, 'id']), 'duplicate_id', `id '${id}' is already used by ${key}[${first}]; each ${what} needs its own id.`);
      continue;
    }
    seen.set(id, i);
    if (id !== id.trim()) {
      out.warn(toPointer([key, i, 'id']), 'id_whitespace', `id '${id}' has spaces at its start or end; it is used exactly as written.`);
    }
  }
  return seen;
}

/**
 * The clock of the request's timezone; 'invalid' when it names no zone; 'rules-only' when it is
 * absent but rules.timezone is given (a common slip: that one only counts days); else undefined.
 */
type RequestClock = ZoneClock | 'invalid' | 'rules-only' | undefined;

/** max_hours 0 is legal (a volunteer off this time) but often meant as "no limit": a warning says what it does. */
function checkZeroHours(body: Obj, out: Findings): void {
  for (const [v, i] of items(body, 'volunteers')) {
    if (v.max_hours !== 0) continue;
    out.warn(
      toPointer(['volunteers', i, 'max_hours']),
      'zero_max_hours',
      () =>
        `Volunteer ${typeof v.id === 'string' ? quoteName(v.id) : `volunteers[${i}]`} has max_hours 0, so no shift is added for them (locked ones are kept); for no limit, write 999.`,
    );
  }
}

/** Said after a not_utc message when the request has rules.timezone: it does not set how times are read. */
const RULES_ZONE_NOTE = ' (rules.timezone only sets the days max_shifts_per_day counts; the top-level timezone sets how times are read.)';

/**
 * Zone names that look like a region's time but keep one offset all year: EST is UTC-5 in July
 * too, and Etc/GMT+5 is UTC-5 (POSIX signs). A coordinator who means New York or Chicago moves
 * every summer time by an hour with them, so each gets a warning naming the offset.
 */
function warnFixedOffset(pointer: string, label: string, zone: string, out: Findings): void {
  const fixed = FIXED_OFFSET_ZONES.get(zone.toUpperCase()) ?? etcOffset(zone);
  if (fixed === undefined) return;
  out.warn(
    pointer,
    'fixed_offset_timezone',
    `${label} ${quoteName(zone)} keeps UTC${fixed} all year, with no daylight saving time; for a place, use its IANA name, such as ${FIXED_OFFSET_HINT[zone.toUpperCase()] ?? 'America/Chicago or Europe/London'}.`,
  );
}

const FIXED_OFFSET_ZONES = new Map([
  ['EST', '-05:00'],
  ['MST', '-07:00'],
  ['HST', '-10:00'],
]);
const FIXED_OFFSET_HINT: Record<string, string> = {
  EST: 'America/New_York',
  MST: 'America/Denver (or America/Phoenix, which keeps MST)',
  HST: 'Pacific/Honolulu',
};

/** The offset of Etc/GMT+N or Etc/GMT-N as UTC writes it (the sign is POSIX's, inverted): Etc/GMT+5 is -05:00. */
function etcOffset(zone: string): string | undefined {
  const m = /^Etc\/GMT([+-])(\d{1,2})$/i.exec(zone);
  if (!m) return undefined;
  return `${m[1] === '+' ? '-' : '+'}${m[2]!.padStart(2, '0')}:00${m[1] === '+' ? ` (Etc/GMT+${m[2]} means ${m[2]} hours behind UTC)` : ` (Etc/GMT-${m[2]} means ${m[2]} hours ahead of UTC)`}`;
}

/** Date-time faults the schema's pattern lets through: dates that do not exist, no zone, a skipped local hour. */
const SEMANTIC_TIME_CODES = new Set(['invalid_date', 'not_utc', 'nonexistent_local_time']);

/**
 * The start and end of a shift or a window: real dates (the schema checks their form), a zone
 * (Z, an offset, or the request's timezone: `clock`) and end
 * after start. `prefix` names the pair in messages ("" for a shift, "available[0]." for a
 * window). The length in milliseconds when both are good and in order.
 */
function checkSpan(item: Obj, at: Array<string | number>, prefix: string, what: string, out: Findings, clock: RequestClock): number | undefined {
  const { start, end } = item;
  const zone = clock instanceof ZoneClock ? clock : undefined;
  const s = typeof start === 'string' ? parseDateTime(`${prefix}start`, start, zone) : undefined;
  const e = typeof end === 'string' ? parseDateTime(`${prefix}end`, end, zone) : undefined;
  // Failures of form are already reported by the schema; here real dates, zones and order. Under
  // a timezone that is not one, only the timezone is reported, not each time it leaves unread.
  for (const [key, parsed] of [
    ['start', s],
    ['end', e],
  ] as const) {
    if (!parsed || parsed.ok || !SEMANTIC_TIME_CODES.has(parsed.code)) continue;
    if (parsed.code === 'not_utc' && clock === 'invalid') continue;
    out.error(
      toPointer([...at, key]),
      parsed.code,
      parsed.code === 'not_utc' && clock === 'rules-only' ? `${parsed.message}${RULES_ZONE_NOTE}` : parsed.message,
    );
  }
  if (!s?.ok || !e?.ok) return undefined;
  if (e.ms <= s.ms) {
    out.error(
      toPointer([...at, 'end']),
      'end_not_after_start',
      `${prefix}end (${String(end)}) must be after ${prefix}start (${String(start)}); a ${what} that crosses midnight ends on the next day's date.`,
    );
    return undefined;
  }
  return e.ms - s.ms;
}

function checkShiftTimes(body: Obj, out: Findings, clock: RequestClock): void {
  for (const [shift, i] of items(body, 'unassigned_shifts')) {
    const length = checkSpan(shift, ['unassigned_shifts', i], '', 'shift', out, clock);
    if (length !== undefined && length > 24 * 3_600_000) {
      out.warn(
        toPointer(['unassigned_shifts', i]),
        'long_shift',
        `Shift '${String(shift.id)}' lasts ${Math.round(length / 360_000) / 10} hours, over 24; check its start and end.`,
      );
    }
  }
}

/** Each available and unavailable window of each volunteer: real dates, end after start. */
function checkWindows(body: Obj, out: Findings, clock: RequestClock): void {
  for (const [v, i] of items(body, 'volunteers')) {
    for (const list of WINDOW_LISTS) {
      const windows = v[list];
      if (!Array.isArray(windows)) continue;
      windows.forEach((w, j) => {
        if (isObject(w)) checkSpan(w, ['volunteers', i, list, j], `${list}[${j}].`, 'window', out, clock);
      });
    }
  }
}

/**
 * preferred_shifts, avoid_shifts and min_hours (wishes, never rules): an id no shift has is a
 * warning (ignored), an id listed twice in one list a warning (counted once), a shift both
 * preferred and avoided an error at its avoid_shifts entry, min_hours above max_hours a warning.
 */
function checkWishes(body: Obj, shiftIds: Map<string, number>, out: Findings): void {
  let hints: NameSuggester | undefined;
  for (const [v, i] of items(body, 'volunteers')) {
    const whose = typeof v.id === 'string' ? `volunteer ${quoteName(v.id)}` : `volunteers[${i}]`;
    const preferred = new Map<string, number>();
    for (const list of WISH_LISTS) {
      const ids = v[list];
      if (!Array.isArray(ids)) continue;
      const seen = new Map<string, number>();
      ids.forEach((id, j) => {
        if (typeof id !== 'string') return; // the schema reports these
        const pointer = toPointer(['volunteers', i, list, j]);
        const first = seen.get(id);
        if (first !== undefined) {
          out.warn(pointer, 'duplicate_wish', () => `${list}[${j}] repeats ${quoteName(id)}, already ${list}[${first}]; it counts once, so list it once.`);
          return;
        }
        seen.set(id, j);
        if (list === 'preferred_shifts') preferred.set(id, j);
        if (!shiftIds.has(id)) {
          hints ??= new NameSuggester(shiftIds.keys(), out.hints);
          const hint = hints.closest(id);
          out.warn(
            pointer,
            'unknown_wished_shift',
            () =>
              `${list}[${j}] of ${whose} names ${quoteName(id)}, which is no shift of unassigned_shifts, so it is ignored${hint === undefined ? '; write the id of one of the shifts.' : `; did you mean '${hint}'?`}`,
          );
          return;
        }
        const both = preferred.get(id);
        if (list === 'avoid_shifts' && both !== undefined) {
          out.error(
            pointer,
            'preferred_and_avoided',
            () =>
              `${whose} both prefers and avoids shift ${quoteName(id)} (preferred_shifts[${both}] and avoid_shifts[${j}]); keep it in one of the two lists.`,
          );
        }
      });
    }
    const { min_hours: min, max_hours: max } = v;
    if (typeof min === 'number' && typeof max === 'number' && max !== 999 && min > max) {
      out.warn(
        toPointer(['volunteers', i, 'min_hours']),
        'min_hours_above_max_hours',
        () =>
          `min_hours ${min} of ${whose} is above their max_hours ${max}: they can give at most ${max} hours, so at least ${Math.round((min - max) * 100) / 100} will count as short. Lower min_hours to ${max} or less, or raise max_hours.`,
      );
    }
  }
}

function checkAssignments(body: Obj, shiftIds: Map<string, number>, volunteerIds: Map<string, number>, out: Findings): void {
  const shiftHints = new NameSuggester(shiftIds.keys(), out.hints);
  const volunteerHints = new NameSuggester(volunteerIds.keys(), out.hints);
  /** Each volunteer name given once in the request, to its volunteer's id (names are a common slip for ids). */
  const volunteerNames = new Map<string, string>();
  const repeated = new Set<string>();
  for (const [v] of items(body, 'volunteers')) {
    if (typeof v.name !== 'string' || typeof v.id !== 'string') continue;
    if (volunteerNames.has(v.name)) repeated.add(v.name);
    else volunteerNames.set(v.name, v.id);
  }
  for (const name of repeated) volunteerNames.delete(name);
  for (const [a, i] of items(body, 'current_assignments')) {
    if (typeof a.shift_id === 'string' && !shiftIds.has(a.shift_id)) {
      out.error(
        toPointer(['current_assignments', i, 'shift_id']),
        'unknown_shift',
        () => `shift_id ${quoteName(a.shift_id as string)} names no shift in unassigned_shifts${shiftHints.didYouMean(a.shift_id as string)}`,
      );
    }
    if (typeof a.volunteer_id === 'string' && !volunteerIds.has(a.volunteer_id)) {
      const named = volunteerNames.get(a.volunteer_id);
      out.error(toPointer(['current_assignments', i, 'volunteer_id']), 'unknown_volunteer', () =>
        named === undefined
          ? `volunteer_id ${quoteName(a.volunteer_id as string)} names no volunteer in volunteers${volunteerHints.didYouMean(a.volunteer_id as string)}`
          : `volunteer_id ${quoteName(a.volunteer_id as string)} is the name of volunteer ${quoteName(named)}; current assignments name volunteers by id: write ${quoteName(named)}.`,
      );
    }
  }
}

/** Every group some volunteer can fill: each one's group and additional_groups. */
function memberGroups(body: Obj): Set<string> {
  const groups = new Set<string>();
  for (const [v] of items(body, 'volunteers')) {
    if (typeof v.group === 'string') groups.add(v.group);
    if (Array.isArray(v.additional_groups)) for (const g of v.additional_groups) if (typeof g === 'string' && g.trim() !== '') groups.add(g);
  }
  return groups;
}

/** Two group names that differ only in upper/lower case or spaces have the same key. */
function sameGroupKey(group: string): string {
  return group.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The first spelling of each group key among `groups`. */
function spellingsOf(groups: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  for (const g of groups) if (!out.has(sameGroupKey(g))) out.set(sameGroupKey(g), g);
  return out;
}

/** An error at each shift that asks for `group`, which differs from the volunteers' `member` only in case or spaces. */
function mismatchedShiftGroups(body: Obj, group: string, member: string, out: Findings): void {
  for (const [shift, i] of items(body, 'unassigned_shifts')) {
    const n = isObject(shift.required_groups) && Object.hasOwn(shift.required_groups, group) ? shift.required_groups[group] : undefined;
    if (!isNonNegInt(n) || n === 0) continue;
    out.error(
      toPointer(['unassigned_shifts', i, 'required_groups', group]),
      'group_name_mismatch',
      () =>
        `Shift ${quoteName(String(shift.id))} asks for group ${quoteName(group)}, which no volunteer has; volunteers have ${quoteName(member)}, which differs only in upper/lower case or spaces. Write ${quoteName(member)} here (or rename the volunteers' group) so these slots can be filled.`,
    );
  }
}

/**
 * An error at each volunteer group (own or additional) that no shift asks for but that differs
 * only in case or spaces from a group shifts ask for and other volunteers have (a stray spelling
 * among the volunteers). Returns those spellings.
 */
function mismatchedVolunteerGroups(body: Obj, required: ReadonlySet<string>, volunteerGroups: ReadonlySet<string>, out: Findings): Set<string> {
  const asked = spellingsOf([...required].filter((g) => volunteerGroups.has(g)));
  const strays = new Set<string>();
  for (const [v, i] of items(body, 'volunteers')) {
    const named: Array<[string, Array<string | number>]> = [];
    if (typeof v.group === 'string') named.push([v.group, ['volunteers', i, 'group']]);
    if (Array.isArray(v.additional_groups))
      v.additional_groups.forEach((g, j) => {
        if (typeof g === 'string') named.push([g, ['volunteers', i, 'additional_groups', j]]);
      });
    for (const [g, at] of named) {
      const right = required.has(g) ? undefined : asked.get(sameGroupKey(g));
      if (right === undefined) continue;
      strays.add(g);
      out.error(
        toPointer(at),
        'group_name_mismatch',
        () =>
          `Volunteer ${typeof v.id === 'string' ? quoteName(v.id) : `volunteers[${i}]`} has group ${quoteName(g)}, which no shift asks for; shifts ask for ${quoteName(right)}, which differs only in upper/lower case or spaces. Write ${quoteName(right)} so this volunteer can fill its slots.`,
      );
    }
  }
  return strays;
}

/**
 * Groups no volunteer can fill (warnings), then each volunteer's additional_groups. Returns every
 * group the request names, for the summary.
 */
function checkGroups(body: Obj, out: Findings): Set<string> {
  const volunteerGroups = memberGroups(body);
  const allGroups = new Set(volunteerGroups);
  /** The groups some shift needs at least one volunteer of. */
  const required = new Set<string>();
  const orphan = new Map<string, { pointer: string; shifts: string[] }>();
  for (const [shift, i] of items(body, 'unassigned_shifts')) {
    const groups = shift.required_groups;
    if (!isObject(groups)) continue;
    const counts = Object.entries(groups);
    if (counts.every(([, n]) => n === 0)) {
      out.warn(
        toPointer(['unassigned_shifts', i, 'required_groups']),
        'empty_shift',
        `Shift '${String(shift.id)}' requires no volunteers (every headcount is 0 or none is given).`,
      );
    }
    for (const [group, n] of counts) {
      allGroups.add(group);
      if (!isNonNegInt(n) || n === 0) continue;
      required.add(group);
      if (volunteerGroups.has(group)) continue;
      const entry = orphan.get(group);
      if (entry) entry.shifts.push(String(shift.id));
      else orphan.set(group, { pointer: toPointer(['unassigned_shifts', i, 'required_groups', group]), shifts: [String(shift.id)] });
    }
  }
  // Asked-for groups that differ from a volunteer group only in case or spaces are errors.
  const memberSpelling = spellingsOf(volunteerGroups);
  for (const group of [...orphan.keys()]) {
    const member = memberSpelling.get(sameGroupKey(group));
    if (member === undefined) continue;
    orphan.delete(group);
    mismatchedShiftGroups(body, group, member, out);
  }
  const strays = mismatchedVolunteerGroups(body, required, volunteerGroups, out);
  const groupHints = new NameSuggester(volunteerGroups, out.hints);
  for (const [group, { pointer, shifts }] of orphan) {
    out.warn(pointer, 'group_without_volunteers', () => {
      const which = shifts.length === 1 ? `shift ${quoteName(shifts[0]!)} requires` : `${shifts.length} shifts require (first: ${quoteName(shifts[0]!)})`;
      const hit = groupHints.closest(group);
      const hint = hit === undefined ? '' : ` Did you mean '${hit}'?`;
      return `No volunteer belongs to group ${quoteName(group)}, which ${which}; those slots will stay empty.${hint}`;
    });
  }
  checkAdditionalGroups(body, required, strays, out);
  return allGroups;
}

/**
 * additional_groups of each volunteer: a group listed twice is an error at the repeat; the
 * volunteer's own group is ignored there (a warning); a group no shift requires is a warning,
 * once per group, with the closest group some shift requires.
 */
function checkAdditionalGroups(body: Obj, required: ReadonlySet<string>, strays: ReadonlySet<string>, out: Findings): void {
  const unused = new Map<string, { pointer: string; volunteer: string; count: number }>();
  for (const [v, i] of items(body, 'volunteers')) {
    const list = v.additional_groups;
    if (!Array.isArray(list)) continue;
    const seen = new Map<string, number>();
    list.forEach((g, j) => {
      if (typeof g !== 'string' || g.trim() === '') return; // the schema reports these
      // Built only where an entry needs it: most items are fine.
      const pointer = (): string => toPointer(['volunteers', i, 'additional_groups', j]);
      const first = seen.get(g);
      if (first !== undefined) {
        out.error(
          pointer(),
          'duplicate_group',
          () => `additional_groups[${j}] repeats ${quoteName(g)}, already additional_groups[${first}]; list each group once.`,
        );
        return;
      }
      seen.set(g, j);
      if (g === v.group) {
        out.warn(
          pointer(),
          'redundant_additional_group',
          () => `${quoteName(g)} is already this volunteer's group; listing it in additional_groups is ignored.`,
        );
        return;
      }
      if (required.has(g) || strays.has(g)) return;
      const entry = unused.get(g);
      if (entry) entry.count++;
      else unused.set(g, { pointer: pointer(), volunteer: typeof v.id === 'string' ? quoteName(v.id) : `volunteers[${i}]`, count: 1 });
    });
  }
  const hints = new NameSuggester(required, out.hints);
  for (const [group, { pointer, volunteer, count }] of unused) {
    out.warn(pointer, 'additional_group_not_required', () => {
      const whose = count === 1 ? `volunteer ${volunteer}` : `${count} volunteers (first: ${volunteer})`;
      const hit = hints.closest(group);
      const hint = hit === undefined ? '' : ` Did you mean '${hit}'?`;
      return `No shift requires group ${quoteName(group)}, listed in the additional_groups of ${whose}; it fills no slot.${hint}`;
    });
  }
}

/**
 * The request's timezone and rules.timezone name zones (the schema checks the other rules). The
 * clock of the request's timezone when it names one: times without Z or offset are read on it.
 */
function checkZones(body: Obj, out: Findings): RequestClock {
  const zone = body.timezone;
  let clock: RequestClock;
  if (typeof zone === 'string' && zone !== '') {
    if (isTimeZone(zone)) {
      clock = new ZoneClock(zone);
      warnFixedOffset('/timezone', 'timezone', zone, out);
    } else {
      out.error('/timezone', 'invalid_timezone', () => notATimeZone('timezone', zone, out.hints));
      clock = 'invalid';
    }
  }
  const rules = body.rules;
  const dayZone = isObject(rules) ? rules.timezone : undefined;
  if (typeof dayZone === 'string' && dayZone !== '') {
    if (!isTimeZone(dayZone)) out.error('/rules/timezone', 'invalid_timezone', () => notATimeZone('rules.timezone', dayZone, out.hints));
    else if (dayZone !== zone) warnFixedOffset('/rules/timezone', 'rules.timezone', dayZone, out);
    if (isTimeZone(dayZone) && clock instanceof ZoneClock && dayZone !== zone) {
      out.warn(
        '/rules/timezone',
        'timezones_differ',
        `rules.timezone ${quoteName(dayZone)} differs from the request's timezone ${quoteName(clock.zone)}: times are read in ${quoteName(clock.zone)} but max_shifts_per_day counts the days of ${quoteName(dayZone)}. Leave rules.timezone out to count the days of the request's timezone.`,
      );
    }
    if (clock === undefined) clock = 'rules-only';
  }
  return clock;
}

function summarize(body: Obj, groups: Set<string>): ValidationResult['summary'] {
  const length = (key: string): number => (Array.isArray(body[key]) ? (body[key] as Json[]).length : 0);
  let slots = 0;
  for (const [shift] of items(body, 'unassigned_shifts')) {
    if (isObject(shift.required_groups)) for (const n of Object.values(shift.required_groups)) if (isNonNegInt(n)) slots += n;
  }
  const pairs = new Set<string>();
  for (const [a] of items(body, 'current_assignments')) {
    if (typeof a.shift_id === 'string' && typeof a.volunteer_id === 'string') pairs.add(JSON.stringify([a.shift_id, a.volunteer_id]));
  }
  return { volunteers: length('volunteers'), shifts: length('unassigned_shifts'), slots, groups: groups.size, locked: pairs.size };
}

/** Each array of the request and the schema of its items. */
const ITEM_SCHEMAS: Array<[string, string]> = [
  ['volunteers', 'volunteer'],
  ['unassigned_shifts', 'shift'],
  ['current_assignments', 'current-assignment'],
  ['previous_assignments', 'previous-assignment'],
];

/**
 * The schema's errors for a request, in linear time: the request's own keywords with its arrays
 * emptied, then each item against its own schema. (Validated whole with allErrors,
 * ajv concatenates each item's errors onto all the errors before it: with 10,000 bad items
 * that copying was quadratic, seconds for a 1 MB body.)
 */
function schemaErrors(body: Obj, registry: SchemaRegistry): ErrorObject[] {
  // The request schema constrains only its own properties: validate those (arrays emptied),
  // not a copy of every key a client sent.
  const top: Obj = {};
  for (const key of Object.keys(registry.schemas.get('schedule-request')?.properties ?? {})) {
    if (Object.hasOwn(body, key)) top[key] = Array.isArray(body[key]) && ITEM_SCHEMAS.some(([k]) => k === key) ? [] : body[key];
  }
  const errors: ErrorObject[] = [];
  if (!registry.validateRequest(top)) errors.push(...(registry.validateRequest.errors ?? []));
  for (const [key, name] of ITEM_SCHEMAS) {
    const list = body[key];
    if (!Array.isArray(list)) continue;
    const validate = registry.validator(name);
    list.forEach((item, i) => {
      if (validate(item)) return;
      for (const e of validate.errors ?? []) errors.push({ ...e, instancePath: `/${key}/${i}${e.instancePath}` });
    });
  }
  return errors;
}

/**
 * Warnings only the normalized problem can tell (locked assignments that break a rule): the
 * rules layer writes them (src/rules), so validation takes them as a function.
 */
export type ProblemWarnings = (problem: Problem, out: CappedEntries<Warning>) => void;

/**
 * The id of the volunteer or shift an entry at `pointer` concerns, when the body has it: the
 * item's id under volunteers and unassigned_shifts; under current_assignments and previous_assignments the
 * assignment's volunteer_id, or its shift_id for an entry about that field. (An entry that
 * names its id itself, such as a shift's lock_headcount_exceeded, keeps it.)
 */
function entryId(body: Obj, pointer: string): string | undefined {
  const [top, index, field] = parsePointer(pointer);
  if (index === undefined || !/^\d+$/.test(index)) return undefined;
  const list = top === undefined ? undefined : body[top];
  const item = Array.isArray(list) ? (list as Json[])[Number(index)] : undefined;
  if (!isObject(item)) return undefined;
  const key =
    top === 'current_assignments' || top === 'previous_assignments'
      ? field === 'shift_id'
        ? 'shift_id'
        : 'volunteer_id'
      : top === 'volunteers' || top === 'unassigned_shifts'
        ? 'id'
        : undefined;
  const id = key === undefined ? undefined : item[key];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The entry with the id it concerns after its pointer, when there is one. */
function withId<T extends { pointer?: string; id?: string }>(body: Obj, entry: T): T {
  if (entry.id !== undefined) return entry;
  const id = entry.pointer ? entryId(body, entry.pointer) : undefined;
  if (id === undefined) return entry;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(entry)) {
    out[k] = v;
    if (k === 'pointer') out.id = id;
  }
  return out as T;
}

const byPointer = <T extends { pointer?: string }>(a: T, b: T): number => comparePointers(a.pointer ?? '', b.pointer ?? '');

/** Validates a parsed JSON body: every error and warning at once. */
export function validateScheduleRequest(body: Json, registry: SchemaRegistry, problemWarnings: ProblemWarnings): ValidationResult {
  return checkScheduleRequest(body, registry, problemWarnings).result;
}

/**
 * The validation result and, when the request is valid, the normalized problem it built on the
 * way (for the lock warnings), so scheduling does not normalize the request a second time.
 */
export function checkScheduleRequest(
  body: Json,
  registry: SchemaRegistry,
  problemWarnings: ProblemWarnings,
): { result: ValidationResult; problem?: Problem; errorCount: number } {
  const out = new Findings();
  if (!isObject(body)) {
    out.error('', 'invalid_type', `the request body must be ${EXPECTED.request}, not ${describe(body)}.`);
    return {
      result: { valid: false, errors: out.errors.list(), warnings: [], summary: { volunteers: 0, shifts: 0, slots: 0, groups: 0, locked: 0 } },
      errorCount: 1,
    };
  }
  for (const e of schemaErrors(body, registry)) {
    const entry = schemaError(e);
    if (entry) out.error(entry.pointer, entry.code, entry.message);
  }
  unknownProperties(body, registry.schemas, out);
  const volunteerIds = checkIds(body, 'volunteers', out);
  const shiftIds = checkIds(body, 'unassigned_shifts', out);
  // A zone that is not one leaves local times unread: only the zone is reported for them.
  const clock = checkZones(body, out);
  checkZeroHours(body, out);
  checkShiftTimes(body, out, clock);
  checkWindows(body, out, clock);
  checkAssignments(body, shiftIds, volunteerIds, out);
  checkWishes(body, shiftIds, out);
  const groups = checkGroups(body, out);

  const valid = out.errors.total === 0;
  const problem = valid ? normalizeRequest(body as ScheduleRequest) : undefined;
  if (problem) problemWarnings(problem, out.warnings);

  // One entry per pointer and code: ajv can report the same fault twice through $ref.
  const seen = new Set<string>();
  const errors = out.errors.list().filter((e) => {
    const key = `${e.pointer}\u0000${e.code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const result = {
    valid,
    errors: [
      ...errors.sort(byPointer).map((e) => withId(body, e)),
      ...out.errors.overflow((code, more) => ({ pointer: '', code: TRUNCATED_CODE, message: truncatedMessage('errors', code, more) })),
    ],
    warnings: [
      ...out.warnings
        .list()
        .sort(byPointer)
        .map((w) => withId(body, w)),
      ...out.warnings.overflow((code, more) => ({ code: TRUNCATED_CODE, message: truncatedMessage('warnings', code, more) })),
    ],
    summary: summarize(body, groups),
  };
  const errorCount = out.errors.total - (out.errors.list().length - errors.length);
  return problem ? { result, problem, errorCount } : { result, errorCount };
}
