// A solver worker thread: loads HiGHS once, then solves one subproblem at a time, posting each
// better schedule as it is found so the pool keeps the best answer should this thread be
// stopped at its deadline. A cancelled job sees its shared flag at the next deadline check and
// answers at once with its best schedule.
import { setFlagsFromString } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { replacementFor, type BackendName, type SolverBackend } from '../backends/backend.js';
import { highsBackend, loadHighs } from '../backends/highs-backend.js';
import { jslpBackend } from '../backends/jslp-backend.js';
import { startSlice } from '../budget.js';
import { solveSubproblemAgainOnFailure } from '../solve-subproblem.js';
import { festivalWarmUpRounds, runBetweenTurns, warmUp } from '../warm-up.js';
import { flagCheck, type FromWorker, type ToWorker } from './messages.js';

const port = parentPort;
if (!port) throw new Error('solve-worker must run as a worker thread');

// Compile the solver's WebAssembly with the optimizing tier, all of it while the worker starts:
// measured here, the first
// solves of a fresh worker run about three times faster than with the baseline tier.
setFlagsFromString('--no-liftoff');
setFlagsFromString('--no-wasm-lazy-compilation');
const backends: Record<BackendName, SolverBackend> = { highs: highsBackend(await loadHighs()), jslp: jslpBackend };
warmUp(backends.highs);
const post = (message: FromWorker): void => {
  port.postMessage(message);
};

// Once the service listens (the pool's warm-up message), the festival group's rounds run one to
// a turn of the event loop until the first job. The pool sets the job-sent flag before it posts a
// job, and that ends the round under way at its next time check (as cancelling ends a solve), so
// the job does not wait for a whole round. From then on the jobs themselves keep the code warm.
// Run before the ready message, the rounds made the start longer; run once the service listens,
// they do not (BENCHMARKS.md, "The twenty-sixth session").
let warming: { stop: () => void } | undefined;

// After a trap in HiGHS's WebAssembly the instance is failed (highsBackend): the job solves its
// subproblem again on a fresh instance of another seed (solveSubproblemAgainOnFailure), and a fresh
// one of the usual seed is loaded once the job ends (after a trap in the warm-up, when the next
// job comes); the next job waits for it, out of its own slice. A load after the thread's first
// takes 9-18 ms (V8 keeps the compiled module; the first took 3.3 s, 2026-11-30).
let reloading: Promise<void> | undefined;

port.on('message', (message: ToWorker) => {
  if (message.type === 'warm-up') {
    const jobSent = flagCheck(message.jobSent);
    // One runner at most, and none once a job was sent.
    if (!jobSent() && !warming) warming = runBetweenTurns(festivalWarmUpRounds(backends.highs, { stop: jobSent }));
    return;
  }
  warming?.stop();
  reloadIfFailed();
  // A failed load is an unhandled rejection, waited on or not: the worker fails, and the pool replaces it.
  if (reloading) void reloading.then(() => solve(message));
  else void solve(message);
});

/** Starts loading a fresh HiGHS where the one in use failed (a trap, in a job or the warm-up); the next job waits for it. */
function reloadIfFailed(): void {
  const fresh = reloading ? undefined : replacementFor(backends.highs);
  if (!fresh) return;
  reloading = fresh.then((backend) => {
    backends.highs = backend;
    reloading = undefined;
  });
}

async function solve(message: Extract<ToWorker, { type: 'solve' }>): Promise<void> {
  const { id, job } = message;
  try {
    const result = await solveSubproblemAgainOnFailure(job.sub, {
      backend: backends[job.backend],
      budget: startSlice(job.slice, Date.now, flagCheck(message.cancel)),
      lpText: job.lpText,
      maxMipPairs: job.maxMipPairs,
      onIncumbent: (incumbent) => {
        post({ type: 'incumbent', id, incumbent });
      },
    });
    post({ type: 'done', id, result });
  } catch (e) {
    post({ type: 'failed', id, message: (e as Error).stack ?? String(e) });
  }
  reloadIfFailed();
}
post({ type: 'ready' });
