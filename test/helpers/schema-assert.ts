// Asserts that a response body matches one of the service's own schema files.
import { expect } from 'chai';
import { schemas } from './app.js';

export function expectSchema(name: string, body: unknown): void {
  const validate = schemas().validator(name);
  const ok = validate(body);
  expect(ok, `${name}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).to.equal(true);
}
