// POST /api/validate: checks a payload without scheduling. Always 200 when the body is JSON.
// The body is parsed and checked on an input worker (service/input-preparer.ts).
import Router from '@koa/router';
import type { Limits } from '../../config/config.js';
import type { InputPreparer } from '../../service/input-preparer.js';
import { jsonBody } from '../middleware/json-body.js';

export function validateRoutes(router: Router, deps: { preparer: InputPreparer; limits: Limits }): void {
  router.post('/api/validate', jsonBody(deps.limits.maxJsonBodyBytes), async (ctx) => {
    ctx.body = await deps.preparer.validate(ctx.state.body!);
  });
}
