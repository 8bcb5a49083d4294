// Admission control for the scheduling endpoints: at most `capacity` scheduling requests are
// in flight on this instance (one per solver worker being solved, the rest waiting). Past that,
// the request is answered 503 overloaded with Retry-After at once, before its body is read:
// never an unbounded backlog. Cheap endpoints never wait behind solves.
import type { Middleware } from 'koa';
import { ProblemError } from '../../service/problems.js';

export function solveAdmission(capacity: number): Middleware {
  let inFlight = 0;
  return async (_ctx, next) => {
    if (inFlight >= capacity) {
      throw new ProblemError(
        'overloaded',
        `The solvers are busy with ${inFlight} scheduling requests, as many as this instance takes at once; retry in a few seconds.`,
        { headers: { 'Retry-After': '5' } },
      );
    }
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
    }
  };
}
