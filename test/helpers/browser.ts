// Debian's Chromium (apt-get install chromium; .ci/run installs it when missing), driven by
// playwright-core, for the browser tests: launched headless, without sandbox or background
// traffic, and the app served on a local port with background jobs wired (the page runs the
// schedule as a job).
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import type { Jobs } from '../../src/jobs/jobs.js';
import { listener, testJobsApp } from './app.js';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ServedApp {
  server: Server;
  /** The origin, such as http://127.0.0.1:40123. */
  base: string;
  /** The app's jobs (the in-process queue on the shared SQLite store). */
  jobs: Jobs;
  /** Closes the server (and its open event streams), then stops the jobs. */
  close(): Promise<void>;
}

/**
 * The test app with jobs on 127.0.0.1 and a free port. `workers` jobs are solved at once
 * (default 1; 0 leaves every job queued, for a test that plays the worker itself).
 */
export async function serveTestApp(env: Record<string, string> = {}, o: { workers?: number } = {}): Promise<ServedApp> {
  const t = await testJobsApp(env, { workers: o.workers ?? 1 });
  const server = createServer(listener(t.app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    jobs: t.jobs,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
      });
      await t.close();
    },
  };
}
