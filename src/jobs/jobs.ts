// The jobs of one process, wired: the store, the queue (pg-boss on PostgreSQL, in-process on
// SQLite), the supervisor, the runner when this process solves jobs (JOB_WORKERS > 0), and the
// watcher that feeds event streams. The HTTP routes (http/routes/jobs.ts) and the worker
// command (cli/worker.ts) use it.
import type { Config } from '../config/config.js';
import type { SchemaRegistry } from '../input/schema-registry.js';
import type { Logger } from '../logging/logger.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { InputPreparer } from '../service/input-preparer.js';
import type { StoreDatabase } from '../store/database.js';
import { JobStore, type JobSummary } from './job-store.js';
import { localQueue } from './local-queue.js';
import { pgBossQueue } from './pg-boss-queue.js';
import type { JobQueue } from './queue.js';
import { JobRunner, type JobTimings } from './runner.js';
import { Supervisor } from './supervisor.js';
import { JobWatcher } from './watcher.js';

export interface JobsDeps {
  config: Config;
  database: StoreDatabase;
  logger: Logger;
  schemas: SchemaRegistry;
  secret: string;
  /** Needed when this process solves jobs (workers > 0). */
  scheduler?: Scheduler;
  preparer?: InputPreparer;
  metrics?: JobTimings;
  /** Jobs solved here at once (default config.jobs.workers). */
  workers?: number;
  /** Tests: the supervisor's and runner's clock. */
  now?: () => Date;
}

export class Jobs {
  readonly store: JobStore;
  readonly queue: JobQueue;
  readonly runner: JobRunner | undefined;
  readonly supervisor: Supervisor;
  readonly watcher: JobWatcher;
  private started = false;

  constructor(private readonly deps: JobsDeps) {
    this.store = new JobStore(deps.database);
    this.queue = deps.database.dialect === 'postgres' ? pgBossQueue(deps.config.databaseUrl, deps.logger) : localQueue();
    const workers = deps.workers ?? deps.config.jobs.workers;
    if (workers > 0) {
      if (!deps.scheduler || !deps.preparer) throw new Error('a process that solves jobs needs a scheduler and a preparer');
      this.runner = new JobRunner({
        config: deps.config,
        store: this.store,
        queue: this.queue,
        preparer: deps.preparer,
        scheduler: deps.scheduler,
        schemas: deps.schemas,
        logger: deps.logger,
        secret: deps.secret,
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
        ...(deps.now ? { now: deps.now } : {}),
      });
    }
    this.supervisor = new Supervisor({
      store: this.store,
      queue: this.queue,
      logger: deps.logger,
      staleS: deps.config.jobs.staleS,
      retentionHours: deps.config.jobs.retentionHours,
      expireS: this.expireS(),
      ...(deps.now ? { now: deps.now } : {}),
    });
    this.watcher = new JobWatcher(this.store);
  }

  /** The longest a run can take: the queue's last-resort expiry of an entry. */
  expireS(): number {
    return Math.ceil(this.deps.config.jobs.timeLimitMax) + 300;
  }

  get workers(): number {
    return this.runner ? (this.deps.workers ?? this.deps.config.jobs.workers) : 0;
  }

  async start(): Promise<void> {
    await this.queue.start();
    if (this.queue.kind === 'in-process') {
      // The SQLite default: this process is the only one; what was queued before a restart is
      // queued again (in order). A job left solving is the supervisor's (its heartbeat is old).
      for (const id of await this.store.queued()) await this.queue.send(id, this.expireS());
    }
    if (this.runner) await this.queue.work(this.workers, this.runner.handle);
    this.supervisor.start();
    this.started = true;
  }

  /** Queues a recorded job; on failure the job is removed again and the error thrown. */
  async enqueue(id: string): Promise<void> {
    try {
      const queueId = await this.queue.send(id, this.expireS());
      await this.store.setQueueId(id, queueId).catch(() => {});
    } catch (err) {
      await this.store.discard(id).catch(() => {});
      throw err;
    }
  }

  /** Cancels here at once when this process solves it; the flag reaches any other worker. */
  async cancelled(job: JobSummary): Promise<void> {
    this.runner?.cancelLocal(job.id);
    if (job.status === 'cancelled') await this.queue.drop(job.queue_id);
  }

  /**
   * Stops: takes no new job, lets running ones finish within the grace, hands the rest back.
   * `graceS` 0 hands running jobs back at once.
   */
  async stop(graceS: number = this.deps.config.jobs.shutdownGraceS): Promise<void> {
    this.supervisor.stop();
    this.watcher.close();
    if (!this.started) {
      await this.queue.close();
      return;
    }
    if (this.runner) {
      this.runner.closing = true;
      await this.queue.stopWork(graceS * 1000);
      if (this.runner.busy > 0) {
        this.runner.handBackAll();
        await this.queue.stopWork(10_000);
      }
    }
    await this.queue.close();
  }
}
