// POST /api/schedule: a schedule for a JSON payload. The query options (debug, time_limit,
// solver) are read by the service layer (service/options.ts, from schemas/schedule-options.json);
// the body is prepared on an input worker, then solved and rendered as the Accept header asks
// (JSON, or the CSV and iCalendar exports of routes/exports.ts).
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Config } from '../../config/config.js';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import { schedulePrepared } from '../../service/schedule-service.js';
import { parseScheduleOptions } from '../../service/options.js';
import { withJobHint } from '../../service/limits.js';
import type { InputPreparer } from '../../service/input-preparer.js';
import type { Scheduler } from '../../engine/scheduler.js';
import { jsonBody } from '../middleware/json-body.js';
import type { Metrics } from '../metrics.js';
import { checkVolunteer, negotiate, respond } from './exports.js';

export function scheduleRoutes(
  router: Router,
  deps: { config: Config; schemas: SchemaRegistry; preparer: InputPreparer; scheduler: Scheduler; metrics?: Metrics; admit: Middleware },
): void {
  router.post('/api/schedule', deps.admit, jsonBody(deps.config.limits.maxJsonBodyBytes), async (ctx) => {
    const call = parseScheduleOptions(ctx.query, deps.config, deps.schemas);
    const format = negotiate(ctx);
    const timer = deps.metrics?.solveSeconds.startTimer({ endpoint: '/api/schedule' });
    let status = 'error';
    try {
      const prepared = await deps.preparer.prepareJson(ctx.state.body!).catch((e: unknown) => {
        throw withJobHint(e, deps.config.jobs.limits);
      });
      checkVolunteer(call, prepared.problem);
      const answer = await schedulePrepared(prepared, call, { schemas: deps.schemas, limits: deps.config.limits, scheduler: deps.scheduler });
      status = 'ok';
      respond(ctx, format, prepared.problem, answer, call);
    } finally {
      timer?.({ status });
    }
  });
}
