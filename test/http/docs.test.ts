import { expect } from 'chai';
import { statSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { packageRoot } from '../../src/package-root.js';
import { releaseIfSet } from '../helpers/app.js';
import { launchChromium, serveTestApp } from '../helpers/browser.js';

export const SCREENSHOT = join(packageRoot, 'test-output', 'docs.png');

describe('GET /docs in headless Chromium', function () {
  this.timeout(90_000);
  let server: Server;
  let browser: Browser;
  let base: string;

  before(async () => {
    ({ server, base } = await serveTestApp());
    browser = await launchChromium();
  });
  after(async () => {
    await releaseIfSet(browser, (b) => b.close());
    await releaseIfSet(server, (s) => {
      s.close();
    });
  });

  it('renders every endpoint from /openapi.json with assets served locally, and takes a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const problems: string[] = [];
    const external: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(base)) external.push(r.url());
    });
    await page.goto(`${base}/docs`);
    await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
    const paths = await page.$$eval('.opblock-summary-path', (els) => els.map((e) => e.getAttribute('data-path')));
    expect(paths).to.include.members([
      '/api/schedule',
      '/api/schedule/csv',
      '/api/validate',
      '/api/usage',
      '/problems/{slug}',
      '/schemas/{file}',
      '/healthz',
      '/readyz',
      '/metrics',
      '/openapi.json',
    ]);
    // The request body of POST /api/schedule comes from schemas/schedule-request.json, by $ref.
    await page.click('#operations-scheduling-schedule .opblock-summary');
    await page.waitForSelector('#operations-scheduling-schedule .opblock-body', { timeout: 10_000 });
    // A locator, not a string predicate: the page's Content-Security-Policy forbids eval.
    await page.locator('#operations-scheduling-schedule .opblock-body').getByText('unassigned_shifts').first().waitFor({ timeout: 20_000 });
    // The request examples are offered in a select (an option is never visible); the first,
    // examples/request.json, is shown and has the 2.2 fields.
    await page
      .locator('#operations-scheduling-schedule .opblock-body')
      .getByText('Availability, several roles, rest, a daily limit and priorities')
      .first()
      .waitFor({ state: 'attached', timeout: 20_000 });
    await page.locator('#operations-scheduling-schedule .opblock-body').getByText('"additional_groups"').first().waitFor({ timeout: 20_000 });
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    expect(problems, problems.join('\n')).to.deep.equal([]);
    expect(external).to.deep.equal([]);
    expect(statSync(SCREENSHOT).size).to.be.greaterThan(20_000);
  });
});
