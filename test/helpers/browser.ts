// Debian's Chromium (apt-get install chromium; .ci/run installs it when missing), driven by
// playwright-core, for the browser tests: launched headless, without sandbox or background
// traffic, and the app served on a local port: with background jobs wired for the page at /app
// (it runs the schedule as a job), without for the others.
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import type { Jobs } from '../../src/jobs/jobs.js';
import { listener, testApp, testJobsApp } from './app.js';

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

/** The test app (no jobs) on 127.0.0.1 and a free port; `base` is its origin. */
export async function serveTestApp(): Promise<{ server: Server; base: string }> {
  const server = createServer(listener(testApp().app));
  return { server, base: await listen(server) };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

export interface ServedJobsApp {
  server: Server;
  /** The origin, such as http://127.0.0.1:40123. */
  base: string;
  /** The app's jobs (the in-process queue on the shared SQLite store). */
  jobs: Jobs;
  /** Closes the server (and its open event streams), then stops the jobs. */
  close(): Promise<void>;
}

/**
 * The test app with background jobs (testJobsApp) on 127.0.0.1 and a free port, for the page
 * at /app, which runs the schedule as a job. `workers` jobs are solved at once (default 1; 0
 * leaves every job queued, for a test that plays the worker itself).
 */
export async function serveJobsApp(env: Record<string, string> = {}, o: { workers?: number } = {}): Promise<ServedJobsApp> {
  const t = await testJobsApp(env, { workers: o.workers ?? 1 });
  const server = createServer(listener(t.app));
  return {
    server,
    base: await listen(server),
    jobs: t.jobs,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
      await t.close();
    },
  };
}
