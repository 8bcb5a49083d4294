// The queue that hands jobs to workers, behind one interface: pg-boss on PostgreSQL (any number
// of API processes and workers share it), an in-process queue (fastq) with the SQLite default.
// The queue carries only job ids; the jobs table (job-store.ts) is the record.

/** Runs one job to its end (it never throws: a failure is written to the job). */
export type JobHandler = (jobId: string) => Promise<void>;

export interface JobQueue {
  readonly kind: 'pg-boss' | 'in-process';
  start(): Promise<void>;
  /**
   * Queues a job; resolves with the queue's id of its entry once it is stored. `expireS`: the
   * longest a run of it can take (the queue's own last resort; dead workers are found sooner).
   */
  send(jobId: string, expireS: number): Promise<string>;
  /** After its worker died: the entry is retried (pg-boss: its retry), or ended when `final`. */
  retry(jobId: string, queueId: string | null, expireS: number, final: boolean): Promise<string | undefined>;
  /** A cancelled queued job's entry is dropped (best effort: a worker that takes it skips it). */
  drop(queueId: string | null): Promise<void>;
  /** Starts taking jobs, `concurrency` at a time, until stopWork. */
  work(concurrency: number, handler: JobHandler): Promise<void>;
  /** Takes no new job; resolves once none is running, or after `timeoutMs`. */
  stopWork(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** The jobs a queue's handler is running, and a wait until none is (both queues' stopWork). */
export class Running {
  private count = 0;
  private readonly idle: Array<() => void> = [];

  /** Runs `handler` on `jobId`, counted while it runs. */
  async run(handler: JobHandler, jobId: string): Promise<void> {
    this.count++;
    try {
      await handler(jobId);
    } finally {
      this.count--;
      if (this.count === 0) for (const done of this.idle.splice(0)) done();
    }
  }

  /** Resolves once no job runs, or after `timeoutMs`. */
  async none(timeoutMs: number): Promise<void> {
    if (this.count === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
