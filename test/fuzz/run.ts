// npm run fuzz: at least 10,000 hostile requests against validate, schedule and schedule/csv
// (5,000 cases per property), then prints how many were made and that none answered 500.
// It prints its seed first; FUZZ_SEED=<seed> replays a run. Then the hostile-cost set
// (hostile-cost.ts): the costliest input of each family at the largest allowed size, with the
// worst time per request and the worst event-loop delay meanwhile (FUZZ_COST=only skips the
// random cases; FUZZ_COST=skip skips the cost set).
import { closeShared, openSharedStore, testApp } from '../helpers/app.js';
import { fuzzApi, fuzzSeed } from './payloads.js';
import { hostileCost } from './hostile-cost.js';

const perProperty = Number(process.env.FUZZ_RUNS ?? 5000);
const seed = fuzzSeed();
console.log(`fuzz seed ${seed} (replay: FUZZ_SEED=${seed} npm run fuzz)`);
const started = Date.now();
await openSharedStore();
try {
  if (process.env.FUZZ_COST !== 'only') {
    const made = await fuzzApi(testApp(), perProperty, seed);
    console.log(
      `fuzz: ${made} requests (${perProperty} cases per property, seed ${seed}) in ${((Date.now() - started) / 1000).toFixed(1)} s: no 500, no hang, every error problem+json`,
    );
  }
  if (process.env.FUZZ_COST !== 'skip') {
    console.log('\nhostile cost (largest allowed size; event loop target <= 250 ms, /healthz < 300 ms)');
    console.log('| family | body MB | status | worst request ms | worst event-loop delay ms | worst /healthz ms | response KB |');
    console.log('| --- | --- | --- | --- | --- | --- | --- |');
    const rows = await hostileCost();
    const over = rows.filter(
      (r) => r.worst_loop_delay_ms > 250 || r.worst_healthz_ms > 300 || r.statuses.split('/').some((s) => s.startsWith('5') && s !== '503'),
    );
    if (over.length > 0) {
      console.error(`over target: ${over.map((r) => r.family).join('; ')}`);
      process.exitCode = 1;
    }
  }
} catch (e) {
  console.error(String(e));
  process.exitCode = 1;
} finally {
  await closeShared();
}
