// The service's one error type and the catalog of problem types. Anything thrown in a request
// becomes RFC 9457 problem details in one place (middleware/problem-responder.ts); the catalog
// also feeds the explanation pages served at GET /problems/<slug>.
import type { CsvError, FieldError, Warning } from '../types/schema-types.js';

export type ProblemSlug =
  | 'invalid-json'
  | 'invalid-request'
  | 'invalid-csv'
  | 'invalid-encoding'
  | 'invalid-multipart'
  | 'unauthorized'
  | 'quota-exceeded'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'not-found'
  | 'method-not-allowed'
  | 'overloaded'
  | 'too-many-jobs'
  | 'job-not-finished'
  | 'job-no-result'
  | 'job-ended'
  | 'internal';

export interface ProblemType {
  slug: ProblemSlug;
  status: number;
  title: string;
  /** A paragraph for the /problems/<slug> page: when it happens and what to do. */
  explanation: string;
}

export const problemTypes: Record<ProblemSlug, ProblemType> = {
  'invalid-json': {
    slug: 'invalid-json',
    status: 400,
    title: 'The body is not valid JSON',
    explanation:
      "The request body could not be parsed as JSON: it is empty, cut short, or has a syntax error (a trailing comma, single quotes, an unquoted key). The detail gives the parser's message. Keys named __proto__ are refused. Send one JSON object with Content-Type: application/json.",
  },
  'invalid-request': {
    slug: 'invalid-request',
    status: 400,
    title: 'The request is not valid',
    explanation:
      'The body is JSON but breaks the request schema or a rule of the contract (for example a start with no time zone in a request without timezone, a group asked for that differs from a volunteer group only in case, required_groups as a string, max_hours null, end not after start, duplicate ids, a current assignment naming an unknown shift), or a query parameter is unknown or malformed. errors lists every problem at once, each with a JSON Pointer to the offending value; POST /api/validate returns the same entries without scheduling.',
  },
  'invalid-csv': {
    slug: 'invalid-csv',
    status: 400,
    title: 'The CSV upload is not valid',
    explanation:
      'A part of the multipart upload is missing or empty, or a CSV file has a missing column or bad cells (a date not in one of the accepted forms, M/D/YYYY h:mm AM|PM, M/D/YYYY H:MM or YYYY-MM-DD HH:MM, one form per file; a day/month order that cannot be told apart), or the request the files describe breaks a rule of the contract (such as a group asked for in another upper/lower case than the volunteers write it). errors lists every problem as {file, row, column, id, message}, and code for a rule found after reading the cells, with rows numbered as a spreadsheet shows them (the header is row 1).',
  },
  'invalid-encoding': {
    slug: 'invalid-encoding',
    status: 400,
    title: 'The body cannot be decoded',
    explanation:
      'The body is compressed as its Content-Encoding header says (gzip, deflate or br), but the compressed data is corrupt or cut short, so it cannot be read. Send the body uncompressed, or compress it again; an unknown Content-Encoding gets 415 instead.',
  },
  'invalid-multipart': {
    slug: 'invalid-multipart',
    status: 400,
    title: 'The multipart upload cannot be read',
    explanation:
      'POST /api/schedule/csv takes multipart/form-data with two file parts, volunteers and shifts, and optional text fields timezone, min_rest_hours and max_shifts_per_day. The body is not well-formed multipart (a missing boundary, a part cut short), or it has more parts or fields than the upload takes. The detail says which. curl -F volunteers=@volunteers.csv -F shifts=@shifts.csv sends a well-formed upload.',
  },
  unauthorized: {
    slug: 'unauthorized',
    status: 401,
    title: 'Missing or invalid API key',
    explanation:
      'Every /api endpoint needs the header Authorization: Bearer <user_id>.<signature>. The detail says which check failed: no header, not a Bearer key, a malformed key (keys of version 1.0 are not accepted: request a new one), an unknown user, an invalid signature, or a revoked key. Keys are only read from the Authorization header.',
  },
  'quota-exceeded': {
    slug: 'quota-exceeded',
    status: 429,
    title: 'Daily quota used up',
    explanation:
      'The key has used its daily request quota. The quota resets at 00:00 UTC; Retry-After gives the seconds until then. GET /api/usage keeps answering. Ask the operator for a higher quota.',
  },
  'payload-too-large': {
    slug: 'payload-too-large',
    status: 413,
    title: 'The payload is over a limit',
    explanation:
      'The body, a CSV file, or the number of volunteers, shifts or locked assignments is over the configured limit. The detail and the limit member name the limit and its configured value. Split the request or ask the operator to raise the limit.',
  },
  'unsupported-media-type': {
    slug: 'unsupported-media-type',
    status: 415,
    title: 'Unsupported content type',
    explanation:
      'The JSON endpoints take Content-Type: application/json; POST /api/schedule/csv takes multipart/form-data; POST /api/jobs takes either. Set the header that matches the body.',
  },
  'not-found': {
    slug: 'not-found',
    status: 404,
    title: 'No such resource',
    explanation:
      "Nothing is served at this path, or the job asked for is not this key's user's (another user's job is answered as if it did not exist) or was deleted after JOB_RETENTION_HOURS. The endpoints are POST /api/schedule, POST /api/schedule/csv, POST /api/validate, POST /api/recommendations, GET /api/usage and the jobs under /api/jobs; paths carry no version segment.",
  },
  'method-not-allowed': {
    slug: 'method-not-allowed',
    status: 405,
    title: 'Method not allowed',
    explanation: 'The path exists but does not take this HTTP method. The Allow header lists the methods it takes.',
  },
  overloaded: {
    slug: 'overloaded',
    status: 503,
    title: 'The service is busy',
    explanation: 'The solver queue is full or the database cannot be reached right now. Retry after the number of seconds in Retry-After.',
  },
  'too-many-jobs': {
    slug: 'too-many-jobs',
    status: 429,
    title: 'Too many jobs queued or solving',
    explanation:
      "The key's user already has as many jobs queued or solving as one user may (MAX_ACTIVE_JOBS_PER_USER, 20 by default). Wait until one ends (GET /api/jobs/<id>, or its events stream) or cancel one with DELETE /api/jobs/<id>, then submit again. The job was not recorded, but the call counted against the daily quota.",
  },
  'job-not-finished': {
    slug: 'job-not-finished',
    status: 409,
    title: 'The job has not finished',
    explanation:
      'The job is queued or solving, so it has no result yet. GET /api/jobs/<id> shows its status and progress; GET /api/jobs/<id>/events streams them and ends when the job does. Ask for the result once the status is completed (or cancelled: a cancelled job keeps the best schedule it found).',
  },
  'job-no-result': {
    slug: 'job-no-result',
    status: 409,
    title: 'The job ended without a schedule',
    explanation:
      'The job failed (its error says why: GET /api/jobs/<id>), or it was cancelled before a worker started it, so there is no schedule to return. Submit the request again (fixing what the error names).',
  },
  'job-ended': {
    slug: 'job-ended',
    status: 409,
    title: 'The job already ended',
    explanation:
      'DELETE /api/jobs/<id> cancels a queued or solving job; this one is completed or failed already, so there is nothing to cancel. Its result stays readable until it is deleted after JOB_RETENTION_HOURS.',
  },
  internal: {
    slug: 'internal',
    status: 500,
    title: 'Internal error',
    explanation:
      'The service failed on a request it should have answered. Nothing about the failure is shown here; it is logged with the request id. Report the request_id to the operator.',
  },
};

export interface ProblemExtras {
  errors?: Array<FieldError | CsvError>;
  warnings?: Warning[];
  limit?: { name: string; value: number };
  /** Extra response headers (Allow, Retry-After, WWW-Authenticate...). */
  headers?: Record<string, string>;
}

/** The one error type of the service: a problem of a catalogued type with a specific detail. */
export class ProblemError extends Error {
  readonly type: ProblemType;
  readonly status: number;
  readonly expose = true;

  constructor(
    slug: ProblemSlug,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
  ) {
    super(detail);
    this.name = 'ProblemError';
    this.type = problemTypes[slug];
    this.status = this.type.status;
  }
}

export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : pluralWord}`;
}

/**
 * 400 invalid-request carrying the same field-level entries as POST /api/validate; `total`
 * counts the errors found where the list leaves some out (see input/entry-caps.ts).
 */
export function invalidRequest(errors: FieldError[], warnings: Warning[] = [], total: number = errors.length): ProblemError {
  const listed = total > errors.length ? 'the first of each kind are listed in errors' : 'each is listed in errors';
  return new ProblemError('invalid-request', `The payload has ${plural(total, 'error')}; ${listed}. POST /api/validate gives the same entries.`, {
    errors,
    warnings,
  });
}

/** 413 naming the limit and its configured value. */
export function overLimit(what: string, found: string, limitName: string, value: number, unit: string): ProblemError {
  return new ProblemError('payload-too-large', `${what} is ${found}; the limit is ${value.toLocaleString('en-US')} ${unit} (${limitName}).`, {
    limit: { name: limitName, value },
  });
}
