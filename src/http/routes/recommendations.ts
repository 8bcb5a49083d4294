// POST /api/recommendations: who could take a slot of a shift of a published schedule (or
// replace someone there), ranked and checked. The body is read as /api/schedule's is (same
// size limit, JSON only); the service layer (service/recommend.ts) validates it, its request
// member on an input worker as /api/schedule's body is, and asks the engine. No solver runs, so
// the route needs no solve admission.
import Router from '@koa/router';
import type { Limits } from '../../config/config.js';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import type { InputPreparer } from '../../service/input-preparer.js';
import { recommendJsonBody } from '../../service/recommend.js';
import { jsonBody } from '../middleware/json-body.js';
import type { Metrics } from '../metrics.js';

export function recommendationRoutes(router: Router, deps: { schemas: SchemaRegistry; limits: Limits; preparer: InputPreparer; metrics?: Metrics }): void {
  router.post('/api/recommendations', jsonBody(deps.limits.maxJsonBodyBytes), async (ctx) => {
    const timer = deps.metrics?.solveSeconds.startTimer({ endpoint: '/api/recommendations' });
    let status = 'error';
    try {
      ctx.body = await recommendJsonBody(ctx.state.body!, { schemas: deps.schemas, limits: deps.limits, preparer: deps.preparer });
      status = 'ok';
    } finally {
      timer?.({ status });
    }
  });
}
