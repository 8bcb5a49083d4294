import { expect } from 'chai';
import { testApp } from '../helpers/app.js';
import { fuzzApi } from './payloads.js';

// A quick set on every test run; `npm run fuzz` runs at least 10,000 cases.
describe('fuzzing the API with hostile input (quick set)', function () {
  this.timeout(120_000);
  it('never answers 500, never hangs, and every error is problem+json', async () => {
    const made = await fuzzApi(testApp(), 150);
    expect(made).to.be.at.least(300);
  });
});
