// npm run bench: runs every benchmark instance in its own process and prints Markdown tables: the
// 2.1 instances, then the 2.2 rule-heavy ones ("rules"). Options: --only <substring> (instances
// whose name contains it), --curtois <list> (e.g. 1-12,20; default 1-24), --no-curtois,
// --no-rules, --time-limit <s> (default 10), --backend highs|jslp.
// --compare (with BENCH_BASELINE=<checkout>) runs the 2.1 instances on the baseline checkout and
// on this one instead, alternately, and prints the before/after table (bench/compare.ts);
// --repeat <n> measures each side n times there.
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { runComparison } from './compare.js';
import { jobs21, jobsRules, measure, type Job } from './measure.js';
import type { Figures } from './solve-one.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    curtois: { type: 'string' },
    'no-curtois': { type: 'boolean' },
    'no-rules': { type: 'boolean' },
    'time-limit': { type: 'string' },
    backend: { type: 'string' },
    compare: { type: 'boolean' },
    repeat: { type: 'string' },
  },
});
const limit = values['time-limit'] ?? '10';
const backend = values.backend ?? 'highs';
const selection = { only: values.only, curtois: values.curtois, noCurtois: values['no-curtois'] };

console.log(
  `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; time limit ${limit} s; backend ${backend}\n`,
);

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const checker = (r: Figures): string => (r.checker === null ? 'n/a' : r.checker === 0 ? 'ok' : `${r.checker} problems`);

/** Runs each job and prints its row, or a failed row. */
function table(header: string[], align: string[], jobs: Job[], row: (r: Figures) => string[]): void {
  console.log(`| ${header.join(' | ')} |`);
  console.log(`| ${align.join(' | ')} |`);
  for (const job of jobs) {
    const m = measure(job, backend, limit);
    console.log(m.ok ? `| ${[job.name, ...row(m.figures)].join(' | ')} |` : `| ${job.name} | failed: ${m.error} |`);
  }
}

if (values.compare) {
  const baseline = process.env.BENCH_BASELINE;
  if (!baseline) {
    console.error('--compare needs BENCH_BASELINE=<path of another checkout, built with npm run build>');
    process.exit(2);
  }
  runComparison(jobs21(selection), { baseline, backend, limit, repeat: Number(values.repeat ?? '1') });
} else {
  const all = jobs21(selection);
  if (all.length > 0) {
    table(
      [
        'instance',
        'volunteers',
        'shifts',
        'slots demanded',
        'slots filled',
        'upper bound',
        'greedy',
        'fairness',
        'status',
        'first solve',
        'warm solve',
        'explain (re-solves)',
        'peak memory',
        'checker',
        'backend',
      ],
      ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---', '---:', '---:', '---:', '---:', '---', '---'],
      all,
      (r) => [
        `${r.volunteers}`,
        `${r.shifts}`,
        `${r.demanded}`,
        `${r.filled}`,
        `${r.bound ?? '?'}`,
        `${r.greedy ?? '?'}`,
        `${r.fairness}`,
        r.status,
        seconds(r.wall_ms),
        `${seconds(r.warm_ms)}${r.same ? '' : ' (differs)'}`,
        `${r.explain_ms} ms (${r.resolves}${r.incomplete ? `, ${r.incomplete} shifts unexplored` : ''})`,
        `${r.peak_mb} MB`,
        checker(r),
        r.backend,
      ],
    );
  }
  const rules = values['no-rules'] ? [] : jobsRules(selection);
  if (rules.length > 0) {
    console.log('\nRules (2.2): availability windows, additional groups, rest, max 2 shifts a day, priorities 1-5\n');
    table(
      [
        'instance',
        'volunteers',
        'shifts',
        'slots demanded',
        'slots filled',
        'filled by priority 5/4/3/2/1',
        'upper bound',
        'fairness',
        'status',
        'first solve',
        'warm solve',
        'peak memory',
        'warnings',
        'checker',
      ],
      ['---', '---:', '---:', '---:', '---:', '---', '---:', '---:', '---', '---:', '---:', '---:', '---', '---'],
      rules,
      (r) => [
        `${r.volunteers}`,
        `${r.shifts}`,
        `${r.demanded}`,
        `${r.filled}`,
        r.filled_by_priority.map((f, i) => `${f}/${r.demanded_by_priority[i]}`).join(', '),
        `${r.bound ?? '?'}`,
        `${r.fairness}`,
        r.status,
        seconds(r.wall_ms),
        `${seconds(r.warm_ms)}${r.same ? '' : ' (differs)'}`,
        `${r.peak_mb} MB`,
        Object.entries(r.warnings)
          .map(([code, n]) => `${code} ${n}`)
          .join(', ') || 'none',
        checker(r),
      ],
    );
  }
}
