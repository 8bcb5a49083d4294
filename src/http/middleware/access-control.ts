// Authentication, quota and usage history for every /api route (CONTRACT.md sections 6-7).
// Keys are read only from the Authorization header; each kind of failure gets its own 401
// detail. Counted endpoints consume the daily quota atomically before they run; every
// authenticated response carries RateLimit-* headers; every authenticated call is recorded
// in the history after the response, without ever failing or delaying it.
import type { Context, Middleware } from 'koa';
import { parseKey, sign, signatureMatches } from '../../auth/api-keys.js';
import { isoSeconds, periodOf } from '../../auth/quota-period.js';
import type { Logger } from '../../logging/logger.js';
import type { KeyRecord, KeyStore } from '../../store/key-store.js';
import { ProblemError } from '../../service/problems.js';
import type { Metrics } from '../metrics.js';

export interface AccessDeps {
  store: KeyStore;
  secret: string;
  clock: () => Date;
  logger: Logger;
  metrics?: Metrics;
  /** History writes under way (tests and shutdown wait for them). */
  pending?: Set<Promise<void>>;
}

/** Calls that consume the daily quota (CONTRACT.md sections 7 and 12), as `METHOD route pattern`: reading a job does not. */
export const COUNTED_ROUTES: ReadonlySet<string> = new Set([
  'POST /api/schedule',
  'POST /api/schedule/csv',
  'POST /api/validate',
  'POST /api/recommendations',
  'POST /api/jobs',
]);

/**
 * The route pattern the router matched for this method, never the raw path: quota and history
 * follow the route that runs, whatever spelling of the path reached it.
 */
function matchedRoute(ctx: Context): string | undefined {
  const layers = (ctx as Context & { matched?: Array<{ path: string | RegExp; methods: string[] }> }).matched ?? [];
  const route = layers.filter((l) => l.methods.includes(ctx.method)).at(-1);
  return route === undefined ? undefined : String(route.path);
}
const KEY_QUERY = ['key', 'api_key', 'apikey', 'access_token', 'token'];
const KEY_HEADERS = ['x-api-key', 'api-key', 'x-auth-token', 'x-access-token'];
const V1_NOTE = 'Keys from version 1.0 are not accepted: request a new key from the operator.';

/** A store call; when the database cannot answer, 503 (retry shortly), never a 500. */
export async function fromStore<T>(deps: Pick<AccessDeps, 'logger'>, requestId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    deps.logger.error({ request_id: requestId, err }, 'database unavailable');
    throw new ProblemError('overloaded', 'The database behind keys and quotas cannot be reached right now; retry in a few seconds.', {
      headers: { 'Retry-After': '5' },
    });
  }
}

function unauthorized(detail: string): ProblemError {
  return new ProblemError('unauthorized', detail, { headers: { 'WWW-Authenticate': 'Bearer realm="volunteer-scheduler", error="invalid_token"' } });
}

/**
 * The token of `Bearer <token>` (scheme case-insensitive, spaces around the token allowed), or
 * undefined. One pass over the header, no regular expression: a header of many spaces costs
 * linear time before any key is checked.
 */
export function bearerToken(header: string): string | undefined {
  if (header.length < 7 || header.slice(0, 6).toLowerCase() !== 'bearer' || header[6] !== ' ') return undefined;
  const token = header.slice(7).trim();
  for (let i = 0; i < token.length; i++) if (/\s/.test(token[i]!)) return undefined;
  return token;
}

const schemeOf = (header: string): string => {
  const space = header.indexOf(' ');
  return (space < 0 ? header : header.slice(0, space)).slice(0, 20);
};

async function authenticate(ctx: Context, deps: AccessDeps): Promise<KeyRecord> {
  const inQuery = KEY_QUERY.filter((k) => ctx.query[k] !== undefined);
  const inHeader = KEY_HEADERS.filter((h) => ctx.get(h) !== '');
  if (inQuery.length > 0 || inHeader.length > 0) {
    const where = [...inQuery.map((k) => `query parameter '${k}'`), ...inHeader.map((h) => `header '${h}'`)].join(' and ');
    throw unauthorized(
      `A key was sent in the ${where}; keys are only read from the Authorization header (Authorization: Bearer <user_id>.<signature>). Do not send keys in URLs: they end up in logs.`,
    );
  }
  const header = ctx.get('Authorization');
  if (header === '') throw unauthorized('The Authorization header is missing; send Authorization: Bearer <user_id>.<signature>.');
  const token = bearerToken(header);
  if (token === undefined)
    throw unauthorized(
      `The Authorization header is not a Bearer key; send Authorization: Bearer <user_id>.<signature> (found the scheme '${schemeOf(header)}').`,
    );
  const parsed = parseKey(token);
  if (!parsed.ok)
    throw unauthorized(
      `The key is malformed: a key is <user_id>.<signature>, both parts required, the signature 43 characters; check it was not cut short. ${V1_NOTE}`,
    );
  const record = await fromStore(deps, ctx.state.requestId, () => deps.store.find(parsed.userId));
  if (!record) throw unauthorized(`No key was issued for user '${parsed.userId}'. ${V1_NOTE}`);
  if (!signatureMatches(sign(deps.secret, record.userId, record.nonce), parsed.signature)) {
    throw unauthorized(`The key's signature is not valid for user '${parsed.userId}': it may be an older key replaced by a newer one, or altered. ${V1_NOTE}`);
  }
  if (record.revokedAt !== null) throw unauthorized(`The key of user '${parsed.userId}' was revoked on ${record.revokedAt}; ask the operator for a new key.`);
  return record;
}

export function accessControl(deps: AccessDeps): Middleware {
  return async (ctx, next) => {
    const user = await authenticate(ctx, deps);
    ctx.state.user = user;
    const route = matchedRoute(ctx);
    const started = process.hrtime.bigint();
    const now = deps.clock();
    const period = periodOf(now);
    const limitHeaders = (remaining: number): void => {
      ctx.set('RateLimit-Limit', String(user.quota));
      ctx.set('RateLimit-Remaining', String(Math.max(0, remaining)));
      ctx.set('RateLimit-Reset', String(period.secondsLeft));
    };
    let status = 500;
    try {
      if (route !== undefined && COUNTED_ROUTES.has(`${ctx.method} ${route}`)) {
        const count = await fromStore(deps, ctx.state.requestId, () => deps.store.consume(user.userId, period.key, user.quota));
        if (count === undefined) {
          limitHeaders(0);
          deps.metrics?.quotaRejections.inc();
          throw new ProblemError(
            'quota-exceeded',
            `The daily quota of ${user.quota} requests is used up; it resets at ${isoSeconds(period.end)} (in ${period.secondsLeft} seconds).`,
            {
              headers: { 'Retry-After': String(period.secondsLeft) },
            },
          );
        }
        limitHeaders(user.quota - count);
      } else {
        limitHeaders(user.quota - (await fromStore(deps, ctx.state.requestId, () => deps.store.count(user.userId, period.key))));
      }
      await next();
      status = ctx.status;
    } catch (e) {
      const err = e as { status?: number; httpCode?: number };
      status = e instanceof ProblemError ? e.status : (err.status ?? err.httpCode ?? 500);
      throw e;
    } finally {
      // After the response is decided: record the call without delaying or failing it.
      const entry = {
        timestamp: now.toISOString(),
        method: ctx.method,
        endpoint: route ?? 'unmatched',
        status,
        duration_ms: Math.round((Number(process.hrtime.bigint() - started) / 1e6) * 100) / 100,
        request_id: ctx.state.requestId,
      };
      const write = deps.store.record(user.userId, entry).catch((err: unknown) => {
        deps.logger.warn({ request_id: ctx.state.requestId, err }, 'usage history write failed');
      });
      deps.pending?.add(write);
      void write.finally(() => deps.pending?.delete(write));
    }
  };
}
