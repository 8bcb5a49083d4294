// npm run bench: runs every benchmark instance in its own process and prints a Markdown table.
// Options: --only <substring> (instances whose name contains it), --curtois <list> (e.g. 1-12,20;
// default 1-24), --no-curtois, --time-limit <s> (default 10), --backend highs|jslp.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generatedInstances } from './generate.js';
import type { Figures } from './solve-one.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    curtois: { type: 'string' },
    'no-curtois': { type: 'boolean' },
    'time-limit': { type: 'string' },
    backend: { type: 'string' },
  },
});
const here = fileURLToPath(new URL('.', import.meta.url));
const solveOne = join(here, 'solve-one.js');
const curtoisDir = join(here, '..', '..', '..', 'shared', 'benchmarks', 'curtois');
const limit = values['time-limit'] ?? '10';
const backend = values.backend ?? 'highs';

function range(list: string): number[] {
  return list.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return b === undefined ? [a!] : Array.from({ length: b - a! + 1 }, (_, i) => a! + i);
  });
}

const jobs: Array<{ name: string; arg: string }> = generatedInstances().map((i) => ({ name: i.name, arg: i.name }));
if (!values['no-curtois'] && existsSync(curtoisDir)) {
  for (const n of range(values.curtois ?? '1-24')) jobs.push({ name: `curtois-${n}`, arg: join(curtoisDir, `instance${n}.json`) });
}
const selected = jobs.filter((j) => !values.only || j.name.includes(values.only));

console.log(
  `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; time limit ${limit} s; backend ${backend}\n`,
);
console.log(
  '| instance | volunteers | shifts | slots demanded | slots filled | upper bound | greedy | fairness | status | first solve | warm solve | explain (re-solves) | peak memory | checker | backend |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | --- |');
for (const job of selected) {
  const run = spawnSync(process.execPath, ['--max-old-space-size=4096', solveOne, job.arg, backend, limit], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = run.stdout.trim().split('\n').pop() ?? '';
  let r: Figures;
  try {
    r = JSON.parse(line) as Figures;
  } catch {
    console.log(`| ${job.name} | failed: ${(run.stderr || run.stdout).trim().split('\n').slice(-1)[0]} |`);
    continue;
  }
  console.log(
    `| ${job.name} | ${r.volunteers} | ${r.shifts} | ${r.demanded} | ${r.filled} | ${r.bound} | ${r.greedy} | ${r.fairness} | ${r.status} | ${(r.wall_ms / 1000).toFixed(2)} s | ${(r.warm_ms / 1000).toFixed(2)} s${r.same ? '' : ' (differs)'} | ${r.explain_ms} ms (${r.resolves}${r.incomplete ? `, ${r.incomplete} shifts unexplored` : ''}) | ${r.peak_mb} MB | ${r.checker === 0 ? 'ok' : `${r.checker} problems`} | ${r.backend} |`,
  );
}
