// An input worker thread (piscina): runs the *prepare* step (parse, limits, validation,
// normalization) of one request off the event loop. Problems go back as plain data, since an
// Error subclass does not survive the trip between threads; input-preparer.ts turns them back
// into ProblemErrors.
import { loadSchemas } from '../input/schema-registry.js';
import { prepareCsv, prepareJsonBody, validateJsonBody, type PrepareContext } from './prepare.js';
import { ProblemError } from './problems.js';
import type { InputTask, InputTaskResult } from './input-preparer.js';

const schemas = loadSchemas();

export default function runInputTask(task: InputTask): InputTaskResult {
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
