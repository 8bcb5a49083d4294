// Feeds the event streams (GET /api/jobs/<id>/events) of this process: one timer reads every
// watched job in one query, four times a second, only while someone watches, and tells each
// stream when its job changed. The job may be solved by any worker on the database, so the
// table is what is watched; a stream that connects again simply gets the current state.
import type { JobStore, JobSummary } from './job-store.js';

export const WATCH_INTERVAL_MS = 250;

type Listener = (job: JobSummary | undefined) => void;

const signatureOf = (job: JobSummary): string => `${job.status}|${job.progress ?? ''}|${job.finished_at ?? ''}|${job.error ?? ''}|${job.cancel_requested}`;

export class JobWatcher {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly last = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private closed = false;

  constructor(private readonly store: JobStore) {}

  /** Calls `listener` with the job each time it changes (undefined once it is deleted). */
  watch(id: string, listener: Listener): () => void {
    let set = this.listeners.get(id);
    if (!set) this.listeners.set(id, (set = new Set()));
    set.add(listener);
    this.schedule();
    return () => {
      set.delete(listener);
      if (set.size === 0) {
        this.listeners.delete(id);
        this.last.delete(id);
      }
    };
  }

  get watched(): number {
    return this.listeners.size;
  }

  /** Stops watching; every listener is told its stream ends (as if the job were gone). */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const set of this.listeners.values()) for (const listener of [...set]) listener(undefined);
    this.listeners.clear();
  }

  private schedule(): void {
    if (this.timer || this.closed || this.listeners.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.read().finally(() => {
        this.schedule();
      });
    }, WATCH_INTERVAL_MS);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const ids = [...this.listeners.keys()];
      const rows = new Map((await this.store.many(ids)).map((r) => [r.id, r]));
      for (const id of ids) {
        const row = rows.get(id);
        const sig = row ? signatureOf(row) : 'gone';
        if (this.last.get(id) === sig) continue;
        this.last.set(id, sig);
        for (const listener of [...(this.listeners.get(id) ?? [])]) listener(row);
      }
    } catch {
      // The database is away: the streams keep their last state and the next read tries again.
    } finally {
      this.reading = false;
    }
  }
}
