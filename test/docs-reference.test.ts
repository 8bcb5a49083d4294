// docs/api-reference.md is the API reference in the repository, generated from the OpenAPI
// document, the schemas and the problem catalog: it must be what the generator writes now.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../src/package-root.js';

describe('docs/api-reference.md', function () {
  this.timeout(30_000);

  it('is up to date with the OpenAPI document, the schemas and the problem types (npm run docs rewrites it)', () => {
    const run = spawnSync(process.execPath, [join(packageRoot, 'scripts/api-reference.mjs'), '--check'], { encoding: 'utf8' });
    expect(run.stderr).to.equal('');
    expect(run.status).to.equal(0);
  });
});
