// The thread javascript-lp-solver runs in (jslp-thread.ts): it solves one model at a time and
// answers on its port, then wakes the waiting thread through the shared flag. A solve that runs
// past its deadline is not interrupted here: the waiting thread terminates this thread instead.
import { parentPort, type MessagePort } from 'node:worker_threads';
import solverModule from 'javascript-lp-solver';

interface Solver {
  Solve(model: unknown): unknown;
}
const solver = (solverModule as unknown as { default?: Solver }).default ?? (solverModule as unknown as Solver);

/** The first message: where to answer, and the flag to raise once an answer is there. */
export interface JslpWorkerSetup {
  port: MessagePort;
  flag: Int32Array;
}

export interface JslpWorkerRequest {
  id: number;
  model: unknown;
}

export type JslpWorkerAnswer = { id: number; result: unknown } | { id: number; error: string };

let setup: JslpWorkerSetup | undefined;
parentPort!.on('message', (message: JslpWorkerSetup | JslpWorkerRequest) => {
  if ('port' in message) {
    setup = message;
    return;
  }
  let answer: JslpWorkerAnswer;
  try {
    answer = { id: message.id, result: solver.Solve(message.model) };
  } catch (e) {
    answer = { id: message.id, error: e instanceof Error ? e.message : String(e) };
  }
  setup!.port.postMessage(answer);
  Atomics.store(setup!.flag, 0, message.id);
  Atomics.notify(setup!.flag, 0);
});
