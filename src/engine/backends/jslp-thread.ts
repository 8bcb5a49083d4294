// javascript-lp-solver cannot be interrupted: its timeout only bounds branch and bound, and one
// large LP (a fairness relaxation of thousands of columns) runs to its end whatever the clock
// says. So it solves in a thread of its own (jslp-worker.ts) while the calling thread waits for
// the answer synchronously (Atomics.wait on a shared flag, the answer read with
// receiveMessageOnPort), in slices so that a cancel is seen too. Past the deadline or on a
// cancel, the solver's thread is terminated and a fresh one serves the next solve. One thread per
// calling thread, started on first use and unref'd (it never keeps a process alive).
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { JslpWorkerAnswer, JslpWorkerRequest, JslpWorkerSetup } from './jslp-worker.js';

/** How often a waiting solve looks at its cancellation. */
const SLICE_MS = 50;

export type ThreadOutcome =
  | { kind: 'done'; result: unknown }
  | { kind: 'error'; message: string }
  /** Stopped at the deadline or on a cancel: the solver's thread was terminated. */
  | { kind: 'stopped'; cancelled: boolean };

interface Running {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
}

let running: Running | undefined;
let sequence = 0;
/** Threads started so far (tests read it: a stop starts a fresh one). */
let started = 0;

function start(): Running {
  const worker = new Worker(new URL('./jslp-worker.js', import.meta.url));
  worker.unref();
  // A thread being terminated may still report; nothing waits on it then.
  worker.on('error', () => {});
  const { port1, port2 } = new MessageChannel();
  port1.unref();
  const flag = new Int32Array(new SharedArrayBuffer(4));
  const setup: JslpWorkerSetup = { port: port2, flag };
  worker.postMessage(setup, [port2]);
  started++;
  return { worker, port: port1, flag };
}

function stop(r: Running): void {
  if (running === r) running = undefined;
  r.port.close();
  void r.worker.terminate();
}

/**
 * Solves a jslp model in the solver's thread, waiting at most `limitMs` (and no longer than a
 * cancel): the answer, or 'stopped' with the thread terminated.
 */
export function solveInThread(model: unknown, limitMs: number, cancelled: () => boolean): ThreadOutcome {
  const r = (running ??= start());
  const id = ++sequence;
  Atomics.store(r.flag, 0, 0);
  const request: JslpWorkerRequest = { id, model };
  r.worker.postMessage(request);
  const deadline = performance.now() + limitMs;
  for (;;) {
    const left = deadline - performance.now();
    if (Atomics.load(r.flag, 0) !== id) {
      if (left <= 0 || cancelled()) {
        stop(r);
        return { kind: 'stopped', cancelled: left > 0 };
      }
      Atomics.wait(r.flag, 0, 0, Math.min(SLICE_MS, left));
      continue;
    }
    const message = receiveMessageOnPort(r.port)?.message as JslpWorkerAnswer | undefined;
    if (!message || message.id !== id) {
      stop(r);
      return { kind: 'error', message: 'the solver thread answered out of turn' };
    }
    return 'error' in message ? { kind: 'error', message: message.error } : { kind: 'done', result: message.result };
  }
}

/** Solver threads started in this thread so far. */
export const jslpThreadsStarted = (): number => started;
