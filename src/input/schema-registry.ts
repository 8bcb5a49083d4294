// Loads the JSON Schemas in schemas/ once, registers them with ajv's 2020-12 build (plus
// ajv-formats) and compiles the request validator. These files are the single source of truth:
// the service validates with exactly them and serves them unchanged.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { schemaDir } from '../package-root.js';

export const SCHEMA_ID_BASE = 'https://volunteer-scheduler.dev/schemas/';

export interface JsonSchema {
  $id?: string;
  title?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  [key: string]: unknown;
}

export interface SchemaRegistry {
  ajv: Ajv2020;
  /** Every schema file by its name without .json (volunteer, shift, ...). */
  schemas: ReadonlyMap<string, JsonSchema>;
  /** The schedule request validator (allErrors, verbose). */
  validateRequest: ValidateFunction;
  /** A validator for any registered schema, by name. */
  validator(name: string): ValidateFunction;
}

export type { ErrorObject };

// ajv-formats is CommonJS and sets its plugin as both module.exports and module.exports.default.
const addFormats = addFormatsModule.default;

export function loadSchemas(dir: string = schemaDir): SchemaRegistry {
  const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictTypes: false, allowUnionTypes: true });
  addFormats(ajv);
  const schemas = new Map<string, JsonSchema>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as JsonSchema;
    const name = file.slice(0, -'.json'.length);
    if (schema.$id !== `${SCHEMA_ID_BASE}${file}`) {
      throw new Error(`schemas/${file}: $id must be ${SCHEMA_ID_BASE}${file}, found ${String(schema.$id)}`);
    }
    schemas.set(name, schema);
    ajv.addSchema(schema);
  }
  const compiled = new Map<string, ValidateFunction>();
  const validator = (name: string): ValidateFunction => {
    let fn = compiled.get(name);
    if (!fn) {
      fn = ajv.getSchema(`${SCHEMA_ID_BASE}${name}.json`);
      if (!fn) throw new Error(`no schema named ${name}`);
      compiled.set(name, fn);
    }
    return fn;
  };
  // Compile every schema now: a broken schema stops the start, not a request.
  for (const name of schemas.keys()) validator(name);
  return { ajv, schemas, validateRequest: validator('schedule-request'), validator };
}
