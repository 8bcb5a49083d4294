// The in-process queue of the SQLite default (fastq): one process owns the database file, so
// its own memory can hand jobs to its solver. Nothing is lost on a restart: the jobs table is
// the record, and at start the service queues again every job still queued (and gives a job
// left solving by a process that died one more run, as a worker's death does on PostgreSQL).
import fastq, { type queueAsPromised } from 'fastq';
import { Running, type JobHandler, type JobQueue } from './queue.js';

export function localQueue(): JobQueue {
  let handler: JobHandler | undefined;
  let queue: queueAsPromised<string> | undefined;
  // Jobs sent before work() (or with JOB_WORKERS=0 nothing ever works them: they stay queued
  // in the table, and a restart with workers takes them up).
  const waiting: string[] = [];
  const running = new Running();
  let stopped = false;
  const run = async (jobId: string): Promise<void> => {
    if (stopped) return;
    await running.run(handler!, jobId);
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
      await running.none(timeoutMs);
    },
    close: () => {
      stopped = true;
      queue?.kill();
      return Promise.resolve();
    },
  };
}
