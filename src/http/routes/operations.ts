// Public operational endpoints: GET /healthz (the process answers), GET /readyz (the database
// answers and takes writes, and the solver pool is ready; 503 otherwise), GET /metrics (Prometheus text), and
// GET /schemas/<name>.json (each schema file, as the service validates with it).
import Router from '@koa/router';
import type { SchemaRegistry } from '../../input/schema-registry.js';
import type { Metrics } from '../metrics.js';
import { ProblemError } from '../../service/problems.js';
import type { DatabaseHealth } from '../../store/key-store.js';

export interface ReadinessChecks {
  database: () => Promise<DatabaseHealth>;
  solverPool: () => boolean;
}

export function operationsRoutes(
  router: Router,
  deps: { metrics: Metrics; readiness: ReadinessChecks; schemas: SchemaRegistry; openapi: Record<string, unknown> },
): void {
  router.get('/openapi.json', (ctx) => {
    ctx.body = deps.openapi;
  });

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    const checks = { database: await deps.readiness.database(), solver_pool: deps.readiness.solverPool() ? 'ok' : 'starting' };
    if (checks.database !== 'ok' || checks.solver_pool !== 'ok') {
      const failing = Object.entries(checks)
        .filter(([, v]) => v !== 'ok')
        .map(([k, v]) => `${k} ${v}`);
      throw new ProblemError('overloaded', `Not ready: ${failing.join(', ')}.`, { headers: { 'Retry-After': '5' } });
    }
    ctx.body = { status: 'ready', checks };
  });

  router.get('/metrics', async (ctx) => {
    ctx.type = deps.metrics.registry.contentType;
    ctx.body = await deps.metrics.registry.metrics();
  });

  router.get('/schemas', (ctx) => {
    ctx.body = [...deps.schemas.schemas].map(([name, schema]) => ({
      name: `${name}.json`,
      $id: schema.$id,
      title: schema.title,
      href: `/schemas/${name}.json`,
    }));
  });

  router.get('/schemas/:file', (ctx) => {
    const file = ctx.params.file ?? '';
    const schema = file.endsWith('.json') ? deps.schemas.schemas.get(file.slice(0, -'.json'.length)) : undefined;
    if (!schema) throw new ProblemError('not-found', `There is no schema '${file}'; GET /schemas lists them.`);
    ctx.type = 'application/schema+json';
    ctx.body = JSON.stringify(schema, null, 2);
  });
}
