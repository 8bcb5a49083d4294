// Where the *prepare* step runs. In the service, on a small pool of input worker threads
// (piscina): a 10 MB body is parsed and validated there, so the event loop keeps answering
// other requests meanwhile; past INPUT_WORKERS busy threads and INPUT_QUEUE_MAX waiting
// requests, a request gets 503 at once. The CLI and most tests prepare in their own thread.
import { Piscina } from 'piscina';
import type { CsvRuleFields } from '../input/csv-fields.js';
import type { Limits } from '../config/config.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { ValidationResult } from '../types/schema-types.js';
import { prepareCsv, prepareJsonBody, validateJsonBody, type PrepareContext, type PreparedProblem } from './prepare.js';
import { ProblemError, type ProblemExtras, type ProblemSlug } from './problems.js';

/** One request's prepare step. */
type TaskBody =
  | { kind: 'validate'; body: Uint8Array }
  | { kind: 'json'; body: Uint8Array }
  | { kind: 'csv'; volunteers: Uint8Array; shifts: Uint8Array; timezone: string; ruleFields: CsvRuleFields };

/** A prepare step as sent to an input worker, with the configured limits. */
export type InputTask = TaskBody & { limits: Limits };

export type InputTaskResult =
  { ok: true; value: ValidationResult | PreparedProblem } | { ok: false; problem: { slug: ProblemSlug; detail: string; extras: ProblemExtras } };

/** A thread's warm-up (InputPreparer.ready), with the default limits whatever the service's are. */
export interface WarmUpTask {
  kind: 'warm-up';
}

/** Which thread ran a warm-up. */
export interface WarmUpResult {
  warmedThread: number;
}

/** Prepares requests: the same results wherever it runs. */
export interface InputPreparer {
  validate(body: Uint8Array): Promise<ValidationResult>;
  /** `limits`: other limits than the preparer's (the jobs' larger ones). */
  prepareJson(body: Uint8Array, limits?: Limits): Promise<PreparedProblem>;
  /** `ruleFields`: the upload's min_rest_hours and max_shifts_per_day text fields, as sent. */
  prepareCsv(volunteers: Uint8Array, shifts: Uint8Array, timezone: string, ruleFields?: CsvRuleFields, limits?: Limits): Promise<PreparedProblem>;
  /**
   * Settles once every input thread has started and prepared a small roster. Piscina counts its
   * first threads ready from the start, so without this the first request waited for a thread
   * still loading: measured on a fresh service (festival-50x30, 2026-11-29), its prepare step took
   * 65-170 ms where the thread's own work was 6 ms; 10-15 ms when the request came 3 s later.
   * Resolves to the number of distinct threads that ran a warm-up (0 where the preparer has none).
   */
  ready(): Promise<number>;
  close(): Promise<void>;
  stats(): { threads: number; queued: number };
}

/** Runs `work` at once and settles with its result: a throw becomes a rejection, as from a worker. */
function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => {
    resolve(work());
  });
}

/** Prepares in the calling thread (CLI, tests). */
export function inlinePreparer(context: PrepareContext): InputPreparer {
  return {
    validate: (body) => settle(() => validateJsonBody(body, context)),
    prepareJson: (body, limits) => settle(() => prepareJsonBody(body, limits ? { ...context, limits } : context)),
    prepareCsv: (volunteers, shifts, timezone, ruleFields = {}, limits) =>
      settle(() => prepareCsv(volunteers, shifts, timezone, limits ? { ...context, limits } : context, ruleFields)),
    ready: () => Promise.resolve(0),
    close: async () => {},
    stats: () => ({ threads: 0, queued: 0 }),
  };
}

export interface WorkerPreparerOptions {
  limits: Limits;
  /** Input worker threads. */
  threads: number;
  /** Requests that may wait for a thread before 503. */
  queueMax: number;
}

/** Prepares on input worker threads. */
export function workerPreparer(options: WorkerPreparerOptions): InputPreparer {
  const pool = new Piscina<InputTask | WarmUpTask, InputTaskResult | WarmUpResult>({
    filename: new URL('./input-worker.js', import.meta.url).href,
    minThreads: options.threads,
    maxThreads: options.threads,
    maxQueue: options.queueMax,
    idleTimeout: Infinity,
  });
  // A thread answers each task with its kind's result (input-worker.ts runInputTask).
  const prepare = (task: InputTask): Promise<InputTaskResult> => pool.run(task) as Promise<InputTaskResult>;
  const warmUp = (): Promise<WarmUpResult> => pool.run({ kind: 'warm-up' }) as Promise<WarmUpResult>;
  const run = async (task: TaskBody, limits: Limits = options.limits): Promise<ValidationResult | PreparedProblem> => {
    let result: InputTaskResult;
    try {
      result = await prepare({ ...task, limits });
    } catch (e) {
      if (e instanceof Error && /queue is at limit|no task queue available/i.test(e.message)) {
        throw new ProblemError('overloaded', 'Every input worker is busy and the queue is full; retry in a few seconds.', { headers: { 'Retry-After': '2' } });
      }
      throw e;
    }
    if (!result.ok) throw new ProblemError(result.problem.slug, result.problem.detail, result.problem.extras);
    return result.value;
  };
  return {
    validate: async (body) => (await run({ kind: 'validate', body })) as ValidationResult,
    prepareJson: async (body, limits) => (await run({ kind: 'json', body }, limits)) as PreparedProblem,
    prepareCsv: async (volunteers, shifts, timezone, ruleFields = {}, limits) =>
      (await run({ kind: 'csv', volunteers, shifts, timezone, ruleFields }, limits)) as PreparedProblem,
    // One warm-up task per thread at once: piscina's balancer hands each idle thread one (a thread
    // runs one task at a time), so every thread loads and warms before the service listens.
    ready: async () => {
      const answers = await Promise.all(Array.from({ length: options.threads }, warmUp));
      return new Set(answers.map((answer) => answer.warmedThread)).size;
    },
    close: () => pool.destroy(),
    stats: () => ({ threads: pool.threads.length, queued: pool.queueSize }),
  };
}

/**
 * Waits for the solver pool and the input threads to start, side by side; where either fails,
 * closes both and `store` before the error goes on, so that a start that fails leaves no thread
 * or connection behind.
 */
export async function readyOrClose(scheduler: Pick<Scheduler, 'ready' | 'close'>, preparer: InputPreparer, store: { close(): Promise<void> }): Promise<void> {
  try {
    await Promise.all([scheduler.ready(), preparer.ready()]);
  } catch (e) {
    await Promise.allSettled([scheduler.close(), preparer.close(), store.close()]);
    throw e;
  }
}
