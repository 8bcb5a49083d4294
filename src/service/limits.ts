// The contract's limits on a request (section 1): too many volunteers, shifts or locked
// assignments, strings or property names too long, too many groups per shift, or a model too
// large is a 413 naming the limit and its configured value, checked before the work it bounds.
import type { Limits } from '../config/config.js';
import type { Problem } from '../input/problem.js';
import { overLimit, ProblemError } from './problems.js';

export function enforceCountLimits(body: unknown, limits: Limits): void {
  if (typeof body !== 'object' || body === null) return;
  const record = body as Record<string, unknown>;
  const checks: Array<[string, number, string]> = [
    ['volunteers', limits.maxVolunteers, 'MAX_VOLUNTEERS'],
    ['unassigned_shifts', limits.maxShifts, 'MAX_SHIFTS'],
    ['current_assignments', limits.maxLockedAssignments, 'MAX_LOCKED_ASSIGNMENTS'],
    // A published schedule is as long as the locks it could have been: the same limit.
    ['previous_assignments', limits.maxLockedAssignments, 'MAX_LOCKED_ASSIGNMENTS'],
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
  const items = (key: string): Array<Record<string, unknown>> =>
    (Array.isArray(record[key]) ? (record[key] as unknown[]) : []).filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
  // Property names are echoed in unknown-property warnings: bounded like strings.
  const keysOf = (value: Record<string, unknown>, where: string): void => {
    for (const key in value) if (key.length > limits.maxStringLength) tooLong(key, `a property name in ${where}`);
  };
  keysOf(record, 'the request');
  const rules = record.rules;
  if (typeof rules === 'object' && rules !== null) keysOf(rules as Record<string, unknown>, 'rules');
  for (const key of ['volunteers', 'unassigned_shifts', 'current_assignments', 'previous_assignments'])
    items(key).forEach((item, i) => {
      keysOf(item, `${key}[${i}]`);
    });
  items('volunteers').forEach((v, i) => {
    for (const field of ['id', 'name', 'group']) tooLong(v[field], `volunteers[${i}].${field}`);
    const additional = v.additional_groups;
    if (Array.isArray(additional))
      additional.forEach((g, j) => {
        tooLong(g, `volunteers[${i}].additional_groups[${j}]`);
      });
    for (const list of ['available', 'unavailable']) {
      const windows = v[list];
      if (Array.isArray(windows))
        windows.forEach((w, j) => {
          if (typeof w === 'object' && w !== null) keysOf(w as Record<string, unknown>, `volunteers[${i}].${list}[${j}]`);
        });
    }
  });
  items('unassigned_shifts').forEach((s, i) => {
    tooLong(s.id, `unassigned_shifts[${i}].id`);
    const groups = s.required_groups;
    if (typeof groups === 'object' && groups !== null && !Array.isArray(groups)) {
      const names = Object.keys(groups);
      if (names.length > limits.maxGroupsPerShift) {
        throw overLimit(
          `unassigned_shifts[${i}].required_groups`,
          `${names.length.toLocaleString('en-US')} groups`,
          'MAX_GROUPS_PER_SHIFT',
          limits.maxGroupsPerShift,
          'groups',
        );
      }
      for (const name of names) tooLong(name, `a group name in unassigned_shifts[${i}].required_groups`);
    }
  });
  for (const key of ['current_assignments', 'previous_assignments'])
    items(key).forEach((a, i) => {
      for (const field of ['shift_id', 'volunteer_id', 'group']) tooLong(a[field], `${key}[${i}].${field}`);
    });
}

/**
 * The engine's model has a variable per (volunteer, shift) pair of a group: bound its size. A
 * volunteer counts once for each group they can fill (their group and additional_groups).
 */
export function enforcePairLimit(problem: Problem, limits: Limits): void {
  const members = new Map<string, number>();
  for (const v of problem.volunteers) for (const g of v.groups) members.set(g, (members.get(g) ?? 0) + 1);
  let pairs = 0;
  for (const s of problem.shifts) for (const [group, n] of s.required) if (n > 0) pairs += members.get(group) ?? 0;
  if (pairs > limits.maxCandidatePairs) {
    const problemError = overLimit(
      'The number of (volunteer, shift) pairs of the same group',
      pairs.toLocaleString('en-US'),
      'MAX_CANDIDATE_PAIRS',
      limits.maxCandidatePairs,
      'pairs',
    );
    throw new ProblemError('payload-too-large', `${problemError.detail} Split the request by date range or by group.`, problemError.extras);
  }
}

/** The request limits a job may exceed, by name: the job's own limit's name and field. */
const JOB_LIMITS: Record<string, [string, keyof Limits]> = {
  MAX_VOLUNTEERS: ['JOB_MAX_VOLUNTEERS', 'maxVolunteers'],
  MAX_SHIFTS: ['JOB_MAX_SHIFTS', 'maxShifts'],
  MAX_LOCKED_ASSIGNMENTS: ['JOB_MAX_LOCKED_ASSIGNMENTS', 'maxLockedAssignments'],
  MAX_CANDIDATE_PAIRS: ['JOB_MAX_CANDIDATE_PAIRS', 'maxCandidatePairs'],
};

/**
 * A synchronous request over a count limit a job takes more of: the 413 says so, so that a
 * year-long roster is sent to POST /api/jobs rather than split by hand. Other errors unchanged.
 */
export function withJobHint(error: unknown, jobLimits: Limits): unknown {
  if (!(error instanceof ProblemError) || error.type.slug !== 'payload-too-large' || !error.extras.limit) return error;
  const job = JOB_LIMITS[error.extras.limit.name];
  if (!job || jobLimits[job[1]] <= error.extras.limit.value) return error;
  return new ProblemError(
    'payload-too-large',
    `${error.detail} A background job (POST /api/jobs, the same body) takes up to ${jobLimits[job[1]].toLocaleString('en-US')} (${job[0]}).`,
    error.extras,
  );
}

/** A job over one of the jobs' count limits: the 413 names the job's limit (JOB_MAX_SHIFTS...), not the request's. */
export function asJobLimit(error: unknown): unknown {
  if (!(error instanceof ProblemError) || error.type.slug !== 'payload-too-large' || !error.extras.limit) return error;
  const job = JOB_LIMITS[error.extras.limit.name];
  if (!job) return error;
  const name = error.extras.limit.name;
  return new ProblemError('payload-too-large', error.detail.replace(`(${name})`, `(${job[0]})`), {
    ...error.extras,
    limit: { name: job[0], value: error.extras.limit.value },
  });
}
