#!/usr/bin/env node
// Entry point of the volunteer-scheduler command. The code runs from dist/, built by
// `npm install` (prepare) or `npm run build`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('volunteer-scheduler: dist/ is missing; run `npm run build` (or `npm install`) first.\n');
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
