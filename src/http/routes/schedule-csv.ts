// POST /api/schedule/csv: the two spreadsheet exports as multipart/form-data (file parts
// `volunteers` and `shifts`, optional text field `timezone`). The files become the same request
// as the JSON endpoint's and go through the same validation and engine. Uploads land in a
// folder of their own, removed after the request whatever happens.
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../config/config.js';
import type { Scheduler } from '../../engine/scheduler.js';
import type { CsvFile } from '../../input/csv.js';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import { scheduleCsv } from '../../schedule-service.js';
import type { CsvError } from '../../types/schema-types.js';
import { overLimit, ProblemError } from '../problems.js';
import type { Metrics } from '../metrics.js';
import { parseScheduleQuery } from './schedule.js';

interface UploadedFile {
  filepath: string;
  size: number;
}

export const UPLOAD_PREFIX = 'volunteer-scheduler-upload-';
const PARTS: CsvFile[] = ['volunteers', 'shifts'];

async function receive(ctx: Context, dir: string, maxBytes: number): Promise<void> {
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formidable: { uploadDir: dir, maxFileSize: maxBytes, maxTotalFileSize: 2 * maxBytes, maxFiles: 2, maxFields: 4, maxFieldsSize: 64 * 1024, allowEmptyFiles: true, minFileSize: 0 },
  });
  try {
    await parse(ctx, async () => {});
  } catch (thrown) {
    const err = thrown as { httpCode?: number; code?: number; message?: string };
    if (err.httpCode === 413 || /maxFileSize|maxTotalFileSize/.test(err.message ?? '')) {
      throw overLimit('An uploaded CSV file', 'over the limit', 'MAX_CSV_FILE_BYTES', maxBytes, 'bytes');
    }
    if (/maxFiles/.test(err.message ?? '')) throw new ProblemError('invalid-csv', 'The upload has more than two files; send one volunteers file and one shifts file.');
    if (/maxFields/.test(err.message ?? '')) throw new ProblemError('invalid-csv', 'The upload has too many text fields; the only one taken is timezone.');
    throw new ProblemError('invalid-csv', `The multipart body could not be read: ${err.message ?? 'malformed'}. Send multipart/form-data with file parts volunteers and shifts.`);
  }
}

export function scheduleCsvRoutes(router: Router, deps: { config: Config; schemas: SchemaRegistry; scheduler: Scheduler; metrics?: Metrics; admit: Middleware }): void {
  router.post('/api/schedule/csv', deps.admit, async (ctx) => {
    const call = parseScheduleQuery(ctx.query, deps.config);
    if (!ctx.is('multipart/form-data')) {
      const sent = ctx.get('Content-Type') || 'no Content-Type';
      throw new ProblemError('unsupported-media-type', `This endpoint takes multipart/form-data with file parts volunteers and shifts (curl -F volunteers=@volunteers.csv -F shifts=@shifts.csv); the request sent ${sent}.`);
    }
    const dir = await mkdtemp(join(tmpdir(), UPLOAD_PREFIX));
    const timer = deps.metrics?.solveSeconds.startTimer({ endpoint: '/api/schedule/csv' });
    let status = 'error';
    try {
      await receive(ctx, dir, deps.config.limits.maxCsvFileBytes);
      const files = (ctx.request.files ?? {}) as Record<string, UploadedFile | UploadedFile[]>;
      const fields = (ctx.request.body ?? {}) as Record<string, unknown>;
      const errors: CsvError[] = [];
      const unexpected = [...Object.keys(files), ...Object.keys(fields)].filter((k) => !PARTS.includes(k as CsvFile) && k !== 'timezone');
      if (unexpected.length > 0) {
        throw new ProblemError('invalid-csv', `The upload has parts it does not take (${unexpected.join(', ')}); the parts are the files volunteers and shifts and the text field timezone.`);
      }
      const bytes: Partial<Record<CsvFile, Buffer>> = {};
      for (const part of PARTS) {
        const file = files[part];
        if (fields[part] !== undefined) errors.push({ file: part, message: `Part '${part}' was sent as a text field; send it as a file (curl -F ${part}=@${part}.csv).` });
        else if (file === undefined) errors.push({ file: part, message: `The ${part} file is missing; send it as the file part '${part}'.` });
        else if (Array.isArray(file)) errors.push({ file: part, message: `The ${part} part was sent ${file.length} times; send one file.` });
        else if (file.size === 0) errors.push({ file: part, message: `The ${part} file is empty.` });
        else bytes[part] = await readFile(file.filepath);
      }
      if (errors.length > 0 || !bytes.volunteers || !bytes.shifts) {
        throw new ProblemError('invalid-csv', `The upload is incomplete: ${errors.map((e) => e.message).join(' ')}`, { errors });
      }
      const zone = fields.timezone === undefined ? 'UTC' : String(fields.timezone).trim();
      const answer = await scheduleCsv(bytes.volunteers, bytes.shifts, zone, call, { schemas: deps.schemas, limits: deps.config.limits, scheduler: deps.scheduler });
      ctx.type = 'application/json';
      ctx.body = answer.json;
      status = 'ok';
    } finally {
      timer?.({ status });
      await rm(dir, { recursive: true, force: true });
    }
  });
}
