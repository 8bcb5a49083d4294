// The jobs API on the SQLite default (the in-process queue, CONTRACT.md section 12), through
// the app and, for event streams and callbacks, real HTTP: what POST answers, status and
// progress, the list, ownership, validation as /api/schedule, the CSV form, time limits,
// cancel in each state, the per-user limit and the quota, callbacks, events, the exports of a
// result, retention, and a restart. Every schedule a job gives passes the independent checker.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { readCsvRequest } from '../../src/input/csv.js';
import { Supervisor } from '../../src/jobs/supervisor.js';
import { createLogger } from '../../src/logging/logger.js';
import { listener, pool, releaseIfSet, testJobsApp } from '../helpers/app.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { longRequest, ended, exampleFile, newUserKey, readEvents, sleep, waitFor, type Json } from '../helpers/jobs.js';

type App = Awaited<ReturnType<typeof testJobsApp>>;

const example = JSON.parse(exampleFile('request.json').toString('utf8')) as Json;
const exampleText = exampleFile('request.json').toString('utf8');

/** GET through the app with a key. */
const getter =
  (t: App, key: string) =>
  async (path: string): Promise<{ status: number; body: unknown }> => {
    const res = await t.request.get(path).set('Authorization', `Bearer ${key}`);
    return { status: res.status, body: res.body as unknown };
  };

async function submit(t: App, key: string, body: Json | string = exampleText, query = ''): Promise<Json> {
  const res = await t.request
    .post(`/api/jobs${query}`)
    .set('Authorization', `Bearer ${key}`)
    .set('Content-Type', 'application/json')
    .send(typeof body === 'string' ? body : JSON.stringify(body));
  expect(res.status, JSON.stringify(res.body)).to.equal(202);
  return res.body as Json;
}

/** Cancels whatever the user still has queued or solving (so no later app runs it). */
async function cancelAll(t: App, key: string): Promise<void> {
  const list = await t.request.get('/api/jobs?limit=100').set('Authorization', `Bearer ${key}`);
  for (const job of (list.body as { jobs?: Json[] }).jobs ?? []) {
    if (!ended(job)) await t.request.delete(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${key}`);
  }
}

describe('jobs on SQLite (in-process queue)', function () {
  this.timeout(120_000);
  // A solver thread's first solve pays its start-up out of the time limit (on a loaded machine a
  // cold pool can give a weaker schedule): start the shared pool before comparing bytes.
  before(async () => {
    await pool().ready();
  });

  describe('with no worker (jobs stay queued)', () => {
    let t: App;
    let key: string;
    before(async () => {
      t = await testJobsApp({ MAX_ACTIVE_JOBS_PER_USER: '50' }, { workers: 0 });
      key = await newUserKey('queued');
    });
    after(async () => {
      await cancelAll(t, key);
      await releaseIfSet(t, (x) => x.close());
    });

    it('202 with the id, queued status, created_at, links and a Location header', async () => {
      const before = Date.now();
      const res = await t.request.post('/api/jobs').set('Authorization', `Bearer ${key}`).set('Content-Type', 'application/json').send(exampleText);
      expect(res.status).to.equal(202);
      const body = res.body as Json;
      expect(Object.keys(body).sort()).to.deep.equal(['created_at', 'id', 'links', 'status']);
      expect(body.id).to.match(/^[0-9a-f-]{36}$/);
      expect(body.status).to.equal('queued');
      expect(Date.parse(body.created_at as string)).to.be.within(before - 1000, Date.now() + 1000);
      expect(body.links).to.deep.equal({ self: `/api/jobs/${body.id}`, result: `/api/jobs/${body.id}/result`, events: `/api/jobs/${body.id}/events` });
      expect(res.headers.location).to.equal(`/api/jobs/${body.id}`);
      const status = (await t.request.get(`/api/jobs/${body.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body as Json;
      expect(status).to.include({ id: body.id, status: 'queued', created_at: body.created_at, started_at: null, finished_at: null });
      // The example demands 7 slots (its required_groups); nothing is filled yet.
      const demanded = (example.unassigned_shifts as Json[]).reduce(
        (n, s) => n + Object.values(s.required_groups as Record<string, number>).reduce((a, b) => a + b, 0),
        0,
      );
      expect(status.progress).to.deep.equal({ phase: 'queued', elapsed_s: 0, filled_slots: 0, demanded_slots: demanded, bound: null });
      expect(status).not.to.have.property('error');
    });

    it('result is 409 job-not-finished while queued', async () => {
      const job = await submit(t, key);
      const res = await t.request.get(`/api/jobs/${job.id}/result`).set('Authorization', `Bearer ${key}`);
      expect(res.status).to.equal(409);
      expect((res.body as Json).type).to.match(/job-not-finished$/);
      expect(res.headers['retry-after']).to.equal('2');
    });

    it("lists only the key user's jobs, most recent first, with ?status= and ?limit=", async () => {
      const mine = await newUserKey('lister');
      const other = await newUserKey('other-lister');
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        ids.push((await submit(t, mine)).id as string);
        await sleep(5);
      }
      const theirs = (await submit(t, other)).id as string;
      await t.request.delete(`/api/jobs/${ids[1]}`).set('Authorization', `Bearer ${mine}`).expect(200);
      const all = (await t.request.get('/api/jobs').set('Authorization', `Bearer ${mine}`).expect(200)).body as { jobs: Json[] };
      expect(all.jobs.map((j) => j.id)).to.deep.equal([...ids].reverse());
      expect(all.jobs.map((j) => j.id)).not.to.include(theirs);
      expect(all.jobs[0]).to.have.keys(['id', 'status', 'created_at', 'started_at', 'finished_at', 'progress', 'links']);
      const limited = (await t.request.get('/api/jobs?limit=2').set('Authorization', `Bearer ${mine}`).expect(200)).body as { jobs: Json[] };
      expect(limited.jobs.map((j) => j.id)).to.deep.equal([ids[3], ids[2]]);
      const cancelled = (await t.request.get('/api/jobs?status=cancelled').set('Authorization', `Bearer ${mine}`).expect(200)).body as { jobs: Json[] };
      expect(cancelled.jobs.map((j) => j.id)).to.deep.equal([ids[1]]);
      const queued = (await t.request.get('/api/jobs?status=queued&limit=1').set('Authorization', `Bearer ${mine}`).expect(200)).body as { jobs: Json[] };
      expect(queued.jobs.map((j) => j.id)).to.deep.equal([ids[3]]);
      for (const bad of ['status=done', 'limit=0', 'limit=101', 'limit=abc', 'sort=asc', 'status=queued&status=solving']) {
        const res = await t.request.get(`/api/jobs?${bad}`).set('Authorization', `Bearer ${mine}`);
        expect(res.status, bad).to.equal(400);
        expect((res.body as Json).type, bad).to.match(/invalid-request$/);
      }
      await cancelAll(t, mine);
      await cancelAll(t, other);
    });

    it("another user's job is 404 on every route, and their DELETE changes nothing", async () => {
      const job = await submit(t, key);
      const other = await newUserKey('intruder');
      const as = (r: ReturnType<App['request']['get']>): ReturnType<App['request']['get']> => r.set('Authorization', `Bearer ${other}`);
      const answers = [
        await as(t.request.get(`/api/jobs/${job.id}`)),
        await as(t.request.get(`/api/jobs/${job.id}/result`)),
        await as(t.request.get(`/api/jobs/${job.id}/result`)).set('Accept', 'text/csv'),
        await as(t.request.get(`/api/jobs/${job.id}/events`)),
        await as(t.request.delete(`/api/jobs/${job.id}`)),
      ];
      for (const [i, res] of answers.entries()) {
        expect(res.status, `route ${i}`).to.equal(404);
        expect((res.body as Json).type).to.match(/not-found$/);
      }
      // The same answer as for a job that does not exist (nothing tells the two apart but the id).
      const none = await as(t.request.get('/api/jobs/00000000-0000-4000-8000-000000000000'));
      expect(none.status).to.equal(404);
      expect((none.body as Json).title).to.equal((answers[0]!.body as Json).title);
      const still = (await t.request.get(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${key}`).expect(200)).body as Json;
      expect(still.status).to.equal('queued');
    });

    it('an invalid body is 400 exactly as POST /api/schedule answers it, and no job is recorded', async () => {
      const bodies: Array<[string, string]> = [
        ['not json', '{"volunteers": ['],
        ['schema', JSON.stringify({ volunteers: [{ id: 'v1' }], unassigned_shifts: 'x' })],
        [
          'shift end before start',
          JSON.stringify({ ...example, unassigned_shifts: [{ id: 's', start: '2026-06-06T10:00', end: '2026-06-06T09:00', required_groups: { kitchen: 1 } }] }),
        ],
      ];
      const mine = await newUserKey('invalid');
      for (const [what, body] of bodies) {
        const job = await t.request.post('/api/jobs').set('Authorization', `Bearer ${mine}`).set('Content-Type', 'application/json').send(body);
        const direct = await t.request.post('/api/schedule').set('Authorization', `Bearer ${mine}`).set('Content-Type', 'application/json').send(body);
        expect(direct.status, what).to.equal(400);
        expect(job.status, what).to.equal(400);
        const strip = (b: Json): Json => {
          const rest = { ...b };
          delete rest.request_id;
          delete rest.instance;
          return rest;
        };
        expect(strip(job.body as Json), what).to.deep.equal(strip(direct.body as Json));
      }
      // An unknown option is refused as on /api/schedule too.
      const opt = await t.request.post('/api/jobs?colour=red').set('Authorization', `Bearer ${mine}`).set('Content-Type', 'application/json').send(exampleText);
      expect(opt.status).to.equal(400);
      const list = (await t.request.get('/api/jobs').set('Authorization', `Bearer ${mine}`).expect(200)).body as { jobs: Json[] };
      expect(list.jobs).to.deep.equal([]);
    });

    it('time_limit above JOB_TIME_LIMIT_MAX is capped with a warning; above SOLVE_TIME_LIMIT_MAX but under the job max is accepted', async () => {
      const capped = await submit(t, key, exampleText, '?time_limit=700');
      expect(capped.warnings).to.have.length(1);
      expect((capped.warnings as Json[])[0]).to.include({ code: 'time_limit_capped' });
      expect((capped.warnings as Json[])[0]!.message).to.include('600');
      // 120 s is over /api/schedule's maximum (60) ...
      const direct = await t.request.post('/api/schedule?time_limit=120&debug=true').set('Content-Type', 'application/json').send(exampleText).expect(200);
      expect(JSON.stringify((direct.body as Json).warnings)).to.include('time_limit_capped');
      // ... but a job may take it.
      const accepted = await submit(t, key, exampleText, '?time_limit=120');
      expect(accepted).not.to.have.property('warnings');
      const bad = await t.request
        .post('/api/jobs?time_limit=0')
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', 'application/json')
        .send(exampleText);
      expect(bad.status).to.equal(400);
    });

    it('DELETE on a queued job cancels it at once, and it never runs (not even after a restart with a worker)', async () => {
      const mine = await newUserKey('cancel-queued');
      const job = await submit(t, mine);
      const res = await t.request.delete(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${mine}`);
      expect(res.status).to.equal(200);
      expect((res.body as Json).status).to.equal('cancelled');
      expect((res.body as Json).finished_at).to.be.a('string');
      const again = await t.request.delete(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${mine}`);
      expect(again.status, 'a second DELETE of a cancelled job').to.equal(200);
      const result = await t.request.get(`/api/jobs/${job.id}/result`).set('Authorization', `Bearer ${mine}`);
      expect(result.status).to.equal(409);
      expect((result.body as Json).type).to.match(/job-no-result$/);
      // A process with a worker starting on the same database takes up queued jobs, not this one.
      const restarted = await testJobsApp({}, { workers: 1 });
      try {
        const other = await submit(restarted, mine);
        await waitFor(getter(restarted, mine), other.id as string, ended);
        const after = (await restarted.request.get(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${mine}`).expect(200)).body as Json;
        expect(after).to.include({ status: 'cancelled', started_at: null });
      } finally {
        await restarted.close();
      }
    });

    it('MAX_ACTIVE_JOBS_PER_USER: 429 too-many-jobs beyond it, exact under concurrent submits', async () => {
      const limited = await testJobsApp({ MAX_ACTIVE_JOBS_PER_USER: '3' }, { workers: 0 });
      const mine = await newUserKey('limit');
      try {
        const answers = await Promise.all(
          Array.from({ length: 12 }, () =>
            limited.request.post('/api/jobs').set('Authorization', `Bearer ${mine}`).set('Content-Type', 'application/json').send(exampleText),
          ),
        );
        const statuses = answers.map((r) => r.status).sort();
        expect(statuses.filter((s) => s === 202)).to.have.length(3);
        expect(statuses.filter((s) => s === 429)).to.have.length(9);
        const refused = answers.find((r) => r.status === 429)!;
        expect((refused.body as Json).type).to.match(/too-many-jobs$/);
        expect(refused.headers['retry-after']).to.equal('10');
        const list = (await limited.request.get('/api/jobs?status=queued').set('Authorization', `Bearer ${mine}`).expect(200)).body as { jobs: Json[] };
        expect(list.jobs).to.have.length(3);
        // Cancelling one makes room for one.
        await limited.request.delete(`/api/jobs/${list.jobs[0]!.id}`).set('Authorization', `Bearer ${mine}`).expect(200);
        await submit(limited, mine);
        const more = await limited.request.post('/api/jobs').set('Authorization', `Bearer ${mine}`).set('Content-Type', 'application/json').send(exampleText);
        expect(more.status).to.equal(429);
        // Another user has a limit of their own.
        await submit(limited, await newUserKey('limit-other'));
      } finally {
        await cancelAll(limited, mine);
        await limited.close();
      }
    });

    it('the daily quota counts POST /api/jobs, not reading jobs', async () => {
      const mine = await newUserKey('quota', 3);
      const remaining: string[] = [];
      let id = '';
      for (let i = 0; i < 3; i++) {
        const res = await t.request
          .post('/api/jobs')
          .set('Authorization', `Bearer ${mine}`)
          .set('Content-Type', 'application/json')
          .send(exampleText)
          .expect(202);
        remaining.push(res.headers['ratelimit-remaining'] as string);
        id = (res.body as Json).id as string;
      }
      expect(remaining).to.deep.equal(['2', '1', '0']);
      for (const path of [`/api/jobs/${id}`, `/api/jobs/${id}/result`, '/api/jobs', `/api/jobs/${id}`]) {
        const res = await t.request.get(path).set('Authorization', `Bearer ${mine}`);
        expect(res.status, path).to.be.oneOf([200, 409]);
      }
      await t.request.delete(`/api/jobs/${id}`).set('Authorization', `Bearer ${mine}`).expect(200);
      const over = await t.request.post('/api/jobs').set('Authorization', `Bearer ${mine}`).set('Content-Type', 'application/json').send(exampleText);
      expect(over.status).to.equal(429);
      expect((over.body as Json).type).to.match(/quota-exceeded$/);
      // Reads still answer once the quota is used up.
      await t.request.get(`/api/jobs/${id}`).set('Authorization', `Bearer ${mine}`).expect(200);
      await t.request.get('/api/jobs').set('Authorization', `Bearer ${mine}`).expect(200);
      await cancelAll(t, mine);
    });

    it('callback_url is refused (400) when WEBHOOK_ALLOWED_HOSTS is empty or does not list its host', async () => {
      const none = await t.request
        .post(`/api/jobs?callback_url=${encodeURIComponent('http://127.0.0.1:9/done')}`)
        .set('Authorization', `Bearer ${key}`)
        .set('Content-Type', 'application/json')
        .send(exampleText);
      expect(none.status).to.equal(400);
      expect(JSON.stringify(none.body)).to.include('WEBHOOK_ALLOWED_HOSTS');
      const listed = await testJobsApp({ WEBHOOK_ALLOWED_HOSTS: 'hooks.example.org,127.0.0.1:8443' }, { workers: 0 });
      try {
        for (const url of [
          'http://169.254.169.254/latest',
          'http://127.0.0.1:9/done',
          'http://127.0.0.1/done',
          'ftp://hooks.example.org/x',
          'https://user:pw@hooks.example.org/x',
          'not a url',
        ]) {
          const res = await listed.request
            .post(`/api/jobs?callback_url=${encodeURIComponent(url)}`)
            .set('Authorization', `Bearer ${key}`)
            .set('Content-Type', 'application/json')
            .send(exampleText);
          expect(res.status, url).to.equal(400);
          expect((res.body as Json).errors[0].code, url).to.equal('invalid_parameter');
        }
        const twice = await listed.request
          .post('/api/jobs?callback_url=https://hooks.example.org/a&callback_url=https://hooks.example.org/b')
          .set('Authorization', `Bearer ${key}`)
          .set('Content-Type', 'application/json')
          .send(exampleText);
        expect(twice.status).to.equal(400);
        await submit(listed, key, exampleText, `?callback_url=${encodeURIComponent('https://hooks.example.org/done')}`);
        await submit(listed, key, exampleText, `?callback_url=${encodeURIComponent('http://127.0.0.1:8443/done')}`);
      } finally {
        await listed.close();
      }
    });
  });

  describe('with a worker', () => {
    let t: App;
    let key: string;
    before(async () => {
      t = await testJobsApp({}, { workers: 1 });
      key = await newUserKey('worker');
    });
    after(async () => {
      await cancelAll(t, key);
      await releaseIfSet(t, (x) => x.close());
    });

    it('a completed job has its times and final progress, and its schedule passes the checker', async () => {
      const job = await submit(t, key);
      const done = await waitFor(getter(t, key), job.id as string, ended);
      expect(done.status).to.equal('completed');
      const created = Date.parse(done.created_at as string);
      const started = Date.parse(done.started_at as string);
      const finished = Date.parse(done.finished_at as string);
      expect(started).to.be.at.least(created);
      expect(finished).to.be.at.least(started);
      const result = (await t.request.get(`/api/jobs/${job.id}/result`).set('Authorization', `Bearer ${key}`).expect(200)).body as Json;
      expect(checkSchedule(example, result)).to.deep.equal([]);
      const missing = ((result.conflicts as Json[] | undefined) ?? []).reduce((n, c) => n + ((c.missing as number | undefined) ?? 0), 0);
      const progress = done.progress as Json;
      expect(progress.phase).to.equal('done');
      expect(progress.filled_slots).to.equal((progress.demanded_slots as number) - missing);
      expect(progress.elapsed_s).to.be.a('number').and.to.be.at.least(0);
      expect(done).not.to.have.property('error');
      // DELETE on a completed job: 409 job-ended, and it stays completed.
      const del = await t.request.delete(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${key}`);
      expect(del.status).to.equal(409);
      expect((del.body as Json).type).to.match(/job-ended$/);
      expect(((await t.request.get(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${key}`)).body as Json).status).to.equal('completed');
    });

    it('a CSV multipart job gives the same bytes as POST /api/schedule/csv, and passes the checker', async () => {
      const post = (path: string): ReturnType<App['request']['post']> =>
        t.request
          .post(path)
          .set('Authorization', `Bearer ${key}`)
          .attach('volunteers', exampleFile('volunteers.csv'), 'volunteers.csv')
          .attach('shifts', exampleFile('shifts.csv'), 'shifts.csv')
          .field('timezone', 'America/Chicago')
          .field('min_rest_hours', '8')
          .field('max_shifts_per_day', '2');
      const submitted = await post('/api/jobs');
      expect(submitted.status, JSON.stringify(submitted.body)).to.equal(202);
      const id = (submitted.body as Json).id as string;
      const done = await waitFor(getter(t, key), id, ended);
      expect(done.status).to.equal('completed');
      const job = await t.request.get(`/api/jobs/${id}/result`).set('Authorization', `Bearer ${key}`).expect(200);
      const direct = await post('/api/schedule/csv').expect(200);
      expect(job.text).to.equal(direct.text);
      const read = readCsvRequest(exampleFile('volunteers.csv'), exampleFile('shifts.csv'), 'America/Chicago');
      if (!read.ok) throw new Error('examples must read');
      const request = { ...read.request, rules: { ...read.request.rules, min_rest_hours: 8, max_shifts_per_day: 2 } };
      expect(checkSchedule(request, job.body as Json)).to.deep.equal([]);
      // A bad CSV is refused at submit as /api/schedule/csv refuses it.
      const bad = await t.request
        .post('/api/jobs')
        .set('Authorization', `Bearer ${key}`)
        .attach('volunteers', Buffer.from('ID,Name\r\nv1\r\n'), 'v.csv')
        .attach('shifts', exampleFile('shifts.csv'), 's.csv');
      expect(bad.status).to.equal(400);
    });

    it('result as text/csv and text/calendar: the same bytes as /api/schedule gives with that Accept', async () => {
      const job = await submit(t, key);
      await waitFor(getter(t, key), job.id as string, ended);
      for (const [accept, query] of [
        ['text/csv', ''],
        ['text/calendar', ''],
        ['text/calendar', '?volunteer_id=v2'],
      ] as const) {
        const fromJob = await t.request.get(`/api/jobs/${job.id}/result${query}`).set('Authorization', `Bearer ${key}`).set('Accept', accept);
        expect(fromJob.status, `${accept}${query}`).to.equal(200);
        expect(fromJob.headers['content-type']).to.include(accept);
        const direct = await t.request
          .post(`/api/schedule${query}`)
          .set('Content-Type', 'application/json')
          .set('Accept', accept)
          .send(exampleText)
          .expect(200);
        const strip = (text: string): string => text.replace(/^DTSTAMP:.*$/gm, '');
        expect(strip(fromJob.text), `${accept}${query}`).to.equal(strip(direct.text));
      }
      const unknown = await t.request
        .get(`/api/jobs/${job.id}/result?volunteer_id=nobody`)
        .set('Authorization', `Bearer ${key}`)
        .set('Accept', 'text/calendar');
      expect(unknown.status).to.be.oneOf([400, 404]);
    });

    it('DELETE on a solving job stops it within a second and keeps its best schedule, which passes the checker', async () => {
      const request = longRequest();
      const job = await submit(t, key, request, '?time_limit=30');
      // Once the solver has a schedule (progress names the phase that found it).
      const solving = await waitFor(
        getter(t, key),
        job.id as string,
        (j) => j.status === 'solving' && !['preparing', 'solving'].includes((j.progress as Json).phase as string),
        60_000,
        20,
      );
      expect(solving.started_at).to.be.a('string');
      const notYet = await t.request.get(`/api/jobs/${job.id}/result`).set('Authorization', `Bearer ${key}`);
      expect(notYet.status).to.equal(409);
      expect((notYet.body as Json).type).to.match(/job-not-finished$/);
      const asked = Date.now();
      const del = await t.request.delete(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${key}`);
      expect(del.status).to.equal(202);
      const stopped = await waitFor(getter(t, key), job.id as string, ended, 10_000, 20);
      // From the DELETE sent to the job ended, as the service recorded it (same clock).
      const tookMs = Date.parse(stopped.finished_at as string) - asked;
      expect(stopped.status).to.equal('cancelled');
      console.log(`      cancel of a solving job: ended ${tookMs} ms after the DELETE was sent`);
      // The runner aborts at once; a solver that does not see the flag within the pool's 200 ms
      // grace is stopped, and its subproblem answers with the schedule it had (no refill), then
      // the result is explained. Measured 0.1 s here on a quiet machine.
      expect(tookMs, `stopped ${tookMs} ms after the DELETE`).to.be.below(1000);
      expect(Date.parse(stopped.finished_at as string) - Date.parse(stopped.started_at as string)).to.be.below(30_000);
      const result = await t.request.get(`/api/jobs/${job.id}/result`).set('Authorization', `Bearer ${key}`);
      expect(result.status).to.equal(200);
      expect(checkSchedule(request, result.body as Json, { allowIncomplete: true })).to.deep.equal([]);
      const del2 = await t.request.delete(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${key}`);
      expect(del2.status, 'DELETE on a cancelled job').to.equal(200);
    });

    it('a callback to an allowlisted 127.0.0.1:port is delivered with a valid signature', async () => {
      const received: Array<{ headers: Record<string, unknown>; body: string }> = [];
      let got: () => void = () => {};
      const arrived = new Promise<void>((r) => (got = r));
      const hook = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          received.push({ headers: req.headers, body });
          res.writeHead(204).end();
          got();
        });
      });
      await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
      const port = (hook.address() as AddressInfo).port;
      const withHooks = await testJobsApp({ WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${port}` }, { workers: 1 });
      try {
        const job = await submit(withHooks, key, exampleText, `?callback_url=${encodeURIComponent(`http://127.0.0.1:${port}/jobs/done?x=1`)}`);
        await Promise.race([arrived, sleep(30_000).then(() => Promise.reject(new Error('no callback within 30 s')))]);
        expect(received).to.have.length(1);
        const { headers, body } = received[0]!;
        expect(JSON.parse(body)).to.deep.equal({ id: job.id, status: 'completed' });
        expect(headers['content-type']).to.equal('application/json');
        const timestamp = headers['x-scheduler-timestamp'] as string;
        expect(Math.abs(Number(timestamp) - Date.now() / 1000)).to.be.below(60);
        const expected = `sha256=${createHmac('sha256', 'test-secret-0123456789-0123456789-abcdef').update(`${timestamp}.${body}`).digest('hex')}`;
        expect(headers['x-scheduler-signature']).to.equal(expected);
        const status = ((await withHooks.request.get(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${key}`)).body as Json).status;
        expect(status).to.equal('completed');
      } finally {
        await withHooks.close();
        hook.close();
      }
    });

    describe('events over real HTTP', () => {
      let server: Server;
      let base: string;
      before(async () => {
        server = createServer(listener(t.app));
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      });
      after(() => {
        server.closeAllConnections();
        server.close();
      });

      it('streams progress and ends with `event: end` carrying the final status; a reconnect gets the current state', async () => {
        const request = longRequest();
        const job = await submit(t, key, request, '?time_limit=3');
        const stream = await readEvents(`${base}/api/jobs/${job.id}/events`, key);
        expect(stream.status).to.equal(200);
        expect(stream.type).to.match(/^text\/event-stream/);
        expect(stream.retry).to.equal(2000);
        const names = stream.events.map((e) => e.event);
        expect(names.at(-1)).to.equal('end');
        expect(names.slice(0, -1).every((n) => n === 'progress')).to.equal(true);
        expect(names.filter((n) => n === 'progress').length, 'progress events').to.be.at.least(2);
        const last = stream.events.at(-1)!.data;
        expect(last.status).to.equal('completed');
        expect((last.progress as Json).phase).to.equal('done');
        const solving = stream.events.filter((e) => e.data.status === 'solving');
        expect(solving.length, 'events while solving').to.be.at.least(1);
        expect(stream.events.map((e) => Number(e.id))).to.deep.equal(stream.events.map((_, i) => i + 1));
        const filled = solving.map((e) => (e.data.progress as Json).filled_slots as number);
        expect(filled.every((f) => f >= 0 && f <= ((last.progress as Json).demanded_slots as number))).to.equal(true);
        // A reconnect after the end gets the final state at once, and the stream ends.
        const again = await readEvents(`${base}/api/jobs/${job.id}/events`, key, { timeoutMs: 5000 });
        expect(again.events.map((e) => e.event)).to.deep.equal(['end']);
        expect(again.events[0]!.data).to.deep.equal(last);
        const result = (await t.request.get(`/api/jobs/${job.id}/result`).set('Authorization', `Bearer ${key}`).expect(200)).body as Json;
        expect(checkSchedule(request, result, { allowIncomplete: true })).to.deep.equal([]);
      });

      it('a client that leaves mid-job and reconnects gets the current state first', async () => {
        const request = longRequest();
        const job = await submit(t, key, request, '?time_limit=3');
        const first = await readEvents(`${base}/api/jobs/${job.id}/events`, key, { stopAfter: 1 });
        expect(first.events).to.have.length(1);
        expect(first.events[0]!.data.status).to.be.oneOf(['queued', 'solving']);
        await waitFor(getter(t, key), job.id as string, (j) => j.status === 'solving' || ended(j), 60_000, 20);
        const second = await readEvents(`${base}/api/jobs/${job.id}/events`, key, { stopAfter: 1 });
        const now = (await t.request.get(`/api/jobs/${job.id}`).set('Authorization', `Bearer ${key}`)).body as Json;
        expect(second.events[0]!.data.status).to.be.oneOf(['solving', now.status]);
        const rest = await readEvents(`${base}/api/jobs/${job.id}/events`, key);
        expect(rest.events.at(-1)!.event).to.equal('end');
        expect(rest.events.at(-1)!.data.status).to.equal('completed');
        expect(t.jobs.watcher.watched, 'no job watched once the streams closed').to.equal(0);
      });

      it("another user's stream is 404", async () => {
        const job = await submit(t, key);
        const other = await readEvents(`${base}/api/jobs/${job.id}/events`, await newUserKey('sse-intruder'), { timeoutMs: 5000 });
        expect(other.status).to.equal(404);
        await waitFor(getter(t, key), job.id as string, ended);
      });
    });

    it('retention: Supervisor.prune deletes jobs ended more than JOB_RETENTION_HOURS ago, keeps the rest', async () => {
      const old = await submit(t, key);
      const done = await waitFor(getter(t, key), old.id as string, ended);
      const finished = Date.parse(done.finished_at as string);
      const queued = await testJobsApp({}, { workers: 0 });
      const mine = await newUserKey('retention');
      const waiting = await submit(queued, mine);
      try {
        const supervisorAt = (at: number): Supervisor =>
          new Supervisor({
            store: t.jobs.store,
            queue: t.jobs.queue,
            logger: createLogger('silent'),
            staleS: 15,
            retentionHours: 2,
            expireS: 900,
            now: () => new Date(at),
          });
        // 1 h after it ended: kept.
        await supervisorAt(finished + 3_600_000).prune();
        await t.request.get(`/api/jobs/${old.id}`).set('Authorization', `Bearer ${key}`).expect(200);
        // 2 h and a second after: deleted, result and all; the queued job (never ended) is kept.
        expect(await supervisorAt(finished + 2 * 3_600_000 + 1000).prune()).to.be.at.least(1);
        await t.request.get(`/api/jobs/${old.id}`).set('Authorization', `Bearer ${key}`).expect(404);
        await t.request.get(`/api/jobs/${old.id}/result`).set('Authorization', `Bearer ${key}`).expect(404);
        await queued.request.get(`/api/jobs/${waiting.id}`).set('Authorization', `Bearer ${mine}`).expect(200);
      } finally {
        await cancelAll(queued, mine);
        await queued.close();
      }
    });
  });

  it('a restart of the SQLite service queues again the jobs left queued, in order, and solves them', async () => {
    const mine = await newUserKey('restart');
    const first = await testJobsApp({}, { workers: 0 });
    const ids: string[] = [];
    try {
      for (let i = 0; i < 3; i++) ids.push((await submit(first, mine)).id as string);
    } finally {
      await first.close();
    }
    const second = await testJobsApp({}, { workers: 1 });
    try {
      const jobs = [];
      for (const id of ids) jobs.push(await waitFor(getter(second, mine), id, ended));
      expect(jobs.map((j) => j.status)).to.deep.equal(['completed', 'completed', 'completed']);
      const starts = jobs.map((j) => Date.parse(j.started_at as string));
      expect(starts).to.deep.equal([...starts].sort((a, b) => a - b));
      for (const id of ids) {
        const result = (await second.request.get(`/api/jobs/${id}/result`).set('Authorization', `Bearer ${mine}`).expect(200)).body as Json;
        expect(checkSchedule(example, result)).to.deep.equal([]);
      }
    } finally {
      await second.close();
    }
  });

  it('a job left solving by a process that died is queued again by the supervisor and completes', async () => {
    const mine = await newUserKey('died');
    const dead = await testJobsApp({}, { workers: 0 });
    let id: string;
    try {
      id = (await submit(dead, mine)).id as string;
      // What a process that died mid-solve leaves: solving, run 1, an old heartbeat.
      const claim = await dead.jobs.store.claim(id, 'dead-worker', new Date(Date.now() - 120_000));
      expect(claim?.run).to.equal(1);
    } finally {
      await dead.close();
    }
    let clock = Date.now();
    const revived = await testJobsApp({ JOB_STALE_SECONDS: '5' }, { workers: 1, now: () => new Date(clock) });
    try {
      // The supervisor judges only after it has seen the database for JOB_STALE_SECONDS.
      expect(await revived.jobs.supervisor.check()).to.equal(0);
      clock += 6000;
      expect(await revived.jobs.supervisor.check()).to.equal(1);
      const done = await waitFor(getter(revived, mine), id, ended);
      expect(done.status).to.equal('completed');
      const result = (await revived.request.get(`/api/jobs/${id}/result`).set('Authorization', `Bearer ${mine}`).expect(200)).body as Json;
      expect(checkSchedule(example, result)).to.deep.equal([]);
    } finally {
      await revived.close();
    }
  });
});
