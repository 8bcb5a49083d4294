// POST /api/recommendations below HTTP: the body's own fields checked against
// schemas/recommendation-request.json, its `request` member validated exactly as POST
// /api/schedule validates its body (the same limits, errors and warnings, every pointer under
// /request), then the engine's answer (engine/recommend.ts) with the warnings gathered on the
// way. Every error is a 400 invalid-request listing all of them at once.
import type { FieldError, RecommendationResult, Warning } from '../types/schema-types.js';
import { NameSuggester } from '../input/did-you-mean.js';
import { CappedEntries, clip, quoteName, TRUNCATED_CODE, truncatedMessage, WARNINGS_PER_CODE } from '../input/entry-caps.js';
import { comparePointers, escapeSegment } from '../input/json-pointer.js';
import type { Problem } from '../input/problem.js';
import { checkScheduleRequest } from '../input/validate-request.js';
import { lockWarnings } from '../rules/lock-warnings.js';
import { recommend, type RecommendationAsk } from '../engine/recommend.js';
import { enforceCountLimits, enforcePairLimit } from './limits.js';
import type { InputPreparer } from './input-preparer.js';
import { parseJsonBody, type PrepareContext } from './prepare.js';
import { plural, ProblemError } from './problems.js';

type Obj = Record<string, unknown>;

/** The schema's default for `limit`. */
export const DEFAULT_RECOMMENDATION_LIMIT = 10;

/** What each top-level field should look like, for messages. */
const EXPECTED: Record<string, string> = {
  '': 'a JSON object such as {"request": {...a POST /api/schedule body...}, "shift_id": "sat-am"}',
  request: 'a POST /api/schedule body: an object with volunteers and unassigned_shifts',
  shift_id: 'the id of a shift of request.unassigned_shifts, such as "sat-am"',
  group: 'a group the shift requires, such as "kitchen"',
  replace_volunteer_id: 'the id of a volunteer on the shift, such as "v3"',
  limit: 'a whole number from 1 to 100 (default 10)',
};

const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(clip(value, 40))}`;
  // Parsed JSON holds nothing else: a number or a boolean.
  return JSON.stringify(value);
}

/** What validating the body's `request` member found: its problem when valid, its entries under /request. */
interface RequestChecked {
  problem?: Problem;
  errors: FieldError[];
  warnings: Warning[];
  /** Errors found, those the list leaves out included. */
  errorCount: number;
}

/**
 * POST /api/recommendations: the answer for a JSON body, or the 400/413 it deserves. The body is
 * parsed here; its `request` member, the bulk of it, is validated and normalized by the
 * preparer (on an input worker in the service, as POST /api/schedule's body is), so that a large
 * request does not hold the event loop while it is checked.
 */
export async function recommendJsonBody(bytes: Uint8Array, context: PrepareContext & { preparer: InputPreparer }): Promise<RecommendationResult> {
  const body = parseJsonBody(bytes);
  const checked = isObject(body) && isObject(body.request) ? await prepared(body.request, context.preparer) : undefined;
  return answer(body, context, checked);
}

/** The request member through the preparer: the same limits, entries and problem as checkScheduleRequest gives. */
async function prepared(request: Obj, preparer: InputPreparer): Promise<RequestChecked> {
  try {
    const { problem, warnings } = await preparer.prepareJson(Buffer.from(JSON.stringify(request)));
    return { problem, errors: [], warnings: warnings.map(underRequest), errorCount: 0 };
  } catch (e) {
    if (!(e instanceof ProblemError) || e.type.slug !== 'invalid-request') throw e;
    const errors = (e.extras.errors ?? []) as FieldError[];
    return { errors: errors.map(underRequest), warnings: (e.extras.warnings ?? []).map(underRequest), errorCount: errors.length };
  }
}

/** The answer for a parsed body, validated in this thread (the CLI and the tests). */
export function recommendBody(body: unknown, context: PrepareContext): RecommendationResult {
  let checked: RequestChecked | undefined;
  if (isObject(body) && isObject(body.request)) {
    enforceCountLimits(body.request, context.limits);
    const found = checkScheduleRequest(body.request, context.schemas, lockWarnings);
    if (found.problem) enforcePairLimit(found.problem, context.limits);
    checked = {
      ...(found.problem ? { problem: found.problem } : {}),
      errors: found.result.errors.map(underRequest),
      warnings: found.result.warnings.map(underRequest),
      errorCount: found.errorCount,
    };
  }
  return answer(body, context, checked);
}

/** The body's own fields, the request's findings, then the engine's answer; every error at once. */
function answer(body: unknown, context: PrepareContext, checked: RequestChecked | undefined): RecommendationResult {
  if (!isObject(body)) throw invalid([{ pointer: '', code: 'invalid_type', message: `The body must be ${EXPECTED['']!}, not ${describe(body)}.` }]);
  const errors = [...fieldErrors(body, context), ...(checked?.errors ?? [])];
  const warnings = [...unknownFields(body, context), ...(checked?.warnings ?? [])];
  let errorCount = errors.length - (checked?.errors.length ?? 0) + (checked?.errorCount ?? 0);
  const problem = checked?.problem;
  const sorted = <T extends { pointer?: string }>(list: T[]): T[] => list.sort(byPointer);
  // shift_id, group and replace_volunteer_id are checked against a valid request even when
  // other fields are wrong, so that every error is listed at once.
  const outcome = problem && typeof body.shift_id === 'string' && body.shift_id !== '' ? recommend(problem, askOf(body)) : undefined;
  if (outcome && !outcome.ok) {
    errors.push(...outcome.errors);
    errorCount += outcome.errors.length;
  }
  if (errors.length > 0 || !outcome?.ok) throw invalid(sorted(errors), sorted(warnings), errorCount);
  return { ...outcome.result, warnings: sorted([...warnings, ...outcome.schedule.leftOut()]) };
}

/** 400 invalid-request with every entry; `total` counts those the list leaves out too. */
function invalid(errors: FieldError[], warnings: Warning[] = [], total = errors.length): ProblemError {
  const listed = total > errors.length ? 'the first of each kind are listed in errors' : 'each is listed in errors';
  return new ProblemError(
    'invalid-request',
    `The body has ${plural(total, 'error')}; ${listed}. Those of the request member point under /request (POST /api/validate checks that member alone).`,
    { errors, warnings },
  );
}

/** In the order of the body, entries with no pointer (entries_truncated) last. */
function byPointer(a: { pointer?: string }, b: { pointer?: string }): number {
  if (a.pointer === undefined || b.pointer === undefined) return Number(a.pointer === undefined) - Number(b.pointer === undefined);
  return comparePointers(a.pointer, b.pointer);
}

/** The body's fields besides `request` (valid ones; a field that is not is left to its default, its error reported). */
function askOf(body: Obj): RecommendationAsk {
  const limit = body.limit;
  return {
    shiftId: body.shift_id as string,
    limit: typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : DEFAULT_RECOMMENDATION_LIMIT,
    ...(typeof body.group === 'string' && body.group !== '' ? { group: body.group } : {}),
    ...(typeof body.replace_volunteer_id === 'string' && body.replace_volunteer_id !== '' ? { replaceVolunteerId: body.replace_volunteer_id } : {}),
  };
}

/** An entry of the request's validation, pointing into the body's `request` member. */
function underRequest<T extends { pointer?: string }>(entry: T): T {
  return entry.pointer === undefined ? entry : { ...entry, pointer: `/request${entry.pointer}` };
}

/**
 * The body's own fields against the schema file (the request member's inside is checked by
 * checkScheduleRequest, so the schema sees an empty object in its place): one entry per field.
 */
function fieldErrors(body: Obj, context: PrepareContext): FieldError[] {
  const validate = context.schemas.validator('recommendation-request');
  const requestChecked = isObject(body.request);
  if (validate({ ...body, request: requestChecked ? {} : body.request })) return [];
  const byField = new Map<string, FieldError>();
  for (const e of validate.errors ?? []) {
    const field = e.keyword === 'required' ? (e.params as { missingProperty: string }).missingProperty : e.instancePath.split('/')[1];
    if (field === undefined || field === '' || byField.has(field) || (requestChecked && e.instancePath.startsWith('/request'))) continue;
    const expected = EXPECTED[field] ?? 'a value of the documented type';
    const value = body[field];
    const code =
      e.keyword === 'required'
        ? 'required'
        : e.keyword === 'minLength'
          ? 'empty_string'
          : e.keyword === 'minimum' || e.keyword === 'maximum'
            ? 'out_of_range'
            : field === 'limit' && typeof value === 'number'
              ? 'not_integer'
              : 'invalid_type';
    const message = code === 'required' ? `${field} is required: ${expected}.` : `${field} must be ${expected}, not ${describe(value)}.`;
    byField.set(field, { pointer: `/${escapeSegment(field)}`, code, message });
  }
  return [...byField.values()];
}

/** A warning per top-level property the body's schema does not name (often a typo). */
function unknownFields(body: Obj, context: PrepareContext): Warning[] {
  const known = Object.keys(context.schemas.schemas.get('recommendation-request')?.properties ?? {});
  const hints = new NameSuggester(known);
  const out = new CappedEntries<Warning>(WARNINGS_PER_CODE);
  for (const key of Object.keys(body)) {
    if (known.includes(key)) continue;
    out.add('unknown_property', () => ({
      code: 'unknown_property',
      message: `Property ${quoteName(key)} is not part of a recommendation request and is ignored${hints.didYouMean(key)}`,
      pointer: `/${escapeSegment(key)}`,
    }));
  }
  return [...out.list(), ...out.overflow((code, more) => ({ code: TRUNCATED_CODE, message: truncatedMessage('warnings', code, more) }))];
}
