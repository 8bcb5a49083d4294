// A solver worker thread: loads HiGHS once, then solves one subproblem at a time, posting each
// better schedule as it is found so the pool keeps the best answer should this thread be
// stopped at its deadline. A cancelled job sees its shared flag at the next deadline check and
// answers at once with its best schedule.
import { setFlagsFromString } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { workingBackend, type BackendName, type SolverBackend } from '../backends/backend.js';
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

port.on('message', (message: ToWorker) => {
  if (message.type === 'warm-up') {
    const jobSent = flagCheck(message.jobSent);
    // One runner at most, and none once a job was sent.
    if (!jobSent() && !warming) warming = runBetweenTurns(festivalWarmUpRounds(backends.highs, { stop: jobSent }));
    return;
  }
  warming?.stop();
  void solve(message);
});

async function solve(message: Extract<ToWorker, { type: 'solve' }>): Promise<void> {
  const { id, job } = message;
  try {
    // After a trap in HiGHS's WebAssembly (a job's or the warm-up's) the instance is failed
    // (highsBackend): the job that met it solved its subproblem again on a fresh instance of another
    // seed (solveSubproblemAgainOnFailure), and the next job loads one of the usual seed first, out
    // of its own slice. A load after the thread's first takes 9-18 ms (V8 keeps the compiled
    // module; the first took 3.3 s, 2026-11-30).
    const backend = await workingBackend(backends, job.backend);
    const result = await solveSubproblemAgainOnFailure(job.sub, {
      backend,
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
}
post({ type: 'ready' });
