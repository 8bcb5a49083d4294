// Outermost middleware: gives every request an id (echoing a well-formed incoming
// X-Request-Id), stamps X-Request-Id and API-Version on every response, and writes one access
// log line. The log line carries no query string, body or headers, and names the route pattern
// the request matched rather than its raw path (a client may put anything in a path, a key
// included): keys and payloads never reach the logs.
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../logging/logger.js';
import type { Metrics } from '../metrics.js';

export const API_VERSION = '2.1';
const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

declare module 'koa' {
  interface DefaultState {
    requestId: string;
  }
}

/** The route pattern a request matches, or 'unmatched'. */
export type RouteLabel = (method: string, path: string) => string;

export function requestContext(logger: Logger, metrics?: Metrics, routeOf: RouteLabel = () => 'unmatched'): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId = VALID_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    ctx.set('API-Version', API_VERSION);
    try {
      await next();
    } finally {
      // Set again: a downstream handler may have replaced the headers.
      ctx.set('X-Request-Id', requestId);
      ctx.set('API-Version', API_VERSION);
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      // The route pattern (never the raw path) keeps the metric's labels few and the log free of
      // whatever a client put in the path.
      const route = routeOf(ctx.method, ctx.path);
      metrics?.requests.inc({ route, method: ctx.method, status: String(ctx.status) });
      logger.info({ request_id: requestId, method: ctx.method, route, status: ctx.status, duration_ms: Math.round(durationMs * 100) / 100 }, 'request');
    }
  };
}
