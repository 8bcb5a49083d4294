// POST /api/schedule: a schedule for a JSON payload. Query options: debug=true|lp,
// time_limit=SECONDS (capped by SOLVE_TIME_LIMIT_MAX, with a warning), solver=highs|jslp.
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { ParsedUrlQuery } from 'node:querystring';
import type { Config } from '../../config/config.js';
import type { BackendName } from '../../engine/backends/backend.js';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import { schedulePrepared, type ScheduleCall } from '../../schedule-service.js';
import type { InputPreparer } from '../../service/input-preparer.js';
import type { Scheduler } from '../../engine/scheduler.js';
import type { FieldError, Warning } from '../../types/schema-types.js';
import { jsonBody } from '../middleware/json-body.js';
import { ProblemError } from '../../service/problems.js';
import type { Metrics } from '../metrics.js';

const OPTIONS = ['debug', 'time_limit', 'solver'];

/** Reads the scheduling endpoints' query options; every problem is reported at once. */
export function parseScheduleQuery(query: ParsedUrlQuery, config: Config): ScheduleCall {
  const errors: FieldError[] = [];
  const warnings: Warning[] = [];
  const fail = (name: string, code: string, message: string): void => {
    errors.push({ pointer: '', code, message: `query parameter ${name} ${message}` });
  };
  const one = (name: string): string | undefined => {
    const value = query[name];
    if (Array.isArray(value)) {
      fail(name, 'repeated_parameter', `is given ${value.length} times; give it once.`);
      return undefined;
    }
    return value;
  };
  for (const name of Object.keys(query)) {
    if (!OPTIONS.includes(name)) fail(name, 'unknown_parameter', `is not known; the options are debug=true|lp, time_limit=SECONDS and solver=highs|jslp.`);
  }
  const debugText = one('debug');
  let debug: ScheduleCall['debug'] = 'off';
  if (debugText !== undefined) {
    if (debugText === 'true' || debugText === 'lp') debug = debugText;
    else if (debugText !== 'false') fail('debug', 'invalid_parameter', `is '${debugText}'; use debug=true for diagnostics or debug=lp to add the LP models.`);
  }
  let timeLimitS = config.solveTimeLimitDefault;
  const limitText = one('time_limit');
  if (limitText !== undefined) {
    const n = Number(limitText);
    if (!/^\d+(\.\d+)?$/.test(limitText) || !(n > 0)) {
      fail('time_limit', 'invalid_parameter', `is '${limitText}'; use a number of seconds above 0, such as time_limit=5.`);
    } else if (n > config.solveTimeLimitMax) {
      timeLimitS = config.solveTimeLimitMax;
      warnings.push({ code: 'time_limit_capped', message: `time_limit ${limitText} is over the maximum of ${config.solveTimeLimitMax} seconds; ${config.solveTimeLimitMax} was used.` });
    } else {
      timeLimitS = n;
    }
  }
  let backend: BackendName = 'highs';
  const solverText = one('solver');
  if (solverText !== undefined) {
    if (solverText === 'highs' || solverText === 'jslp') backend = solverText;
    else fail('solver', 'invalid_parameter', `is '${solverText}'; use solver=highs (the default) or solver=jslp.`);
  }
  if (errors.length > 0) {
    throw new ProblemError('invalid-request', `The query has ${errors.length === 1 ? 'an error' : `${errors.length} errors`}; each is listed in errors.`, { errors });
  }
  return { backend, timeLimitS, debug, warnings };
}

export function scheduleRoutes(router: Router, deps: { config: Config; schemas: SchemaRegistry; preparer: InputPreparer; scheduler: Scheduler; metrics?: Metrics; admit: Middleware }): void {
  router.post('/api/schedule', deps.admit, jsonBody(deps.config.limits.maxJsonBodyBytes), async (ctx) => {
    const call = parseScheduleQuery(ctx.query, deps.config);
    const timer = deps.metrics?.solveSeconds.startTimer({ endpoint: '/api/schedule' });
    let status = 'error';
    try {
      const prepared = await deps.preparer.prepareJson(ctx.state.body!);
      const answer = await schedulePrepared(prepared, call, { schemas: deps.schemas, limits: deps.config.limits, scheduler: deps.scheduler });
      status = 'ok';
      ctx.type = 'application/json';
      ctx.body = answer.json;
    } finally {
      timer?.({ status });
    }
  });
}
