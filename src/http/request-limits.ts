// The contract's count limits on a JSON request (section 1): too many volunteers, shifts or
// locked assignments is a 413 naming the limit and its configured value, checked before any
// validation work.
import type { Limits } from '../config/config.js';
import { overLimit } from './problems.js';

export function enforceCountLimits(body: unknown, limits: Limits): void {
  if (typeof body !== 'object' || body === null) return;
  const record = body as Record<string, unknown>;
  const checks: Array<[string, number, string]> = [
    ['volunteers', limits.maxVolunteers, 'MAX_VOLUNTEERS'],
    ['unassigned_shifts', limits.maxShifts, 'MAX_SHIFTS'],
    ['current_assignments', limits.maxLockedAssignments, 'MAX_LOCKED_ASSIGNMENTS'],
  ];
  for (const [key, max, name] of checks) {
    const list = record[key];
    if (Array.isArray(list) && list.length > max) {
      throw overLimit(key, `${list.length.toLocaleString('en-US')} entries`, name, max, 'entries');
    }
  }
  // Strings and groups: checked before validation, which would echo them into messages.
  const tooLong = (value: unknown, where: string): void => {
    if (typeof value === 'string' && value.length > limits.maxStringLength) {
      throw overLimit(where, `${value.length.toLocaleString('en-US')} characters long`, 'MAX_STRING_LENGTH', limits.maxStringLength, 'characters');
    }
  };
  const items = (key: string): Array<Record<string, unknown>> => (Array.isArray(record[key]) ? (record[key] as unknown[]) : []).filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
  items('volunteers').forEach((v, i) => {
    for (const field of ['id', 'name', 'group']) tooLong(v[field], `volunteers[${i}].${field}`);
  });
  items('unassigned_shifts').forEach((s, i) => {
    tooLong(s.id, `unassigned_shifts[${i}].id`);
    const groups = s.required_groups;
    if (typeof groups === 'object' && groups !== null && !Array.isArray(groups)) {
      const names = Object.keys(groups);
      if (names.length > limits.maxGroupsPerShift) {
        throw overLimit(`unassigned_shifts[${i}].required_groups`, `${names.length.toLocaleString('en-US')} groups`, 'MAX_GROUPS_PER_SHIFT', limits.maxGroupsPerShift, 'groups');
      }
      for (const name of names) tooLong(name, `a group name in unassigned_shifts[${i}].required_groups`);
    }
  });
  items('current_assignments').forEach((a, i) => {
    for (const field of ['shift_id', 'volunteer_id']) tooLong(a[field], `current_assignments[${i}].${field}`);
  });
}
