// Helpers for the jobs tests: keys of other users in the shared store, waiting for a job to
// reach a state, reading a server-sent event stream over real HTTP, and the request a result
// is checked against.
import { readFileSync } from 'node:fs';
import { festival } from '../../bench/generate.js';
import { join } from 'node:path';
import { formatKey } from '../../src/auth/api-keys.js';
import { packageRoot } from '../../src/package-root.js';
import { sharedStore, TEST_SECRET } from './app.js';

export type Json = Record<string, any>;

export const FINAL = ['completed', 'failed', 'cancelled'];
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

let users = 0;
/** A key of a new user in the shared store (each test its own user: its own jobs, quota and limit). */
export async function newUserKey(prefix: string, quota = 1_000_000_000): Promise<string> {
  const user = `${prefix}-${process.pid}-${++users}-${Date.now().toString(36)}`;
  const { store } = sharedStore();
  const record = await store.issue(user, user, 'jobs tests', quota, new Date());
  return formatKey(TEST_SECRET, user, record.nonce);
}

/** Reads a job (GET /api/jobs/<id>) through `get` until `done` says so; throws after `timeoutMs`. */
export async function waitFor(
  get: (path: string) => Promise<{ status: number; body: unknown }>,
  id: string,
  done: (job: Json) => boolean,
  timeoutMs = 60_000,
  everyMs = 50,
): Promise<Json> {
  const until = Date.now() + timeoutMs;
  let last: Json | undefined;
  while (Date.now() < until) {
    const res = await get(`/api/jobs/${id}`);
    if (res.status !== 200) throw new Error(`GET /api/jobs/${id}: ${res.status} ${JSON.stringify(res.body)}`);
    last = res.body as Json;
    if (done(last)) return last;
    await sleep(everyMs);
  }
  throw new Error(`job ${id} did not get there within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}

export const ended = (job: Json): boolean => FINAL.includes(job.status as string);

export interface SseEvent {
  event: string;
  id?: string;
  data: Json;
}

/**
 * Opens an event stream over real HTTP and collects its events until the server ends it, an
 * `end` event comes, or `stopAfter` events were read (then the client closes the connection).
 */
export async function readEvents(
  url: string,
  key: string,
  o: { stopAfter?: number; timeoutMs?: number } = {},
): Promise<{ status: number; type: string | null; events: SseEvent[]; retry?: number }> {
  const abort = new AbortController();
  const timer = setTimeout(() => {
    abort.abort();
  }, o.timeoutMs ?? 60_000);
  const res = await fetch(url, { headers: { Authorization: `Bearer ${key}`, Accept: 'text/event-stream' }, signal: abort.signal });
  const events: SseEvent[] = [];
  let retry: number | undefined;
  if (res.status !== 200 || !res.body) {
    clearTimeout(timer);
    await res.body?.cancel();
    return { status: res.status, type: res.headers.get('content-type'), events };
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const fields: Record<string, string> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':') || line === '') continue;
          const at = line.indexOf(':');
          const name = at < 0 ? line : line.slice(0, at);
          const value = at < 0 ? '' : line.slice(at + 1).replace(/^ /, '');
          fields[name] = fields[name] === undefined ? value : `${fields[name]}\n${value}`;
        }
        if (fields.retry !== undefined) retry = Number(fields.retry);
        if (fields.data === undefined) continue;
        events.push({ event: fields.event ?? 'message', ...(fields.id !== undefined ? { id: fields.id } : {}), data: JSON.parse(fields.data) as Json });
        if (fields.event === 'end' || (o.stopAfter !== undefined && events.length >= o.stopAfter)) {
          await reader.cancel();
          return { status: res.status, type: res.headers.get('content-type'), events, ...(retry !== undefined ? { retry } : {}) };
        }
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return { status: res.status, type: res.headers.get('content-type'), events, ...(retry !== undefined ? { retry } : {}) };
}

export const exampleFile = (name: string): Buffer => readFileSync(join(packageRoot, 'examples', name));

/**
 * A request whose solve runs to its time limit, to cancel or kill a worker mid-solve: a
 * generated festival (bench/generate.ts, so a fresh clone has it) with demand far above supply.
 */
export function longRequest(): Json {
  return festival({ seed: 5, volunteers: 150, shifts: 400, days: 3, groups: 4, demand: 1, caps: [8, 10, 12, 16] });
}

/** The p-th percentile (0-100) of numbers, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
