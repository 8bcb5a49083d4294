// GET /api/usage: the key's quota, what is used of it in the current UTC day, and its recent
// calls (most recent first; ?limit= from 1 to 1000, default 50). Never counted against the
// quota, so a client can always read it.
import Router from '@koa/router';
import { isoSeconds, periodOf } from '../../auth/quota-period.js';
import type { KeyRecord, KeyStore } from '../../store/key-store.js';
import type { UsageResult } from '../../types/schema-types.js';
import { ProblemError } from '../../service/problems.js';
import { fromStore } from '../middleware/access-control.js';
import type { Logger } from '../../logging/logger.js';

export function usageRoutes(router: Router, deps: { store: KeyStore; clock: () => Date; logger: Logger }): void {
  router.get('/api/usage', async (ctx) => {
    for (const name of Object.keys(ctx.query)) {
      if (name !== 'limit')
        throw new ProblemError('invalid-request', `query parameter ${name} is not known; the only option is limit=1..1000.`, {
          errors: [{ pointer: '', code: 'unknown_parameter', message: `query parameter ${name} is not known; the only option is limit=1..1000.` }],
        });
    }
    let limit = 50;
    const raw = ctx.query.limit;
    if (raw !== undefined) {
      if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 1000) {
        const message = `query parameter limit is '${String(raw)}'; use a whole number from 1 to 1000, such as limit=100.`;
        throw new ProblemError('invalid-request', message, { errors: [{ pointer: '', code: 'invalid_parameter', message }] });
      }
      limit = Number(raw);
    }
    const user = ctx.state.user as KeyRecord;
    const period = periodOf(deps.clock());
    const used = await fromStore(deps, ctx.state.requestId, () => deps.store.count(user.userId, period.key));
    const history = await fromStore(deps, ctx.state.requestId, () => deps.store.history(user.userId, limit));
    const body: UsageResult = {
      quota: user.quota,
      usage_count: used,
      remaining: Math.max(0, user.quota - used),
      period_start: isoSeconds(period.start),
      resets_at: isoSeconds(period.end),
      history: history,
    };
    ctx.body = body;
  });
}
