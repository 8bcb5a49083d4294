// Builds the Koa application from its dependencies. Nothing here listens on a port or reads the
// environment: server.ts does that, and tests drive app.callback() directly.
//
// Middleware chain, outermost first:
//   requestContext  - request id, API-Version, access log
//   problemResponder - every thrown error becomes problem+json
//   emptyStatus     - a bodiless 404/405/501 left by the routers becomes a problem
//   public routes   - /problems, /docs, /app (no key needed)
//   API routes      - /api/*, behind authentication, quota and usage history (accessControl)
//   allowedMethods  - 405 with Allow for a known path and a wrong method (made a problem above)
import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Config } from '../config/config.js';
import type { SchemaRegistry } from '../input/schema-registry.js';
import type { Logger } from '../logging/logger.js';
import type { Scheduler } from '../engine/scheduler.js';
import type { KeyStore } from '../store/key-store.js';
import { accessControl } from './middleware/access-control.js';
import { usageRoutes } from './routes/usage.js';
import { createMetrics, type Metrics } from './metrics.js';
import { openApiDocument } from './openapi.js';
import { docsRoutes } from './routes/docs.js';
import { appRoutes } from './routes/app-page.js';
import { corsAllowlist, securityHeaders } from './middleware/security.js';
import { solveAdmission } from './middleware/solve-admission.js';
import { operationsRoutes, type ReadinessChecks } from './routes/operations.js';
import type { PoolStats } from '../engine/pool/solver-pool.js';
import { problemResponder } from './middleware/problem-responder.js';
import { requestContext } from './middleware/request-context.js';
import { ProblemError } from '../service/problems.js';
import { clip } from '../input/entry-caps.js';
import { problemRoutes } from './routes/problems.js';
import { scheduleRoutes } from './routes/schedule.js';
import { scheduleCsvRoutes } from './routes/schedule-csv.js';
import { validateRoutes } from './routes/validate.js';
import { inlinePreparer, type InputPreparer } from '../service/input-preparer.js';
import type { Jobs } from '../jobs/jobs.js';
import { jobRoutes } from './routes/jobs.js';
import { recommendationRoutes } from './routes/recommendations.js';

export interface AppDeps {
  config: Config;
  logger: Logger;
  schemas: SchemaRegistry;
  /** The scheduling engine: over the solver worker pool in the service. */
  scheduler: Scheduler;
  /** Keys, quotas and usage history. */
  store: KeyStore;
  /** The HMAC secret keys are signed with. */
  secret: string;
  /** The clock that decides the quota day (injectable for tests). */
  clock?: () => Date;
  /** History writes under way, for tests and shutdown to wait on. */
  pendingWrites?: Set<Promise<void>>;
  /** Runs before every /api route instead of the default authentication and quota. */
  apiGuard?: Middleware;
  /** The solver pool's load and readiness, for /metrics and /readyz. */
  pool?: { stats(): PoolStats; isReady(): boolean };
  metrics?: Metrics;
  /** Where requests are parsed and validated: input worker threads in the service; this thread by default. */
  preparer?: InputPreparer;
  /** Background jobs (/api/jobs): served when given. */
  jobs?: Jobs;
}

const API_PATHS = ['/api/schedule', '/api/schedule/csv', '/api/validate', '/api/recommendations', '/api/usage', '/api/jobs'];

/** The routers answer an unknown path or method with a bare status; give it a problem body. */
const emptyStatus: Middleware = async (ctx, next) => {
  await next();
  if (ctx.body != null) return;
  if (ctx.status === 404) {
    const path = clip(ctx.path, 80);
    let lower = ctx.path.toLowerCase();
    while (lower.endsWith('/')) lower = lower.slice(0, -1);
    const exact = API_PATHS.find((p) => p === lower);
    const hint = exact === undefined ? '' : ` Paths are matched exactly: use ${exact}.`;
    throw new ProblemError(
      'not-found',
      `Nothing is served at ${ctx.method} ${path}.${hint} The endpoints are POST /api/schedule, POST /api/schedule/csv, POST /api/validate, POST /api/recommendations, GET /api/usage, POST and GET /api/jobs, and GET and DELETE /api/jobs/<id> (with /result and /events).`,
    );
  }
  if (ctx.status === 405 || ctx.status === 501) {
    const allow = ctx.response.get('Allow');
    throw new ProblemError('method-not-allowed', `${ctx.path} does not take ${ctx.method}; it takes ${allow}.`, { headers: { Allow: allow } });
  }
};

export function createApp(deps: AppDeps): Koa {
  const app = new Koa();
  app.proxy = false;
  // Errors are answered by problemResponder; Koa's own handler must stay silent.
  app.silent = true;

  const metrics =
    deps.metrics ?? createMetrics(deps.pool ? () => deps.pool!.stats() : undefined, deps.jobs ? () => deps.jobs!.store.countByStatus() : undefined);
  const readiness: ReadinessChecks = { database: () => deps.store.ping(), solverPool: () => deps.pool?.isReady() ?? true };
  const publicRouter = new Router();
  problemRoutes(publicRouter);
  operationsRoutes(publicRouter, { metrics, readiness, schemas: deps.schemas, openapi: openApiDocument(deps.config, deps.schemas) });
  docsRoutes(publicRouter);
  appRoutes(publicRouter);

  // Exact matching (case and trailing slash): one spelling per route, so a policy decided by
  // the route (quota, body limits, admission) cannot be dodged by another spelling of its path.
  const apiRouter = new Router({ strict: true, sensitive: true });
  const clock = deps.clock ?? ((): Date => new Date());
  apiRouter.use(
    deps.apiGuard ??
      accessControl({
        store: deps.store,
        secret: deps.secret,
        clock,
        logger: deps.logger,
        metrics,
        ...(deps.pendingWrites ? { pending: deps.pendingWrites } : {}),
      }),
  );
  const preparer = deps.preparer ?? inlinePreparer({ schemas: deps.schemas, limits: deps.config.limits });
  validateRoutes(apiRouter, { preparer, limits: deps.config.limits });
  const admit = solveAdmission(deps.config.solverWorkers + deps.config.solveQueueMax);
  scheduleRoutes(apiRouter, { config: deps.config, schemas: deps.schemas, preparer, scheduler: deps.scheduler, metrics, admit });
  scheduleCsvRoutes(apiRouter, { config: deps.config, schemas: deps.schemas, preparer, scheduler: deps.scheduler, metrics, admit });
  recommendationRoutes(apiRouter, { schemas: deps.schemas, limits: deps.config.limits, preparer, metrics });
  usageRoutes(apiRouter, { store: deps.store, clock, logger: deps.logger });
  if (deps.jobs) jobRoutes(apiRouter, { config: deps.config, schemas: deps.schemas, preparer, jobs: deps.jobs, logger: deps.logger, clock });

  // Label metrics by route pattern: the first route (not middleware) whose path matches.
  const routeOf = (method: string, path: string): string => {
    for (const router of [publicRouter, apiRouter]) {
      const layer = router.match(path, method).path.find((l) => l.methods.length > 0);
      if (layer) return String(layer.path);
    }
    return 'unmatched';
  };
  app.use(requestContext(deps.logger, metrics, routeOf));
  app.use(securityHeaders());
  if (deps.config.corsOrigins.length > 0) app.use(corsAllowlist(deps.config.corsOrigins));
  app.use(problemResponder(deps.logger));
  app.use(emptyStatus);
  for (const router of [publicRouter, apiRouter]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
