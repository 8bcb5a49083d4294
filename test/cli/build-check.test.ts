// Starting never builds (issue 11): the command runs what `npm ci` / `npm run build` built, and
// stops with a message saying what to run when dist/ is missing or older than a source file.
// Each case runs bin/volunteer-scheduler.js from a copy in a temp folder, so the checkout's own
// build is never touched.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';

function checkout(withDist: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'vs-build-check-'));
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'src'));
  mkdirSync(join(root, 'schemas'));
  copyFileSync(join(packageRoot, 'bin', 'volunteer-scheduler.js'), join(root, 'bin', 'volunteer-scheduler.js'));
  writeFileSync(join(root, 'package.json'), '{"type": "module"}');
  if (withDist) symlinkSync(join(packageRoot, 'dist'), join(root, 'dist'));
  writeFileSync(join(root, 'src', 'main.ts'), '// a source file\n');
  const past = new Date(Date.now() - 3_600_000);
  utimesSync(join(root, 'src', 'main.ts'), past, past);
  return root;
}

const run = (root: string) => spawnSync(process.execPath, [join(root, 'bin', 'volunteer-scheduler.js'), '--help'], { encoding: 'utf8' });

describe('volunteer-scheduler: starting never builds', () => {
  it('runs what was built when the build is newer than every source file', () => {
    const root = checkout(true);
    try {
      const res = run(root);
      expect(res.status, res.stderr).to.equal(0);
      expect(res.stdout).to.match(/^Usage: volunteer-scheduler/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('stops with exit 2 and says to build when dist/ is missing', () => {
    const root = checkout(false);
    try {
      const res = run(root);
      expect(res.status).to.equal(2);
      expect(res.stderr).to.equal('volunteer-scheduler: dist/ is missing or incomplete; run `npm run build` (npm ci and npm install run it too).\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('stops with exit 2 and names the file when a source is newer than the build', () => {
    const root = checkout(true);
    try {
      const future = new Date(Date.now() + 3_600_000);
      utimesSync(join(root, 'src', 'main.ts'), future, future);
      const res = run(root);
      expect(res.status).to.equal(2);
      expect(res.stderr).to.equal('volunteer-scheduler: dist/ is older than src/main.ts; run `npm run build` to build the current sources.\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
