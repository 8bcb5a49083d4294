// The numbers a spreadsheet upload carries as text, in cells (Min Rest Hours, Max Shifts Per Day,
// Min Hours, Priority) and in the multipart text fields min_rest_hours and max_shifts_per_day, each read
// against the range the schemas allow, with a message that says what is expected.
import { clip } from './entry-caps.js';

export interface NumberRule {
  integer: boolean;
  min: number;
  max: number;
  /** Ends the message: what to write instead. */
  expected: string;
}

export const MIN_REST_HOURS: NumberRule = { integer: false, min: 0, max: 48, expected: 'a number of hours from 0 to 48, such as 10' };
export const MAX_SHIFTS_PER_DAY: NumberRule = { integer: true, min: 1, max: 100_000, expected: 'a whole number of shifts from 1 to 100000, such as 2' };
export const MIN_HOURS: NumberRule = {
  integer: false,
  min: 0,
  max: 100_000,
  expected: 'a number of hours from 0 to 100000, such as 6 (a target, never a limit)',
};
export const PRIORITY: NumberRule = { integer: true, min: 1, max: 5, expected: 'a whole number from 1 (the default) to 5, where 5 is filled first, such as 3' };

/** A non-blank text as the number `rule` allows, or a message naming `label`. */
export function readNumber(label: string, value: string, rule: NumberRule): { value: number } | { error: string } {
  const form = rule.integer ? /^\d+$/ : /^\d+(\.\d+)?$/;
  const n = Number(value);
  if (form.test(value) && n >= rule.min && n <= rule.max) return { value: n };
  return { error: `${label} '${clip(value)}' is not ${rule.expected}.` };
}

/** The multipart text fields that set the request's rules, as koa-body gives them (an array when sent more than once). */
export interface CsvRuleFields {
  min_rest_hours?: string | string[] | undefined;
  max_shifts_per_day?: string | string[] | undefined;
}

export type CsvRules = { min_rest_hours?: number; max_shifts_per_day?: number };

/** The rules the upload's text fields set (a blank field is absent), or a message per bad field. */
export function readRuleFields(fields: CsvRuleFields): { rules: CsvRules } | { errors: string[] } {
  const rules: CsvRules = {};
  const errors: string[] = [];
  const read = (name: keyof CsvRuleFields, rule: NumberRule): void => {
    const raw = fields[name];
    if (Array.isArray(raw)) {
      errors.push(`The text field ${name} was sent ${raw.length} times; send it once.`);
      return;
    }
    const value = (raw ?? '').trim();
    if (value === '') return;
    const n = readNumber(`The text field ${name}`, value, rule);
    if ('error' in n) errors.push(n.error);
    else rules[name] = n.value;
  };
  read('min_rest_hours', MIN_REST_HOURS);
  read('max_shifts_per_day', MAX_SHIFTS_PER_DAY);
  return errors.length > 0 ? { errors } : { rules };
}
