// Maximal sets of mutually overlapping shifts (the maximal cliques of the interval graph), found
// by one sweep over sorted start and end times. One "at most one of these" constraint per clique
// replaces one constraint per overlapping pair: far fewer rows and a tighter relaxation.
// Windows are half-open: a shift ending at 10:00 does not overlap one starting at 10:00.

export interface Window {
  start: number;
  end: number;
}

/**
 * Returns the maximal cliques as arrays of indexes into `windows` (ascending), in time order.
 * Cliques of a single window are included; callers drop the ones they do not need.
 */
export function overlapCliques(windows: readonly Window[]): number[][] {
  // Events: ends sort before starts at the same instant (touching is not overlapping).
  const events: Array<[time: number, kind: 0 | 1, index: number]> = [];
  windows.forEach((w, i) => {
    events.push([w.start, 1, i], [w.end, 0, i]);
  });
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
  const active = new Set<number>();
  const cliques: number[][] = [];
  let lastWasStart = false;
  for (const [, kind, index] of events) {
    if (kind === 1) {
      active.add(index);
      lastWasStart = true;
    } else {
      // The active set just before the first end after a run of starts is a maximal clique.
      if (lastWasStart) cliques.push([...active].sort((a, b) => a - b));
      active.delete(index);
      lastWasStart = false;
    }
  }
  return cliques;
}
