// The jobs API on the SQLite default (in-process queue): a job's result is the same bytes as
// POST /api/schedule gives, and its status, list and events say where it is.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/package-root.js';
import { releaseIfSet, testJobsApp } from '../helpers/app.js';

const example = readFileSync(join(packageRoot, 'examples', 'request.json'));

/** Polls a job until it has ended (the in-process queue solves it in this process). */
async function waitEnded(request: Awaited<ReturnType<typeof testJobsApp>>['request'], id: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const res = await request.get(`/api/jobs/${id}`).expect(200);
    const body = res.body as Record<string, unknown>;
    if (!['queued', 'solving'].includes(body.status as string)) return body;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} did not end`);
}

describe('jobs API (SQLite, in-process queue)', function () {
  this.timeout(60_000);
  let t: Awaited<ReturnType<typeof testJobsApp>>;
  before(async () => {
    t = await testJobsApp();
  });
  after(async () => {
    await releaseIfSet(t, (x) => x.close());
  });

  it('solves a JSON job to the same bytes as POST /api/schedule', async () => {
    const submitted = await t.request.post('/api/jobs').set('Content-Type', 'application/json').send(example.toString('utf8')).expect(202);
    const id = (submitted.body as { id: string }).id;
    expect(submitted.headers.location).to.equal(`/api/jobs/${id}`);
    const ended = await waitEnded(t.request, id);
    expect(ended.status).to.equal('completed');
    const job = await t.request.get(`/api/jobs/${id}/result`).expect(200);
    const direct = await t.request.post('/api/schedule').set('Content-Type', 'application/json').send(example.toString('utf8')).expect(200);
    expect(job.text).to.equal(direct.text);
  });
});
