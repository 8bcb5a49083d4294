// Small builders for the rule tests: a normalized problem from a compact request, and the lock
// warnings it gets.
import type { Warning } from '../../src/types/schema-types.js';
import { CappedEntries } from '../../src/input/entry-caps.js';
import { normalizeRequest, type Problem } from '../../src/input/problem.js';
import { lockWarnings } from '../../src/rules/lock-warnings.js';
import type { ScheduleRequest } from '../../src/types/schema-types.js';

export const HOUR = 3_600_000;
export const T0 = Date.UTC(2026, 5, 6);
/** 2026-06-06 plus `h` hours, as the contract writes it. */
export const at = (h: number): string => new Date(T0 + h * HOUR).toISOString().replace('.000Z', 'Z');

export function problemOf(request: Partial<ScheduleRequest> & Pick<ScheduleRequest, 'volunteers'>): Problem {
  return normalizeRequest({ unassigned_shifts: [], ...request });
}

export function warningsOf(problem: Problem): Warning[] {
  const out = new CappedEntries<Warning>(100);
  lockWarnings(problem, out);
  return out.list();
}

export const shiftAt = (id: string, from: number, to: number, required: Record<string, number>, priority?: number) => ({
  id,
  start: at(from),
  end: at(to),
  required_groups: required,
  ...(priority ? { priority } : {}),
});
