// The coordinator's page at /app in Debian's Chromium (playwright-core): a key issued for the
// test, the example exports uploaded, the roster on screen, a conflict opened, both downloads
// read back with real parsers, an axe-core audit, a hostile name shown as text, and the
// screenshots under test-output/ (gitignored).
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { formatKey } from '../../src/auth/api-keys.js';
import { packageRoot } from '../../src/package-root.js';
import { releaseIfSet, sharedStore, TEST_SECRET } from '../helpers/app.js';
import { launchChromium, serveTestApp } from '../helpers/browser.js';

const OUT = join(packageRoot, 'test-output');
const example = (name: string): string => join(packageRoot, 'examples', name);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Errors the page reports, and requests that leave the service. */
function watch(page: Page, base: string): { problems: string[]; external: string[] } {
  const seen = { problems: [] as string[], external: [] as string[] };
  page.on('pageerror', (e) => seen.problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') seen.problems.push(m.text());
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith('blob:')) seen.external.push(r.url());
  });
  return seen;
}

describe('GET /app in headless Chromium', function () {
  this.timeout(120_000);
  let server: Server;
  let browser: Browser;
  let base: string;
  let key: string;

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    // A key of its own, as an operator issues one (keys issue).
    const { store } = sharedStore();
    const record = await store.issue('coordinator', 'Festival coordinator', 'the /app browser test', 1000, new Date());
    key = formatKey(TEST_SECRET, 'coordinator', record.nonce);
    ({ server, base } = await serveTestApp());
    browser = await launchChromium();
  });
  after(async () => {
    await releaseIfSet(browser, (b) => b.close());
    await releaseIfSet(server, (s) => {
      s.close();
    });
  });

  it('schedules the example exports: roster, a conflict, both downloads, no serious axe violation, screenshots', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, timezoneId: 'America/Chicago' });
    const page = await context.newPage();
    const seen = watch(page, base);
    await page.goto(`${base}/app`);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('Volunteers (CSV)').setInputFiles(example('volunteers.csv'));
    await page.getByLabel('Shifts (CSV)').setInputFiles(example('shifts.csv'));
    await page.getByLabel('Time zone').fill('America/Chicago');
    // Rules strict enough that one slot of the example stays empty (Sun Late bar).
    await page.getByLabel('Least rest between two shifts').fill('12');
    await page.getByLabel('Most shifts per person per day').fill('1');
    await page.screenshot({ path: join(OUT, 'app-form.png') });
    // Keyboard: the run button is reached and pressed without the mouse.
    await page.getByRole('button', { name: 'Make the schedule' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#results').waitFor({ state: 'visible', timeout: 60_000 });
    expect(await page.locator('#status').textContent()).to.match(/^Done in/);

    // The timeline: days across, a row per group, the volunteers' names, empty slots marked.
    const days = await page.locator('#timeline thead th').allTextContents();
    expect(days.slice(1)).to.deep.equal(['Saturday, June 6', 'Sunday, June 7']);
    const groups = await page.locator('#timeline tbody th').allTextContents();
    expect(groups).to.include.members(['kitchen', 'bar', 'gate', 'medical']);
    const breakfast = page.locator('#timeline article[aria-label="Sat Breakfast, kitchen"]');
    expect(await breakfast.locator('.time').textContent()).to.equal('7:00 AM – 11:00 AM');
    expect(await page.locator('#timeline .slot.filled .name').allTextContents()).to.include('Ruiz, Ana');
    const empties = await page.locator('#timeline .slot.empty').count();
    expect(empties).to.be.greaterThan(0);

    // Open a conflict with the keyboard: its reasons are sentences naming people.
    const why = page.locator('#timeline details.why').first();
    await why.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await why.getAttribute('open')).to.not.equal(null);
    const reasons = await why.locator('.reasons li').allTextContents();
    expect(reasons.length).to.be.greaterThan(0);
    expect(reasons[0]).to.match(/\w+ \w+/);
    expect(await why.locator('.suggestions li').count()).to.be.greaterThan(0);
    await why.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, 'app-conflict.png') });
    await page.locator('#results-title').evaluate((e) => {
      e.scrollIntoView();
    });
    await page.screenshot({ path: join(OUT, 'app-results.png') });

    // Hours per volunteer, and the fairness in words.
    expect(await page.locator('#fairness').textContent()).to.match(/^Hours are spread .+ \(fairness score [\d.]+;/);
    expect(await page.locator('#volunteers tbody tr').count()).to.be.greaterThan(5);

    // The downloads are the service's exports, read back with real parsers.
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the roster (CSV)' }).click()]);
    expect(csvDownload.suggestedFilename()).to.equal('roster.csv');
    const csvBytes = readFileSync(await csvDownload.path());
    expect([...csvBytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const rows: string[][] = parse(csvBytes, { bom: true });
    expect(rows[0]).to.deep.equal(['Shift ID', 'Start', 'End', 'Group', 'Volunteer ID', 'Volunteer Name', 'Locked']);
    expect(rows.slice(1).filter((r) => r[5] === 'UNFILLED').length).to.equal(empties);
    expect(rows.find((r) => r[0] === 'Sat Breakfast')!.slice(1, 3)).to.deep.equal(['6/6/2026 7:00 AM', '6/6/2026 11:00 AM']);
    const [icsDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the calendar (iCalendar)' }).click()]);
    expect(icsDownload.suggestedFilename()).to.equal('roster.ics');
    const calendar = new ICAL.Component(ICAL.parse(readFileSync(await icsDownload.path(), 'utf8')));
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.length).to.equal(rows.length - 1 - empties);
    expect(events.every((e) => e.startDate.zone.tzid === 'UTC')).to.equal(true);

    // The roster table, as it prints.
    expect(await page.locator('#roster tbody tr').count()).to.equal(rows.length - 1);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#run-form').isVisible()).to.equal(false);
    expect(await page.locator('#timeline').isVisible()).to.equal(false);
    expect(await page.locator('#roster').isVisible()).to.equal(true);
    await page.screenshot({ path: join(OUT, 'app-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    // axe-core, evaluated through the debugging protocol (the page's CSP allows no inline script).
    await page.evaluate(axeSource);
    const violations: Array<{ id: string; impact: string; nodes: number }> = await page.evaluate(async () => {
      const dom = globalThis as any;
      // Every <details> open, so their contents are audited too.
      for (const d of dom.document.querySelectorAll('details')) d.open = true;
      const result = await dom.axe.run(dom.document, { resultTypes: ['violations'] });
      return result.violations.map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
    });
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious, JSON.stringify(violations)).to.deep.equal([]);
    await page.locator('#results').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, 'app-roster.png'), fullPage: true });
    await page.evaluate(() => {
      (globalThis as any).scrollTo(0, 0);
    });
    await page.screenshot({ path: join(OUT, 'app.png') });
    expect(seen.problems, seen.problems.join('\n')).to.deep.equal([]);
    expect(seen.external).to.deep.equal([]);
    expect(statSync(join(OUT, 'app-roster.png')).size).to.be.greaterThan(20_000);
    await context.close();
  });

  it('a volunteer named like HTML is shown as text (JSON request), and a refused request is explained', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, timezoneId: 'UTC' });
    const page = await context.newPage();
    const seen = watch(page, base);
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    const hostile = '<img src=x onerror=alert(1)>';
    const body = {
      timezone: 'Europe/Paris',
      volunteers: [
        { id: 'v1', name: hostile, group: 'kitchen', max_hours: 8 },
        { id: 'v2', name: '<script>alert(2)</script>', group: 'kitchen', max_hours: 8 },
      ],
      unassigned_shifts: [{ id: 'sat-am', start: '2026-06-06T08:00', end: '2026-06-06T12:00', required_groups: { kitchen: 3 } }],
    };
    await page.goto(`${base}/app`);
    // A wrong key first: the problem's title and detail are shown.
    await page.getByLabel('API key').fill('coordinator.not-a-signature');
    await page.getByLabel('One JSON request').check();
    await page
      .getByLabel('Schedule request (JSON)')
      .setInputFiles({ name: 'request.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(body)) });
    // The page reads the request's timezone into the picker.
    for (let i = 0; i < 50 && (await page.getByLabel('Time zone').inputValue()) !== 'Europe/Paris'; i++) await page.waitForTimeout(100);
    expect(await page.getByLabel('Time zone').inputValue()).to.equal('Europe/Paris');
    await page.getByRole('button', { name: 'Make the schedule' }).click();
    await page.locator('#error p').waitFor({ timeout: 30_000 });
    expect(await page.locator('#error').textContent()).to.match(/key|signature/i);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Make the schedule' }).click();
    await page.locator('#results').waitFor({ state: 'visible', timeout: 60_000 });
    const names = await page.locator('#timeline .slot.filled .name').allTextContents();
    expect(names).to.include.members([hostile, '<script>alert(2)</script>']);
    expect(await page.locator('#volunteers tbody th').allTextContents()).to.include(hostile);
    expect(await page.locator('img').count()).to.equal(0);
    expect(await page.locator('#results script').count()).to.equal(0);
    expect(await page.locator('#timeline .time').first().textContent()).to.equal('8:00 AM – 12:00 PM');
    expect(dialogs).to.equal(0);
    await page.locator('#timeline').evaluate((e) => {
      e.scrollIntoView();
    });
    await page.screenshot({ path: join(OUT, 'app-hostile.png') });
    expect(
      seen.problems.filter((p) => !/401/.test(p)),
      seen.problems.join('\n'),
    ).to.deep.equal([]);
    expect(seen.external).to.deep.equal([]);
    await context.close();
  });
});
