// The in-process queue of the SQLite default (fastq): one process owns the database file, so
// its own memory can hand jobs to its solver. Nothing is lost on a restart: the jobs table is
// the record, and at start the service queues again every job still queued (and gives a job
// left solving by a process that died one more run, as a worker's death does on PostgreSQL).
import fastq, { type queueAsPromised } from 'fastq';
import type { JobHandler, JobQueue } from './queue.js';

export function localQueue(): JobQueue {
  let handler: JobHandler | undefined;
  let queue: queueAsPromised<string> | undefined;
  // Jobs sent before work() (or with JOB_WORKERS=0 nothing ever works them: they stay queued
  // in the table, and a restart with workers takes them up).
  const waiting: string[] = [];
  let running = 0;
  let stopped = false;
  const idle: Array<() => void> = [];
  const run = async (jobId: string): Promise<void> => {
    if (stopped) return;
    running++;
    try {
      await handler!(jobId);
    } finally {
      running--;
      if (running === 0) for (const done of idle.splice(0)) done();
    }
  };
  let seq = 0;
  const push = (jobId: string): string => {
    if (queue) void queue.push(jobId);
    else waiting.push(jobId);
    return `local-${++seq}`;
  };
  return {
    kind: 'in-process',
    start: async () => {},
    send: (jobId) => Promise.resolve(push(jobId)),
    retry: (jobId, _queueId, _expireS, final) => Promise.resolve(final ? undefined : push(jobId)),
    drop: async () => {},
    work: (concurrency, h) => {
      handler = h;
      queue = fastq.promise(run, concurrency);
      for (const id of waiting.splice(0)) void queue.push(id);
      return Promise.resolve();
    },
    stopWork: async (timeoutMs) => {
      stopped = true;
      queue?.kill();
      if (running === 0) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        idle.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    close: () => {
      stopped = true;
      queue?.kill();
      return Promise.resolve();
    },
  };
}
