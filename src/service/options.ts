// The options of a scheduling call (debug, time_limit, solver), declared once in
// schemas/schedule-options.json: ajv validates them with that file, the OpenAPI document lists
// the query parameters from it, and both the HTTP routes and the CLI read options here. Every
// problem is reported at once, each message saying what would be right.
import type { ErrorObject } from 'ajv';
import type { Config } from '../config/config.js';
import type { BackendName } from '../engine/backends/backend.js';
import type { JsonSchema, SchemaRegistry } from '../input/schema-registry.js';
import type { FieldError, Warning } from '../types/schema-types.js';
import { clip } from '../input/entry-caps.js';
import { isTimeZone, notATimeZone } from '../input/time-zone.js';
import { ProblemError } from './problems.js';
import type { ScheduleCall } from './schedule-service.js';

/** A scheduling call with what its exports are asked for (CSV and iCalendar; JSON ignores them). */
export interface ScheduleOptions extends ScheduleCall {
  /** ?timezone=: the zone the CSV export writes times in (else the request's zone). */
  exportZone?: string;
  /** ?volunteer_id=: the exports cover this volunteer only. */
  volunteerId?: string;
}

/** Option values as a query string or the CLI gives them: text, possibly repeated. */
export type RawOptions = Record<string, string | string[] | undefined>;

export const OPTIONS_SCHEMA = 'schedule-options';

/** The options' names, in the order they are checked and listed. */
export function optionNames(registry: SchemaRegistry): string[] {
  return Object.keys(registry.schemas.get(OPTIONS_SCHEMA)?.properties ?? {});
}

/** One OpenAPI query parameter per option, from the schema file. */
export function optionParameters(registry: SchemaRegistry): Array<Record<string, unknown>> {
  const properties = registry.schemas.get(OPTIONS_SCHEMA)?.properties ?? {};
  return Object.entries(properties).map(([name, schema]) => {
    const { description, ...rest } = schema as JsonSchema & { description?: string };
    // The parameter's schema goes without the option's examples.
    delete rest.examples;
    return { name, in: 'query', required: false, description, schema: rest };
  });
}

const HINT =
  'the options are debug=true|lp, time_limit=SECONDS, solver=highs|jslp, and for the CSV and iCalendar exports timezone=IANA_ZONE and volunteer_id=ID.';

/** What each failing option is told, by name. */
function optionMessage(name: string, text: string): string {
  switch (name) {
    case 'debug':
      return `is '${clip(text)}'; use debug=true for diagnostics or debug=lp to add the LP models.`;
    case 'time_limit':
      return `is '${clip(text)}'; use a number of seconds above 0, such as time_limit=5.`;
    case 'solver':
      return `is '${clip(text)}'; use solver=highs (the default) or solver=jslp.`;
    case 'timezone':
      return `is '${clip(text)}'; use an IANA time zone name such as timezone=America/Chicago.`;
    case 'volunteer_id':
      return 'is empty; give the id of one volunteer of the request, such as volunteer_id=v1.';
    default:
      return `is not known; ${HINT}`;
  }
}

/** Reads the options of a scheduling call; throws 400 invalid-request listing every problem. */
export function parseScheduleOptions(
  raw: RawOptions,
  config: Pick<Config, 'solveTimeLimitDefault' | 'solveTimeLimitMax'>,
  registry: SchemaRegistry,
): ScheduleOptions {
  const errors: FieldError[] = [];
  const fail = (name: string, code: string, message: string): void => {
    errors.push({ pointer: '', code, message: `query parameter ${clip(name)} ${message}` });
  };
  const known = optionNames(registry);
  for (const name of Object.keys(raw)) if (!known.includes(name)) fail(name, 'unknown_parameter', `is not known; ${HINT}`);
  const values: Record<string, unknown> = {};
  const texts: Record<string, string> = {};
  const repeated = new Map<string, number>();
  for (const name of known) {
    const value = raw[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      repeated.set(name, value.length);
      continue;
    }
    texts[name] = value;
    // Query values are text; a number-typed option is checked as the number it spells.
    const type = registry.schemas.get(OPTIONS_SCHEMA)?.properties?.[name]?.type;
    values[name] = type === 'number' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  const validate = registry.validator(OPTIONS_SCHEMA);
  const invalid = new Set(validate(values) ? [] : (validate.errors ?? []).map((e: ErrorObject) => e.instancePath.slice(1)));
  for (const name of known) {
    if (repeated.has(name)) fail(name, 'repeated_parameter', `is given ${repeated.get(name)} times; give it once.`);
    else if (invalid.has(name)) fail(name, 'invalid_parameter', optionMessage(name, texts[name] ?? ''));
    else if (name === 'timezone' && texts.timezone !== undefined && !isTimeZone(texts.timezone))
      errors.push({ pointer: '', code: 'invalid_parameter', message: notATimeZone('query parameter timezone', texts.timezone) });
  }
  if (errors.length > 0) {
    throw new ProblemError('invalid-request', `The query has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}; each is listed in errors.`, {
      errors,
    });
  }
  return callFrom(values, texts, config);
}

function callFrom(
  values: Record<string, unknown>,
  texts: Record<string, string>,
  config: Pick<Config, 'solveTimeLimitDefault' | 'solveTimeLimitMax'>,
): ScheduleOptions {
  const warnings: Warning[] = [];
  let timeLimitS = config.solveTimeLimitDefault;
  const asked = values.time_limit as number | undefined;
  if (asked !== undefined && asked > config.solveTimeLimitMax) {
    timeLimitS = config.solveTimeLimitMax;
    warnings.push({
      code: 'time_limit_capped',
      message: `time_limit ${texts.time_limit} is over the maximum of ${config.solveTimeLimitMax} seconds; ${config.solveTimeLimitMax} was used.`,
    });
  } else if (asked !== undefined) {
    timeLimitS = asked;
  }
  const debug = (values.debug ?? 'false') as 'true' | 'lp' | 'false';
  return {
    backend: (values.solver ?? 'highs') as BackendName,
    timeLimitS,
    debug: debug === 'false' ? 'off' : debug,
    warnings,
    ...(texts.timezone !== undefined ? { exportZone: texts.timezone } : {}),
    ...(texts.volunteer_id !== undefined ? { volunteerId: texts.volunteer_id } : {}),
  };
}
