#!/usr/bin/env node
// Entry point of the volunteer-scheduler command. The code runs from dist/, built by
// `npm install` / `npm ci` (prepare) or `npm run build`; starting never builds. A missing build,
// or one older than a source file, stops with a message saying what to run.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = new URL('../dist/src/cli/main.js', import.meta.url);
const stamp = join(root, 'dist', 'BUILD-STAMP');
if (!existsSync(fileURLToPath(entry)) || !existsSync(stamp)) {
  process.stderr.write('volunteer-scheduler: dist/ is missing or incomplete; run `npm run build` (npm ci and npm install run it too).\n');
  process.exit(2);
}

/** The newest source file (src/, schemas/) changed after the build, if any. */
function newerSource(builtAt) {
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        const found = walk(path);
        if (found) return found;
      } else if (/\.(ts|json)$/.test(e.name) && statSync(path).mtimeMs > builtAt) {
        return path;
      }
    }
    return undefined;
  };
  return walk(join(root, 'src')) ?? walk(join(root, 'schemas'));
}

const stale = newerSource(statSync(stamp).mtimeMs);
if (stale) {
  process.stderr.write(`volunteer-scheduler: dist/ is older than ${stale.slice(root.length)}; run \`npm run build\` to build the current sources.\n`);
  process.exit(2);
}
const { main } = await import(entry.href);
main(process.argv.slice(2)).then(
  (code) => {
    if (process.argv[2] !== 'serve' || code !== 0) process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`volunteer-scheduler: ${err && err.stack ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
