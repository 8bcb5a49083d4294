// POST /api/schedule through the app with the real worker pool, every result re-checked by the
// independent checker; and the `schedule FILE` command, which must print the same result.
import { expect } from 'chai';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { fixture, testApp, testJobsApp } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { expectSchema } from '../helpers/schema-assert.js';

type Json = Record<string, any>;
const request = (): Json => fixture('requests/festival-small.json');

describe('POST /api/schedule', function () {
  this.timeout(30_000);

  it('returns a schedule the checker accepts, with the contract fields', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/schedule').send(request());
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expect(res.headers['api-version']).to.equal('2.1');
    expect(Object.keys(res.body)).to.deep.equal([
      'assigned_shifts',
      'unfilled_shifts',
      'fairness_score',
      'conflicts',
      'volunteers',
      'warnings',
      'roster',
      'summary',
    ]);
    expectSchema('schedule-result', res.body);
    expect(checkSchedule(request(), res.body)).to.deep.equal([]);
    expect(res.body.assigned_shifts['sat-am']).to.include('v1');
  });

  it('answers byte-identically for the same request', async () => {
    const { request: http } = testApp();
    const a = await http.post('/api/schedule').send(request());
    const b = await http.post('/api/schedule').send(request());
    expect(a.text).to.equal(b.text);
  });

  it('rejects an invalid payload with 400 and the same entries as validate', async () => {
    const { request: http } = testApp();
    const bad = request();
    bad.unassigned_shifts[0].start = '2026-06-06T08:00:00';
    bad.volunteers[1].max_hours = null;
    const res = await http.post('/api/schedule').send(bad);
    expect(res.status).to.equal(400);
    expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
    expect(res.body.type).to.equal('/problems/invalid-request');
    expectSchema('problem-details', res.body);
    const validation = await http.post('/api/validate').send(bad);
    expect(res.body.errors).to.deep.equal(validation.body.errors);
  });
  it('reads local times in the request timezone and offsets anywhere: the same schedule as the UTC request', async () => {
    const { request: http } = testApp();
    const utc = request();
    const local = request();
    local.timezone = 'America/Chicago';
    // 08:00Z is 03:00 CDT; the second shift is written with an offset, the third in Chicago time.
    local.unassigned_shifts[0].start = '2026-06-06T03:00';
    local.unassigned_shifts[0].end = '2026-06-06T07:00';
    local.unassigned_shifts[1].start = '2026-06-06T14:00:00+02:00';
    local.unassigned_shifts[1].end = '2026-06-06T11:00:00-05:00';
    local.unassigned_shifts[2].start = '2026-06-06T17:00';
    local.unassigned_shifts[2].end = '2026-06-07T01:00';
    const a = await http.post('/api/schedule').send(utc);
    const b = await http.post('/api/schedule').send(local);
    expect(b.status, JSON.stringify(b.body)).to.equal(200);
    expect(checkSchedule(local, b.body)).to.deep.equal([]);
    expect(b.body.roster).to.deep.equal(a.body.roster);
    expect(b.body.assigned_shifts).to.deep.equal(a.body.assigned_shifts);
    // The sentences speak Chicago time where the UTC request's spoke UTC.
    const sentences = (res: Json): string => JSON.stringify(res.body.conflicts.map((c: Json) => c.reasons));
    expect(sentences(b)).to.equal(sentences(a).replaceAll('2026-06-06 22:00 - 2026-06-07 06:00 UTC', '2026-06-06 17:00 - 2026-06-07 01:00 CDT'));
  });

  it('400 for a group asked for in another case than the volunteers write it, with both spellings', async () => {
    const { request: http } = testApp();
    const bad = request();
    bad.unassigned_shifts[2].required_groups = { Bar: 2 };
    const res = await http.post('/api/schedule').send(bad);
    expect(res.status).to.equal(400);
    expect(res.body.errors).to.deep.equal([
      {
        pointer: '/unassigned_shifts/2/required_groups/Bar',
        id: 'sat-night',
        code: 'group_name_mismatch',
        message:
          "Shift 'sat-night' asks for group 'Bar', which no volunteer has; volunteers have 'bar', which differs only in upper/lower case or spaces. Write 'bar' here (or rename the volunteers' group) so these slots can be filled.",
      },
    ]);
  });

  it('debug=true adds diagnostics that match the schema', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/schedule?debug=true').send(request());
    expect(res.status).to.equal(200);
    expectSchema('schedule-result', res.body);
    const d = res.body.diagnostics;
    expect(d.backend).to.equal('highs');
    expect(d.status).to.be.oneOf(['optimal', 'feasible']);
    // A small request: every step ends on its own, long before its share of the 10 s.
    expect(d.time_limited).to.equal(false);
    expect(d.subproblems.map((s: Json) => s.time_limited)).to.deep.equal([false, false]);
    expect(d.subproblems.map((s: Json) => s.group)).to.have.members(['kitchen', 'bar']);
    expect(d.subproblems[0].phases[0].name).to.equal('greedy');
    expect(Object.keys(d.timings)).to.deep.equal(['parse_ms', 'build_ms', 'solve_ms', 'explain_ms']);
    expect(d.subproblems[0].lp).to.equal(undefined);
  });

  it('debug=lp adds each subproblem as CPLEX LP text with readable names', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/schedule?debug=lp').send(request());
    for (const s of res.body.diagnostics.subproblems) {
      expect(s.lp).to.match(/^\\ group /);
      expect(s.lp).to.include('Maximize').and.include('Subject To').and.include('End');
      const names = [...s.lp.matchAll(/\b(x|lock|full|seg)_[A-Za-z0-9_]+/g)].map((m: RegExpMatchArray) => m[0]);
      expect(names.length).to.be.greaterThan(0);
      for (const n of names) expect(n).to.match(/^[A-Za-z0-9_]+$/);
    }
  });

  it('solver=jslp gives the same coverage', async () => {
    const { request: http } = testApp();
    const h = await http.post('/api/schedule').send(request());
    const j = await http.post('/api/schedule?solver=jslp&debug=true').send(request());
    expect(j.status).to.equal(200);
    expect(j.body.diagnostics.backend).to.equal('jslp');
    expect(checkSchedule(request(), j.body)).to.deep.equal([]);
    expect(j.body.unfilled_shifts).to.deep.equal(h.body.unfilled_shifts);
  });

  it('caps time_limit at SOLVE_TIME_LIMIT_MAX with a warning', async () => {
    const { request: http } = testApp({ SOLVE_TIME_LIMIT_MAX: '5', SOLVE_TIME_LIMIT_DEFAULT: '2' });
    const res = await http.post('/api/schedule?time_limit=30&debug=true').send(request());
    expect(res.status).to.equal(200);
    expect(res.body.diagnostics.time_limit_s).to.equal(5);
    expect(res.body.warnings[0]).to.deep.equal({ code: 'time_limit_capped', message: 'time_limit 30 is over the maximum of 5 seconds; 5 was used.' });
  });

  it('rejects unknown and malformed query parameters with 400, all at once', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/schedule?time_limit=soon&solver=cplex&debug=yes&verbose=1').send(request());
    expect(res.status).to.equal(400);
    expect(res.body.type).to.equal('/problems/invalid-request');
    expect(res.body.errors.map((e: Json) => e.code)).to.deep.equal(['unknown_parameter', 'invalid_parameter', 'invalid_parameter', 'invalid_parameter']);
    expect(res.body.errors.map((e: Json) => e.message)).to.include(
      "query parameter time_limit is 'soon'; use a number of seconds above 0, such as time_limit=5.",
    );
    const repeated = await http.post('/api/schedule?solver=highs&solver=jslp').send(request());
    expect(repeated.status).to.equal(400);
    expect(repeated.body.errors[0].code).to.equal('repeated_parameter');
  });

  it('applies the count limits with 413, saying a background job takes more', async () => {
    const res = await testApp({ MAX_SHIFTS: '2' }).request.post('/api/schedule').send(request());
    expect(res.status).to.equal(413);
    expect(res.body.limit).to.deep.equal({ name: 'MAX_SHIFTS', value: 2 });
    expect(res.body.detail).to.equal(
      'unassigned_shifts is 3 entries; the limit is 2 entries (MAX_SHIFTS). A background job (POST /api/jobs, the same body) takes up to 50,000 (JOB_MAX_SHIFTS).',
    );
    // No hint when a job takes no more than a request.
    const same = await testApp({ MAX_SHIFTS: '2', JOB_MAX_SHIFTS: '2' }).request.post('/api/schedule').send(request());
    expect(same.status).to.equal(413);
    expect(same.body.detail).to.equal('unassigned_shifts is 3 entries; the limit is 2 entries (MAX_SHIFTS).');
  });

  it('takes a request over the request limits as a background job, within the job limits', async () => {
    const jobs = await testJobsApp({ MAX_SHIFTS: '2' }, { workers: 0 });
    try {
      const res = await jobs.request.post('/api/jobs').send(request());
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      const over = await testJobsApp({ MAX_SHIFTS: '2', JOB_MAX_SHIFTS: '2' }, { workers: 0 });
      try {
        const refused = await over.request.post('/api/jobs').send(request());
        expect(refused.status).to.equal(413);
        expect(refused.body.limit).to.deep.equal({ name: 'JOB_MAX_SHIFTS', value: 2 });
        expect(refused.body.detail).to.equal('unassigned_shifts is 3 entries; the limit is 2 entries (JOB_MAX_SHIFTS).');
      } finally {
        await over.close();
      }
    } finally {
      await jobs.close();
    }
  });

  it('413 when the model would have more (volunteer, shift) pairs than MAX_CANDIDATE_PAIRS', async () => {
    const res = await testApp({ MAX_CANDIDATE_PAIRS: '5' }).request.post('/api/schedule').send(request());
    expect(res.status).to.equal(413);
    expect(res.body.limit).to.deep.equal({ name: 'MAX_CANDIDATE_PAIRS', value: 5 });
    expect(res.body.detail).to.equal(
      'The number of (volunteer, shift) pairs of the same group is 8; the limit is 5 pairs (MAX_CANDIDATE_PAIRS). Split the request by date range or by group. A background job (POST /api/jobs, the same body) takes up to 10,000,000 (JOB_MAX_CANDIDATE_PAIRS).',
    );
  });

  it('413 for a string over MAX_STRING_LENGTH and a shift with more groups than MAX_GROUPS_PER_SHIFT', async () => {
    const long = request();
    long.volunteers[2].name = 'x'.repeat(5000);
    const res = await testApp().request.post('/api/schedule').send(long);
    expect(res.status).to.equal(413);
    expect(res.body.detail).to.equal('volunteers[2].name is 5,000 characters long; the limit is 1,000 characters (MAX_STRING_LENGTH).');
    const many = request();
    many.unassigned_shifts[0].required_groups = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`g${i}`, 1]));
    const groups = await testApp({ MAX_GROUPS_PER_SHIFT: '3' }).request.post('/api/validate').send(many);
    expect(groups.status).to.equal(413);
    expect(groups.body.limit).to.deep.equal({ name: 'MAX_GROUPS_PER_SHIFT', value: 3 });
  });

  it('takes only POST', async () => {
    const res = await testApp().request.get('/api/schedule');
    expect(res.status).to.equal(405);
    expect(res.headers.allow).to.equal('POST');
  });
});

describe('volunteer-scheduler schedule FILE', function () {
  this.timeout(30_000);
  const file = join(packageRoot, 'test/fixtures/requests/festival-small.json');

  it('prints the same result as the endpoint', async () => {
    const cli = await runCli(['schedule', file]);
    expect(cli.code, cli.stderr).to.equal(0);
    const http = await testApp().request.post('/api/schedule').send(request());
    expect(JSON.parse(cli.stdout)).to.deep.equal(http.body);
  });

  it('prints no progress line for a quick solve (the lines themselves: test/cli/progress.test.ts)', async () => {
    const quick = await runCli(['schedule', file]);
    expect(quick.code, quick.stderr).to.equal(0);
    expect(quick.stderr).to.equal('');
  });

  it('exits 1 with the errors on stderr for an invalid request', async () => {
    const bad = request();
    bad.volunteers[0].max_hours = null;
    const cli = await runCli(['schedule', '-'], {}, JSON.stringify(bad));
    expect(cli.code).to.equal(1);
    expect(cli.stderr).to.include('/volunteers/0/max_hours: max_hours must be a number, not null; use 999 for unlimited.');
  });
});
