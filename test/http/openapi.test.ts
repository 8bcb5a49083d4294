import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { packageRoot, schemaDir } from '../../src/package-root.js';
import { fixture, schemas, testApp, type TestApp } from '../helpers/app.js';

type Json = Record<string, any>;

/** A validator for a schema of the document: schema files by their $ref, components inlined. */
function validatorFor(doc: Json, schema: Json): ValidateFunction {
  const registry = schemas();
  if (typeof schema.$ref === 'string' && schema.$ref.startsWith('schemas/')) return registry.validator(schema.$ref.slice('schemas/'.length, -'.json'.length));
  const inline = JSON.parse(
    JSON.stringify(schema).replace(/\{"\$ref":"#\/components\/schemas\/(\w+)"\}/g, (_, name: string) => JSON.stringify(doc.components.schemas[name])),
  );
  return registry.ajv.compile(inline);
}

/** The operation for a call; a 405 is documented on the path's operations, whatever the method. */
function operation(doc: Json, method: string, path: string, status: number): Json {
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (!pattern.test(path)) continue;
    if (item[method.toLowerCase()]) return item[method.toLowerCase()];
    if (status === 405) return Object.values(item as Json)[0] as Json;
  }
  throw new Error(`${method} ${path} is not in the document`);
}

describe('OpenAPI document (GET /openapi.json)', function () {
  this.timeout(60_000);
  let t: TestApp;
  let doc: Json;
  before(async () => {
    t = testApp();
    const res = await t.anonymous.get('/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body;
  });

  it('passes the Redocly linter (recommended rules) with no errors and no warnings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vs-openapi-'));
    cpSync(schemaDir, join(dir, 'schemas'), { recursive: true });
    cpSync(join(packageRoot, 'redocly.yaml'), join(dir, 'redocly.yaml'));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc, null, 2));
    const cli = join(packageRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', '--config', join(dir, 'redocly.yaml'), join(dir, 'openapi.json')], {
      encoding: 'utf8',
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const out = `${run.stdout}\n${run.stderr}`;
    expect(run.status, out).to.equal(0);
    expect(out).to.include('Your API description is valid');
    expect(out).to.not.match(/You have \d+ warnings?/);
    expect(out).to.not.match(/\d+ errors?\b/);
  });

  it('references the schema files instead of copying them', () => {
    const refs = new Set(JSON.stringify(doc).match(/"schemas\/[a-z-]+\.json"/g));
    expect([...refs].map((r) => r.slice(9, -6)).sort()).to.include.members([
      'problem-details',
      'schedule-request',
      'schedule-result',
      'usage-result',
      'validation-result',
    ]);
    // A copied schema would bring its property names; the request examples use them as data.
    expect(JSON.stringify(doc, (key, value: unknown) => (key === 'examples' ? undefined : value))).to.not.include('"max_hours"');
  });

  it('documents every endpoint, the key, and the headers', () => {
    for (const [method, path] of [
      ['post', '/api/schedule'],
      ['post', '/api/schedule/csv'],
      ['post', '/api/validate'],
      ['post', '/api/recommendations'],
      ['get', '/api/usage'],
      ['get', '/problems/{slug}'],
      ['get', '/schemas/{file}'],
      ['get', '/healthz'],
      ['get', '/readyz'],
      ['get', '/metrics'],
      ['get', '/openapi.json'],
    ]) {
      expect(doc.paths[path!]?.[method!], `${method} ${path}`).to.be.an('object');
    }
    expect(doc.components.securitySchemes.bearerKey).to.include({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.components.headers)).to.include.members([
      'X-Request-Id',
      'API-Version',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
      'WWW-Authenticate',
    ]);
    const slugs = new Set(JSON.stringify(doc).match(/\/problems\/[a-z-]+/g));
    for (const slug of [
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
      'internal',
    ]) {
      expect(slugs.has(`/problems/${slug}`), slug).to.equal(true);
    }
  });

  it('has examples that validate against their schemas', () => {
    let count = 0;
    for (const item of Object.values(doc.paths as Json)) {
      for (const op of Object.values(item as Json) as Json[]) {
        for (const response of Object.values(op.responses as Json) as Json[]) {
          for (const media of Object.values((response.content ?? {}) as Json) as Json[]) {
            if (media.example === undefined) continue;
            const validate = validatorFor(doc, media.schema);
            expect(validate(media.example), JSON.stringify(validate.errors)).to.equal(true);
            count++;
          }
        }
      }
    }
    expect(count).to.be.greaterThan(20);
  });

  it('shows request examples that validate, with every 2.2 field, the rules one being examples/request.json', () => {
    const v = schemas().validator('schedule-request');
    for (const path of ['/api/schedule', '/api/validate']) {
      const media = doc.paths[path].post.requestBody.content['application/json'];
      expect(media.schema).to.deep.equal({ $ref: 'schemas/schedule-request.json' });
      expect(Object.keys(media.examples as Json)).to.deep.equal(['rules', 'minimal', 'wishes']);
      for (const [name, example] of Object.entries(media.examples as Json))
        expect(v(example.value), `${path} ${name}: ${JSON.stringify(v.errors)}`).to.equal(true);
    }
    const rules = doc.paths['/api/schedule'].post.requestBody.content['application/json'].examples.rules.value;
    expect(rules).to.deep.equal(JSON.parse(readFileSync(join(packageRoot, 'examples', 'request.json'), 'utf8')));
    const text = JSON.stringify(rules);
    for (const field of ['additional_groups', 'available', 'unavailable', 'min_rest_hours', 'max_shifts_per_day', 'priority', 'rules', 'timezone']) {
      expect(text, field).to.include(`"${field}"`);
    }
    const wishes = doc.paths['/api/schedule'].post.requestBody.content['application/json'].examples.wishes.value;
    expect(wishes).to.deep.equal(JSON.parse(readFileSync(join(packageRoot, 'examples', 'wishes.json'), 'utf8')));
    for (const field of ['preferred_shifts', 'avoid_shifts', 'min_hours']) expect(JSON.stringify(wishes), field).to.include(`"${field}"`);
  });

  it('documents the CSV upload: the 2.2 columns and the rules text fields', () => {
    const form = doc.paths['/api/schedule/csv'].post.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(form.properties as Json)).to.deep.equal(['volunteers', 'shifts', 'timezone', 'min_rest_hours', 'max_shifts_per_day']);
    for (const column of [
      'Additional Groups',
      'Available',
      'Unavailable',
      'Min Rest Hours',
      'Max Shifts Per Day',
      'Preferred Shifts',
      'Avoid Shifts',
      'Min Hours',
    ]) {
      expect(form.properties.volunteers.description, column).to.include(column);
    }
    expect(form.properties.shifts.description).to.include('Priority');
  });

  it('describes the real responses of the running service, success and error', async () => {
    const csv = (name: string): Buffer => readFileSync(join(packageRoot, 'examples', name));
    const calls: Array<[string, string, () => Promise<{ status: number; headers: Record<string, string>; body: unknown; text: string }>]> = [
      ['POST', '/api/schedule', () => t.request.post('/api/schedule').send(fixture('requests/festival-small.json'))],
      ['POST', '/api/schedule', () => t.request.post('/api/schedule?debug=true').send(fixture('requests/festival-small.json'))],
      ['POST', '/api/schedule', () => t.request.post('/api/schedule').send({ volunteers: 'no' })],
      ['POST', '/api/schedule', () => t.request.post('/api/schedule').set('Content-Type', 'application/json').send('{')],
      ['POST', '/api/schedule', () => t.request.post('/api/schedule').set('Content-Type', 'text/plain').send('x')],
      ['POST', '/api/schedule', () => t.anonymous.post('/api/schedule').send({})],
      ['POST', '/api/schedule', () => testApp({ MAX_VOLUNTEERS: '1' }).request.post('/api/schedule').send(fixture('requests/festival-small.json'))],
      [
        'POST',
        '/api/schedule/csv',
        () => t.request.post('/api/schedule/csv').attach('volunteers', csv('volunteers.csv'), 'v.csv').attach('shifts', csv('shifts.csv'), 's.csv'),
      ],
      ['POST', '/api/schedule/csv', () => t.request.post('/api/schedule/csv').attach('volunteers', csv('volunteers.csv'), 'v.csv')],
      ['POST', '/api/schedule', () => t.request.post('/api/schedule?debug=true').send(fixture('requests/recommendations.json'))],
      ['POST', '/api/validate', () => t.request.post('/api/validate').send({ volunteers: [], unassigned_shifts: [] })],
      ['GET', '/api/validate', () => t.request.get('/api/validate')],
      [
        'POST',
        '/api/recommendations',
        () => t.request.post('/api/recommendations').send({ request: fixture('requests/recommendations.json'), shift_id: 'sat-am' }),
      ],
      [
        'POST',
        '/api/recommendations',
        () => t.request.post('/api/recommendations').send({ request: fixture('requests/recommendations.json'), shift_id: 'nope' }),
      ],
      ['POST', '/api/recommendations', () => t.anonymous.post('/api/recommendations').send({})],
      ['GET', '/api/usage', () => t.request.get('/api/usage')],
      ['GET', '/api/usage', () => t.request.get('/api/usage?limit=0')],
      ['GET', '/problems/not-found', () => t.anonymous.get('/problems/not-found').set('Accept', 'application/json')],
      ['GET', '/problems/teapot', () => t.anonymous.get('/problems/teapot')],
      ['GET', '/schemas/volunteer.json', () => t.anonymous.get('/schemas/volunteer.json')],
      ['GET', '/schemas/nope.json', () => t.anonymous.get('/schemas/nope.json')],
      ['GET', '/healthz', () => t.anonymous.get('/healthz')],
      ['GET', '/readyz', () => t.anonymous.get('/readyz')],
      ['GET', '/metrics', () => t.anonymous.get('/metrics')],
      ['GET', '/openapi.json', () => t.anonymous.get('/openapi.json')],
    ];
    const seen = new Set<string>();
    for (const [method, path, call] of calls) {
      const res = await call();
      const op = operation(doc, method, path, res.status);
      const response = op.responses[String(res.status)];
      expect(response, `${method} ${path} answered ${res.status}, which the document does not list`).to.be.an('object');
      const type = res.headers['content-type']!.split(';')[0]!;
      const media = response.content?.[type];
      expect(media, `${method} ${path} ${res.status} is ${type}, not documented`).to.be.an('object');
      const body = type.endsWith('json')
        ? typeof res.body === 'object' && Object.keys(res.body as object).length > 0
          ? res.body
          : JSON.parse(res.text)
        : res.text;
      const validate = validatorFor(doc, media.schema);
      expect(validate(body), `${method} ${path} ${res.status}: ${JSON.stringify(validate.errors?.slice(0, 2))}`).to.equal(true);
      for (const header of Object.keys(response.headers ?? {})) {
        if (['X-Request-Id', 'API-Version'].includes(header)) expect(res.headers[header.toLowerCase()], `${header} on ${method} ${path}`).to.be.a('string');
      }
      seen.add(`${res.status}`);
    }
    expect([...seen].sort()).to.include.members(['200', '400', '401', '404', '405', '413', '415']);
  });
});
