// The quota period: the UTC day. It resets at 00:00 UTC.

export interface Period {
  /** YYYY-MM-DD of the UTC day. */
  key: string;
  start: Date;
  end: Date;
  /** Whole seconds until the end, at least 1. */
  secondsLeft: number;
}

export function periodOf(now: Date): Period {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const end = new Date(start.getTime() + 86_400_000);
  return { key: start.toISOString().slice(0, 10), start, end, secondsLeft: Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 1000)) };
}

export const isoSeconds = (d: Date): string => d.toISOString().replace('.000Z', 'Z');
