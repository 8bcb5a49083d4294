// "Did you mean" hints for unknown ids, group names and property names, with bounded cost.
// A request may name thousands of unknown ids against thousands of candidates, each up to
// MAX_STRING_LENGTH characters: a full edit-distance search per pair is quadratic in the request.
// Here each comparison is a banded edit distance (only distances up to 3 matter), names longer
// than a hint is useful for are not compared, and one work budget per request caps the total:
// once spent, messages simply carry no hint.

/** Names longer than this get no hint (a typo in a 200-character id is not what hints are for). */
export const MAX_HINT_NAME_LENGTH = 64;
/** Edit-distance cells one request may spend on hints, in total (a few milliseconds of work). */
export const HINT_WORK_BUDGET = 2_000_000;

/** The shared allowance of one request. */
export interface HintBudget {
  cells: number;
}

export const newHintBudget = (): HintBudget => ({ cells: HINT_WORK_BUDGET });

/**
 * Edit distance between a and b if it is at most `max`, else max + 1. Only the diagonal band
 * |i - j| <= max is computed: O(a.length * (2 max + 1)) cells, counted into `budget`.
 */
export function boundedDistance(a: string, b: string, max: number, budget: HintBudget): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const width = 2 * max + 1;
  budget.cells -= (a.length + 1) * width;
  const big = max + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j <= max ? j : big;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    // Only the band is computed; the cells just outside it are the ones the next row reads.
    cur[0] = i <= max ? i : big;
    if (from > 1) cur[from - 1] = big;
    let rowMin = cur[0];
    for (let j = from; j <= to; j++) {
      const substitute = prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1);
      const value = Math.min(substitute, prev[j]! + 1, cur[j - 1]! + 1, big);
      cur[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (to < b.length) cur[to + 1] = big;
    if (rowMin > max) return big;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[b.length]!, big);
}

/** Finds the closest candidate to a name, case-insensitively, within a shared work budget. */
export class NameSuggester {
  private readonly candidates: Array<{ name: string; lower: string }> = [];

  constructor(
    candidates: Iterable<string>,
    private readonly budget: HintBudget = newHintBudget(),
  ) {
    const seen = new Set<string>();
    for (const name of candidates) {
      if (name.length > MAX_HINT_NAME_LENGTH || seen.has(name)) continue;
      seen.add(name);
      this.candidates.push({ name, lower: name.toLowerCase() });
    }
  }

  /** The closest candidate within distance max(1, min(3, length / 3)), or undefined. */
  closest(name: string): string | undefined {
    if (name.length > MAX_HINT_NAME_LENGTH || this.budget.cells <= 0) return undefined;
    const lower = name.toLowerCase();
    let best: string | undefined;
    let bestDistance = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
    for (const c of this.candidates) {
      if (this.budget.cells <= 0) break;
      if (Math.abs(c.lower.length - lower.length) > bestDistance) continue;
      const d = boundedDistance(lower, c.lower, bestDistance, this.budget);
      if (d < bestDistance || (d === bestDistance && best === undefined)) {
        best = c.name;
        bestDistance = d;
        if (d === 0) break;
      }
    }
    return best;
  }

  /** Ends a sentence: "; did you mean 'x'?" when a close candidate exists, else ".". */
  didYouMean(name: string): string {
    const hit = this.closest(name);
    return hit === undefined ? '.' : `; did you mean '${hit}'?`;
  }
}
