// A small pool of solver worker threads (solving is synchronous and would block the event
// loop). Jobs queue in order; each has a hard wall-clock deadline after which its worker is
// terminated and replaced, and the job ends with the best schedule the worker had posted. An
// aborted job leaves the queue at once, or, running, has its worker told to stop through a
// shared flag and is treated as past its deadline if the worker does not answer in time.
import { EventEmitter, once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { CANCEL_GRACE_MS, DEADLINE_GRACE_MS } from '../budget.js';
import {
  solverFailedReason,
  type Assignment,
  type RunOptions,
  type SubproblemJob,
  type SubproblemOutcome,
  type SubproblemRunner,
} from '../subproblem-runner.js';
import { raiseFlag, type FromWorker, type ToWorker } from './messages.js';

interface Job {
  id: number;
  job: SubproblemJob;
  options: RunOptions;
  resolve: (outcome: SubproblemOutcome) => void;
  cancel: SharedArrayBuffer;
  incumbent?: Assignment[];
  timer?: unknown;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Sent its warm-up message (ToWorker). */
  warming?: boolean;
  /** Raised before the first job is posted (raiseFlag): the worker's warm-up stops at its next time check (ToWorker). */
  jobSent: SharedArrayBuffer;
  job?: Job;
}

export interface PoolOptions {
  size: number;
  /** Extra time after a job's deadline before its worker is stopped. */
  graceMs?: number;
  /** Time a cancelled job's worker has to answer before it is stopped. */
  cancelGraceMs?: number;
  workerUrl?: URL;
  /** The pool's timers (deadlines, cancel grace): injectable so tests fire them on cue. */
  timers?: Timers;
}

export interface Timers {
  set(fire: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: Timers = {
  set: (fire, ms) => setTimeout(fire, ms),
  clear: (handle) => {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

export interface PoolStats {
  size: number;
  busy: number;
  queued: number;
}

/**
 * Events: 'worker-ready' (a worker loaded its solver), 'replaced' (reason: a worker was stopped
 * or died and a new one started), 'settled' (a job ended; the worker is free for the next).
 */
export class SolverPool extends EventEmitter implements SubproblemRunner {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Set by warmUp: each worker warms up until its first job. */
  private warming = false;
  private readonly graceMs: number;
  private readonly cancelGraceMs: number;
  private readonly workerUrl: URL;
  private readonly timers: Timers;

  constructor(options: PoolOptions) {
    super();
    this.graceMs = options.graceMs ?? DEADLINE_GRACE_MS;
    this.cancelGraceMs = options.cancelGraceMs ?? CANCEL_GRACE_MS;
    this.workerUrl = options.workerUrl ?? new URL('./solve-worker.js', import.meta.url);
    this.timers = options.timers ?? realTimers;
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn());
  }

  /** Jobs waiting for a worker (SubproblemRunner.waiting). */
  waiting(): number {
    return this.queue.length;
  }

  stats(): PoolStats {
    return { size: this.slots.length, busy: this.slots.filter((s) => s.job).length, queued: this.queue.length };
  }

  /** True when every worker has loaded its solver. */
  isReady(): boolean {
    return !this.closed && this.slots.length > 0 && this.slots.every((s) => s.ready);
  }

  /** Resolves once every worker has loaded its solver. */
  async ready(): Promise<void> {
    while (!this.closed && this.slots.some((s) => !s.ready)) await once(this, 'worker-ready');
  }

  /**
   * Each worker warms up until its first job (ToWorker warm-up): every ready one now, one that
   * replaces a worker once it is ready. Called once the service listens, so that the
   * warm-up does not slow the start of the threads still loading.
   */
  warmUp(): void {
    if (this.closed) return;
    this.warming = true;
    for (const slot of this.slots) if (slot.ready && !slot.warming) this.sendWarmUp(slot);
  }

  /** Solves a job; `onIncumbent` hears each better schedule the worker reports on the way. */
  run(job: SubproblemJob, options: RunOptions = {}): Promise<SubproblemOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'lost', reason: 'the solver pool is closed' });
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve({ kind: 'lost', reason: 'cancelled before it started' });
    return new Promise((resolve) => {
      const entry: Job = { id: this.nextId++, job, options, resolve, cancel: new SharedArrayBuffer(4) };
      if (signal) {
        entry.onAbort = () => {
          this.abort(entry);
        };
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.queue.push(entry);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, { kind: 'lost', reason: 'the solver pool is closed' });
    this.emit('worker-ready');
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.job) this.finish(slot, this.lost(slot.job, 'the solver pool is closed'));
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl);
    const slot: Slot = { worker, ready: false, jobSent: new SharedArrayBuffer(4) };
    worker.unref();
    worker.on('message', (message: FromWorker) => {
      this.onMessage(slot, message);
    });
    worker.on('error', (err) => {
      this.replace(slot, `the solver worker failed: ${err.message}`);
    });
    worker.on('exit', (code) => {
      this.replace(slot, `the solver worker exited with code ${code}`);
    });
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') {
      slot.ready = true;
      this.emit('worker-ready');
      this.dispatch();
      // A worker that replaces one warms up as the others did.
      if (this.warming) this.sendWarmUp(slot);
      return;
    }
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    if (message.type === 'incumbent') {
      job.incumbent = message.incumbent.assignments;
      job.options.onIncumbent?.(message.incumbent);
    } else if (message.type === 'done') this.finish(slot, { kind: 'done', result: message.result });
    else this.finish(slot, this.lost(job, solverFailedReason(message.message)));
  }

  private sendWarmUp(slot: Slot): void {
    slot.warming = true;
    const message: ToWorker = { type: 'warm-up', jobSent: slot.jobSent };
    slot.worker.postMessage(message);
  }

  private lost(job: Job, reason: string, timedOut = false): SubproblemOutcome {
    return { kind: 'lost', reason, ...(job.incumbent ? { incumbent: job.incumbent } : {}), ...(timedOut ? { timedOut } : {}) };
  }

  /** Ends a job: its timers and abort listener go, and its promise resolves. */
  private settle(job: Job, outcome: SubproblemOutcome): void {
    this.timers.clear(job.timer);
    if (job.onAbort) job.options.signal?.removeEventListener('abort', job.onAbort);
    job.resolve(outcome);
  }

  private finish(slot: Slot, outcome: SubproblemOutcome): void {
    const job = slot.job;
    if (!job) return;
    slot.job = undefined;
    this.settle(job, outcome);
    this.emit('settled');
    this.dispatch();
  }

  /** A queued job leaves the queue; a running one's worker is told to stop, and stopped if it does not. */
  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, { kind: 'lost', reason: 'cancelled before it started' });
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot) return;
    raiseFlag(job.cancel);
    this.timers.clear(job.timer);
    job.timer = this.timers.set(() => {
      this.replace(slot, 'the solver did not stop when cancelled and was stopped');
    }, this.cancelGraceMs);
  }

  /** A worker died or was stopped: end its job with what it had, and start a new worker. */
  private replace(slot: Slot, reason: string, timedOut = false): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    const job = slot.job;
    slot.job = undefined;
    if (job) this.settle(job, this.lost(job, reason, timedOut));
    if (this.closed) {
      this.slots.splice(index, 1);
      return;
    }
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
    this.emit('replaced', reason);
    if (job) this.emit('settled');
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      const wait = Math.max(0, job.job.slice.deadline - Date.now()) + this.graceMs;
      job.timer = this.timers.set(() => {
        this.replace(slot, 'the solver passed its deadline and was stopped', true);
      }, wait);
      // The worker may be in a warm-up round: this ends it at its next time check.
      raiseFlag(slot.jobSent);
      const message: ToWorker = { type: 'solve', id: job.id, job: job.job, cancel: job.cancel };
      slot.worker.postMessage(message);
    }
  }
}
