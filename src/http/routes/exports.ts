// Content negotiation of the scheduling routes (CONTRACT.md section 13): Accept: text/csv gives
// the roster as a spreadsheet, Accept: text/calendar as iCalendar, anything else the JSON result
// as before. The exports are rendered by service/render.ts; the solve and the quota are the same
// whatever the format.
import type { Context } from 'koa';
import type { Problem } from '../../input/problem.js';
import type { ScheduleOptions } from '../../service/options.js';
import { ProblemError } from '../../service/problems.js';
import { renderRosterCalendar, renderRosterCsv, type RenderedResult } from '../../service/render.js';
import type { ScheduleAnswer } from '../../service/schedule-service.js';
import { clip } from '../../input/entry-caps.js';

export type ExportFormat = 'json' | 'csv' | 'calendar';

/** The format the client asked for; JSON when Accept names neither export (or is absent). */
export function negotiate(ctx: Context): ExportFormat {
  const picked = ctx.accepts('application/json', 'text/csv', 'text/calendar');
  ctx.vary('Accept');
  if (picked === 'text/csv') return 'csv';
  if (picked === 'text/calendar') return 'calendar';
  return 'json';
}

/** ?volunteer_id= must name a volunteer of the request: checked before solving. */
export function checkVolunteer(options: ScheduleOptions, problem: Problem): void {
  if (options.volunteerId === undefined) return;
  if (problem.volunteers.some((v) => v.id === options.volunteerId)) return;
  const message = `query parameter volunteer_id is '${clip(options.volunteerId)}', which is not the id of a volunteer of the request; use one of the request's volunteer ids${problem.volunteers[0] ? `, such as volunteer_id=${clip(problem.volunteers[0].id)}` : ''}.`;
  throw new ProblemError('invalid-request', 'The query has an error; it is listed in errors.', {
    errors: [{ pointer: '', code: 'unknown_volunteer', message }],
  });
}

/** A file name part from an id: letters, digits, dot, dash and underscore only. */
function filePart(id: string): string {
  const chars = Array.from(id.slice(0, 60), (c) => (/[A-Za-z0-9._-]/.test(c) ? c : '-'));
  while (chars[0] === '-' || chars[0] === '.') chars.shift();
  while (chars.at(-1) === '-') chars.pop();
  return chars.join('') || 'volunteer';
}

/** Sets the response body in the negotiated format. */
export function respond(ctx: Context, format: ExportFormat, problem: Problem, answer: ScheduleAnswer, options: ScheduleOptions): void {
  if (format === 'json') {
    ctx.type = 'application/json';
    ctx.body = answer.json;
    return;
  }
  // The engine's result type keeps the schema's index signature, which Omit<> turns into the
  // only members it knows of: the roster and the conflicts are there (schedule-result.json).
  const result = answer.output.result as unknown as RenderedResult;
  const base = options.volunteerId === undefined ? 'roster' : `roster-${filePart(options.volunteerId)}`;
  const scope = options.volunteerId === undefined ? {} : { volunteerId: options.volunteerId };
  if (format === 'csv') {
    ctx.body = renderRosterCsv(result, problem, { zone: options.exportZone ?? problem.zone, ...scope });
    ctx.set('Content-Disposition', `attachment; filename="${base}.csv"`);
    ctx.type = 'text/csv; charset=utf-8; header=present';
    return;
  }
  ctx.body = renderRosterCalendar(result, problem, scope);
  ctx.set('Content-Disposition', `attachment; filename="${base}.ics"`);
  ctx.type = 'text/calendar; charset=utf-8';
}
