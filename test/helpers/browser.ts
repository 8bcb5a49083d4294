// Debian's Chromium (apt-get install chromium; .ci/run installs it when missing), driven by
// playwright-core, for the browser tests: launched headless, without sandbox or background
// traffic, and the app served on a local port.
import { createServer, type Server } from 'node:http';
import { chromium, type Browser } from 'playwright-core';
import { listener, testApp } from './app.js';

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

/** The test app on 127.0.0.1 and a free port; `base` is its origin. */
export async function serveTestApp(): Promise<{ server: Server; base: string }> {
  const server = createServer(listener(testApp().app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}
