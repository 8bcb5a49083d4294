// Runs jobs on this process's solvers: takes a job (a fenced claim), prepares its input as the
// API did, solves it with the same service call as POST /api/schedule (so the result is the
// same bytes), and ends it. While it solves, a heartbeat twice a second tells the others this
// worker is alive and reads the job's cancel flag; progress is written as the solve improves
// (at most four times a second). Cancel stops the solve and keeps its best schedule. A worker
// shutting down gives its unfinished jobs back to the queue.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config/config.js';
import type { Problem } from '../input/problem.js';
import type { SchemaRegistry } from '../input/schema-registry.js';
import type { Logger } from '../logging/logger.js';
import type { Scheduler, SolveProgress } from '../engine/scheduler.js';
import type { InputPreparer } from '../service/input-preparer.js';
import type { PreparedProblem } from '../service/prepare.js';
import { parseScheduleOptions } from '../service/options.js';
import { ProblemError } from '../service/problems.js';
import { schedulePrepared } from '../service/schedule-service.js';
import type { RenderedResult } from '../service/render.js';
import { sendCallback } from './callback.js';
import type { Claim, JobError, JobInput, JobProgress, JobStore } from './job-store.js';
import type { JobQueue } from './queue.js';

/** Heartbeat and cancel check: twice a second, so a cancel reaches a worker in another process within half a second. */
export const HEARTBEAT_MS = 500;
/** How long a finished job's last write is retried while the database is away. */
const FINISH_RETRY_MS = 10 * 60_000;

export interface RunnerDeps {
  config: Config;
  store: JobStore;
  queue: JobQueue;
  preparer: InputPreparer;
  scheduler: Scheduler;
  schemas: SchemaRegistry;
  logger: Logger;
  secret: string;
  metrics?: JobTimings;
  now?: () => Date;
}

/** Where a runner reports how long jobs waited and ran (the Prometheus histograms of http/metrics.ts). */
export interface JobTimings {
  jobWaitSeconds: { observe(seconds: number): void };
  jobSolveSeconds: { observe(seconds: number): void };
}

type StopReason = 'cancel' | 'lost' | 'shutdown';

interface Running {
  abort: AbortController;
  reason?: StopReason;
}

/** A worker's name in the jobs table and the logs: host, process and a random part. */
export function workerName(): string {
  return `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(3).toString('hex')}`;
}

/** The (call options, time limit) a job's stored options give, with the jobs' larger time limit. */
export function jobCall(options: Record<string, string>, config: Config, schemas: SchemaRegistry): ReturnType<typeof parseScheduleOptions> {
  return parseScheduleOptions(options, { solveTimeLimitDefault: config.solveTimeLimitDefault, solveTimeLimitMax: config.jobs.timeLimitMax }, schemas);
}

/** Prepares a job's stored input as its endpoint did, within the jobs' limits. */
export function prepareInput(preparer: InputPreparer, input: JobInput, config: Pick<Config, 'jobs'>): Promise<PreparedProblem> {
  if (input.kind === 'json') return preparer.prepareJson(input.body, config.jobs.limits);
  const { timezone, ...ruleFields } = input.fields;
  return preparer.prepareCsv(input.volunteers, input.shifts, typeof timezone === 'string' ? timezone : 'UTC', ruleFields, config.jobs.limits);
}

/** Slots locked assignments fill before the solve: they count in the progress's filled slots. */
export function lockedSlots(problem: Problem): number {
  const byKind = new Map<string, number>();
  for (const lock of problem.locks) {
    if (lock.group === null) continue;
    const key = `${lock.shift}\u0000${lock.group}`;
    byKind.set(key, (byKind.get(key) ?? 0) + 1);
  }
  let filled = 0;
  for (const [key, count] of byKind) {
    const [shift, group] = key.split('\u0000') as [string, string];
    filled += Math.min(count, problem.shifts[Number(shift)]!.required.get(group) ?? 0);
  }
  return filled;
}

/** Filled slots of a result: demanded minus the missing slots its conflicts list. */
export function filledOf(conflicts: ReadonlyArray<{ missing: number }>, demanded: number): number {
  return demanded - conflicts.reduce((t, c) => t + c.missing, 0);
}

const delay = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

export class JobRunner {
  readonly name = workerName();
  private readonly running = new Map<string, Running>();
  private readonly now: () => Date;

  constructor(private readonly deps: RunnerDeps) {
    this.now = deps.now ?? ((): Date => new Date());
  }

  /** Jobs this runner is solving now. */
  get busy(): number {
    return this.running.size;
  }

  /** Stops a job this process is solving at once (the flag in the table stops it elsewhere). */
  cancelLocal(jobId: string): void {
    const run = this.running.get(jobId);
    if (run && !run.reason) {
      run.reason = 'cancel';
      run.abort.abort();
    }
  }

  /** Set at shutdown: a claim waiting for the database gives up (the entry stays queued). */
  closing = false;

  /** Stops every running job and gives it back to the queue (a shutdown past its grace). */
  handBackAll(): void {
    for (const run of this.running.values()) {
      if (run.reason) continue;
      run.reason = 'shutdown';
      run.abort.abort();
    }
  }

  /** The queue's handler: runs one job to its end; never throws. */
  readonly handle = async (jobId: string): Promise<void> => {
    // While the database is away the worker holds the entry and tries again: it resumes when
    // the database is back (a queue entry never fails for an outage).
    let claim: Claim | undefined;
    for (let wait = 500; ; wait = Math.min(wait * 2, 5000)) {
      try {
        claim = await this.deps.store.claim(jobId, this.name, this.now());
        break;
      } catch (err) {
        if (this.closing) return;
        this.deps.logger.warn({ err, job_id: jobId }, 'job could not be claimed yet (database away?); retrying');
        await delay(wait);
      }
    }
    if (!claim) return;
    const started = this.now();
    this.deps.metrics?.jobWaitSeconds.observe((started.getTime() - Date.parse(claim.createdAt)) / 1000);
    const running: Running = { abort: new AbortController() };
    this.running.set(jobId, running);
    try {
      await this.solve(jobId, claim, running, started);
    } finally {
      this.running.delete(jobId);
      this.deps.metrics?.jobSolveSeconds.observe((this.now().getTime() - started.getTime()) / 1000);
    }
  };

  private async solve(jobId: string, claim: Claim, running: Running, started: Date): Promise<void> {
    const { store, logger } = this.deps;
    const log = logger.child({ job_id: jobId, run: claim.run });
    const elapsed = (): number => Math.round((this.now().getTime() - started.getTime()) / 100) / 10;
    let progress: JobProgress = { phase: 'preparing', elapsed_s: 0, filled_slots: 0, demanded_slots: claim.demandedSlots, bound: null };
    let pending: JobProgress | undefined = progress;
    const beat = async (): Promise<void> => {
      const write = pending ? { ...pending, elapsed_s: elapsed() } : undefined;
      pending = undefined;
      try {
        const answer = await store.heartbeat(jobId, claim.run, this.now(), write);
        if (answer === 'lost') this.stop(running, 'lost');
        else if (answer.cancel) this.stop(running, 'cancel');
      } catch (err) {
        if (write) pending ??= write;
        log.debug({ err }, 'job heartbeat failed; solving on');
      }
    };
    const heartbeat = setInterval(() => void beat(), HEARTBEAT_MS);
    heartbeat.unref();
    void beat();
    let end: { status: 'completed' | 'cancelled' | 'failed'; result?: string; error?: JobError } | undefined;
    let filled = progress.filled_slots;
    try {
      const call = jobCall(claim.input.options, this.deps.config, this.deps.schemas);
      const prepared = await prepareInput(this.deps.preparer, claim.input, this.deps.config);
      const locked = lockedSlots(prepared.problem);
      progress = { ...progress, phase: 'solving', filled_slots: locked };
      pending = progress;
      const onProgress = (p: SolveProgress): void => {
        progress = {
          phase: p.phase,
          elapsed_s: elapsed(),
          filled_slots: locked + p.filled,
          demanded_slots: claim.demandedSlots,
          bound: p.bound === undefined ? null : locked + p.bound,
        };
        pending = progress;
        void beat();
      };
      const answer = await schedulePrepared(
        prepared,
        { ...call, signal: running.abort.signal, onProgress },
        { schemas: this.deps.schemas, limits: this.deps.config.jobs.limits, scheduler: this.deps.scheduler },
      );
      if (running.reason !== 'lost' && running.reason !== 'shutdown')
        end = { status: running.reason === 'cancel' ? 'cancelled' : 'completed', result: answer.json };
      // The engine's result type keeps the schema's index signature (see routes/exports.ts): its conflicts are there.
      filled = filledOf((answer.output.result as unknown as RenderedResult).conflicts, claim.demandedSlots);
    } catch (err) {
      if (err instanceof ProblemError) end = { status: 'failed', error: { code: err.type.slug, message: err.detail } };
      else {
        log.error({ err }, 'job failed');
        end = {
          status: 'failed',
          error: { code: 'internal', message: `The solve stopped on an unexpected error (${(err as Error).message.slice(0, 200)}); the job was not retried.` },
        };
      }
    } finally {
      clearInterval(heartbeat);
    }
    if (running.reason === 'lost') {
      log.warn('job was given to another worker while this one solved it; its result is not written');
      return;
    }
    if (running.reason === 'shutdown') {
      await this.giveBack(jobId, claim.run, log);
      return;
    }
    const finalProgress: JobProgress = {
      ...progress,
      phase: end!.status === 'failed' ? progress.phase : 'done',
      elapsed_s: elapsed(),
      filled_slots: filled,
      // The last bound the solve proved (never below what the result fills), or none.
      bound: progress.bound === null ? null : Math.max(progress.bound, filled),
    };
    if (await this.finish(jobId, claim.run, { ...end!, progress: finalProgress }, log)) {
      log.info({ status: end!.status, elapsed_s: finalProgress.elapsed_s, filled_slots: finalProgress.filled_slots }, 'job ended');
      if (claim.callbackUrl !== null) {
        void sendCallback(
          claim.callbackUrl,
          { id: jobId, status: end!.status },
          { secret: this.deps.secret, allowed: this.deps.config.jobs.webhookAllowedHosts, logger: log },
        );
      }
    }
  }

  private stop(running: Running, reason: StopReason): void {
    if (running.reason) return;
    running.reason = reason;
    running.abort.abort();
  }

  /** Writes the end, retrying while the database is away; false when the run lost the job. */
  private async finish(
    jobId: string,
    run: number,
    end: Parameters<JobStore['finish']>[2] extends infer E ? Omit<E, 'now'> : never,
    log: Logger,
  ): Promise<boolean> {
    const until = Date.now() + FINISH_RETRY_MS;
    for (let wait = 500; ; wait = Math.min(wait * 2, 5000)) {
      try {
        const written = await this.deps.store.finish(jobId, run, { ...end, now: this.now() });
        if (!written) log.warn('job was given to another worker before this one finished; its result is not written');
        return written;
      } catch (err) {
        if (Date.now() > until) {
          log.error({ err }, 'job result could not be written: the database stayed away');
          return false;
        }
        log.warn({ err }, 'job result could not be written yet; retrying');
        await delay(wait);
      }
    }
  }

  private async giveBack(jobId: string, run: number, log: Logger): Promise<void> {
    try {
      if (await this.deps.store.handBack(jobId, run)) {
        const queueId = await this.deps.queue.send(jobId, this.deps.config.jobs.timeLimitMax + 300);
        await this.deps.store.setQueueId(jobId, queueId);
        log.info('job handed back to the queue at shutdown');
      }
    } catch (err) {
      // Left solving with a stale heartbeat: the supervisor queues it again.
      log.warn({ err }, 'job could not be handed back; the supervisor will take it up');
    }
  }
}
