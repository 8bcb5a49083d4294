// A small pool of solver worker threads (solving is synchronous and would block the event
// loop). Tasks queue in order; each has a hard wall-clock deadline after which its worker is
// terminated and replaced, and the task ends with the best schedule the worker had posted.
import { Worker } from 'node:worker_threads';
import type { SubproblemResult } from '../solve-subproblem.js';
import type { FromWorker, SolveTask } from './messages.js';

export type PoolOutcome =
  | { kind: 'done'; result: SubproblemResult }
  | { kind: 'lost'; reason: string; incumbent?: Array<[number, number]> };

interface Job {
  id: number;
  task: SolveTask;
  resolve: (outcome: PoolOutcome) => void;
  incumbent?: Array<[number, number]>;
  onIncumbent?: (assignments: Array<[number, number]>) => void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
}

export interface PoolOptions {
  size: number;
  /** Extra time after a task's deadline before its worker is stopped. */
  graceMs?: number;
  workerUrl?: URL;
}

export interface PoolStats {
  size: number;
  busy: number;
  queued: number;
}

export class SolverPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  private readonly graceMs: number;
  private readonly workerUrl: URL;

  constructor(options: PoolOptions) {
    this.graceMs = options.graceMs ?? 2000;
    this.workerUrl = options.workerUrl ?? new URL('./solve-worker.js', import.meta.url);
    for (let i = 0; i < options.size; i++) this.slots.push(this.spawn());
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
    while (this.slots.some((s) => !s.ready)) await new Promise((r) => setTimeout(r, 10));
  }

  /** Solves a task; `onIncumbent` hears each better schedule the worker reports on the way. */
  run(task: SolveTask, onIncumbent?: (assignments: Array<[number, number]>) => void): Promise<PoolOutcome> {
    if (this.closed) return Promise.resolve({ kind: 'lost', reason: 'the solver pool is closed' });
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, task, resolve, ...(onIncumbent ? { onIncumbent } : {}) });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve({ kind: 'lost', reason: 'the solver pool is closed' });
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.job) this.finish(slot, { kind: 'lost', reason: 'the solver pool is closed', ...(slot.job.incumbent ? { incumbent: slot.job.incumbent } : {}) });
        await slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    const worker = new Worker(this.workerUrl);
    const slot: Slot = { worker, ready: false };
    worker.unref();
    worker.on('message', (message: FromWorker) => this.onMessage(slot, message));
    worker.on('error', (err) => this.replace(slot, `the solver worker failed: ${err.message}`));
    worker.on('exit', (code) => this.replace(slot, `the solver worker exited with code ${code}`));
    return slot;
  }

  private onMessage(slot: Slot, message: FromWorker): void {
    if (message.type === 'ready') {
      slot.ready = true;
      this.dispatch();
      return;
    }
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    if (message.type === 'incumbent') {
      job.incumbent = message.assignments;
      job.onIncumbent?.(message.assignments);
    }
    else if (message.type === 'done') this.finish(slot, { kind: 'done', result: message.result });
    else this.finish(slot, { kind: 'lost', reason: `the solver failed: ${message.message.split('\n')[0]}`, ...(job.incumbent ? { incumbent: job.incumbent } : {}) });
  }

  private finish(slot: Slot, outcome: PoolOutcome): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(job.timer);
    slot.job = undefined;
    job.resolve(outcome);
    this.dispatch();
  }

  /** A worker died or was stopped: end its job with what it had, and start a new worker. */
  private replace(slot: Slot, reason: string): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.timer);
      job.resolve({ kind: 'lost', reason, ...(job.incumbent ? { incumbent: job.incumbent } : {}) });
    }
    if (this.closed) {
      this.slots.splice(index, 1);
      return;
    }
    slot.worker.removeAllListeners();
    void slot.worker.terminate();
    this.slots[index] = this.spawn();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.job) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      const wait = Math.max(0, job.task.deadline - Date.now()) + this.graceMs;
      job.timer = setTimeout(() => this.replace(slot, 'the solver passed its deadline and was stopped'), wait);
      slot.worker.postMessage({ type: 'solve', id: job.id, task: job.task });
    }
  }
}
