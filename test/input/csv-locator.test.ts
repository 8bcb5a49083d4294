import { expect } from 'chai';
import { readCsvRequest } from '../../src/input/csv.js';
import type { CsvLocator } from '../../src/input/csv-locator.js';

const file = (lines: string[]): Buffer => Buffer.from(lines.join('\n') + '\n');

function locatorOf(volunteers: string[], shifts: string[]): CsvLocator {
  const r = readCsvRequest(file(volunteers), file(shifts), 'UTC');
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.locator;
}

describe('CSV locator: pointers into the built request back to the spreadsheet', () => {
  // Headers as a coordinator's export might write them; a blank row, so request index and spreadsheet row differ.
  const locator = locatorOf(
    [
      'name,GROUP,max hours,Additional  Groups,available,Unavailable,Min Rest Hours,MAX SHIFTS PER DAY',
      'Ana,medics,8,driver,,,,',
      '',
      'Ben,medics,8,,2026-06-13 08:00 - 17:00,,10,2',
    ],
    ['Shift ID,ID,Name,Start,End,Groups,priority', 'x,s1,Early,2026-06-13 07:00,2026-06-13 11:00,"medic:1, driver:1",5'],
  );

  it('names file, spreadsheet row, the column header as written and the row id, for every field read from a cell', () => {
    expect(locator.locate('/volunteers/1/available/0/end')).to.deep.equal({ file: 'volunteers', row: 4, column: 'available', id: 'Ben' });
    expect(locator.locate('/volunteers/0/additional_groups/0')).to.deep.equal({ file: 'volunteers', row: 2, column: 'Additional  Groups', id: 'Ana' });
    expect(locator.locate('/volunteers/0/group')).to.deep.equal({ file: 'volunteers', row: 2, column: 'GROUP', id: 'Ana' });
    expect(locator.locate('/volunteers/1/max_hours')).to.deep.equal({ file: 'volunteers', row: 4, column: 'max hours', id: 'Ben' });
    expect(locator.locate('/volunteers/1/min_rest_hours')).to.deep.equal({ file: 'volunteers', row: 4, column: 'Min Rest Hours', id: 'Ben' });
    expect(locator.locate('/volunteers/1/max_shifts_per_day')).to.deep.equal({ file: 'volunteers', row: 4, column: 'MAX SHIFTS PER DAY', id: 'Ben' });
    expect(locator.locate('/unassigned_shifts/0/required_groups/medic')).to.deep.equal({ file: 'shifts', row: 2, column: 'Groups', id: 's1' });
    expect(locator.locate('/unassigned_shifts/0/start')).to.deep.equal({ file: 'shifts', row: 2, column: 'Start', id: 's1' });
    expect(locator.locate('/unassigned_shifts/0/end')).to.deep.equal({ file: 'shifts', row: 2, column: 'End', id: 's1' });
    expect(locator.locate('/unassigned_shifts/0/priority')).to.deep.equal({ file: 'shifts', row: 2, column: 'priority', id: 's1' });
  });

  it('takes id from the ID column where the file has one, else from Name', () => {
    expect(locator.locate('/unassigned_shifts/0/id')).to.deep.equal({ file: 'shifts', row: 2, column: 'ID', id: 's1' });
    expect(locator.locate('/volunteers/1/id')).to.deep.equal({ file: 'volunteers', row: 4, column: 'name', id: 'Ben' });
    expect(locator.locate('/volunteers/1/name')).to.deep.equal({ file: 'volunteers', row: 4, column: 'name', id: 'Ben' });
  });

  it('gives the row alone for a pointer at a whole volunteer or shift, and nothing outside the two lists', () => {
    expect(locator.locate('/unassigned_shifts/0')).to.deep.equal({ file: 'shifts', row: 2, id: 's1' });
    expect(locator.locate('/volunteers/1/notes')).to.deep.equal({ file: 'volunteers', row: 4, id: 'Ben' });
    for (const pointer of ['', '/rules/timezone', '/volunteers', '/volunteers/2', '/volunteers/x/group', '/current_assignments/0/shift_id', '/constructor/0']) {
      expect(locator.locate(pointer), pointer).to.equal(undefined);
    }
  });

  it('turns validation errors into cells with code, volunteers first and in row order; an entry no cell stands for keeps its pointer, last', () => {
    const truncated = { pointer: '', code: 'entries_truncated', message: "3 more errors of code 'duplicate_id' are not listed." };
    expect(
      locator.locateErrors([
        { pointer: '/unassigned_shifts/0/required_groups/Medic', code: 'group_name_mismatch', message: 'm1' },
        truncated,
        { pointer: '/volunteers/1/group', code: 'group_name_mismatch', message: 'm2' },
        { pointer: '/volunteers/0/additional_groups/0', code: 'duplicate_group', message: 'm3', id: 'Ana' },
      ]),
    ).to.deep.equal([
      { file: 'volunteers', row: 2, column: 'Additional  Groups', id: 'Ana', code: 'duplicate_group', message: 'm3' },
      { file: 'volunteers', row: 4, column: 'GROUP', id: 'Ben', code: 'group_name_mismatch', message: 'm2' },
      { file: 'shifts', row: 2, column: 'Groups', id: 's1', code: 'group_name_mismatch', message: 'm1' },
      truncated,
    ]);
  });

  it('adds file, row, column and id to a warning and keeps its pointer; a warning about no cell is left as it is', () => {
    const warning = { code: 'long_shift', message: 'm', pointer: '/unassigned_shifts/0' };
    expect(locator.locateWarning(warning)).to.deep.equal({ ...warning, file: 'shifts', row: 2, id: 's1' });
    expect(locator.locateWarning({ code: 'entries_truncated', message: 'm' })).to.deep.equal({ code: 'entries_truncated', message: 'm' });
  });
});
