// GET /problems and GET /problems/<slug>: the pages behind every problem's `type` URI. HTML
// for browsers; JSON ({slug, status, title, explanation}) when the client prefers it.
import Router from '@koa/router';
import { ProblemError, problemTypes, type ProblemSlug, type ProblemType } from '../../service/problems.js';

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} - volunteer-scheduler</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head><body>${body}</body></html>
`;
}

function describe(p: ProblemType): { slug: string; type: string; status: number; title: string; explanation: string } {
  return { slug: p.slug, type: `/problems/${p.slug}`, status: p.status, title: p.title, explanation: p.explanation };
}

export function problemRoutes(router: Router): void {
  router.get('/problems', (ctx) => {
    const all = Object.values(problemTypes);
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = all.map(describe);
      return;
    }
    const items = all.map((p) => `<li><a href="/problems/${p.slug}"><code>${p.slug}</code></a> (${p.status}): ${escapeHtml(p.title)}</li>`).join('\n');
    ctx.type = 'html';
    ctx.body = page(
      'Problem types',
      `<h1>Problem types</h1><p>Every error response is <code>application/problem+json</code> (RFC 9457) with one of these types.</p><ul>${items}</ul>`,
    );
  });

  router.get('/problems/:slug', (ctx) => {
    const slug = ctx.params.slug ?? '';
    const p = Object.hasOwn(problemTypes, slug) ? problemTypes[slug as ProblemSlug] : undefined;
    if (!p) throw new ProblemError('not-found', `There is no problem type '${slug}'; GET /problems lists them.`);
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = describe(p);
      return;
    }
    ctx.type = 'html';
    ctx.body = page(
      p.title,
      `<h1>${escapeHtml(p.title)}</h1><p>Type <code>/problems/${p.slug}</code>, HTTP status ${p.status}.</p><p>${escapeHtml(p.explanation)}</p><p><a href="/problems">All problem types</a></p>`,
    );
  });
}
