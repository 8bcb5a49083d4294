// An input worker thread (piscina): runs the *prepare* step (parse, limits, validation,
// normalization) of one request off the event loop. Problems go back as plain data, since an
// Error subclass does not survive the trip between threads; input-preparer.ts turns them back
// into ProblemErrors.
import { threadId } from 'node:worker_threads';
import { loadConfig } from '../config/config.js';
import { warmUpRoster } from '../engine/warm-up.js';
import { loadSchemas } from '../input/schema-registry.js';
import { prepareCsv, prepareJsonBody, validateJsonBody, type PrepareContext } from './prepare.js';
import { ProblemError } from './problems.js';
import type { InputTask, InputTaskResult, WarmUpResult, WarmUpTask } from './input-preparer.js';

const schemas = loadSchemas();

/** Limits for the warm-up: the defaults, so that a service configured with smaller ones still starts. */
const WARM_UP_LIMITS = loadConfig({}).limits;

/** A thread's warm-up (InputPreparer.ready): the engine's small roster with every rule, prepared as a request is; says which thread ran it. */
function warmUp(): WarmUpResult {
  prepareJsonBody(new TextEncoder().encode(JSON.stringify(warmUpRoster(true))), { schemas, limits: WARM_UP_LIMITS });
  return { warmedThread: threadId };
}

export default function runInputTask(task: InputTask | WarmUpTask): InputTaskResult | WarmUpResult {
  if (task.kind === 'warm-up') return warmUp();
  const ctx: PrepareContext = { schemas, limits: task.limits };
  try {
    switch (task.kind) {
      case 'validate':
        return { ok: true, value: validateJsonBody(task.body, ctx) };
      case 'json':
        return { ok: true, value: prepareJsonBody(task.body, ctx) };
      case 'csv':
        return { ok: true, value: prepareCsv(task.volunteers, task.shifts, task.timezone, ctx, task.ruleFields) };
    }
  } catch (e) {
    if (e instanceof ProblemError) return { ok: false, problem: { slug: e.type.slug, detail: e.detail, extras: e.extras } };
    throw e;
  }
}
