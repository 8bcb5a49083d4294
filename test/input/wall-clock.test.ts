import { expect } from 'chai';
import type { DateReading } from '../../src/input/csv-dates.js';
import { type DayMonthOrder, recognize } from '../../src/input/date-forms.js';
import { readWallClock, readWindows, splitWindow } from '../../src/input/wall-clock.js';

/** The reading of a file whose first date cell (row 2, Start) is `text`. */
const fileOf = (text: string, order?: DayMonthOrder): DateReading => ({
  form: { at: { file: 'shifts', row: 2, column: 'Start' }, label: 'Start', text, written: recognize(text)! },
  ...(order ? { order } : {}),
});
const US12 = fileOf('6/6/2026 8:00 AM');
const SLASH24 = fileOf('6/6/2026 8:00');
const ISO = fileOf('2026-06-06 08:00');

function iso(value: string, reading: DateReading = {}, zone = 'UTC'): string {
  const r = readWallClock('Start', value, zone, reading);
  if ('error' in r) throw new Error(r.error);
  return new Date(r.ms).toISOString().replace('.000Z', 'Z');
}
const errorOf = (value: string, reading: DateReading = {}, zone = 'UTC'): string | undefined => {
  const r = readWallClock('Start', value, zone, reading);
  return 'error' in r ? r.error : undefined;
};
function windows(cell: string, reading: DateReading, zone = 'UTC'): Array<[string, string]> | string[] {
  const r = readWindows('Available', cell, zone, reading);
  if ('errors' in r) return r.errors;
  return r.windows.map((w): [string, string] => [new Date(w.start).toISOString().slice(0, 16), new Date(w.end).toISOString().slice(0, 16)]);
}

describe('wall-clock times in the three spreadsheet forms', () => {
  describe('date-times', () => {
    it('reads 12-hour slash dates month first, AM and PM, one-digit parts, seconds', () => {
      expect(iso('6/13/2026 7:00 AM', US12)).to.equal('2026-06-13T07:00:00Z');
      expect(iso('06/13/2026 07:30 pm', US12)).to.equal('2026-06-13T19:30:00Z');
      expect(iso('6/13/2026 12:00 AM', US12)).to.equal('2026-06-13T00:00:00Z');
      expect(iso('6/13/2026 12:15:30 P.M.', US12)).to.equal('2026-06-13T12:15:30Z');
    });

    it('reads 24-hour slash dates in the order given, Excel style (one-digit hour, optional seconds)', () => {
      expect(iso('6/13/2026 7:00', fileOf('6/13/2026 7:00', 'month-first'))).to.equal('2026-06-13T07:00:00Z');
      expect(iso('6/13/2026 19:30', SLASH24)).to.equal('2026-06-13T19:30:00Z'); // proves month first by itself
      expect(iso('13/6/2026 19:30', fileOf('13/6/2026 7:00', 'day-first'))).to.equal('2026-06-13T19:30:00Z');
      expect(iso('7/6/2026 0:05:09', fileOf('13/6/2026 7:00', 'day-first'))).to.equal('2026-06-07T00:05:09Z');
      expect(iso('7/6/2026 23:59', fileOf('6/13/2026 7:00', 'month-first'))).to.equal('2026-07-06T23:59:00Z');
    });

    it('reads ISO dates with a space or a T, with or without seconds', () => {
      expect(iso('2026-06-13 07:00', ISO)).to.equal('2026-06-13T07:00:00Z');
      expect(iso('2026-06-13T19:30', ISO)).to.equal('2026-06-13T19:30:00Z');
      expect(iso('2026-06-13 19:30:45', ISO)).to.equal('2026-06-13T19:30:45Z');
      expect(iso('2026-6-3 7:05', ISO)).to.equal('2026-06-03T07:05:00Z');
    });

    it('reads each form in the time zone, daylight saving time included', () => {
      const chicago = (value: string, reading: DateReading): string => iso(value, reading, 'America/Chicago');
      expect(chicago('1/13/2026 19:00', fileOf('1/13/2026 7:00'))).to.equal('2026-01-14T01:00:00Z'); // CST
      expect(chicago('2026-06-13 19:00', ISO)).to.equal('2026-06-14T00:00:00Z'); // CDT
      // A time that occurs twice (fall back) is the first one; one the clocks skip is an error.
      expect(chicago('2026-11-01 01:30', ISO)).to.equal('2026-11-01T06:30:00Z');
      expect(chicago('1/11/2026 1:30', fileOf('11/13/2026 7:00', 'month-first'))).to.equal('2026-01-11T07:30:00Z');
      expect(chicago('1/11/2026 1:30', fileOf('13/11/2026 7:00', 'day-first'))).to.equal('2026-11-01T06:30:00Z');
      expect(errorOf('2026-03-08T02:30', ISO, 'America/Chicago')).to.equal(
        "Start '2026-03-08T02:30' does not exist in America/Chicago: the clocks skip that hour (daylight saving time).",
      );
      expect(errorOf('8/3/2026 2:30', fileOf('13/3/2026 7:00', 'day-first'), 'America/Chicago')).to.equal(
        "Start '8/3/2026 2:30' does not exist in America/Chicago: the clocks skip that hour (daylight saving time).",
      );
      // UK day-first dates on the night the clocks go forward in London (1:00 GMT becomes 2:00 BST).
      const uk = fileOf('13/3/2026 7:00', 'day-first');
      expect(iso('29/3/2026 0:30', uk, 'Europe/London')).to.equal('2026-03-29T00:30:00Z');
      expect(iso('29/3/2026 2:30', uk, 'Europe/London')).to.equal('2026-03-29T01:30:00Z');
      expect(errorOf('29/3/2026 1:30', uk, 'Europe/London')).to.equal(
        "Start '29/3/2026 1:30' does not exist in Europe/London: the clocks skip that hour (daylight saving time).",
      );
    });

    it('explains a bad value in the words of its form', () => {
      expect(errorOf('6/31/2026 7:00', fileOf('6/13/2026 7:00', 'month-first'))).to.equal(
        "Start '6/31/2026 7:00' is not MM/DD/YYYY HH:MM: 2026-06 has 30 days.",
      );
      expect(errorOf('31/2/2026 7:00', fileOf('13/6/2026 7:00', 'day-first'))).to.equal("Start '31/2/2026 7:00' is not DD/MM/YYYY HH:MM: 2026-02 has 28 days.");
      expect(errorOf('6/13/2026 24:00', SLASH24)).to.equal("Start '6/13/2026 24:00' is not MM/DD/YYYY HH:MM: the hour must be 0 to 23.");
      expect(errorOf('2026-02-29 07:00', ISO)).to.equal("Start '2026-02-29 07:00' is not YYYY-MM-DD HH:MM: 2026-02 has 28 days.");
      expect(errorOf('2026-13-01 07:00', ISO)).to.equal("Start '2026-13-01 07:00' is not YYYY-MM-DD HH:MM: month 13 does not exist.");
      expect(errorOf('2026-06-13 07:60', ISO)).to.equal("Start '2026-06-13 07:60' is not YYYY-MM-DD HH:MM: minutes go up to 59.");
      expect(errorOf('2026-06-13 07:00:60', ISO)).to.equal("Start '2026-06-13 07:00:60' is not YYYY-MM-DD HH:MM: seconds go up to 59.");
      expect(errorOf('13/6/2026 7:00 PM', US12)).to.equal(
        "Start '13/6/2026 7:00 PM' is not MM/DD/YYYY hh:mm AM|PM: month 13 does not exist; dates with AM/PM are month first: for June 13 write 6/13/2026 7:00 PM.",
      );
      expect(errorOf('2026/06/13 07:00', ISO)).to.equal("Start '2026/06/13 07:00' is not YYYY-MM-DD HH:MM, such as 2026-06-06 08:00.");
      expect(errorOf('13.6.2026 7:00', SLASH24)).to.equal("Start '13.6.2026 7:00' is not MM/DD/YYYY HH:MM, such as 6/6/2026 8:00.");
      expect(errorOf('', ISO)).to.equal('Start is blank; write a date and time such as 2026-06-06 08:00.');
    });

    it('refuses a time zone written in the cell: times are wall-clock times in the upload’s timezone', () => {
      expect(errorOf('2026-06-13T07:00:00Z', ISO)).to.equal(
        "Start '2026-06-13T07:00:00Z' carries a time zone (Z); write the wall-clock time alone, such as 2026-06-13T07:00:00, and name the zone in the upload's timezone field.",
      );
      expect(errorOf('2026-06-13 07:00 +02:00', ISO)).to.match(
        /^Start '2026-06-13 07:00 \+02:00' carries a time zone \(\+02:00\); write the wall-clock time alone, such as 2026-06-13 07:00,/,
      );
    });

    it('refuses a cell in another form than its file, naming the file’s form, where it was first seen, and the cell rewritten', () => {
      expect(errorOf('2026-06-13 19:30', SLASH24)).to.equal(
        "Start '2026-06-13 19:30' is written YYYY-MM-DD HH:MM, but this file writes its dates as MM/DD/YYYY HH:MM (first in row 2, Start: '6/6/2026 8:00'); write every date of the file in one form.",
      );
      expect(errorOf('2026-06-13 19:30', fileOf('13/6/2026 8:00', 'day-first'))).to.equal(
        "Start '2026-06-13 19:30' is written YYYY-MM-DD HH:MM, but this file writes its dates as DD/MM/YYYY HH:MM (first in row 2, Start: '13/6/2026 8:00'); write every date of the file in one form, here 13/6/2026 19:30.",
      );
      expect(errorOf('6/13/2026 7:30 PM', ISO)).to.equal(
        "Start '6/13/2026 7:30 PM' is written MM/DD/YYYY hh:mm AM|PM, but this file writes its dates as YYYY-MM-DD HH:MM (first in row 2, Start: '2026-06-06 08:00'); write every date of the file in one form, here 2026-06-13 19:30.",
      );
      expect(errorOf('6/13/2026 19:30', US12)).to.equal(
        "Start '6/13/2026 19:30' is written MM/DD/YYYY HH:MM, but this file writes its dates as MM/DD/YYYY hh:mm AM|PM (first in row 2, Start: '6/6/2026 8:00 AM'); write every date of the file in one form, here 6/13/2026 7:30 PM.",
      );
      // 6/7/2026 in 24 hours could be June 7 or July 6: no rewriting is offered.
      expect(errorOf('6/7/2026 19:30', ISO)).to.match(/write every date of the file in one form\.$/);
    });
  });

  describe('windows', () => {
    it('splits at the one hyphen outside a YYYY-MM-DD date', () => {
      expect(splitWindow('2026-06-13 08:00 - 2026-06-13 17:00')).to.deep.equal({ start: '2026-06-13 08:00', end: '2026-06-13 17:00' });
      expect(splitWindow('2026-06-13T22:00-2026-06-14T02:00')).to.deep.equal({ start: '2026-06-13T22:00', end: '2026-06-14T02:00' });
      expect(splitWindow('2026-06-13 22:00-02:00')).to.deep.equal({ start: '2026-06-13 22:00', end: '02:00' });
      expect(splitWindow('6/13/2026 8:00 AM-5:00 PM')).to.deep.equal({ start: '6/13/2026 8:00 AM', end: '5:00 PM' });
      expect(splitWindow('2026-06-13 08:00')).to.equal(undefined);
      expect(splitWindow('2026-06-13 08:00 - 12:00 - 17:00')).to.equal(undefined);
    });

    it('splits a cell of a hundred thousand hyphens in linear time', () => {
      const started = performance.now();
      expect(splitWindow('2026-1-'.repeat(100_000))).to.equal(undefined);
      expect(splitWindow('-'.repeat(500_000))).to.equal(undefined);
      expect(performance.now() - started).to.be.below(500);
    });

    it('reads windows in each form: the end as a full date-time or a time of day, the next day when before the start', () => {
      expect(windows('6/13/2026 8:00 AM - 6/13/2026 5:00 PM; 6/13/2026 10:00 PM - 2:00 AM', US12)).to.deep.equal([
        ['2026-06-13T08:00', '2026-06-13T17:00'],
        ['2026-06-13T22:00', '2026-06-14T02:00'],
      ]);
      expect(windows('13/6/2026 8:00 - 13/6/2026 17:00; 30/6/2026 22:00 - 2:00', fileOf('13/6/2026 7:00', 'day-first'))).to.deep.equal([
        ['2026-06-13T08:00', '2026-06-13T17:00'],
        ['2026-06-30T22:00', '2026-07-01T02:00'],
      ]);
      expect(windows('6/13/2026 8:00 - 17:00', fileOf('6/13/2026 7:00', 'month-first'))).to.deep.equal([['2026-06-13T08:00', '2026-06-13T17:00']]);
      expect(windows('2026-06-13 08:00 - 2026-06-13 17:00; 2026-12-31 22:00 - 02:00; 2026-06-14T08:00:00-2026-06-15T08:00:00', ISO)).to.deep.equal([
        ['2026-06-13T08:00', '2026-06-13T17:00'],
        ['2026-12-31T22:00', '2027-01-01T02:00'],
        ['2026-06-14T08:00', '2026-06-15T08:00'],
      ]);
      // En and em dashes, as word processors write them.
      expect(windows('2026-06-13 08:00 \u2013 12:00; 2026-06-13 13:00\u201417:00', ISO)).to.deep.equal([
        ['2026-06-13T08:00', '2026-06-13T12:00'],
        ['2026-06-13T13:00', '2026-06-13T17:00'],
      ]);
    });

    it('gets DST days right in the 24-hour and ISO forms: 1:00 - 4:00 is 2 real hours on spring-forward day (America/Chicago)', () => {
      expect(windows('2026-03-08 01:00 - 04:00', ISO, 'America/Chicago')).to.deep.equal([['2026-03-08T07:00', '2026-03-08T09:00']]);
      expect(windows('11/1/2026 1:00 - 4:00', fileOf('11/13/2026 7:00', 'month-first'), 'America/Chicago')).to.deep.equal([
        ['2026-11-01T06:00', '2026-11-01T10:00'],
      ]);
      expect(windows('2026-03-08 01:00 - 02:30', ISO, 'America/Chicago')).to.deep.equal([
        "Available window '2026-03-08 01:00 - 02:30' ends at a time that does not exist in America/Chicago: the clocks skip that hour (daylight saving time).",
      ]);
    });

    it('asks for the end in the start’s clock: AM/PM after a 12-hour start, 24 hours after a 24-hour or ISO start', () => {
      expect(windows('6/13/2026 8:00 AM - 17:00', US12)).to.deep.equal([
        "Available window end '17:00' has no AM or PM, and the start is written with them; write the end the same way, here 5:00 PM.",
      ]);
      expect(windows('6/13/2026 8:00 AM - 9:00', US12)).to.deep.equal([
        "Available window end '9:00' has no AM or PM, and the start is written with them; write the end the same way, such as 5:00 PM.",
      ]);
      expect(windows('2026-06-13 22:00 - 2:00 AM', ISO)).to.deep.equal([
        "Available window end '2:00 AM' has AM or PM, and the start is written in 24 hours; write the end the same way, here 02:00.",
      ]);
      expect(windows('6/13/2026 13:00 - 5:00 PM', SLASH24)).to.deep.equal([
        "Available window end '5:00 PM' has AM or PM, and the start is written in 24 hours; write the end the same way, here 17:00.",
      ]);
      expect(windows('2026-06-13 22:00 - 24:00', ISO)).to.deep.equal(["Available window end '24:00' is not HH:MM: the hour must be 0 to 23."]);
    });

    it('explains a bad window with an example in the file’s own form', () => {
      expect(windows('2026-06-13 08:00', ISO)).to.deep.equal([
        "Available window '2026-06-13 08:00' is not start - end; write it as 2026-06-06 08:00 - 2026-06-06 17:00, or 2026-06-06 08:00 - 17:00 within a day.",
      ]);
      expect(windows('6/13/2026 8:00 - 5pm', SLASH24)).to.deep.equal([
        "Available window end '5pm' is not MM/DD/YYYY HH:MM nor HH:MM; write the window as 6/6/2026 8:00 - 6/6/2026 17:00, or 6/6/2026 8:00 - 17:00 within a day.",
      ]);
      expect(windows('2026-06-13 08:00 - 2026-06-13 07:00', ISO)).to.deep.equal([
        "Available window '2026-06-13 08:00 - 2026-06-13 07:00' does not end after it starts; a window that ends after midnight ends on the next day's date (or give only the end time, such as 02:00).",
      ]);
      expect(windows('2026-06-13 08:00 - 6/13/2026 5:00 PM', ISO)).to.deep.equal([
        "Available window end '6/13/2026 5:00 PM' is written MM/DD/YYYY hh:mm AM|PM, but this file writes its dates as YYYY-MM-DD HH:MM (first in row 2, Start: '2026-06-06 08:00'); write every date of the file in one form, here 2026-06-13 17:00.",
      ]);
      expect(windows(';', ISO)).to.deep.equal([
        "Available ';' has no window; write windows such as 2026-06-06 08:00 - 2026-06-06 17:00, or 2026-06-06 08:00 - 17:00 within a day, separated by ;, or leave the cell blank.",
      ]);
    });
  });
});
