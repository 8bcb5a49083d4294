// The date rules of a spreadsheet upload as a whole, decided before any cell is read: each file
// writes its dates in one form (the form most of its dates and times have, a window giving its
// start and its full end; on a tie the one seen first), and the 24-hour slash dates of the
// upload, which US and UK exports both write, are read in the one day/month order their numbers
// prove. A number over 12 can only be a day: 13/6/2026 proves day first, 6/13/2026 month first.
// Both proven in one upload is refused, naming a cell of each; neither proven while some date
// reads two ways (6/7/2026: June 7 or July 6) is refused, naming that cell; dates whose day
// equals their month read the same either way.
import type { CsvError } from '../types/schema-types.js';
import { ambiguous, type DayMonthOrder, type FormKind, formText, monthDay, provenOrder, recognize, type Written, writeIn } from './date-forms.js';
import { clip } from './entry-caps.js';

type CsvFile = CsvError['file'];

/** Where a date cell is: its file, row as a spreadsheet shows it, column header as written, and the row's id. */
export interface CellAt {
  file: CsvFile;
  row: number;
  column: string;
  id?: string;
}

/** One date-time seen: where, the label its messages start with ("Available window start"), the text and its form. */
export interface SeenDate {
  at: CellAt;
  label: string;
  text: string;
  written: Written;
}

/** How the dates of one file are read. */
export interface DateReading {
  /** The file's form and the first cell written in it; absent when no cell of the file has a recognizable date. */
  form?: SeenDate;
  /** The order of the upload's 24-hour slash dates; absent when undecided (none is ambiguous, or the upload is refused). */
  order?: DayMonthOrder;
}

export const where = (at: CellAt): string => `row ${at.row}, ${at.column}`;
const quote = (s: string): string => `'${clip(s)}'`;

/** The forms one file's date cells are written in, and the first cells of each kind of day/month evidence. */
class FileDates {
  readonly forms = new Map<FormKind, { count: number; first: SeenDate; seq: number }>();
  dayFirst?: { seen: SeenDate; seq: number };
  monthFirst?: { seen: SeenDate; seq: number };
  twoWays?: { seen: SeenDate; seq: number };

  /** The form most cells have; on a tie the one seen first. */
  form(): SeenDate | undefined {
    let best: { count: number; first: SeenDate; seq: number } | undefined;
    for (const f of this.forms.values()) if (!best || f.count > best.count || (f.count === best.count && f.seq < best.seq)) best = f;
    return best?.first;
  }
}

/** The first (lowest sequence) of two optional findings. */
const earliest = <T extends { seq: number }>(a: T | undefined, b: T | undefined): T | undefined => (!a || (b && b.seq < a.seq) ? b : a);

/** Collects every date-time of the upload (`note`), then decides each file's form and the day/month order (`settle`). */
export class DateSurvey {
  private readonly files: Record<CsvFile, FileDates> = { volunteers: new FileDates(), shifts: new FileDates() };
  private seq = 0;

  /** A date-time text of a cell (a Start or End, or the start or full end of a window); blank and unrecognizable texts count for nothing. */
  note(at: CellAt, label: string, text: string): void {
    const written = recognize(text);
    if (!written) return;
    const seq = this.seq++;
    const seen: SeenDate = { at, label, text, written };
    const file = this.files[at.file];
    const form = file.forms.get(written.kind);
    if (form) form.count++;
    else file.forms.set(written.kind, { count: 1, first: seen, seq });
    const proven = provenOrder(written);
    if (proven === 'day-first') file.dayFirst ??= { seen, seq };
    else if (proven === 'month-first') file.monthFirst ??= { seen, seq };
    else if (ambiguous(written)) file.twoWays ??= { seen, seq };
  }

  /** Each file's reading, and the errors of an upload whose day/month order cannot be decided. */
  settle(): { readings: Record<CsvFile, DateReading>; errors: CsvError[] } {
    const forms = { volunteers: this.files.volunteers.form(), shifts: this.files.shifts.form() };
    // Only files written in 24-hour slash dates give evidence: a cell of another form in such a file is an error anyway.
    const evidence = (['volunteers', 'shifts'] as const).filter((f) => forms[f]?.written.kind === 'slash24').map((f) => this.files[f]);
    const pick = (key: 'dayFirst' | 'monthFirst' | 'twoWays') => evidence.map((f) => f[key]).reduce(earliest, undefined);
    const dayFirst = pick('dayFirst');
    const monthFirst = pick('monthFirst');
    const twoWays = pick('twoWays');
    const errors: CsvError[] = [];
    let order: DayMonthOrder | undefined;
    if (dayFirst && monthFirst) {
      const [first, second] = dayFirst.seq < monthFirst.seq ? [dayFirst.seen, monthFirst.seen] : [monthFirst.seen, dayFirst.seen];
      errors.push(located(second, bothOrders(second, first)));
    } else if (dayFirst || monthFirst) {
      order = dayFirst ? 'day-first' : 'month-first';
    } else if (twoWays) {
      errors.push(located(twoWays.seen, twoReadings(twoWays.seen)));
    }
    const reading = (form: SeenDate | undefined): DateReading => ({ ...(form ? { form } : {}), ...(order ? { order } : {}) });
    return { readings: { volunteers: reading(forms.volunteers), shifts: reading(forms.shifts) }, errors };
  }
}

const located = (seen: SeenDate, message: string): CsvError => ({
  file: seen.at.file,
  row: seen.at.row,
  column: seen.at.column,
  ...(seen.at.id ? { id: seen.at.id } : {}),
  message,
});

/** "the day first (there is no month 13)" for a date that proves its order. */
function proof(w: Written): string {
  return provenOrder(w) === 'day-first' ? `the day first (there is no month ${w.x})` : `the month first (there is no month ${w.y})`;
}

/**
 * A written date in `order`, rewritten in form `kind` for an example; undefined when it is no
 * real date. A time out of range is replaced by 8:00: the example is about the date.
 */
function exampleIn(w: Written, order: DayMonthOrder, kind: FormKind): string | undefined {
  const [month, day] = order === 'day-first' ? [w.y, w.x] : [w.x, w.y];
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(w.year, month, 0)).getUTCDate()) return undefined;
  const time = w.hour > 23 || w.minute > 59 || w.sec > 59 ? { hour: 8, minute: 0, sec: 0 } : { hour: w.hour, minute: w.minute, sec: w.sec };
  return writeIn(kind, 'month-first', { year: w.year, month, day, ...time });
}

function bothOrders(later: SeenDate, earlier: SeenDate): string {
  const iso = exampleIn(later.written, provenOrder(later.written)!, 'iso');
  return (
    `${later.label} ${quote(later.text)} has ${proof(later.written)}, but ${earlier.at.file} ${where(earlier.at)} has ${quote(earlier.text)} with ` +
    `${proof(earlier.written)}: the 24-hour dates of one upload must all be in one order. Write them all day first or all month first, ` +
    `or write dates as ${formText('iso').pattern}${iso ? ` (${iso})` : ''}.`
  );
}

function twoReadings(seen: SeenDate): string {
  const w = seen.written;
  const asMonthFirst = exampleIn(w, 'month-first', 'iso')!;
  const us = exampleIn(w, 'month-first', 'us12')!;
  return (
    `${seen.label} ${quote(seen.text)} could be ${monthDay(w.x, w.y)} or ${monthDay(w.y, w.x)}: no 24-hour date in this upload has a number ` +
    `over 12 that tells whether the day or the month comes first. Write dates as ${formText('iso').pattern} (${asMonthFirst} for ${monthDay(w.x, w.y)}) ` +
    `or with AM/PM, month first (${us}).`
  );
}
