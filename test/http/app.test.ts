// The coordinator's page at /app in Debian's Chromium (playwright-core), on the app with
// background jobs: a key issued for the test, the example exports uploaded and run as a job
// (progress, then the roster), a conflict opened, both downloads read back with real parsers from
// the job's result, an axe-core audit, a hostile name shown as text (with the event stream
// broken, so the page polls), an invalid upload explained, a long job cancelled with its best
// schedule kept, a job cancelled while queued and a failed job's error, and the screenshots
// under test-output/ (gitignored).
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import ICAL from 'ical.js';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { formatKey } from '../../src/auth/api-keys.js';
import { packageRoot } from '../../src/package-root.js';
import { releaseIfSet, sharedStore, TEST_SECRET } from '../helpers/app.js';
import { festival } from '../../bench/generate.js';
import { launchChromium, serveJobsApp, type ServedJobsApp } from '../helpers/browser.js';

const OUT = join(packageRoot, 'test-output');
const example = (name: string): string => join(packageRoot, 'examples', name);
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Errors the page reports, requests that leave the service, and the API calls made. */
function watch(page: Page, base: string): { problems: string[]; external: string[]; api: string[] } {
  const seen = { problems: [] as string[], external: [] as string[], api: [] as string[] };
  page.on('pageerror', (e) => seen.problems.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') seen.problems.push(m.text());
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(base) && !r.url().startsWith('blob:')) seen.external.push(r.url());
    const path = r.url().slice(base.length);
    if (path.startsWith('/api/')) seen.api.push(`${r.method()} ${path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, '<id>')} ${r.headers().accept ?? ''}`.trim());
  });
  return seen;
}

/**
 * Records, in the page, when the progress panel and the results appear and every text of the
 * live region (a MutationObserver installed through the debugging protocol, as the CSP allows).
 */
async function recordPage(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const dom = globalThis as any;
    const log: string[] = [];
    dom.__seen = log;
    const job = dom.document.getElementById('job');
    const results = dom.document.getElementById('results');
    const status = dom.document.getElementById('status');
    new dom.MutationObserver(() => {
      const last = (name: string): string | undefined => log.filter((l) => l.startsWith(name)).at(-1);
      if (!job.hidden && last('job') !== 'job shown') log.push('job shown');
      if (job.hidden && last('job') === 'job shown') log.push('job hidden');
      if (!results.hidden && last('results') !== 'results shown') log.push('results shown');
      if (results.hidden && last('results') === 'results shown') log.push('results hidden');
      const text = `status: ${status.textContent}`;
      if (last('status') !== text) log.push(text);
    }).observe(dom.document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  return () => page.evaluate(() => (globalThis as any).__seen as string[]);
}

/** axe-core, evaluated through the debugging protocol (the page's CSP allows no inline script). */
async function expectNoSeriousViolation(page: Page): Promise<void> {
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
}

/** The id of the job the page submits next (the 202 of POST /api/jobs). */
async function nextJobId(page: Page): Promise<string> {
  const response = await page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/jobs', { timeout: 30_000 });
  expect(response.status()).to.equal(202);
  return ((await response.json()) as { id: string }).id;
}

describe('GET /app in headless Chromium', function () {
  this.timeout(120_000);
  let served: ServedJobsApp;
  let browser: Browser;
  let base: string;
  let key: string;

  before(async () => {
    mkdirSync(OUT, { recursive: true });
    // A key of its own, as an operator issues one (keys issue).
    const { store } = sharedStore();
    const record = await store.issue('coordinator', 'Festival coordinator', 'the /app browser test', 1000, new Date());
    key = formatKey(TEST_SECRET, 'coordinator', record.nonce);
    // Jobs solved one at a time; a minute by default, so a large job is still solving when cancelled.
    served = await serveJobsApp({ SOLVE_TIME_LIMIT_DEFAULT: '60' });
    base = served.base;
    browser = await launchChromium();
  });
  after(async () => {
    await releaseIfSet(browser, (b) => b.close());
    await releaseIfSet(served, (s) => s.close());
  });

  it('runs the example exports as a job: progress, then the roster, a conflict, both downloads from the job, no serious axe violation, screenshots', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, timezoneId: 'America/Chicago' });
    const page = await context.newPage();
    const seen = watch(page, base);
    await page.goto(`${base}/app`);
    const history = await recordPage(page);
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
    const submitted = nextJobId(page);
    await page.keyboard.press('Enter');
    const jobId = await submitted;
    await page.locator('#results').waitFor({ state: 'visible', timeout: 60_000 });
    expect(await page.locator('#status').textContent()).to.match(/^Done in \d/);

    // Progress first (the job queued, then its end), the roster after; the live region said
    // each state once, not every tick.
    const steps = await history();
    expect(steps.indexOf('job shown')).to.be.greaterThan(-1);
    expect(steps.indexOf('job shown')).to.be.lessThan(steps.indexOf('results shown'));
    const said = steps.filter((l) => l.startsWith('status: ') && l !== 'status: ').map((l) => l.slice(8));
    expect(said[0]).to.equal('Sending your data…');
    expect(said[1]).to.match(/queued/);
    expect(said.at(-1)).to.match(/^Done in/);
    expect(said.length, said.join(' | ')).to.be.at.most(6);
    // The progress panel keeps the job's end: every slot it could fill, the step finished.
    const bar = page.getByRole('progressbar', { name: 'Slots filled' });
    const [filled, demanded] = [Number(await bar.getAttribute('value')), Number(await bar.getAttribute('max'))];
    expect(await page.locator('#job-filled').textContent()).to.equal(`${filled} of ${demanded} slots filled`);
    expect(await page.locator('#job-phase').textContent()).to.equal('Finished');
    expect(await page.getByRole('button', { name: 'Cancel' }).isVisible()).to.equal(false);
    expect((await served.jobs.store.get(jobId, 'coordinator'))?.status).to.equal('completed');
    // The finished progress above the schedule (docs/app.png in the README).
    await page.locator('#status').evaluate((e) => {
      e.scrollIntoView();
      (globalThis as any).scrollBy(0, -16);
    });
    await page.screenshot({ path: join(OUT, 'app-done.png') });

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
    expect([filled, demanded]).to.deep.equal([rows.length - 1 - empties, rows.length - 1]);
    expect(rows.find((r) => r[0] === 'Sat Breakfast')!.slice(1, 3)).to.deep.equal(['6/6/2026 7:00 AM', '6/6/2026 11:00 AM']);
    const [icsDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the calendar (iCalendar)' }).click()]);
    expect(icsDownload.suggestedFilename()).to.equal('roster.ics');
    const calendar = new ICAL.Component(ICAL.parse(readFileSync(await icsDownload.path(), 'utf8')));
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    expect(events.length).to.equal(rows.length - 1 - empties);
    expect(events.every((e) => e.startDate.zone.tzid === 'UTC')).to.equal(true);
    // One solve: the job; the page read its events and its result (JSON, CSV, then iCalendar).
    expect(seen.api).to.deep.equal([
      'POST /api/jobs?timezone=America%2FChicago application/json',
      'GET /api/jobs/<id>/events text/event-stream',
      'GET /api/jobs/<id>/result?timezone=America%2FChicago application/json',
      'GET /api/jobs/<id>/result?timezone=America%2FChicago text/csv',
      'GET /api/jobs/<id>/result?timezone=America%2FChicago text/calendar',
    ]);

    // The roster table, as it prints.
    expect(await page.locator('#roster tbody tr').count()).to.equal(rows.length - 1);
    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('#run-form').isVisible()).to.equal(false);
    expect(await page.locator('#job').isVisible()).to.equal(false);
    expect(await page.locator('#timeline').isVisible()).to.equal(false);
    expect(await page.locator('#roster').isVisible()).to.equal(true);
    await page.screenshot({ path: join(OUT, 'app-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });

    await expectNoSeriousViolation(page);
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

  it('re-plans a published schedule from spreadsheets with a Previous Volunteers column: new assignments marked, the changes counted', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'America/Chicago' });
    const page = await context.newPage();
    const seen = watch(page, base);
    await page.goto(`${base}/app`);
    const csv = (name: string, lines: string[]) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`) });
    await page.getByLabel('API key').fill(key);
    await page
      .getByLabel('Volunteers (CSV)')
      .setInputFiles(csv('volunteers.csv', ['Name,Group,Max Hours', '"Ruiz, Ana",kitchen,8', 'Ben Ode,kitchen,8', 'Cy Park,kitchen,8', 'Eve Li,kitchen,8']));
    await page
      .getByLabel('Shifts (CSV)')
      .setInputFiles(
        csv('shifts.csv', [
          'Name,Start,End,Groups,Previous Volunteers',
          'Sat AM,6/6/2026 8:00 AM,6/6/2026 12:00 PM,kitchen:2,"Ruiz, Ana; Dev Gone"',
          'Sat PM,6/6/2026 12:00 PM,6/6/2026 4:00 PM,kitchen:2,Ben Ode; Cy Park',
        ]),
      );
    await page.getByLabel('Time zone').fill('America/Chicago');
    await page.getByRole('button', { name: 'Make the schedule' }).click();
    await page.locator('#results').waitFor({ state: 'visible', timeout: 60_000 });
    expect(await page.locator('#summary').textContent()).to.include('Against the published schedule: 3 assignments kept, 1 new (marked New) and 1 dropped');
    const added = page.locator('#timeline .slot.filled', { has: page.locator('.badge', { hasText: 'New' }) });
    expect(await added.locator('.name').allTextContents()).to.deep.equal(['Eve Li']);
    expect(await page.locator('#warnings li').allTextContents()).to.include(
      "Volunteer 'Dev Gone' is no longer in volunteers, so their previous assignment to 'Sat AM' is dropped.",
    );
    const header = await page.locator('#roster thead th').allTextContents();
    expect(header.slice(-2)).to.deep.equal(['Change', 'Change Reason']);
    const changes = await page.locator('#roster tbody tr td:nth-child(8)').allTextContents();
    expect(changes).to.deep.equal(['kept', 'added', 'kept', 'kept', 'dropped']);
    await expectNoSeriousViolation(page);
    expect(seen.problems).to.deep.equal([]);
    expect(seen.external).to.deep.equal([]);
    await context.close();
  });

  it('a volunteer named like HTML is shown as text (JSON request, progress polled when the stream breaks), and a refused key is explained', async () => {
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
    // The event stream breaks (a proxy that drops it): the page follows the job by polling.
    await page.route('**/api/jobs/*/events', (route) => route.abort());
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
    expect(await page.locator('#job').isVisible()).to.equal(false);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Make the schedule' }).click();
    await page.locator('#results').waitFor({ state: 'visible', timeout: 60_000 });
    expect(await page.locator('#status').textContent()).to.match(/^Done in/);
    expect(await page.locator('#error').textContent()).to.equal('');
    expect(seen.api).to.include('GET /api/jobs/<id> application/json');
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
      seen.problems.filter((p) => !/401|net::ERR_FAILED/.test(p)),
      seen.problems.join('\n'),
    ).to.deep.equal([]);
    expect(seen.external).to.deep.equal([]);
    await context.close();
  });
  it('an invalid upload is refused before any job, its problems listed', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, timezoneId: 'America/Chicago' });
    const page = await context.newPage();
    const seen = watch(page, base);
    await page.goto(`${base}/app`);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('Volunteers (CSV)').setInputFiles(example('volunteers.csv'));
    const shifts =
      'Name,Start,End,Groups,Priority\r\nSat Breakfast,6/6/2026 7:00 AM,6/6/2026 11:00 AM,kitchen:3,2\r\nSat Lunch,the sixth at noon,6/6/2026 3:00 PM,kitchen:2,2\r\n';
    await page.getByLabel('Shifts (CSV)').setInputFiles({ name: 'shifts.csv', mimeType: 'text/csv', buffer: Buffer.from(shifts) });
    await page.getByLabel('Time zone').fill('America/Chicago');
    await page.getByRole('button', { name: 'Make the schedule' }).click();
    await page.locator('#error li').first().waitFor({ timeout: 30_000 });
    const error = (await page.locator('#error').textContent()) ?? '';
    expect(error).to.match(/CSV/);
    const items = await page.locator('#error li').allTextContents();
    // Where, then what: the file, row and column the coordinator wrote the cell in.
    expect(
      items.some((i) => /^Shifts file, row 3, Start: .*'the sixth at noon'/.test(i)),
      items.join('\n'),
    ).to.equal(true);
    expect(await page.locator('#job').isVisible()).to.equal(false);
    expect(await page.locator('#results').isVisible()).to.equal(false);
    expect(await page.locator('#status').textContent()).to.equal('');
    expect(await page.getByRole('button', { name: 'Make the schedule' }).isEnabled()).to.equal(true);
    expect(seen.api).to.deep.equal(['POST /api/jobs?timezone=America%2FChicago application/json']);
    await page.locator('#error').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(OUT, 'app-invalid.png') });
    expect(seen.problems.filter((p) => !/400/.test(p))).to.deep.equal([]);
    await context.close();
  });

  it('a long job shows its progress and, cancelled, keeps and shows its best schedule', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true, timezoneId: 'UTC' });
    const page = await context.newPage();
    const seen = watch(page, base);
    // Demand far above supply (the cancellation tests' instance): the search runs for its whole minute.
    const scarce = festival({ seed: 5, volunteers: 150, shifts: 400, days: 3, groups: 4, demand: 1, caps: [8, 10, 12, 16] });
    const demanded = scarce.unassigned_shifts.reduce((t, sh) => t + Object.values(sh.required_groups).reduce((a, b) => a + b, 0), 0);
    await page.goto(`${base}/app`);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('One JSON request').check();
    await page
      .getByLabel('Schedule request (JSON)')
      .setInputFiles({ name: 'festival.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(scarce)) });
    await page.getByLabel('Time zone').fill('UTC');
    await page.getByLabel('Longest time to search').selectOption('60');
    const submitted = nextJobId(page);
    await page.getByRole('button', { name: 'Make the schedule' }).click();
    const jobId = await submitted;
    expect(seen.api[0]).to.equal('POST /api/jobs?timezone=UTC&time_limit=60 application/json');

    // Progress while it solves: the bar of filled slots, the step in words, the seconds, the bound.
    const bar = page.getByRole('progressbar', { name: 'Slots filled' });
    await page.waitForFunction(() => Number((globalThis as any).document.getElementById('job-bar')?.getAttribute('value') ?? 0) > 0, undefined, {
      timeout: 30_000,
    });
    await page.waitForFunction(() => /^[1-9]\d* s$/.test((globalThis as any).document.getElementById('job-elapsed')?.textContent ?? ''), undefined, {
      timeout: 10_000,
    });
    expect(Number(await bar.getAttribute('max'))).to.equal(demanded);
    const before = Number(await bar.getAttribute('value'));
    expect(await page.locator('#job-filled').textContent()).to.match(new RegExp(`^\\d+ of ${demanded} slots filled$`));
    expect(await page.locator('#job-phase').textContent()).to.match(/^(Finding|Filling|Working out|Staffing|Evening|Spreading|Starting)/);
    expect(await page.locator('#job-bound').textContent()).to.match(
      /^(not known yet|at most \d+ of \d+ slots can be filled \(proven\)|every slot can be filled \(proven\))$/,
    );
    expect(await page.locator('#status').textContent()).to.match(/^Solving your schedule/);
    expect((await served.jobs.store.get(jobId, 'coordinator'))?.status).to.equal('solving');
    await page.screenshot({ path: join(OUT, 'app-progress.png') });
    // The running job's panel (bar, facts, Cancel) passes the audit too.
    await expectNoSeriousViolation(page);

    // Cancel, with the keyboard (focus is on the button while the job runs).
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).to.equal('cancel');
    await page.keyboard.press('Enter');
    await page.locator('#results').waitFor({ state: 'visible', timeout: 60_000 });
    expect(await page.locator('#status').textContent()).to.match(/^Cancelled after [\d.]+ s; the best schedule found is shown\.$/);
    expect(await page.locator('#result-note').textContent()).to.match(/^You cancelled this run: this is the best schedule found/);
    expect(await page.locator('#job-phase').textContent()).to.equal('Cancelled');
    expect(await page.locator('#job-bound').isVisible()).to.equal(false);
    const job = await served.jobs.store.get(jobId, 'coordinator');
    expect(job?.status).to.equal('cancelled');
    // The kept schedule: at least as full as the progress said, and the same as the job's result.
    const summary = (await page.locator('#summary').textContent()) ?? '';
    const [, shownFilled, shownSlots] = /^(\d+) of (\d+) slots filled/.exec(summary) ?? [];
    expect(Number(shownSlots)).to.equal(demanded);
    expect(Number(shownFilled)).to.be.at.least(before);
    expect(Number(await bar.getAttribute('value'))).to.equal(Number(shownFilled));
    const kept = JSON.parse((await served.jobs.store.result(jobId, 'coordinator')) ?? '{}') as { roster: unknown[] };
    expect(kept.roster.length).to.equal(Number(shownFilled));
    expect(await page.locator('#roster tbody tr').count()).to.equal(demanded);
    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download the roster (CSV)' }).click()]);
    const rows: string[][] = parse(readFileSync(await csvDownload.path()), { bom: true });
    expect(rows.slice(1).filter((r) => r[5] !== 'UNFILLED').length).to.equal(Number(shownFilled));
    expect(seen.api.filter((c) => c.startsWith('DELETE '))).to.deep.equal(['DELETE /api/jobs/<id> application/json']);
    expect(seen.api.some((c) => c.startsWith('POST /api/schedule'))).to.equal(false);
    await page.evaluate(() => {
      (globalThis as any).scrollTo(0, 0);
    });
    await page.screenshot({ path: join(OUT, 'app-cancelled.png') });
    expect(seen.problems).to.deep.equal([]);
    await context.close();
  });

  it('a job cancelled while queued says there is no schedule; a failed job shows its error', async () => {
    // No solver here: the test plays the worker through the jobs table.
    const idle = await serveJobsApp({}, { workers: 0 });
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, timezoneId: 'UTC' });
    try {
      const page = await context.newPage();
      const seen = watch(page, idle.base);
      await page.goto(`${idle.base}/app`);
      await page.getByLabel('API key').fill(key);
      await page.getByLabel('One JSON request').check();
      await page.getByLabel('Schedule request (JSON)').setInputFiles(example('request.json'));
      const first = nextJobId(page);
      await page.getByRole('button', { name: 'Make the schedule' }).click();
      await first;
      await page.locator('#status', { hasText: 'queued' }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#job-phase').textContent()).to.equal('Waiting for a free solver');
      expect(await page.getByRole('progressbar', { name: 'Slots filled' }).getAttribute('value')).to.equal(null);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.locator('#status', { hasText: 'Cancelled before the search started' }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#results').isVisible()).to.equal(false);
      expect(await page.locator('#error').textContent()).to.equal('');

      // Again; a worker takes it and fails (as the supervisor ends a job whose worker died twice).
      const second = nextJobId(page);
      await page.getByRole('button', { name: 'Make the schedule' }).click();
      const id = await second;
      await page.locator('#status', { hasText: 'queued' }).waitFor({ timeout: 10_000 });
      const claim = await idle.jobs.store.claim(id, 'test-worker', new Date());
      expect(claim).to.not.equal(undefined);
      await page.locator('#status', { hasText: 'Solving' }).waitFor({ timeout: 10_000 });
      const message = 'The worker solving this job stopped answering 2 times, so it was not tried again. <b>Submit it again</b> with fewer volunteers.';
      expect(await idle.jobs.store.finish(id, claim!.run, { status: 'failed', error: { code: 'worker_lost', message }, now: new Date() })).to.equal(true);
      await page.locator('#error p').waitFor({ timeout: 10_000 });
      expect(await page.locator('#error').textContent()).to.equal(`The schedule could not be made: ${message}`);
      expect(await page.locator('#error b').count()).to.equal(0);
      expect(await page.locator('#status').textContent()).to.equal('The job failed; nothing was scheduled.');
      expect(await page.locator('#job-phase').textContent()).to.equal('Stopped on an error');
      expect(await page.locator('#results').isVisible()).to.equal(false);
      expect(await page.getByRole('button', { name: 'Make the schedule' }).isEnabled()).to.equal(true);
      expect(await page.evaluate(() => (globalThis as any).document.activeElement?.id)).to.equal('run');
      await page.screenshot({ path: join(OUT, 'app-failed.png') });
      expect(seen.problems.filter((p) => !/409/.test(p))).to.deep.equal([]);
      expect(seen.external).to.deep.equal([]);
    } finally {
      await context.close();
      await idle.close();
    }
  });
});
