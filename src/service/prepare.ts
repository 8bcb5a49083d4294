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
import type { CsvError, FieldError, ValidationResult, Warning } from '../types/schema-types.js';
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
  const checked = checkRequest(body, context);
  if (!checked.problem) throw invalidRequest(checked.result.errors, checked.result.warnings, checked.errorCount);
  return { problem: checked.problem, warnings: [...warnings, ...checked.result.warnings], parseMs: performance.now() - started };
}

/** Limits and validation; when valid, the normalized problem, within the pair limit. */
function checkRequest(body: unknown, context: PrepareContext): { result: ValidationResult; problem?: Problem; errorCount: number } {
  enforceCountLimits(body, context.limits);
  const checked = checkScheduleRequest(body, context.schemas, lockWarnings);
  if (!checked.result.valid || !checked.problem) return { result: checked.result, errorCount: checked.errorCount };
  enforcePairLimit(checked.problem, context.limits);
  return checked;
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
  if (!read.ok) throw invalidCsv(read.errors, read.errors.length);
  // Validation speaks in pointers into the request built from the files; the coordinator wrote cells.
  const { result, problem, errorCount } = checkRequest(read.request, context);
  if (!problem) throw invalidCsv(read.locator.locateErrors(result.errors), errorCount);
  const warnings = [...read.warnings, ...result.warnings.map((w) => read.locator.locateWarning(w))];
  return { problem, warnings, parseMs: performance.now() - started };
}

/** 400 invalid-csv: each problem with its file, row and column; `total` counts those the list leaves out too. */
function invalidCsv(errors: Array<CsvError | FieldError>, total: number): ProblemError {
  const listed = total > errors.length ? 'the first of each kind are listed in errors with their' : 'each is listed in errors with its';
  return new ProblemError('invalid-csv', `The CSV files have ${plural(total, 'problem')}; ${listed} file, row and column.`, { errors });
}
