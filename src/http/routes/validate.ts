// POST /api/validate: checks a payload without scheduling. Always 200 when the body is JSON.
import Router from '@koa/router';
import type { Limits } from '../../config/config.js';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import { validateScheduleRequest } from '../../input/validate-request.js';
import { jsonBody } from '../middleware/json-body.js';
import { enforceCountLimits } from '../request-limits.js';

export function validateRoutes(router: Router, deps: { schemas: SchemaRegistry; limits: Limits }): void {
  router.post('/api/validate', jsonBody(deps.limits.maxJsonBodyBytes), (ctx) => {
    const body: unknown = ctx.request.body;
    enforceCountLimits(body, deps.limits);
    ctx.body = validateScheduleRequest(body, deps.schemas);
  });
}
