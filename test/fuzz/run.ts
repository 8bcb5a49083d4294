// npm run fuzz: at least 10,000 hostile requests against validate, schedule and schedule/csv
// (5,000 cases per property), then prints how many were made and that none answered 500.
// It prints its seed first; FUZZ_SEED=<seed> replays a run.
import { closeShared, openSharedStore, testApp } from '../helpers/app.js';
import { fuzzApi, fuzzSeed } from './payloads.js';

const perProperty = Number(process.env.FUZZ_RUNS ?? 5000);
const seed = fuzzSeed();
console.log(`fuzz seed ${seed} (replay: FUZZ_SEED=${seed} npm run fuzz)`);
const started = Date.now();
await openSharedStore();
try {
  const made = await fuzzApi(testApp(), perProperty, seed);
  console.log(`fuzz: ${made} requests (${perProperty} cases per property, seed ${seed}) in ${((Date.now() - started) / 1000).toFixed(1)} s: no 500, no hang, every error problem+json`);
} catch (e) {
  console.error(String(e));
  process.exitCode = 1;
} finally {
  await closeShared();
}
