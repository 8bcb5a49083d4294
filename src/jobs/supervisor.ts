// Looks after jobs whose worker died, and deletes old jobs. Runs in every process on the
// database (API processes and workers alike; every step is a conditional update, so several
// supervisors at once do no harm). A solving job without a heartbeat for JOB_STALE_SECONDS is
// queued again once; a second loss ends it `failed` with a clear error. A supervisor that has
// itself just lost the database waits until it has seen the database answer for
// JOB_STALE_SECONDS before it judges anyone: after an outage every heartbeat is old, and the
// workers need that long to show they are alive.
import type { Logger } from '../logging/logger.js';
import type { JobStore } from './job-store.js';
import type { JobQueue } from './queue.js';

/** Runs of a job lost with their worker before it fails. */
export const MAX_CRASHES = 2;
const CHECK_MS = 5000;
const PRUNE_MS = 3_600_000;

export interface SupervisorOptions {
  store: JobStore;
  queue: JobQueue;
  logger: Logger;
  staleS: number;
  retentionHours: number;
  /** The longest a run can take (the queue's expiry of a retried entry). */
  expireS: number;
  now?: () => Date;
}

export class Supervisor {
  private healthySince: number | undefined;
  private timers: NodeJS.Timeout[] = [];
  private readonly now: () => Date;
  private checking = false;

  constructor(private readonly o: SupervisorOptions) {
    this.now = o.now ?? ((): Date => new Date());
  }

  start(): void {
    this.timers.push(setInterval(() => void this.check(), CHECK_MS));
    this.timers.push(setInterval(() => void this.prune(), PRUNE_MS));
    for (const t of this.timers) t.unref();
    void this.prune();
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /** One round: finds solving jobs without a heartbeat and queues them again or ends them. Returns how many. */
  async check(): Promise<number> {
    if (this.checking) return 0;
    this.checking = true;
    const now = this.now();
    try {
      const stale = await this.o.store.stale(new Date(now.getTime() - this.o.staleS * 1000));
      this.healthySince ??= now.getTime();
      if (now.getTime() - this.healthySince < this.o.staleS * 1000) return 0;
      let handled = 0;
      for (const job of stale) {
        if (await this.giveUp(job, now)) handled++;
      }
      return handled;
    } catch (err) {
      this.healthySince = undefined;
      this.o.logger.warn({ err }, 'job supervisor could not reach the database');
      return 0;
    } finally {
      this.checking = false;
    }
  }

  private async giveUp(job: Awaited<ReturnType<JobStore['stale']>>[number], now: Date): Promise<boolean> {
    const log = this.o.logger.child({ job_id: job.id, run: job.run, worker: job.worker });
    if (job.cancel_requested === 1) {
      const ended = await this.o.store.giveUp(job.id, job.run, {
        requeue: false,
        status: 'cancelled',
        now,
        error: { code: 'worker_lost', message: 'The job was cancelled while its worker stopped answering; no schedule was kept.' },
      });
      if (ended) await this.o.queue.retry(job.id, job.queue_id, this.o.expireS, true);
      return ended;
    }
    if (job.crashes + 1 >= MAX_CRASHES) {
      const ended = await this.o.store.giveUp(job.id, job.run, {
        requeue: false,
        status: 'failed',
        now,
        error: {
          code: 'worker_lost',
          message: `The worker solving this job stopped answering ${MAX_CRASHES} times (the last was ${job.worker ?? 'unknown'}), so it was not tried again. A worker process that dies on a job usually ran out of memory: submit it again with fewer volunteers or shifts, or ask the operator to give workers more memory.`,
        },
      });
      if (ended) {
        await this.o.queue.retry(job.id, job.queue_id, this.o.expireS, true);
        log.error('job failed: its worker stopped answering twice');
      }
      return ended;
    }
    if (!(await this.o.store.giveUp(job.id, job.run, { requeue: true }))) return false;
    const queueId = await this.o.queue.retry(job.id, job.queue_id, this.o.expireS, false);
    if (queueId !== undefined && queueId !== job.queue_id) await this.o.store.setQueueId(job.id, queueId);
    log.warn('job queued again: its worker stopped answering');
    return true;
  }

  async prune(): Promise<number> {
    try {
      const deleted = await this.o.store.prune(this.now(), this.o.retentionHours);
      if (deleted > 0) this.o.logger.info({ deleted, retention_hours: this.o.retentionHours }, 'old jobs deleted');
      return deleted;
    } catch (err) {
      this.o.logger.warn({ err }, 'old jobs could not be deleted');
      return 0;
    }
  }
}
