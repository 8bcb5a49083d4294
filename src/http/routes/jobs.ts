// Jobs (CONTRACT.md section 12): POST /api/jobs takes the body of /api/schedule (JSON) or of
// /api/schedule/csv (multipart) with the same query options (time_limit up to
// JOB_TIME_LIMIT_MAX, and callback_url), validates it at once and answers 202; a worker solves
// it. GET /api/jobs/<id> is its status and progress, /result its schedule (JSON, or the CSV and
// iCalendar exports as Accept asks), /events a server-sent event stream of its progress that
// ends with its final status, DELETE cancels it, GET /api/jobs lists the key's own jobs. A job
// is its key's user's: anyone else is told 404, as for a job that does not exist.
import Router from '@koa/router';
import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { Config } from '../../config/config.js';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import type { Logger } from '../../logging/logger.js';
import type { KeyRecord } from '../../store/key-store.js';
import type { InputPreparer } from '../../service/input-preparer.js';
import type { PreparedProblem } from '../../service/prepare.js';
import { parseScheduleOptions, type RawOptions } from '../../service/options.js';
import { ProblemError } from '../../service/problems.js';
import { asJobLimit } from '../../service/limits.js';
import type { ScheduleAnswer } from '../../service/schedule-service.js';
import { clip } from '../../input/entry-caps.js';
import { allowedUrl } from '../../jobs/callback.js';
import { JOB_STATUSES, isFinal, type JobInput, type JobProgress, type JobStatus, type JobSummary } from '../../jobs/job-store.js';
import type { Jobs } from '../../jobs/jobs.js';
import { jobCall, prepareInput } from '../../jobs/runner.js';
import { fromStore } from '../middleware/access-control.js';
import { jsonBody } from '../middleware/json-body.js';
import { checkVolunteer, negotiate, respond } from './exports.js';
import { readCsvUpload } from './schedule-csv.js';

export interface JobRoutesDeps {
  config: Config;
  schemas: SchemaRegistry;
  preparer: InputPreparer;
  jobs: Jobs;
  logger: Logger;
  clock: () => Date;
}

/** Seconds between the comment lines that keep an idle event stream open through proxies. */
const KEEP_ALIVE_MS = 15_000;
const LIST_DEFAULT = 20;
const LIST_MAX = 100;

/** A job as GET /api/jobs/<id> shows it. */
export function jobView(job: JobSummary): Record<string, unknown> {
  const stored = job.progress === null ? undefined : (JSON.parse(job.progress) as JobProgress);
  const progress: JobProgress = stored ?? {
    phase: job.status === 'queued' ? 'queued' : job.status,
    elapsed_s: 0,
    filled_slots: 0,
    demanded_slots: job.demanded_slots,
    bound: null,
  };
  const base = `/api/jobs/${job.id}`;
  return {
    id: job.id,
    status: job.status,
    created_at: job.created_at,
    started_at: job.started_at,
    finished_at: job.finished_at,
    progress,
    ...(job.error !== null ? { error: JSON.parse(job.error) as unknown } : {}),
    ...(job.status === 'solving' && job.cancel_requested === 1 ? { cancel_requested: true } : {}),
    links: { self: base, result: `${base}/result`, events: `${base}/events` },
  };
}

function invalidQuery(errors: Array<{ code: string; message: string }>): ProblemError {
  return new ProblemError('invalid-request', `The query has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}; each is listed in errors.`, {
    errors: errors.map((e) => ({ pointer: '', ...e })),
  });
}

/** A query value given once, as text (repeated values are refused by the option parser). */
const single = (raw: RawOptions, name: string): string | undefined => {
  const v = raw[name];
  return typeof v === 'string' ? v : undefined;
};

/** Total headcount of a prepared request: the progress's demanded slots. */
function demandedSlots(prepared: PreparedProblem): number {
  let total = 0;
  for (const shift of prepared.problem.shifts) for (const n of shift.required.values()) total += n;
  return total;
}

export function jobRoutes(router: Router, deps: JobRoutesDeps): void {
  const store = (ctx: Context): (<T>(call: () => Promise<T>) => Promise<T>) => {
    return (call) => fromStore({ logger: deps.logger }, ctx.state.requestId, call);
  };
  const userOf = (ctx: Context): string => (ctx.state.user as KeyRecord).userId;
  const notFound = (id: string): ProblemError =>
    new ProblemError(
      'not-found',
      `No job '${clip(id, 40)}' of this key's user exists: it may have another owner, or be older than the retention period and deleted.`,
    );
  const load = async (ctx: Context): Promise<JobSummary> => {
    const id = (ctx.params as { id: string }).id;
    const job = await store(ctx)(() => deps.jobs.store.get(id, userOf(ctx)));
    if (!job) throw notFound(id);
    return job;
  };

  router.post('/api/jobs', async (ctx) => {
    const { callback_url: callbackRaw, ...query }: RawOptions = ctx.query;
    const callbackUrl = typeof callbackRaw === 'string' ? callbackRaw : undefined;
    if (Array.isArray(callbackRaw))
      throw invalidQuery([{ code: 'repeated_parameter', message: `query parameter callback_url is given ${callbackRaw.length} times; give it once.` }]);
    const call = jobCall(query as Record<string, string>, deps.config, deps.schemas);
    if (callbackUrl !== undefined) {
      const checked = allowedUrl(callbackUrl, deps.config.jobs.webhookAllowedHosts);
      if (!checked.ok) throw invalidQuery([{ code: 'invalid_parameter', message: `query parameter callback_url ${checked.why}.` }]);
    }
    let input: JobInput;
    if (ctx.is('multipart/form-data')) {
      const upload = await readCsvUpload(ctx, deps.config.limits.maxCsvFileBytes);
      input = {
        kind: 'csv',
        volunteers: upload.volunteers,
        shifts: upload.shifts,
        fields: { timezone: upload.zone, ...upload.ruleFields },
        options: query as Record<string, string>,
      };
    } else {
      if (!ctx.is('application/json')) {
        const sent = ctx.get('Content-Type') || 'no Content-Type';
        throw new ProblemError(
          'unsupported-media-type',
          `POST /api/jobs takes the body of POST /api/schedule (Content-Type: application/json) or of POST /api/schedule/csv (multipart/form-data with file parts volunteers and shifts); the request sent ${clip(sent, 100)}.`,
        );
      }
      await jsonBody(deps.config.limits.maxJsonBodyBytes)(ctx, async () => {});
      input = { kind: 'json', body: ctx.state.body!, options: query as Record<string, string> };
    }
    const prepared = await prepareInput(deps.preparer, input, deps.config).catch((e: unknown) => {
      throw asJobLimit(e);
    });
    checkVolunteer(call, prepared.problem);
    const submitted = await store(ctx)(() =>
      deps.jobs.store.submit(userOf(ctx), input, {
        ...(callbackUrl !== undefined ? { callbackUrl } : {}),
        demandedSlots: demandedSlots(prepared),
        maxActive: deps.config.jobs.maxActivePerUser,
        now: deps.clock(),
      }),
    );
    if (!submitted.ok) {
      throw new ProblemError(
        'too-many-jobs',
        `This key's user has ${submitted.active} jobs queued or solving, the most allowed (MAX_ACTIVE_JOBS_PER_USER = ${deps.config.jobs.maxActivePerUser}); wait for one to end or cancel one (DELETE /api/jobs/<id>).`,
        { headers: { 'Retry-After': '10' } },
      );
    }
    await store(ctx)(() => deps.jobs.enqueue(submitted.id));
    const base = `/api/jobs/${submitted.id}`;
    ctx.status = 202;
    ctx.set('Location', base);
    ctx.type = 'application/json';
    ctx.body = JSON.stringify({
      id: submitted.id,
      status: 'queued',
      created_at: submitted.createdAt,
      links: { self: base, result: `${base}/result`, events: `${base}/events` },
      ...(call.warnings && call.warnings.length > 0 ? { warnings: call.warnings } : {}),
    });
  });

  router.get('/api/jobs', async (ctx) => {
    const raw: RawOptions = ctx.query;
    const errors: Array<{ code: string; message: string }> = [];
    for (const name of Object.keys(raw)) {
      if (name !== 'status' && name !== 'limit')
        errors.push({ code: 'unknown_parameter', message: `query parameter ${clip(name)} is not known; GET /api/jobs takes status and limit.` });
      else if (Array.isArray(raw[name]))
        errors.push({ code: 'repeated_parameter', message: `query parameter ${name} is given ${raw[name].length} times; give it once.` });
    }
    const status = single(raw, 'status');
    if (status !== undefined && !(JOB_STATUSES as readonly string[]).includes(status)) {
      errors.push({ code: 'invalid_parameter', message: `query parameter status is '${clip(status)}'; use one of ${JOB_STATUSES.join(', ')}.` });
    }
    const limitText = single(raw, 'limit');
    const limit = limitText === undefined ? LIST_DEFAULT : Number(limitText);
    if (limitText !== undefined && (!/^\d+$/.test(limitText) || limit < 1 || limit > LIST_MAX)) {
      errors.push({
        code: 'invalid_parameter',
        message: `query parameter limit is '${clip(limitText)}'; use a whole number from 1 to ${LIST_MAX}, such as limit=${LIST_DEFAULT}.`,
      });
    }
    if (errors.length > 0) throw invalidQuery(errors);
    const jobs = await store(ctx)(() => deps.jobs.store.list(userOf(ctx), limit, status as JobStatus | undefined));
    ctx.body = { jobs: jobs.map(jobView) };
  });

  router.get('/api/jobs/:id', async (ctx) => {
    ctx.body = jobView(await load(ctx));
  });

  router.get('/api/jobs/:id/result', async (ctx) => {
    const raw: RawOptions = ctx.query;
    const unknown = Object.keys(raw).filter((k) => k !== 'timezone' && k !== 'volunteer_id');
    if (unknown.length > 0) {
      throw invalidQuery(
        unknown.map((k) => ({
          code: 'unknown_parameter',
          message: `query parameter ${clip(k)} is not known; a job's result takes timezone and volunteer_id (for the CSV and iCalendar exports).`,
        })),
      );
    }
    const options = parseScheduleOptions(raw, deps.config, deps.schemas);
    const format = negotiate(ctx);
    const job = await load(ctx);
    if (!isFinal(job.status)) {
      throw new ProblemError(
        'job-not-finished',
        `Job ${job.id} is ${job.status}; its result is ready when the status is completed (GET /api/jobs/${job.id} or its events stream say when).`,
        {
          headers: { 'Retry-After': '2' },
        },
      );
    }
    const json = await store(ctx)(() => deps.jobs.store.result(job.id, userOf(ctx)));
    if (json === null || json === undefined) {
      const why =
        job.status === 'failed'
          ? `it failed: ${(JSON.parse(job.error ?? '{}') as { message?: string }).message ?? 'see its error'}`
          : 'it was cancelled before a worker started it';
      throw new ProblemError('job-no-result', `Job ${job.id} has no schedule: ${why}`);
    }
    if (format === 'json') {
      ctx.type = 'application/json';
      ctx.body = json;
      return;
    }
    const input = await store(ctx)(() => deps.jobs.store.input(job.id, userOf(ctx)));
    if (!input) throw notFound(job.id);
    const prepared = await prepareInput(deps.preparer, input, deps.config);
    checkVolunteer(options, prepared.problem);
    const answer = { json, output: { result: JSON.parse(json) as unknown } } as unknown as ScheduleAnswer;
    respond(ctx, format, prepared.problem, answer, options);
  });

  router.delete('/api/jobs/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    const outcome = await store(ctx)(() => deps.jobs.store.cancel(id, userOf(ctx), deps.clock()));
    if (!outcome) throw notFound(id);
    await deps.jobs.cancelled(outcome.job).catch(() => {});
    if (outcome.now === 'ended' && outcome.job.status !== 'cancelled') {
      throw new ProblemError('job-ended', `Job ${id} already ended (${outcome.job.status}); there is nothing to cancel.`);
    }
    ctx.status = outcome.now === 'requested' ? 202 : 200;
    ctx.body = jobView(outcome.job);
  });

  router.get('/api/jobs/:id/events', async (ctx) => {
    const job = await load(ctx);
    const stream = new PassThrough();
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.set('Cache-Control', 'no-cache, no-transform');
    ctx.set('X-Accel-Buffering', 'no');
    ctx.type = 'text/event-stream; charset=utf-8';
    ctx.status = 200;
    ctx.body = stream;
    let seq = 0;
    let done = false;
    let last = '';
    const send = (current: JobSummary): void => {
      if (done) return;
      const final = isFinal(current.status);
      const data = JSON.stringify(jobView(current));
      // The watcher's first read can find the state sent on connecting: sent once.
      if (data === last) return;
      last = data;
      stream.write(`event: ${final ? 'end' : 'progress'}\nid: ${++seq}\ndata: ${data}\n\n`);
      if (final) finish();
    };
    const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    keepAlive.unref();
    let unwatch = (): void => {};
    const finish = (): void => {
      if (done) return;
      done = true;
      clearInterval(keepAlive);
      unwatch();
      stream.end();
    };
    ctx.req.socket.once('close', finish);
    stream.write('retry: 2000\n\n');
    send(job);
    if (isFinal(job.status)) return;
    unwatch = deps.jobs.watcher.watch(job.id, (current) => {
      if (current) send(current);
      else finish();
    });
  });
}
