// The quick fuzz set on every test run (`npm run fuzz` runs at least 10,000 cases). It prints
// its seed; FUZZ_SEED=<seed> replays the same cases, and a failure names the seed and the case.
import { expect } from 'chai';
import fc from 'fast-check';
import { testApp } from '../helpers/app.js';
import { csvFiles, fuzzApi, fuzzSeed, jsonBodies } from './payloads.js';

describe('fuzz payloads replay from their seed', () => {
  it('gives the same bodies and files for the same seed', () => {
    const draw = (seed: number): unknown[] => [
      fc.sample(jsonBodies, { seed, numRuns: 30 }),
      fc.sample(csvFiles('Name,Group,Max Hours'), { seed, numRuns: 30 }).map((b) => b.toString('latin1')),
    ];
    expect(draw(20260606)).to.deep.equal(draw(20260606));
    expect(draw(20260606)).to.not.deep.equal(draw(20260607));
  });

  it('reads FUZZ_SEED, and refuses one that is not a 32-bit integer', () => {
    expect(fuzzSeed({ FUZZ_SEED: '-42' })).to.equal(-42);
    expect(fuzzSeed({})).to.be.a('number').that.satisfies(Number.isInteger);
    expect(() => fuzzSeed({ FUZZ_SEED: 'soon' })).to.throw(/FUZZ_SEED is 'soon'/);
    expect(() => fuzzSeed({ FUZZ_SEED: '99999999999' })).to.throw(/32-bit/);
  });
});

describe('fuzzing the API with hostile input (quick set)', function () {
  this.timeout(120_000);
  it('never answers 500, never hangs, and every error is problem+json', async () => {
    const seed = fuzzSeed();
    console.log(`      fuzz seed ${seed} (replay: FUZZ_SEED=${seed} npm test)`);
    const made = await fuzzApi(testApp(), 150, seed);
    expect(made).to.equal(300);
  });
});
