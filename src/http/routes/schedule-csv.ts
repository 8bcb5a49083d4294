// POST /api/schedule/csv: the two spreadsheet exports as multipart/form-data (file parts
// `volunteers` and `shifts`, optional text fields `timezone`, `min_rest_hours` and
// `max_shifts_per_day`). The files become the same request as the JSON endpoint's and go
// through the same validation and engine. Uploads land in a folder of their own, removed after
// the request whatever happens. The answer is JSON, or an export as the Accept header asks.
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../config/config.js';
import type { Scheduler } from '../../engine/scheduler.js';
import type { CsvFile } from '../../input/csv.js';
import type { CsvRuleFields } from '../../input/csv-fields.js';
import { clip } from '../../input/entry-caps.js';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import { schedulePrepared } from '../../service/schedule-service.js';
import type { InputPreparer } from '../../service/input-preparer.js';
import type { CsvError } from '../../types/schema-types.js';
import { overLimit, ProblemError } from '../../service/problems.js';
import type { Metrics } from '../metrics.js';
import { parseScheduleOptions } from '../../service/options.js';
import { withJobHint } from '../../service/limits.js';
import { checkVolunteer, negotiate, respond } from './exports.js';

interface UploadedFile {
  filepath: string;
  size: number;
}

export const UPLOAD_PREFIX = 'volunteer-scheduler-upload-';
const PARTS: CsvFile[] = ['volunteers', 'shifts'];
/** The text fields the upload takes: the time zone, and the rules they set (read in src/input/csv-fields.ts). */
const TEXT_FIELDS = ['timezone', 'min_rest_hours', 'max_shifts_per_day'];
const TAKES = 'the file parts volunteers and shifts and the text fields timezone, min_rest_hours and max_shifts_per_day';

/** formidable's error codes (formidable/src/FormidableError.js), each mapped to its own answer. */
const FORMIDABLE = {
  aborted: 1002,
  maxFieldsSizeExceeded: 1006,
  maxFieldsExceeded: 1007,
  biggerThanTotalMaxFileSize: 1009,
  missingContentType: 1011,
  malformedMultipart: 1012,
  missingMultipartBoundary: 1013,
  unknownTransferEncoding: 1014,
  maxFilesExceeded: 1015,
  biggerThanMaxFileSize: 1016,
} as const;

const MAX_FIELDS = 4;
const MAX_FIELDS_BYTES = 64 * 1024;
const MAX_FILES = 2;

function multipartError(err: { code?: number; httpCode?: number; message?: string }, maxBytes: number): ProblemError {
  const multipart = (detail: string): ProblemError => new ProblemError('invalid-multipart', `${detail} The upload takes ${TAKES}.`);
  switch (err.code) {
    case FORMIDABLE.biggerThanMaxFileSize:
    case FORMIDABLE.biggerThanTotalMaxFileSize:
      return overLimit('An uploaded CSV file', 'over the limit', 'MAX_CSV_FILE_BYTES', maxBytes, 'bytes');
    case FORMIDABLE.maxFilesExceeded:
      return multipart(`The upload has more than ${MAX_FILES} file parts.`);
    case FORMIDABLE.maxFieldsExceeded:
      return multipart(`The upload has more than ${MAX_FIELDS} text fields.`);
    case FORMIDABLE.maxFieldsSizeExceeded:
      return multipart(`The upload's text fields are over ${MAX_FIELDS_BYTES / 1024} KB together.`);
    case FORMIDABLE.aborted:
      return multipart('The upload was aborted before the whole body arrived.');
    case FORMIDABLE.missingMultipartBoundary:
    case FORMIDABLE.missingContentType:
      return multipart('The Content-Type header has no multipart boundary; let the client build it (curl -F, FormData).');
    case FORMIDABLE.unknownTransferEncoding:
      return multipart('The upload uses a Transfer-Encoding this endpoint does not read.');
    default:
      return multipart(`The multipart body is malformed (${(err.message ?? 'unreadable').slice(0, 120)}).`);
  }
}

async function receive(ctx: Context, dir: string, maxBytes: number): Promise<void> {
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: {
      uploadDir: dir,
      maxFileSize: maxBytes,
      maxTotalFileSize: 2 * maxBytes,
      maxFiles: MAX_FILES,
      maxFields: MAX_FIELDS,
      maxFieldsSize: MAX_FIELDS_BYTES,
      allowEmptyFiles: true,
      minFileSize: 0,
    },
  });
  try {
    await parse(ctx, async () => {});
  } catch (thrown) {
    throw multipartError(thrown as { code?: number; httpCode?: number; message?: string }, maxBytes);
  }
}

/** Part names for a message: clipped, at most five. */
function listParts(names: string[]): string {
  const shown = names.slice(0, 5).map((n) => `'${clip(n, 40)}'`);
  return names.length > 5 ? `${shown.join(', ')} and ${names.length - 5} more` : shown.join(', ');
}

/** The two CSV exports and the text fields of an upload, read into memory. */
export interface CsvUpload {
  volunteers: Buffer;
  shifts: Buffer;
  /** The timezone field as the upload gave it (default UTC). */
  zone: string;
  ruleFields: CsvRuleFields;
}

/**
 * Reads a multipart upload of the two exports (415 when it is not multipart, 400 when parts are
 * missing, repeated, empty or unexpected). The files land in a folder of their own, removed
 * before this returns whatever happens.
 */
export async function readCsvUpload(ctx: Context, maxBytes: number): Promise<CsvUpload> {
  if (!ctx.is('multipart/form-data')) {
    const sent = ctx.get('Content-Type') || 'no Content-Type';
    throw new ProblemError(
      'unsupported-media-type',
      `This endpoint takes multipart/form-data with file parts volunteers and shifts (curl -F volunteers=@volunteers.csv -F shifts=@shifts.csv); the request sent ${sent}.`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), UPLOAD_PREFIX));
  try {
    await receive(ctx, dir, maxBytes);
    const files = (ctx.request.files ?? {}) as Record<string, UploadedFile | UploadedFile[]>;
    // koa-body gives a text field sent once as a string, sent more than once as an array.
    const fields = (ctx.request.body ?? {}) as Record<string, string | string[]>;
    const errors: CsvError[] = [];
    const unexpected = [...Object.keys(files), ...Object.keys(fields)].filter((k) => !PARTS.includes(k as CsvFile) && !TEXT_FIELDS.includes(k));
    if (unexpected.length > 0) {
      throw new ProblemError('invalid-multipart', `The upload has parts it does not take (${listParts(unexpected)}); the parts are ${TAKES}.`);
    }
    const bytes: Partial<Record<CsvFile, Buffer>> = {};
    for (const part of PARTS) {
      const file = files[part];
      if (fields[part] !== undefined)
        errors.push({ file: part, message: `Part '${part}' was sent as a text field; send it as a file (curl -F ${part}=@${part}.csv).` });
      else if (file === undefined) errors.push({ file: part, message: `The ${part} file is missing; send it as the file part '${part}'.` });
      else if (Array.isArray(file)) errors.push({ file: part, message: `The ${part} part was sent ${file.length} times; send one file.` });
      else if (file.size === 0) errors.push({ file: part, message: `The ${part} file is empty.` });
      else bytes[part] = await readFile(file.filepath);
    }
    if (errors.length > 0 || !bytes.volunteers || !bytes.shifts) {
      throw new ProblemError('invalid-csv', `The upload is incomplete: ${errors.map((e) => e.message).join(' ')}`, { errors });
    }
    const timezone = fields.timezone;
    const zone = timezone === undefined ? 'UTC' : (Array.isArray(timezone) ? timezone.join(',') : timezone).trim();
    return {
      volunteers: bytes.volunteers,
      shifts: bytes.shifts,
      zone,
      ruleFields: { min_rest_hours: fields.min_rest_hours, max_shifts_per_day: fields.max_shifts_per_day },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function scheduleCsvRoutes(
  router: Router,
  deps: { config: Config; schemas: SchemaRegistry; preparer: InputPreparer; scheduler: Scheduler; metrics?: Metrics; admit: Middleware },
): void {
  router.post('/api/schedule/csv', deps.admit, async (ctx) => {
    const call = parseScheduleOptions(ctx.query, deps.config, deps.schemas);
    const format = negotiate(ctx);
    const upload = await readCsvUpload(ctx, deps.config.limits.maxCsvFileBytes);
    const timer = deps.metrics?.solveSeconds.startTimer({ endpoint: '/api/schedule/csv' });
    let status = 'error';
    try {
      const prepared = await deps.preparer.prepareCsv(upload.volunteers, upload.shifts, upload.zone, upload.ruleFields).catch((e: unknown) => {
        throw withJobHint(e, deps.config.jobs.limits);
      });
      checkVolunteer(call, prepared.problem);
      const answer = await schedulePrepared(prepared, call, { schemas: deps.schemas, limits: deps.config.limits, scheduler: deps.scheduler });
      respond(ctx, format, prepared.problem, answer, call);
      status = 'ok';
    } finally {
      timer?.({ status });
    }
  });
}
