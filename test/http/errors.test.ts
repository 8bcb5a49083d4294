import { expect } from 'chai';
import { createServer, request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { invalidRequest } from '../../src/service/problems.js';
import { problemBody } from '../../src/http/middleware/problem-responder.js';
import type { SchemaRegistry } from '../../src/input/schema-registry.js';
import { fixture, listener, schemas, testApp } from '../helpers/app.js';
import { expectSchema } from '../helpers/schema-assert.js';

function expectProblem(res: { status: number; headers: Record<string, string>; body: any }, status: number, slug: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
  expect(res.body.type).to.equal(`/problems/${slug}`);
  expect(res.body.status).to.equal(status);
  expect(res.body.request_id).to.equal(res.headers['x-request-id']);
  expect(res.headers['api-version']).to.equal('2.1');
  expectSchema('problem-details', res.body);
}

/** A POST over a real socket, written chunk by chunk (supertest would re-encode the body). */
function rawPost(port: number, headers: Record<string, string>, chunks: Array<string | Buffer>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ port, method: 'POST', path: '/api/validate', headers }, (r) => {
      let text = '';
      r.on('data', (c: Buffer | string) => {
        text += c.toString();
      });
      r.on('end', () => {
        resolve({ status: r.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    for (const c of chunks.slice(0, -1)) req.write(c);
    req.end(chunks[chunks.length - 1]);
  });
}

describe('error model (RFC 9457 problem+json)', () => {
  it('400 invalid-json for a syntax error, with the parser message', async () => {
    const { request } = testApp();
    const res = await request.post('/api/validate').set('Content-Type', 'application/json').send('{"volunteers": [1,]}');
    expectProblem(res, 400, 'invalid-json');
    expect(res.body.detail).to.match(/^The body is not valid JSON: Unexpected token '\]'/);
  });

  it('400 invalid-json for an empty body', async () => {
    const { request } = testApp();
    const res = await request.post('/api/validate').set('Content-Type', 'application/json');
    expectProblem(res, 400, 'invalid-json');
    expect(res.body.detail).to.match(/^The request body is empty/);
  });

  it('400 invalid-json for a __proto__ key, and nothing is polluted', async () => {
    const { request } = testApp();
    const res = await request
      .post('/api/validate')
      .set('Content-Type', 'application/json')
      .send('{"volunteers": [], "unassigned_shifts": [{"id": "s", "required_groups": {"__proto__": {"polluted": 1}}}]}');
    expectProblem(res, 400, 'invalid-json');
    expect(res.body.detail).to.match(/forbidden prototype property/);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
  });

  it('accepts a gzip-encoded JSON body, and refuses a corrupt one with 400', async () => {
    const { app, key } = testApp();
    const server = createServer(listener(app)).listen(0);
    try {
      const port = (server.address() as { port: number }).port;
      const ok = await rawPost(port, { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, [
        gzipSync(JSON.stringify(fixture('requests/festival-small.json'))),
      ]);
      expect(ok.status).to.equal(200);
      expect(ok.body.valid).to.equal(true);
      const bad = await rawPost(port, { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, [
        Buffer.from('{"not": "gzip"}'),
      ]);
      expect(bad.status).to.equal(400);
      expect(bad.body.type).to.equal('/problems/invalid-encoding');
      expect(bad.body.detail).to.match(/^The body could not be decompressed/);
    } finally {
      server.close();
    }
  });

  it('415 for a body that is not JSON, naming what was sent', async () => {
    const { request } = testApp();
    const res = await request.post('/api/validate').set('Content-Type', 'text/csv').send('Name,Group\n');
    expectProblem(res, 415, 'unsupported-media-type');
    expect(res.body.detail).to.equal('This endpoint takes Content-Type: application/json; the request sent text/csv.');
  });

  it('415 for an unsupported Content-Encoding', async () => {
    const { request } = testApp();
    const res = await request.post('/api/validate').set('Content-Type', 'application/json').set('Content-Encoding', 'br-x').send('{}');
    expectProblem(res, 415, 'unsupported-media-type');
  });

  it('413 for a body over MAX_JSON_BODY_BYTES, naming the limit', async () => {
    const { request } = testApp({ MAX_JSON_BODY_BYTES: '2kB' });
    const big = { volunteers: Array.from({ length: 100 }, (_, i) => ({ id: `volunteer-${i}`, group: 'kitchen', max_hours: 8 })), unassigned_shifts: [] };
    const res = await request.post('/api/validate').set('Content-Type', 'application/json').send(JSON.stringify(big));
    expectProblem(res, 413, 'payload-too-large');
    expect(res.body.limit).to.deep.equal({ name: 'MAX_JSON_BODY_BYTES', value: 2048 });
    expect(res.body.detail).to.match(/the limit is 2,048 bytes \(MAX_JSON_BODY_BYTES\)\.$/);
  });

  it('413 when a chunked body without Content-Length runs over the limit', async () => {
    const { app, key } = testApp({ MAX_JSON_BODY_BYTES: '1kB' });
    const server = createServer(listener(app)).listen(0);
    try {
      const port = (server.address() as { port: number }).port;
      const chunks = [`{"volunteers": [${'"x",'.repeat(400)}`, '"x"], "unassigned_shifts": []}'];
      const res = await rawPost(port, { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, chunks);
      expect(res.status).to.equal(413);
      expect(res.body.type).to.equal('/problems/payload-too-large');
      expect(res.body.limit.name).to.equal('MAX_JSON_BODY_BYTES');
    } finally {
      server.close();
    }
  });

  it('404 not-found for an unknown path, with the endpoints', async () => {
    const { request } = testApp();
    const res = await request.get('/api/schedules');
    expectProblem(res, 404, 'not-found');
    expect(res.body.detail).to.match(/^Nothing is served at GET \/api\/schedules\./);
  });

  it('405 method-not-allowed with Allow', async () => {
    const { request } = testApp();
    for (const method of ['get', 'put', 'delete', 'patch'] as const) {
      const res = await request[method]('/api/validate');
      expectProblem(res, 405, 'method-not-allowed');
      expect(res.headers.allow).to.equal('POST');
      expect(res.body.detail).to.equal(`/api/validate does not take ${method.toUpperCase()}; it takes POST.`);
    }
  });

  it('500 internal shows no internals and logs the cause with the request id', async () => {
    const broken: SchemaRegistry = {
      ...schemas(),
      validateRequest: Object.assign(
        () => {
          throw new Error('secret internal state at /srv/x.js:42');
        },
        { errors: null },
      ) as unknown as SchemaRegistry['validateRequest'],
    };
    const t = testApp({}, { schemas: broken });
    const res = await t.request.post('/api/validate').send(fixture('requests/festival-small.json'));
    expectProblem(res, 500, 'internal');
    expect(JSON.stringify(res.body)).to.not.match(/secret|srv|\.js|stack/);
    expect(res.body.detail).to.include(res.body.request_id);
    const logged = t.logs().find((l) => l.msg === 'internal error');
    expect(logged?.request_id).to.equal(res.body.request_id);
    expect(JSON.stringify(logged)).to.include('secret internal state');
  });

  it('invalid-request problems carry the same entries POST /api/validate gives', async () => {
    const request = fixture('requests/festival-small.json') as Record<string, any>;
    request.volunteers[0].max_hours = null;
    const validation = (await testApp().request.post('/api/validate').send(request)).body;
    const problem = problemBody(invalidRequest(validation.errors, validation.warnings), 'rid-1');
    expectSchema('problem-details', problem);
    expect(problem.errors).to.deep.equal(validation.errors);
    expect(problem.detail).to.equal('The payload has 1 error; each is listed in errors. POST /api/validate gives the same entries.');
  });

  describe('X-Request-Id and API-Version', () => {
    it('echoes a well-formed incoming request id on success and error', async () => {
      const { request } = testApp();
      const ok = await request.post('/api/validate').set('X-Request-Id', 'abc-123').send({ volunteers: [], unassigned_shifts: [] });
      expect(ok.headers['x-request-id']).to.equal('abc-123');
      expect(ok.headers['api-version']).to.equal('2.1');
      const missing = await request.get('/nope').set('X-Request-Id', 'trace.42:a_b');
      expect(missing.headers['x-request-id']).to.equal('trace.42:a_b');
      expect(missing.body.request_id).to.equal('trace.42:a_b');
    });

    it('replaces a malformed incoming request id with a fresh one', async () => {
      const { request } = testApp();
      const res = await request.get('/nope').set('X-Request-Id', 'bad id with spaces <script>');
      expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      const other = await request.get('/nope');
      expect(other.headers['x-request-id']).to.not.equal(res.headers['x-request-id']);
    });
  });

  describe('GET /problems/<slug>', () => {
    const slugs = [
      'invalid-json',
      'invalid-request',
      'invalid-csv',
      'invalid-encoding',
      'invalid-multipart',
      'unauthorized',
      'quota-exceeded',
      'payload-too-large',
      'unsupported-media-type',
      'not-found',
      'method-not-allowed',
      'overloaded',
      'too-many-jobs',
      'job-not-finished',
      'job-no-result',
      'job-ended',
      'internal',
    ];

    it('explains every problem type of the contract as an HTML page', async () => {
      const { request } = testApp();
      for (const slug of slugs) {
        const res = await request.get(`/problems/${slug}`);
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.match(/^text\/html/);
        expect(res.text).to.include(`/problems/${slug}`);
        expect(res.headers['api-version']).to.equal('2.1');
      }
    });

    it('answers JSON when asked, and lists every type', async () => {
      const { request } = testApp();
      const one = await request.get('/problems/quota-exceeded').set('Accept', 'application/json');
      expect(one.body).to.include({ slug: 'quota-exceeded', status: 429, type: '/problems/quota-exceeded' });
      const all = await request.get('/problems').set('Accept', 'application/json');
      expect(all.body.map((p: { slug: string }) => p.slug)).to.have.members(slugs);
    });

    it('404 for an unknown slug', async () => {
      const res = await testApp().request.get('/problems/teapot');
      expectProblem(res, 404, 'not-found');
      expect(res.body.detail).to.equal("There is no problem type 'teapot'; GET /problems lists them.");
    });
  });

  describe('logs', () => {
    it('write one JSON access line per request without body, query string or key', async () => {
      const t = testApp();
      const body = fixture('requests/festival-small.json') as Record<string, any>;
      body.volunteers[0].name = 'Very Private Person';
      await t.request.post('/api/validate?debug=true').send(body);
      const leaked = await t.anonymous.post('/api/validate?key=abc.SECRETINQUERY').send(body);
      expect(leaked.status).to.equal(401);
      const text = t.logText();
      expect(text).to.not.include('Very Private Person');
      expect(text).to.not.include(t.key.split('.')[1]!);
      expect(text).to.not.include('SECRETINQUERY');
      const access = t.logs().filter((l) => l.msg === 'request');
      expect(access).to.have.length(2);
      expect(access[0]).to.include({ method: 'POST', route: '/api/validate', status: 200 });
      expect(access[1]).to.include({ method: 'POST', route: '/api/validate', status: 401 });
      expect(access[0]!.request_id).to.be.a('string');
    });
  });
});
