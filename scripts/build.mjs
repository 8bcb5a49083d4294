// npm run build: generates the schema types, compiles the service and the page (app/) into a
// fresh folder, and swaps it in for dist/ with renames. A service or CLI already running from dist/ keeps working while a build
// runs (nothing is deleted under it), and a build never leaves dist/ half-written. The build
// stamp (dist/BUILD-STAMP) lets bin/volunteer-scheduler.js tell a missing or stale build.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const fresh = join(root, `dist.build-${process.pid}`);
const old = join(root, `dist.old-${process.pid}`);
const run = (file, args) => execFileSync(process.execPath, [file, ...args], { cwd: root, stdio: 'inherit' });

rmSync(fresh, { recursive: true, force: true });
run(join(root, 'scripts', 'generate-types.mjs'), []);
try {
  run(join(root, 'node_modules', 'typescript', 'bin', 'tsc'), ['-p', 'tsconfig.json', '--outDir', fresh]);
  // The coordinator's page (/app): app/*.ts for the browser (its own tsconfig, DOM types), with
  // its HTML and CSS copied beside the script. Served by src/http/routes/app-page.ts.
  run(join(root, 'node_modules', 'typescript', 'bin', 'tsc'), ['-p', join('app', 'tsconfig.json'), '--outDir', join(fresh, 'app')]);
  for (const file of ['index.html', 'app.css']) copyFileSync(join(root, 'app', file), join(fresh, 'app', file));
} catch {
  rmSync(fresh, { recursive: true, force: true });
  process.exit(1);
}
writeFileSync(join(fresh, 'BUILD-STAMP'), `${JSON.stringify({ built_at: new Date().toISOString() })}\n`);
// Another build may swap at the same moment: retry until our folder is dist/.
for (let attempt = 0; ; attempt++) {
  try {
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(fresh, dist);
    break;
  } catch (e) {
    if (attempt >= 20) throw e;
  }
}
rmSync(old, { recursive: true, force: true });
