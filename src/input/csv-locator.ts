// From a JSON Pointer into the request built from a spreadsheet upload back to the spreadsheet:
// the file, the row as the spreadsheet shows it, the column header as written in the file, and
// the row's id. Validation speaks in pointers (/unassigned_shifts/3/required_groups/medics); a
// coordinator who uploaded two CSV files never saw that JSON, so the CSV endpoint reports its
// warnings and errors at the cell instead.
import type { CsvError, FieldError, Warning } from '../types/schema-types.js';
import { parsePointer } from './json-pointer.js';

type CsvFile = CsvError['file'];

/** A place in the upload: file and row, the column where the pointer names a field, the row's id where it has one. */
export interface CsvLocation {
  file: CsvFile;
  row: number;
  column?: string;
  id?: string;
}

/** What the locator needs of a file: each data row's spreadsheet row and id, in request order, and the headers as written. */
export interface LocatedSheet {
  rows: ReadonlyArray<{ row: number; id: string }>;
  /** Column name as the contract gives it (Max Hours) -> header as written in the file (max hours). */
  headers: ReadonlyMap<string, string>;
}

/** The column each field of the request is read from, per file (id: the ID column, or Name without one). */
const COLUMN_OF: Record<CsvFile, ReadonlyMap<string, string>> = {
  volunteers: new Map([
    ['name', 'Name'],
    ['group', 'Group'],
    ['max_hours', 'Max Hours'],
    ['additional_groups', 'Additional Groups'],
    ['available', 'Available'],
    ['unavailable', 'Unavailable'],
    ['min_rest_hours', 'Min Rest Hours'],
    ['max_shifts_per_day', 'Max Shifts Per Day'],
    ['preferred_shifts', 'Preferred Shifts'],
    ['avoid_shifts', 'Avoid Shifts'],
    ['min_hours', 'Min Hours'],
  ]),
  shifts: new Map([
    ['start', 'Start'],
    ['end', 'End'],
    ['required_groups', 'Groups'],
    ['priority', 'Priority'],
  ]),
};

const FILE_OF: ReadonlyMap<string, CsvFile> = new Map([
  ['volunteers', 'volunteers'],
  ['unassigned_shifts', 'shifts'],
]);

const FILE_ORDER: Record<CsvFile, number> = { volunteers: 0, shifts: 1 };

/** The order of CSV entries: volunteers before shifts, a whole file before its rows, rows in order (a stable sort keeps the rest). */
export const byPlace = (a: { file: CsvFile; row?: number }, b: { file: CsvFile; row?: number }): number =>
  FILE_ORDER[a.file] - FILE_ORDER[b.file] || (a.row ?? 0) - (b.row ?? 0);

/** The assignments read from one column of the shifts file: each in request order with its row and its volunteer's id, and the column's header as written. */
export interface AssignmentCells {
  cells: ReadonlyArray<{ row: number; id: string }>;
  column?: string | undefined;
}

export class CsvLocator {
  /**
   * `assignments`: the current assignments read from the Locked Volunteers cells and the
   * previous ones read from the Previous Volunteers cells.
   */
  constructor(
    private readonly sheets: Partial<Record<CsvFile, LocatedSheet>>,
    private readonly assignments: Partial<Record<'current_assignments' | 'previous_assignments', AssignmentCells>> = {},
  ) {}

  /** The cell (or row) a pointer into the built request stands for; undefined for a pointer outside the two lists (rules, the whole request). */
  locate(pointer: string): CsvLocation | undefined {
    const [list, index, field] = parsePointer(pointer);
    if ((list === 'current_assignments' || list === 'previous_assignments') && index !== undefined && /^\d{1,9}$/.test(index)) {
      const from = this.assignments[list];
      const entry = from?.cells[Number(index)];
      return entry && { file: 'shifts', row: entry.row, ...(from.column === undefined ? {} : { column: from.column }), id: entry.id };
    }
    const file = list === undefined ? undefined : FILE_OF.get(list);
    if (file === undefined || index === undefined || !/^\d{1,9}$/.test(index)) return undefined;
    const sheet = this.sheets[file];
    const at = sheet?.rows[Number(index)];
    if (!sheet || !at) return undefined;
    const name = field === 'id' ? (sheet.headers.has('ID') ? 'ID' : 'Name') : field === undefined ? undefined : COLUMN_OF[file].get(field);
    const column = name === undefined ? undefined : sheet.headers.get(name);
    return { file, row: at.row, ...(column === undefined ? {} : { column }), ...(at.id === '' ? {} : { id: at.id }) };
  }

  /** A validation warning with the file, row, column and id its pointer stands for; the pointer is kept (the fields are additions). */
  locateWarning(warning: Warning): Warning {
    const at = warning.pointer === undefined ? undefined : this.locate(warning.pointer);
    // A warning that names its own id (a shift's lock_headcount_exceeded) keeps it.
    return at ? { ...warning, ...at, ...(warning.id === undefined ? {} : { id: warning.id }) } : warning;
  }

  /**
   * Validation errors as cells, {file, row, column, id, code, message} with validation's code
   * and message, volunteers before shifts, in row order. An entry no cell stands for (the count
   * of entries left out past the cap) keeps its pointer, at the end.
   */
  locateErrors(errors: readonly FieldError[]): Array<CsvError | FieldError> {
    const cells: CsvError[] = [];
    const others: FieldError[] = [];
    for (const e of errors) {
      const at = this.locate(e.pointer);
      if (!at) {
        others.push(e);
        continue;
      }
      const id = e.id ?? at.id;
      const column = at.column === undefined ? {} : { column: at.column };
      cells.push({ file: at.file, row: at.row, ...column, ...(id === undefined ? {} : { id }), code: e.code, message: e.message });
    }
    return [...cells.sort(byPlace), ...others];
  }
}
