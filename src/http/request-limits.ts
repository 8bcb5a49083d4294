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
}
