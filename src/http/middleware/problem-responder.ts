// Turns anything thrown below it into an RFC 9457 problem+json response, in one place.
// ProblemErrors carry their own type; errors from libraries (co-body, formidable, the router)
// are mapped by status; everything else is a 500 whose body shows no internals and whose
// cause is logged with the request id.
import type { Context, Middleware } from 'koa';
import type { Logger } from '../../logging/logger.js';
import type { ProblemDetails } from '../../types/schema-types.js';
import { ProblemError, problemTypes, type ProblemSlug } from '../../service/problems.js';

interface LibraryError {
  status?: number;
  statusCode?: number;
  httpCode?: number;
  expose?: boolean;
  headers?: Record<string, string>;
  message?: string;
  type?: string;
}

const SLUG_BY_STATUS: Record<number, ProblemSlug> = {
  400: 'invalid-request',
  404: 'not-found',
  405: 'method-not-allowed',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  501: 'method-not-allowed',
  503: 'overloaded',
};

/** Maps a non-ProblemError to a problem when its status is one the catalog knows. */
function fromLibraryError(err: LibraryError): ProblemError | undefined {
  // formidable's errors carry httpCode but no status; co-body's carry status.
  const status = err.status ?? err.statusCode ?? err.httpCode;
  if (status === undefined || (status >= 500 && status !== 501 && status !== 503)) return undefined;
  const slug = SLUG_BY_STATUS[status];
  if (!slug) return undefined;
  const detail =
    slug === 'payload-too-large'
      ? 'The request body is over the configured size limit.'
      : slug === 'method-not-allowed'
        ? 'This path does not take this method; the Allow header lists the methods it takes.'
        : (err.message ?? problemTypes[slug].title);
  return new ProblemError(slug, detail, { headers: err.headers ?? {} });
}

export function problemBody(problem: ProblemError, requestId: string): ProblemDetails {
  const { errors, warnings, limit } = problem.extras;
  return {
    type: `/problems/${problem.type.slug}`,
    title: problem.type.title,
    status: problem.status,
    detail: problem.detail,
    request_id: requestId,
    ...(errors ? { errors } : {}),
    ...(warnings && warnings.length > 0 ? { warnings } : {}),
    ...(limit ? { limit } : {}),
  };
}

export function sendProblem(ctx: Context, problem: ProblemError): void {
  const headers = { ...(problem.extras.headers ?? {}), ...((problem as unknown as LibraryError).headers ?? {}) };
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
  ctx.status = problem.status;
  ctx.type = 'application/problem+json';
  ctx.body = problemBody(problem, ctx.state.requestId);
}

export function problemResponder(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (thrown) {
      const err = (typeof thrown === 'object' && thrown !== null ? thrown : { message: String(thrown) }) as LibraryError & Error;
      const problem = thrown instanceof ProblemError ? thrown : fromLibraryError(err);
      if (problem) {
        sendProblem(ctx, problem);
        return;
      }
      logger.error({ request_id: ctx.state.requestId, err: thrown }, 'internal error');
      sendProblem(
        ctx,
        new ProblemError(
          'internal',
          `The service failed to answer this request. It is logged under request id ${ctx.state.requestId}; report that id to the operator.`,
        ),
      );
    }
  };
}
