// POST /api/recommendations: who could take a slot of a shift of a published schedule (or
// replace someone there), ranked and checked. The body is read as /api/schedule's is (same
// size limit, JSON only); the service layer (service/recommend.ts) validates it and asks the
// engine. No solver runs, so the route needs no solve admission: it answers in the request's
// own time, which grows linearly with the request.
import Router from '@koa/router';
import type { Limits } from '../../config/config.js';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import { recommendJsonBody } from '../../service/recommend.js';
import { jsonBody } from '../middleware/json-body.js';
import type { Metrics } from '../metrics.js';

export function recommendationRoutes(router: Router, deps: { schemas: SchemaRegistry; limits: Limits; metrics?: Metrics }): void {
  router.post('/api/recommendations', jsonBody(deps.limits.maxJsonBodyBytes), (ctx) => {
    const timer = deps.metrics?.solveSeconds.startTimer({ endpoint: '/api/recommendations' });
    let status = 'error';
    try {
      ctx.body = recommendJsonBody(ctx.state.body!, { schemas: deps.schemas, limits: deps.limits });
      status = 'ok';
    } finally {
      timer?.({ status });
    }
  });
}
