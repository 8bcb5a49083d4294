// npm run bench -- --compare (BENCH_BASELINE=<checkout>): the 2.1 instances solved by a baseline
// checkout's service and by this one's, each in a fresh process, alternating which side goes
// first from one instance to the next (and from one repeat to the next) so that a drift of the
// machine's speed does not favour one side. Prints, per instance, coverage, the sum of squared
// hours and the warm solve time before and after, and whether the after side keeps coverage,
// stays within 0.5% on fairness and within 10% on time.
import { resolve } from 'node:path';
import { measure, type Job } from './measure.js';
import type { Figures } from './solve-one.js';

export interface ComparisonOptions {
  /** The baseline checkout (built: its dist/ is what runs). */
  baseline: string;
  backend: string;
  limit: string;
  /** Measurements per side and instance; the median warm solve of each side is compared. */
  repeat: number;
}

/** Fairness may be worse by at most this fraction of the baseline's sum of squared hours. */
export const FAIRNESS_TOLERANCE = 0.005;
/** Time may be worse by at most this fraction... */
export const TIME_TOLERANCE = 0.1;
/** ...or by at most this many milliseconds (below it, two runs of one build differ as much). */
export const TIME_NOISE_MS = 20;

interface Side {
  figures?: Figures;
  /** Every warm solve measured, in ms. */
  warm: number[];
  error?: string;
}

/** The median of the measured warm solves (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

const percent = (after: number, before: number): string => {
  if (before === 0) return after === 0 ? '0%' : 'n/a';
  const p = ((after - before) / before) * 100;
  return `${p >= 0 ? '+' : ''}${p.toFixed(p !== 0 && Math.abs(p) < 0.1 ? 3 : 1)}%`;
};

function measureSide(job: Job, o: ComparisonOptions, root: string | undefined, side: Side): void {
  const m = measure(job, o.backend, o.limit, root);
  if (!m.ok) {
    side.error = m.error;
    return;
  }
  side.figures ??= m.figures;
  side.warm.push(m.figures.warm_ms);
}

export function runComparison(jobs: Job[], o: ComparisonOptions): void {
  const baseline = resolve(o.baseline);
  const repeat = Math.max(1, Math.floor(o.repeat) || 1);
  console.log(`Before: ${baseline} (its dist/); after: this checkout. Warm solve, the median of ${repeat} per side; the sides alternate.\n`);
  console.log(
    '| instance | slots filled before | after | sum sq. hours before | after | change | fairness within 0.5% | warm solve before | after | change | time within 10% | status before / after |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | --- |');
  let kept = 0;
  let compared = 0;
  jobs.forEach((job, i) => {
    const before: Side = { warm: [] };
    const after: Side = { warm: [] };
    for (let k = 0; k < repeat; k++) {
      const sides: Array<[string | undefined, Side]> = [
        [baseline, before],
        [undefined, after],
      ];
      if ((i + k) % 2 === 1) sides.reverse();
      for (const [root, side] of sides) measureSide(job, o, root, side);
    }
    const b = before.figures;
    const a = after.figures;
    if (!b || !a) {
      console.log(`| ${job.name} | failed: ${before.error ?? ''} ${after.error ?? ''} |`);
      return;
    }
    const fair = a.sum_squared_hours <= b.sum_squared_hours * (1 + FAIRNESS_TOLERANCE);
    const beforeMs = median(before.warm);
    const afterMs = median(after.warm);
    const time = afterMs <= beforeMs * (1 + TIME_TOLERANCE) || afterMs - beforeMs <= TIME_NOISE_MS;
    const coverage = a.filled >= b.filled;
    compared++;
    if (fair && time && coverage) kept++;
    const round = (x: number): string => (Math.round(x * 100) / 100).toString();
    console.log(
      `| ${job.name} | ${b.filled} | ${a.filled}${coverage ? '' : ' (fewer)'} | ${round(b.sum_squared_hours)} | ${round(a.sum_squared_hours)} | ${percent(a.sum_squared_hours, b.sum_squared_hours)} | ${fair ? 'yes' : 'no'} | ${beforeMs} ms | ${afterMs} ms | ${percent(afterMs, beforeMs)} | ${time ? 'yes' : 'no'} | ${b.status} / ${a.status} |`,
    );
  });
  console.log(`\n${kept} of ${compared} instances keep coverage, fairness within 0.5% and time within 10% (or ${TIME_NOISE_MS} ms).`);
}
