// npm run bench: runs every benchmark instance in its own process and prints Markdown tables: the
// 2.1 instances, then the 2.2 rule-heavy ones ("rules"), then the command line's wall time
// ("cli", bench/cli.ts). Options: --only <substring> (instances whose name contains it; the
// command line's are named cli-*, so --only cli runs that table alone), --curtois <list> (e.g.
// 1-12,20; default 1-24), --no-curtois, --no-rules, --no-wishes, --no-cli, --time-limit <s>
// (default 10), --backend highs|jslp. The "wishes" tables solve every family with preferred and
// avoided shifts and min_hours, and then without them ("price of wishes": what honoring them costs).
// --compare (with BENCH_BASELINE=<checkout>) runs the 2.1 instances on the baseline checkout and
// on this one instead, alternately, and prints the before/after table (bench/compare.ts);
// --repeat <n> measures each side n times there (and each instance n times in the tables, which then
// give the median first and warm solve); --compare --rules compares the rules instances instead.
// The command line's table runs on the baseline too whenever BENCH_BASELINE is set, --repeat
// times a side (default 5).
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { cliJobs, runCliBenchmark } from './cli.js';
import { median, runComparison } from './compare.js';
import { jobs21, jobsRules, jobsWishes, measure, type Job } from './measure.js';
import type { Figures } from './solve-one.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    curtois: { type: 'string' },
    'no-curtois': { type: 'boolean' },
    'no-rules': { type: 'boolean' },
    'no-wishes': { type: 'boolean' },
    'no-cli': { type: 'boolean' },
    'time-limit': { type: 'string' },
    backend: { type: 'string' },
    compare: { type: 'boolean' },
    rules: { type: 'boolean' },
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
/**
 * Marks on the warm solve: "clock" where the time limit stopped some work (the answers may then
 * differ), "differs" where they did; answers that differ while the clock stopped nothing would
 * be a fault, and say so (a checkout that does not report time_limited: "differs" alone).
 */
const sameness = (r: Figures): string => {
  if (r.same) return r.time_limited ? ' (clock)' : '';
  if (r.time_limited === null) return ' (differs)';
  return r.time_limited ? ' (differs; clock)' : ' (differs, though the clock stopped nothing)';
};
const checker = (r: Figures): string => (r.checker === null ? 'n/a' : r.checker === 0 ? 'ok' : `${r.checker} problems`);

type Column = readonly [header: string, align: string, cell: (r: Figures) => string];

const count = (header: string, value: (r: Figures) => number | string | null): Column => [header, '---:', (r) => `${value(r) ?? '?'}`];
const COLUMNS = {
  volunteers: count('volunteers', (r) => r.volunteers),
  shifts: count('shifts', (r) => r.shifts),
  demanded: count('slots demanded', (r) => r.demanded),
  filled: count('slots filled', (r) => r.filled),
  byPriority: ['filled by priority 5/4/3/2/1', '---', (r) => r.filled_by_priority.map((f, i) => `${f}/${r.demanded_by_priority[i]}`).join(', ')],
  bound: count('upper bound', (r) => r.bound),
  greedy: count('greedy', (r) => r.greedy),
  fairness: count('fairness', (r) => r.fairness),
  status: ['status', '---', (r) => r.status],
  first: ['first solve', '---:', (r) => seconds(r.wall_ms)],
  warm: ['warm solve', '---:', (r) => `${seconds(r.warm_ms)}${sameness(r)}`],
  explain: ['explain (re-solves)', '---:', (r) => `${r.explain_ms} ms (${r.resolves}${r.incomplete ? `, ${r.incomplete} shifts unexplored` : ''})`],
  memory: ['peak memory', '---:', (r) => `${r.peak_mb} MB`],
  warnings: [
    'warnings',
    '---',
    (r) =>
      Object.entries(r.warnings)
        .map(([code, n]) => `${code} ${n}`)
        .join(', ') || 'none',
  ],
  checker: ['checker', '---', checker],
  wishes: ['avoided / h below min / preferred', '---:', (r) => `${r.wishes.avoided} / ${r.wishes.hours_below_min} / ${r.wishes.preferred}`],
  proven: ['levels 1-6 proven', '---', (r) => (r.unproven.length === 0 ? 'yes' : `no (${r.unproven.join(', ')})`)],
  squares: count('sum of squared hours', (r) => Math.round(r.sum_squared_hours)),
  fairGap: ['squares vs bound', '---:', (r) => (r.fairness_gap === null ? 'n/a' : `+${(r.fairness_gap * 100).toFixed(2)}%`)],
  backend: ['backend', '---', (r) => r.backend],
} satisfies Record<string, Column>;

const repeat = Math.max(1, Math.floor(Number(values.repeat ?? '1')) || 1);

/**
 * Measures a job `repeat` times: the first measurement's figures with the median first and warm
 * solve; `same` is false when any answer differed from another.
 */
function measureRepeated(job: Job): ReturnType<typeof measure> {
  const runs = Array.from({ length: repeat }, () => measure(job, backend, limit));
  const ok = runs.flatMap((m) => (m.ok ? [m.figures] : []));
  if (ok.length < runs.length) return runs.find((m) => !m.ok)!;
  const first = ok[0]!;
  const same = ok.every((f) => f.same && f.filled === first.filled && f.sum_squared_hours === first.sum_squared_hours);
  const timeLimited = ok.some((f) => f.time_limited === true) ? true : ok.every((f) => f.time_limited === false) ? false : null;
  return {
    ok: true,
    figures: { ...first, wall_ms: median(ok.map((f) => f.wall_ms)), warm_ms: median(ok.map((f) => f.warm_ms)), same, time_limited: timeLimited },
  };
}

/** Runs each job and prints its row, or a failed row. */
function table(jobs: Job[], columns: Column[]): void {
  if (repeat > 1) console.log(`Each instance measured ${repeat} times: first and warm solve are medians.\n`);
  console.log(`| instance | ${columns.map((c) => c[0]).join(' | ')} |`);
  console.log(`| --- | ${columns.map((c) => c[1]).join(' | ')} |`);
  for (const job of jobs) {
    const m = measureRepeated(job);
    console.log(m.ok ? `| ${[job.name, ...columns.map((c) => c[2](m.figures))].join(' | ')} |` : `| ${job.name} | failed: ${m.error} |`);
  }
}

/**
 * The price of wishes: each wishes instance solved again with its wishes taken out, the result
 * judged by the same wishes. Slots and fully staffed shifts come first, so honoring wishes never
 * costs a slot; what it costs is fairness (sum of squared hours).
 */
function priceOfWishes(jobs: Job[]): void {
  console.log('\nPrice of wishes: the same instances without their wishes (left) and with them (right), judged by the same wishes\n');
  console.log('| instance | slots filled | sum of squared hours | fairness score | avoided | hours below min | preferred |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const pair = (a: number | string, b: number | string): string => `${a} / ${b}`;
  for (const job of jobs) {
    const [without, wished] = [measureRepeated({ name: `nowish-${job.name}`, arg: `nowish-${job.arg}` }), measureRepeated(job)];
    if (!without.ok || !wished.ok) {
      console.log(`| ${job.name} | failed: ${without.ok ? '' : without.error} ${wished.ok ? '' : wished.error} |`);
      continue;
    }
    const [a, b] = [without.figures, wished.figures];
    const change = b.sum_squared_hours / Math.max(1, a.sum_squared_hours) - 1;
    console.log(
      `| ${job.name} | ${pair(a.filled, b.filled)} | ${pair(Math.round(a.sum_squared_hours), Math.round(b.sum_squared_hours))} (${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%) | ${pair(a.fairness, b.fairness)} | ${pair(a.wishes.avoided, b.wishes.avoided)} | ${pair(a.wishes.hours_below_min, b.wishes.hours_below_min)} | ${pair(a.wishes.preferred, b.wishes.preferred)} |`,
    );
  }
}

if (values.compare) {
  const baseline = process.env.BENCH_BASELINE;
  if (!baseline) {
    console.error('--compare needs BENCH_BASELINE=<path of another checkout, built with npm run build>');
    process.exit(2);
  }
  runComparison(values.rules ? jobsRules(selection) : jobs21(selection), { baseline, backend, limit, repeat });
} else {
  const c = COLUMNS;
  const all = jobs21(selection);
  if (all.length > 0) {
    table(all, [
      c.volunteers,
      c.shifts,
      c.demanded,
      c.filled,
      c.bound,
      c.greedy,
      c.fairness,
      c.status,
      c.first,
      c.warm,
      c.explain,
      c.memory,
      c.checker,
      c.backend,
    ]);
  }
  const rules = values['no-rules'] ? [] : jobsRules(selection);
  if (rules.length > 0) {
    console.log('\nRules (2.2): availability windows, additional groups, rest, max 2 shifts a day, priorities 1-5\n');
    table(rules, [c.volunteers, c.shifts, c.demanded, c.filled, c.byPriority, c.bound, c.fairness, c.status, c.first, c.warm, c.memory, c.warnings, c.checker]);
  }
  const wishes = values['no-wishes'] ? [] : jobsWishes(selection);
  if (wishes.length > 0) {
    console.log('\nWishes (soft goals): 40% prefer 1-3 shifts, 30% avoid 1-3, 40% hope for min_hours\n');
    table(wishes, [c.volunteers, c.shifts, c.demanded, c.filled, c.wishes, c.proven, c.squares, c.fairGap, c.status, c.first, c.warm, c.memory, c.checker]);
    priceOfWishes(wishes);
  }
  const cli = values['no-cli'] ? [] : cliJobs(values.only);
  if (cli.length > 0) runCliBenchmark(cli, { repeat: Number(values.repeat ?? '5'), baseline: process.env.BENCH_BASELINE });
}
