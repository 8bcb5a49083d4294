// The service's first step, *prepare*: from the bytes a client sent to the engine's problem.
// Parsing, the contract's limits, validation and normalization, for JSON bodies and for the two
// CSV exports alike. Everything here is pure and synchronous, and its cost grows linearly with
// the input; the service runs it on input worker threads (input-preparer.ts) so that a 10 MB
// body never holds the event loop, and the CLI runs it in its own thread.
import bourne from '@hapi/bourne';
import { readCsvRequest } from '../input/csv.js';
import { type CsvRuleFields, readRuleFields } from '../input/csv-fields.js';
import { isTimeZone, notATimeZone } from '../input/time-zone.js';
import type { Problem } from '../input/problem.js';
import type { SchemaRegistry } from '../input/schema-registry.js';
import { checkScheduleRequest } from '../input/validate-request.js';
import { lockWarnings } from '../rules/lock-warnings.js';
import type { Limits } from '../config/config.js';
import type { ValidationResult, Warning } from '../types/schema-types.js';
import { enforceCountLimits, enforcePairLimit } from './limits.js';
import { invalidRequest, overLimit, plural, ProblemError } from './problems.js';

/** A problem ready for the engine, with the warnings found on the way. */
export interface PreparedProblem {
  problem: Problem;
  warnings: Warning[];
  /** Time spent preparing (diagnostics' parse_ms). */
  parseMs: number;
}

export interface PrepareContext {
  schemas: SchemaRegistry;
  limits: Limits;
}

/**
 * Parses a JSON body: UTF-8 (a leading BOM is dropped), any JSON value, keys named __proto__
 * refused (prototype poisoning), as koa-body's parser did.
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.trim() === '') {
    throw new ProblemError('invalid-json', 'The request body is empty; send a JSON object with volunteers and unassigned_shifts.');
  }
  try {
    return bourne.parse(text, { protoAction: 'error' });
  } catch (e) {
    const message = e instanceof Error ? e.message : 'syntax error';
    throw new ProblemError(
      'invalid-json',
      `The body is not valid JSON: ${message}. Check for trailing commas, single quotes and unquoted keys; keys named __proto__ are not accepted.`,
    );
  }
}

/** POST /api/validate: every error and warning of a JSON body (a 413 past a count limit). */
export function validateJsonBody(bytes: Uint8Array, context: PrepareContext): ValidationResult {
  return validateRequest(parseJsonBody(bytes), context);
}

/** Every error and warning of a parsed request (the CLI's validate command reads its file itself). */
export function validateRequest(body: unknown, context: PrepareContext): ValidationResult {
  enforceCountLimits(body, context.limits);
  return checkScheduleRequest(body, context.schemas, lockWarnings).result;
}

/** POST /api/schedule: the engine's problem from a JSON body, or the 400/413 it deserves. */
export function prepareJsonBody(bytes: Uint8Array, context: PrepareContext): PreparedProblem {
  const started = performance.now();
  return prepareRequest(parseJsonBody(bytes), [], context, started);
}

/** The engine's problem from a parsed request: limits, validation, normalization. */
export function prepareRequest(body: unknown, warnings: Warning[], context: PrepareContext, started = performance.now()): PreparedProblem {
  enforceCountLimits(body, context.limits);
  const { result, problem, errorCount } = checkScheduleRequest(body, context.schemas, lockWarnings);
  if (!result.valid || !problem) throw invalidRequest(result.errors, result.warnings, errorCount);
  enforcePairLimit(problem, context.limits);
  return { problem, warnings: [...warnings, ...result.warnings], parseMs: performance.now() - started };
}

/**
 * POST /api/schedule/csv: the two exports read into the same request, then prepareRequest. The
 * text fields: `timezone` (the zone times are read in, and rules.timezone), and `ruleFields`,
 * min_rest_hours and max_shifts_per_day (rules.min_rest_hours, rules.max_shifts_per_day).
 */
export function prepareCsv(
  volunteers: Uint8Array,
  shifts: Uint8Array,
  timezone: string,
  context: PrepareContext,
  ruleFields: CsvRuleFields = {},
): PreparedProblem {
  const started = performance.now();
  const fields = readRuleFields(ruleFields);
  const fieldErrors = [...(isTimeZone(timezone) ? [] : [notATimeZone('timezone', timezone)]), ...('errors' in fields ? fields.errors : [])];
  if (fieldErrors.length > 0 || !('rules' in fields)) throw new ProblemError('invalid-csv', fieldErrors.join(' '));
  const maxRows = { volunteers: context.limits.maxVolunteers, shifts: context.limits.maxShifts };
  const read = readCsvRequest(
    Buffer.from(volunteers.buffer, volunteers.byteOffset, volunteers.byteLength),
    Buffer.from(shifts.buffer, shifts.byteOffset, shifts.byteLength),
    timezone,
    maxRows,
    fields.rules,
  );
  if (!read.ok && 'tooManyRows' in read) {
    const { file, rows, max } = read.tooManyRows;
    throw overLimit(
      file === 'volunteers' ? 'volunteers' : 'unassigned_shifts',
      `${rows.toLocaleString('en-US')} entries (data rows of the ${file} file)`,
      file === 'volunteers' ? 'MAX_VOLUNTEERS' : 'MAX_SHIFTS',
      max,
      'entries',
    );
  }
  if (!read.ok) {
    throw new ProblemError(
      'invalid-csv',
      `The CSV files have ${plural(read.errors.length, 'problem')}; each is listed in errors with its file, row and column.`,
      { errors: read.errors },
    );
  }
  return prepareRequest(read.request, read.warnings, context, started);
}
