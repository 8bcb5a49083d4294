// Reads the two spreadsheet exports (volunteers and shifts) into the same schedule request the
// JSON endpoint takes, so both go through one validation and one engine. Headers match by
// name (case-insensitive, trimmed); BOM, CRLF, blank lines and quoted fields are handled; Start
// and End, and the Available and Unavailable windows, are wall-clock times in the given IANA
// time zone (DST included), which also becomes the request's rules.timezone; each file writes
// them in one of three forms, and 24-hour slash dates are read in the day/month order the whole
// upload proves (csv-dates.ts). Every bad cell is reported at once as {file, row, column, id,
// message}, rows numbered as a spreadsheet shows them; warnings carry file, row and column too,
// and the result's locator takes validation's pointers back to the cells.
import { parse } from 'csv-parse/sync';
import type { CsvError, ScheduleRequest, Volunteer, Warning } from '../types/schema-types.js';
import { type CsvRules, MAX_SHIFTS_PER_DAY, MIN_HOURS, MIN_REST_HOURS, type NumberRule, PRIORITY, readNumber } from './csv-fields.js';
import { type DateReading, DateSurvey } from './csv-dates.js';
import { byPlace, CsvLocator } from './csv-locator.js';
import { NameSuggester } from './did-you-mean.js';
import { CappedList, clip, ERRORS_PER_CODE, TRUNCATED_CODE, truncatedMessage, WARNINGS_PER_CODE } from './entry-caps.js';
import { isoUtc } from './format.js';
import { MAX_HEADCOUNT, MAX_HOURS } from './problem.js';
import { readWallClock, readWindows, splitWindow, windowTexts } from './wall-clock.js';
import { ZoneClock } from './zone-clock.js';

export type CsvFile = 'volunteers' | 'shifts';

export type CsvReadResult =
  /** `locator` takes a pointer into `request` back to the file, row and column it was read from. */
  | { ok: true; request: ScheduleRequest; warnings: Warning[]; locator: CsvLocator }
  | { ok: false; errors: CsvError[] }
  /** More data rows than the limit allows: nothing past the count is read. */
  | { ok: false; tooManyRows: { file: CsvFile; rows: number; max: number } };

/** Most data rows read per file (the request's count limits); past it, the file is not read further. */
export type RowLimits = Record<CsvFile, number>;

class TooManyRows extends Error {
  constructor(readonly detail: { file: CsvFile; rows: number; max: number }) {
    super('too many rows');
  }
}

interface Column {
  /** Header as the contract names it. */
  name: string;
  required: boolean;
}

const COLUMNS: Record<CsvFile, Column[]> = {
  volunteers: [
    { name: 'Name', required: true },
    { name: 'Group', required: true },
    { name: 'Max Hours', required: true },
    { name: 'Email', required: false },
    { name: 'Phone', required: false },
    { name: 'ID', required: false },
    { name: 'Additional Groups', required: false },
    { name: 'Available', required: false },
    { name: 'Unavailable', required: false },
    { name: 'Min Rest Hours', required: false },
    { name: 'Max Shifts Per Day', required: false },
    { name: 'Preferred Shifts', required: false },
    { name: 'Avoid Shifts', required: false },
    { name: 'Min Hours', required: false },
  ],
  shifts: [
    { name: 'Name', required: true },
    { name: 'Start', required: true },
    { name: 'End', required: true },
    { name: 'Groups', required: true },
    { name: 'ID', required: false },
    { name: 'Priority', required: false },
    { name: 'Locked Volunteers', required: false },
    { name: 'Previous Volunteers', required: false },
  ],
};

/** The header cells for a message: the first 20, then how many more. */
function listHeaders(header: string[]): string {
  const shown = header
    .slice(0, 20)
    .map((h) => quote(h.trim()))
    .join(', ');
  return header.length > 20 ? `${shown} and ${(header.length - 20).toLocaleString('en-US')} more` : shown;
}

const normalizeHeader = (h: string): string => h.trim().replace(/\s+/g, ' ').toLowerCase();
const quote = (s: string): string => `'${clip(s)}'`;

/** The text of an upload, or why it is not UTF-8 text. */
function decode(file: CsvFile, bytes: Buffer, errors: CappedList<CsvError>): string | undefined {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    errors.push({ file, message: 'The file is UTF-16 text; save it as "CSV UTF-8" and upload it again.' });
    return undefined;
  }
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    if (text.includes('\u0000')) {
      errors.push({ file, message: 'The file is not text (it contains NUL bytes); upload the CSV export, not a spreadsheet file.' });
      return undefined;
    }
    return text;
  } catch {
    const offset = firstInvalidUtf8(body);
    const row = body.subarray(0, offset).toString('latin1').split('\n').length;
    errors.push({
      file,
      row,
      message: `The file is not UTF-8 text: byte 0x${(body[offset] ?? 0).toString(16).toUpperCase().padStart(2, '0')} in row ${row} is not valid UTF-8. Save it as "CSV UTF-8".`,
    });
    return undefined;
  }
}

/** Offset of the lead byte of the first sequence that is not valid UTF-8 (one linear scan). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return i;
    for (let k = 1; k < len; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return i;
    // Overlong 3- and 4-byte forms, surrogates and code points past U+10FFFF.
    const b1 = bytes[i + 1]!;
    if ((b === 0xe0 && b1 < 0xa0) || (b === 0xed && b1 > 0x9f) || (b === 0xf0 && b1 < 0x90) || (b === 0xf4 && b1 > 0x8f)) return i;
    i += len;
  }
  return bytes.length;
}

interface Sheet {
  rows: Array<{ row: number; cells: Map<string, string> }>;
  headers: Map<string, string>;
}

/** Parses one file into rows keyed by contract column name; header and cell problems go to errors. */
function readSheet(file: CsvFile, text: string, errors: CappedList<CsvError>, warnings: CappedList<Warning>, maxRows: number): Sheet | undefined {
  let records: string[][];
  try {
    // The record delimiters are given: csv-parse's auto-discovery rescans a long first record (seconds for 1M columns).
    records = parse(text, { relax_column_count: true, skip_empty_lines: false, relax_quotes: false, record_delimiter: ['\r\n', '\n', '\r'] });
  } catch (e) {
    const err = e as Error & { lines?: number; code?: string };
    errors.push({ file, ...(err.lines ? { row: err.lines } : {}), message: `The file is not valid CSV: ${err.message.replace(/^Invalid [^:]*: /, '')}` });
    return undefined;
  }
  // Checked before any per-row work: a file of a million rows costs its parse, nothing more.
  if (records.length - 1 > maxRows) {
    const rows = records.slice(1).filter((r) => r.some((c) => c.trim() !== '')).length;
    if (rows > maxRows) throw new TooManyRows({ file, rows, max: maxRows });
  }
  const header = records[0];
  if (!header || header.every((c) => c.trim() === '')) {
    errors.push({
      file,
      message: `The file is empty; it needs a header row (${COLUMNS[file]
        .filter((c) => c.required)
        .map((c) => c.name)
        .join(', ')}) and a row per ${file === 'volunteers' ? 'volunteer' : 'shift'}.`,
    });
    return undefined;
  }
  const known = new Map(COLUMNS[file].map((c) => [normalizeHeader(c.name), c]));
  const index = new Map<string, number>();
  const headers = new Map<string, string>();
  header.forEach((raw, i) => {
    const col = known.get(normalizeHeader(raw));
    if (!col) {
      if (raw.trim() !== '')
        warnings.push({
          code: 'csv_column_ignored',
          message: `Column ${quote(raw.trim())} of the ${file} file is not used and is ignored.`,
          file,
          row: 1,
          column: raw.trim(),
        });
      return;
    }
    if (index.has(col.name)) {
      errors.push({ file, row: 1, column: raw.trim(), message: `Column '${col.name}' appears twice in the header; keep one.` });
      return;
    }
    index.set(col.name, i);
    headers.set(col.name, raw.trim());
  });
  const required = COLUMNS[file].filter((c) => c.required);
  const missing = required.filter((c) => !index.has(c.name));
  if (missing.length === required.length) {
    errors.push({
      file,
      row: 1,
      message: `The first row must be the header, with the columns ${required.map((c) => c.name).join(', ')}; found ${quote(header.join(','))}.`,
    });
    return undefined;
  }
  for (const c of missing) {
    errors.push({ file, row: 1, column: c.name, message: `Column '${c.name}' is missing; the header has ${listHeaders(header)}.` });
  }
  if (missing.length > 0) return undefined;
  const rows: Sheet['rows'] = [];
  records.slice(1).forEach((record, i) => {
    if (record.every((c) => c.trim() === '')) return; // a blank row
    const cells = new Map<string, string>();
    for (const [name, at] of index) cells.set(name, (record[at] ?? '').trim());
    rows.push({ row: i + 2, cells });
  });
  return { rows, headers };
}

/** Parses a Groups cell such as "kitchen:2, bar:1". */
function readGroups(value: string): { groups: Record<string, number> } | { error: string } {
  if (value === '') return { error: 'Groups is blank; write group:count pairs such as "kitchen:2, bar:1".' };
  const groups: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    // indexOf, not a regular expression: a cell of many spaces must cost linear time.
    const colon = part.indexOf(':');
    if (colon < 0) return { error: `Groups entry ${quote(part)} has no count; write group:count, such as "kitchen:2, bar:1".` };
    const name = part.slice(0, colon).trim();
    const count = part.slice(colon + 1).trim();
    if (name === '') return { error: `Groups entry ${quote(part)} has no group name before the colon.` };
    if (!/^\d+$/.test(count))
      return { error: `The count ${quote(count)} for group ${quote(name)} is not a whole number; write, for example, ${name.slice(0, 60)}:2.` };
    if (Number(count) > MAX_HEADCOUNT)
      return {
        error: `The count ${quote(count)} for group ${quote(name)} is over ${MAX_HEADCOUNT.toLocaleString('en-US')}, the most one shift can ask of a group.`,
      };
    if (Object.hasOwn(groups, name)) return { error: `Group '${name}' is listed twice in ${quote(value)}; list each group once.` };
    groups[name] = Number(count);
  }
  return { groups: { ...groups } };
}

/** Identifiers: the ID column where present, else the name, with " #2", " #3"... for repeats. */
function identify(file: CsvFile, sheet: Sheet, errors: CappedList<CsvError>, warnings: CappedList<Warning>): string[] {
  const hasId = sheet.headers.has('ID');
  const seen = new Map<string, number>();
  return sheet.rows.map(({ row, cells }) => {
    const name = cells.get('Name') ?? '';
    if (hasId) {
      const id = cells.get('ID') ?? '';
      if (id === '')
        errors.push({ file, row, column: sheet.headers.get('ID')!, message: 'ID is blank; give every row an ID, or remove the ID column to use names.' });
      else if (seen.has(id))
        errors.push({
          file,
          row,
          column: sheet.headers.get('ID')!,
          id,
          message: `ID ${quote(id)} is already used in row ${seen.get(id)}; IDs must be unique.`,
        });
      seen.set(id, seen.get(id) ?? row);
      return id;
    }
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    if (count === 1) return name;
    const id = `${name} #${count}`;
    warnings.push({
      code: 'csv_name_repeated',
      message: `${file === 'volunteers' ? 'Volunteer' : 'Shift'} name ${quote(name)} in row ${row} repeats an earlier row; it is identified as ${quote(id)}.`,
      id,
      file,
      row,
      column: sheet.headers.get('Name')!,
    });
    return id;
  });
}

/**
 * The request the two files describe, its rules the given ones plus `zone` as rules.timezone
 * (so daily limits count the days of the zone the times were read in).
 */
export function readCsvRequest(
  volunteersCsv: Buffer,
  shiftsCsv: Buffer,
  zone: string,
  maxRows: RowLimits = { volunteers: Infinity, shifts: Infinity },
  rules: CsvRules = {},
): CsvReadResult {
  try {
    return readBoth(volunteersCsv, shiftsCsv, zone, maxRows, rules);
  } catch (e) {
    if (e instanceof TooManyRows) return { ok: false, tooManyRows: e.detail };
    throw e;
  }
}

/** What reading the two files collects: bad cells and warnings, each capped. */
interface Findings {
  errors: CappedList<CsvError>;
  warnings: CappedList<Warning>;
}

/** A sheet with the id of each of its rows. */
interface IdentifiedSheet {
  sheet: Sheet;
  ids: string[];
}

function readBoth(volunteersCsv: Buffer, shiftsCsv: Buffer, zone: string, maxRows: RowLimits, rules: CsvRules): CsvReadResult {
  const found: Findings = {
    errors: new CappedList<CsvError>(ERRORS_PER_CODE, (e) => `${e.file}\u0000${e.column ?? ''}`),
    warnings: new CappedList<Warning>(WARNINGS_PER_CODE, (w) => w.code),
  };
  const { errors, warnings } = found;
  const clock = new ZoneClock(zone);
  const texts = { volunteers: decode('volunteers', volunteersCsv, errors), shifts: decode('shifts', shiftsCsv, errors) };
  const identified = (file: CsvFile, maxRows: number): IdentifiedSheet | undefined => {
    const text = texts[file];
    const sheet = text === undefined ? undefined : readSheet(file, text, errors, warnings, maxRows);
    return sheet && { sheet, ids: identify(file, sheet, errors, warnings) };
  };
  const sheets = { volunteers: identified('volunteers', maxRows.volunteers), shifts: identified('shifts', maxRows.shifts) };
  // Every date of the upload is looked at before any is read: the form of each file and the day/month order depend on all of them.
  const survey = new DateSurvey();
  if (sheets.volunteers) noteWindows(survey, sheets.volunteers);
  if (sheets.shifts) noteShiftTimes(survey, sheets.shifts);
  const dates = survey.settle();
  for (const e of dates.errors) errors.push(e);
  const volunteers = sheets.volunteers ? volunteerRows(sheets.volunteers, clock, dates.readings.volunteers, found) : [];
  const locks = sheets.shifts ? namedVolunteers(sheets.shifts, 'Locked Volunteers', volunteers, errors) : [];
  const previous = sheets.shifts?.sheet.headers.has('Previous Volunteers')
    ? namedVolunteers(sheets.shifts, 'Previous Volunteers', volunteers, errors)
    : undefined;
  if (sheets.volunteers && sheets.shifts) wishedShifts(sheets.volunteers, sheets.shifts, volunteers, errors);
  const request: ScheduleRequest = {
    volunteers,
    unassigned_shifts: sheets.shifts ? shiftRows(sheets.shifts, clock, dates.readings.shifts, found) : [],
    ...(locks.length > 0 ? { current_assignments: locks.map(({ shift_id, volunteer_id }) => ({ shift_id, volunteer_id })) } : {}),
    ...(previous ? { previous_assignments: previous.map(({ shift_id, volunteer_id }) => ({ shift_id, volunteer_id })) } : {}),
    rules: { ...rules, timezone: zone },
  };
  if (errors.length > 0) {
    const more = errors.overflow((key, n): CsvError => {
      const [file, column] = key.split('\u0000') as [CsvFile, string];
      return {
        file,
        ...(column === '' ? {} : { column }),
        message: `${n.toLocaleString('en-US')} more problems in ${column === '' ? 'this file' : `column ${quote(column)}`} are not listed (at most ${ERRORS_PER_CODE} per column are).`,
      };
    });
    return { ok: false, errors: [...[...errors.list()].sort(byPlace), ...more] };
  }
  const more = warnings.overflow((code, n): Warning => ({ code: TRUNCATED_CODE, message: truncatedMessage('warnings', code, n) }));
  const located = (s: IdentifiedSheet | undefined) => s && { rows: s.sheet.rows.map((r, i) => ({ row: r.row, id: s.ids[i]! })), headers: s.sheet.headers };
  const cellsOf = (list: ReadonlyArray<{ row: number; volunteer_id: string }>, column: string) => ({
    cells: list.map(({ row, volunteer_id }) => ({ row, id: volunteer_id })),
    column: sheets.shifts?.sheet.headers.get(column),
  });
  const locator = new CsvLocator(
    { volunteers: located(sheets.volunteers), shifts: located(sheets.shifts) },
    { current_assignments: cellsOf(locks, 'Locked Volunteers'), previous_assignments: cellsOf(previous ?? [], 'Previous Volunteers') },
  );
  return { ok: true, request, warnings: [...warnings.list(), ...more], locator };
}

/** Where a cell of a row is, for the survey's messages: the column header as written, the row's id. */
const cellAt = (file: CsvFile, { sheet, ids }: IdentifiedSheet, i: number, column: string) => ({
  file,
  row: sheet.rows[i]!.row,
  column: sheet.headers.get(column)!,
  ...(ids[i] ? { id: ids[i] } : {}),
});

/** Shows the survey every Start and End of the shifts file. */
function noteShiftTimes(survey: DateSurvey, shifts: IdentifiedSheet): void {
  shifts.sheet.rows.forEach(({ cells }, i) => {
    for (const column of ['Start', 'End']) survey.note(cellAt('shifts', shifts, i, column), column, cells.get(column)!);
  });
}

/** Shows the survey the start and the full end of every window of the volunteers file. */
function noteWindows(survey: DateSurvey, volunteers: IdentifiedSheet): void {
  volunteers.sheet.rows.forEach(({ cells }, i) => {
    for (const column of ['Available', 'Unavailable']) {
      const value = cells.get(column);
      if (!value) continue;
      const at = cellAt('volunteers', volunteers, i, column);
      for (const text of windowTexts(value)) {
        const parts = splitWindow(text);
        if (!parts) continue;
        survey.note(at, `${column} window start`, parts.start);
        survey.note(at, `${column} window end`, parts.end);
      }
    }
  });
}

/** A number cell of an optional column: absent when blank, else the number `rule` allows (or an error). */
function numberCell(cells: Map<string, string>, column: string, rule: NumberRule, err: (column: string, message: string) => void): number | undefined {
  const value = cells.get(column);
  if (value === undefined || value === '') return undefined;
  const n = readNumber(column, value, rule);
  if ('value' in n) return n.value;
  err(column, n.error);
  return undefined;
}

/** An Additional Groups cell such as "driver, kitchen": the names, trimmed, blanks skipped; each listed once. */
function readAdditionalGroups(value: string): { groups: string[] } | { error: string } {
  const groups: string[] = [];
  const seen = new Set<string>();
  for (const name of value.split(',').map((p) => p.trim())) {
    if (name === '') continue;
    if (seen.has(name)) return { error: `Additional Groups lists '${clip(name)}' twice in ${quote(value)}; list each group once, such as "driver, kitchen".` };
    seen.add(name);
    groups.push(name);
  }
  return { groups };
}

/** The optional 2.2 columns of one volunteer row: only the fields whose cells are filled in. */
function volunteerRules(
  cells: Map<string, string>,
  clock: ZoneClock,
  reading: DateReading,
  err: (column: string, message: string) => void,
): Partial<Volunteer> {
  const out: Partial<Volunteer> = {};
  const additional = cells.get('Additional Groups');
  if (additional) {
    const read = readAdditionalGroups(additional);
    if ('error' in read) err('Additional Groups', read.error);
    else if (read.groups.length > 0) out.additional_groups = read.groups;
  }
  for (const column of ['Available', 'Unavailable'] as const) {
    const value = cells.get(column);
    if (!value) continue;
    const read = readWindows(column, value, clock, reading);
    if ('errors' in read) for (const message of read.errors) err(column, message);
    else out[column === 'Available' ? 'available' : 'unavailable'] = read.windows.map((w) => ({ start: isoUtc(w.start), end: isoUtc(w.end) }));
  }
  const rest = numberCell(cells, 'Min Rest Hours', MIN_REST_HOURS, err);
  if (rest !== undefined) out.min_rest_hours = rest;
  const perDay = numberCell(cells, 'Max Shifts Per Day', MAX_SHIFTS_PER_DAY, err);
  if (perDay !== undefined) out.max_shifts_per_day = perDay;
  const minHours = numberCell(cells, 'Min Hours', MIN_HOURS, err);
  if (minHours !== undefined) out.min_hours = minHours;
  return out;
}

const WISH_COLUMNS = [
  ['Preferred Shifts', 'preferred_shifts'],
  ['Avoid Shifts', 'avoid_shifts'],
] as const;

/**
 * The Preferred Shifts and Avoid Shifts cells of the volunteers file (JSON's preferred_shifts and
 * avoid_shifts), entries separated by ";", each a shift's ID or the Name of exactly one shift, as
 * Locked Volunteers names volunteers. A Name several shifts share is an error at the cell; an
 * entry that names no shift is kept as written, and validation warns about it at the cell (a
 * wish, like the JSON field: an unknown id is ignored, not refused).
 */
function wishedShifts(volunteers: IdentifiedSheet, shifts: IdentifiedSheet, rows: ScheduleRequest['volunteers'], errors: CappedList<CsvError>): void {
  if (!WISH_COLUMNS.some(([column]) => volunteers.sheet.headers.has(column))) return;
  const ids = new Set(shifts.ids);
  const byName = new Map<string, string[]>();
  shifts.sheet.rows.forEach(({ cells }, i) => {
    const name = cells.get('Name');
    if (name) byName.set(name, [...(byName.get(name) ?? []), shifts.ids[i]!]);
  });
  volunteers.sheet.rows.forEach(({ cells }, i) => {
    const err = cellError('volunteers', volunteers, i, errors);
    for (const [column, field] of WISH_COLUMNS) {
      const cell = cells.get(column) ?? '';
      if (cell === '') continue;
      const out: string[] = [];
      for (const entry of cell.split(';').map((e) => e.trim())) {
        if (entry === '') continue;
        const byThisName = byName.get(entry) ?? [];
        if (byThisName.length > 1) {
          err(
            column,
            `${column} names ${quote(entry)}, the Name of ${byThisName.length} shifts (${byThisName.map((x) => quote(x)).join(', ')}); write the ID of the one meant.`,
          );
          continue;
        }
        out.push(ids.has(entry) ? entry : (byThisName[0] ?? entry));
      }
      if (out.length > 0) rows[i]![field] = out;
    }
  });
}

/** A bad cell of a row: its file, row, column as written, the row's id where it has one. */
function cellError(file: CsvFile, { sheet, ids }: IdentifiedSheet, i: number, errors: CappedList<CsvError>): (column: string, message: string) => void {
  const { row } = sheet.rows[i]!;
  const id = ids[i] ? { id: ids[i] } : {};
  return (column, message) => {
    errors.push({ file, row, column: sheet.headers.get(column)!, ...id, message });
  };
}

/**
 * The Locked Volunteers cells of the shifts file (assignments already made: JSON's
 * current_assignments) or its Previous Volunteers cells (a schedule already published: JSON's
 * previous_assignments). Each entry is a volunteer's ID or the Name of exactly one volunteer (a
 * Name two volunteers share is refused); entries separated by ";" (names may hold commas: "Ruiz,
 * Ana"). In row order, each with its spreadsheet row. An entry that names several volunteers is
 * an error at the cell; one that names nobody is an error among the locks, and among the previous
 * volunteers is kept as written (a volunteer taken off the list since: their assignment is
 * dropped with a warning, as in JSON).
 */
function namedVolunteers(
  shifts: IdentifiedSheet,
  column: 'Locked Volunteers' | 'Previous Volunteers',
  volunteers: ScheduleRequest['volunteers'],
  errors: CappedList<CsvError>,
): Array<{ shift_id: string; volunteer_id: string; row: number }> {
  if (!shifts.sheet.headers.has(column)) return [];
  const ids = new Set(volunteers.map((v) => v.id));
  const byName = new Map<string, string[]>();
  for (const v of volunteers) if (v.name !== undefined) byName.set(v.name, [...(byName.get(v.name) ?? []), v.id]);
  const hints = new NameSuggester([...ids, ...byName.keys()]);
  const out: Array<{ shift_id: string; volunteer_id: string; row: number }> = [];
  shifts.sheet.rows.forEach(({ row, cells }, i) => {
    const cell = cells.get(column) ?? '';
    if (cell === '') return;
    const err = cellError('shifts', shifts, i, errors);
    const seen = new Set<string>();
    for (const entry of cell.split(';').map((e) => e.trim())) {
      if (entry === '') continue;
      // A Name several volunteers share is refused even where it is also an ID (without an ID
      // column, the first "Ana" is identified as Ana and the second as "Ana #2").
      const byThisName = byName.get(entry) ?? [];
      const named = byThisName.length <= 1 && ids.has(entry) ? [entry] : byThisName;
      const gone = named.length === 0 && column === 'Previous Volunteers';
      if (named.length !== 1 && !gone) {
        err(
          column,
          named.length === 0
            ? `${column} names ${quote(entry)}, who is in the volunteers file by neither ID nor Name${hints.didYouMean(entry)} Separate several with ";".`
            : `${column} names ${quote(entry)}, the Name of ${named.length} volunteers (${named.map((x) => quote(x)).join(', ')}); write the ID of the one meant.`,
        );
        continue;
      }
      const volunteer = gone ? entry : named[0]!;
      if (seen.has(volunteer)) {
        err(column, `${column} lists ${quote(entry)} twice in ${quote(cell)}; list each volunteer once.`);
        continue;
      }
      seen.add(volunteer);
      out.push({ shift_id: shifts.ids[i]!, volunteer_id: volunteer, row });
    }
  });
  return out;
}

/** The volunteers of the volunteers file, windows read on `clock` as `reading` says; each bad cell goes to the findings. */
function volunteerRows(volunteers: IdentifiedSheet, clock: ZoneClock, reading: DateReading, { errors }: Findings): ScheduleRequest['volunteers'] {
  const { sheet, ids } = volunteers;
  return sheet.rows.map(({ cells }, i) => {
    const err = cellError('volunteers', volunteers, i, errors);
    const name = cells.get('Name')!;
    const group = cells.get('Group')!;
    const hours = cells.get('Max Hours')!;
    if (name === '') err('Name', 'Name is blank; every volunteer needs a name.');
    if (group === '') err('Group', "Group is blank; write the volunteer's group, such as kitchen.");
    let maxHours = 0;
    if (hours === '') err('Max Hours', 'Max Hours is blank; write a number of hours, or 999 for unlimited.');
    else if (!/^\d+(\.\d+)?$/.test(hours)) err('Max Hours', `Max Hours ${quote(hours)} is not a number >= 0; write hours such as 8, or 999 for unlimited.`);
    else if (Number(hours) > MAX_HOURS) err('Max Hours', `Max Hours ${quote(hours)} is over ${MAX_HOURS.toLocaleString('en-US')}; write 999 for unlimited.`);
    else maxHours = Number(hours);
    return { id: ids[i]!, name: name || ids[i]!, group, max_hours: maxHours, ...volunteerRules(cells, clock, reading, err) };
  });
}

/** The shifts of the shifts file, Start and End read on `clock` as `reading` says; each bad cell goes to the findings. */
function shiftRows(shifts: IdentifiedSheet, clock: ZoneClock, reading: DateReading, { errors }: Findings): ScheduleRequest['unassigned_shifts'] {
  const { sheet, ids } = shifts;
  return sheet.rows.map(({ cells }, i) => {
    const err = cellError('shifts', shifts, i, errors);
    if (cells.get('Name') === '') err('Name', 'Name is blank; every shift needs a name.');
    const start = readWallClock('Start', cells.get('Start')!, clock, reading);
    const end = readWallClock('End', cells.get('End')!, clock, reading);
    if ('error' in start) err('Start', start.error);
    if ('error' in end) err('End', end.error);
    if ('ms' in start && 'ms' in end && end.ms <= start.ms) {
      err(
        'End',
        `End ${quote(cells.get('End')!)} is not after Start ${quote(cells.get('Start')!)}; a shift that ends after midnight ends on the next day's date.`,
      );
    }
    const groups = readGroups(cells.get('Groups')!);
    if ('error' in groups) err('Groups', groups.error);
    const priority = numberCell(cells, 'Priority', PRIORITY, err);
    return {
      id: ids[i]!,
      start: 'ms' in start ? isoUtc(start.ms) : '',
      end: 'ms' in end ? isoUtc(end.ms) : '',
      required_groups: 'groups' in groups ? groups.groups : {},
      ...(priority === undefined ? {} : { priority }),
    };
  });
}
