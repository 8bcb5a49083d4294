import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { SCHEMA_ID_BASE } from '../src/input/schema-registry.js';
import { schemaDir } from '../src/package-root.js';
import { schemas } from './helpers/app.js';

const REQUIRED_FILES = [
  'volunteer',
  'shift',
  'current-assignment',
  'previous-assignment',
  'schedule-request',
  'schedule-result',
  'conflict',
  'volunteer-summary',
  'usage-result',
  'validation-result',
  'problem-details',
  'warning',
  'schedule-options',
  'recommendation-request',
  'recommendation-result',
];

type Node = Record<string, unknown>;

/** Every `properties` member anywhere in a schema, with its path. */
function propertiesOf(node: unknown, path: string, out: Array<[string, Node]>): Array<[string, Node]> {
  if (Array.isArray(node)) node.forEach((n, i) => propertiesOf(n, `${path}/${i}`, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node as Node)) {
      if (key === 'examples') continue;
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [prop, sub] of Object.entries(value as Node)) out.push([`${path}/properties/${prop}`, sub as Node]);
      }
      propertiesOf(value, `${path}/${key}`, out);
    }
  }
  return out;
}

describe('schemas/', () => {
  const files = readdirSync(schemaDir).filter((f) => f.endsWith('.json'));

  it('has one file per object of the interface and contract', () => {
    expect(files.map((f) => f.replace(/\.json$/, ''))).to.include.members(REQUIRED_FILES);
  });

  for (const file of files) {
    describe(file, () => {
      const schema = JSON.parse(readFileSync(join(schemaDir, file), 'utf8')) as Node;

      it('is JSON Schema 2020-12 with a stable $id', () => {
        expect(schema.$schema).to.equal('https://json-schema.org/draft/2020-12/schema');
        expect(schema.$id).to.equal(`${SCHEMA_ID_BASE}${file}`);
        expect(new Ajv2020({ strict: false }).validateSchema(schema)).to.equal(true);
      });

      it('describes every property', () => {
        for (const [path, sub] of propertiesOf(schema, '', [])) {
          expect(sub.description, `${file}${path}`).to.be.a('string').and.not.equal('');
        }
      });

      it('has examples that validate against it', () => {
        expect(schema.examples).to.be.an('array').with.lengthOf.above(0);
        const validate = schemas().validator(file.replace(/\.json$/, ''));
        for (const example of schema.examples as unknown[]) {
          expect(validate(example), `${file}: ${JSON.stringify(validate.errors)}`).to.equal(true);
        }
      });
    });
  }

  it('rejects what the contract rejects (the schema alone, without the service)', () => {
    const validate = schemas().validator('shift');
    const shift = { id: 's', start: '2026-06-01T08:00:00Z', end: '2026-06-01T12:00:00Z', required_groups: { kitchen: 2 } };
    expect(validate(shift)).to.equal(true);
    // Z, an offset, or no suffix (a wall-clock time, which validation reads in the request's timezone).
    expect(validate({ ...shift, start: '2026-06-01T08:00:00+02:00' })).to.equal(true);
    expect(validate({ ...shift, start: '2026-06-01T08:00' })).to.equal(true);
    expect(validate({ ...shift, start: '2026-06-01T08:00:00+0200' })).to.equal(false);
    expect(validate({ ...shift, start: '2026-06-01T08:00:00+24:00' })).to.equal(false);
    expect(validate({ ...shift, start: '6/1/2026 8:00 AM' })).to.equal(false);
    expect(validate({ ...shift, required_groups: 'kitchen:2' })).to.equal(false);
    expect(validate({ ...shift, required_groups: { kitchen: 1.5 } })).to.equal(false);
    const volunteer = schemas().validator('volunteer');
    expect(volunteer({ id: 'v', group: 'g', max_hours: null })).to.equal(false);
    expect(volunteer({ id: 'v', group: 'g', max_hours: 999 })).to.equal(true);
  });
});
