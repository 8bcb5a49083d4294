import { expect } from 'chai';
import { MAX_SHIFTS_PER_DAY, MIN_REST_HOURS, PRIORITY, readNumber, readRuleFields } from '../../src/input/csv-fields.js';
import { isTimeZone, notATimeZone } from '../../src/input/time-zone.js';

describe('CSV numbers and the upload text fields', () => {
  it('reads numbers within the schema ranges, and says what is expected otherwise', () => {
    expect(readNumber('Min Rest Hours', '0', MIN_REST_HOURS)).to.deep.equal({ value: 0 });
    expect(readNumber('Min Rest Hours', '48', MIN_REST_HOURS)).to.deep.equal({ value: 48 });
    expect(readNumber('Min Rest Hours', '7.5', MIN_REST_HOURS)).to.deep.equal({ value: 7.5 });
    expect(readNumber('Min Rest Hours', '48.5', MIN_REST_HOURS)).to.deep.equal({
      error: "Min Rest Hours '48.5' is not a number of hours from 0 to 48, such as 10.",
    });
    expect(readNumber('Max Shifts Per Day', '1', MAX_SHIFTS_PER_DAY)).to.deep.equal({ value: 1 });
    expect(readNumber('Max Shifts Per Day', '1e2', MAX_SHIFTS_PER_DAY)).to.deep.equal({
      error: "Max Shifts Per Day '1e2' is not a whole number of shifts from 1 to 100000, such as 2.",
    });
    expect(readNumber('Priority', '5', PRIORITY)).to.deep.equal({ value: 5 });
    expect(readNumber('Priority', '-1', PRIORITY)).to.deep.equal({
      error: "Priority '-1' is not a whole number from 1 (the default) to 5, where 5 is filled first, such as 3.",
    });
  });

  it('reads min_rest_hours and max_shifts_per_day; blank or missing is absent', () => {
    expect(readRuleFields({})).to.deep.equal({ rules: {} });
    expect(readRuleFields({ min_rest_hours: ' ', max_shifts_per_day: '' })).to.deep.equal({ rules: {} });
    expect(readRuleFields({ min_rest_hours: ' 8 ', max_shifts_per_day: '2' })).to.deep.equal({ rules: { min_rest_hours: 8, max_shifts_per_day: 2 } });
  });

  it('reports every bad field at once, and a field sent twice', () => {
    expect(readRuleFields({ min_rest_hours: '72', max_shifts_per_day: '0' })).to.deep.equal({
      errors: [
        "The text field min_rest_hours '72' is not a number of hours from 0 to 48, such as 10.",
        "The text field max_shifts_per_day '0' is not a whole number of shifts from 1 to 100000, such as 2.",
      ],
    });
    expect(readRuleFields({ min_rest_hours: ['8', '10'] })).to.deep.equal({ errors: ['The text field min_rest_hours was sent 2 times; send it once.'] });
  });

  it('knows IANA time zone names, UTC included, and refuses offsets and unknown names with the closest name', () => {
    for (const zone of ['UTC', 'Etc/UTC', 'America/Chicago', 'Europe/Paris', 'Asia/Kolkata', 'US/Central']) expect(isTimeZone(zone), zone).to.equal(true);
    for (const zone of ['', ' UTC', '+02:00', '-0500', 'Z', 'Mars/Olympus', 'local']) expect(isTimeZone(zone), zone).to.equal(false);
    expect(notATimeZone('timezone', 'Europe/Pariss')).to.equal(
      "timezone 'Europe/Pariss' is not an IANA time zone name; use one such as America/Chicago, Europe/Paris or UTC (the default); did you mean 'Europe/Paris'?",
    );
    expect(notATimeZone('rules.timezone', 'Mars/Olympus')).to.equal(
      "rules.timezone 'Mars/Olympus' is not an IANA time zone name; use one such as America/Chicago, Europe/Paris or UTC (the default).",
    );
  });
});
