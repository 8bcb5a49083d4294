// Progress of a solve for whoever waits on it (the CLI's progress line, jobs that stream it):
// each group's best schedule so far summed up, sent at most a few times a second so a burst of
// improvements costs the listener nothing.
import type { PhaseName } from './levels.js';
import type { SubproblemIncumbent } from './subproblem-runner.js';

/** Least time between two progress events; the latest state is sent at the end of the wait. */
export const PROGRESS_INTERVAL_MS = 250;

export interface SolveProgress {
  /** The phase that found the latest better schedule, and its group. */
  phase: PhaseName;
  group: string;
  /** Slots filled by new assignments in the groups' best schedules so far. */
  filled: number;
  /** Proven upper bound on `filled`, once every group (started or waiting for a lane) has reported one. */
  bound?: number;
  groupsDone: number;
  groupsRunning: number;
}

export class ProgressTracker {
  private readonly filled = new Map<string, number>();
  private readonly bounds = new Map<string, number>();
  private running = 0;
  private done = 0;
  private latest: Pick<SolveProgress, 'phase' | 'group'> | undefined;
  private sentAt = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  /**
   * `groups`: how many groups the solve has. A bound is sent only once each has one: a sum over
   * the groups started so far would leave out those still waiting for a lane.
   */
  constructor(
    private readonly listener?: (progress: SolveProgress) => void,
    private readonly now: () => number = Date.now,
    private readonly groups = Infinity,
  ) {}

  started(group: string): void {
    this.running++;
    this.filled.set(group, this.filled.get(group) ?? 0);
  }

  improved(group: string, incumbent: SubproblemIncumbent): void {
    this.filled.set(group, Math.max(this.filled.get(group) ?? 0, incumbent.assignments.length));
    this.bounds.set(group, incumbent.fillBound);
    this.latest = { phase: incumbent.phase, group };
    this.send();
  }

  /** A group ended with `filled` slots and the bound its result proves (the cheap bound at least). */
  finished(group: string, filled: number, bound: number): void {
    this.running--;
    this.done++;
    this.filled.set(group, Math.max(this.filled.get(group) ?? 0, filled));
    // The result's bound, never below what it filled: a group that found its schedule without
    // reporting an incumbent has one too, so the total can be sent.
    this.bounds.set(group, Math.max(bound, filled));
    if (this.latest) this.send();
  }

  /** No more events (a pending one is dropped: the result says more). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private send(): void {
    if (!this.listener || this.timer) return;
    const wait = this.sentAt + PROGRESS_INTERVAL_MS - this.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.emit();
      }, wait);
      this.timer.unref();
      return;
    }
    this.emit();
  }

  private emit(): void {
    this.sentAt = this.now();
    const sum = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
    const bounded = this.bounds.size >= this.groups;
    this.listener?.({
      ...this.latest!,
      filled: sum(this.filled),
      ...(bounded ? { bound: sum(this.bounds) } : {}),
      groupsDone: this.done,
      groupsRunning: this.running,
    });
  }
}
