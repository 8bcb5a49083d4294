// GET /app: the coordinator's page (app/ in the repository, compiled by npm run build into
// dist/app beside dist/src). The files are read once, when the routes are made, so a later
// build that swaps dist/ never pulls them from under a running service. No key is needed to
// load the page; it asks for one and sends it, in the Authorization header, to /api/jobs itself
// (the schedule runs as a background job whose progress the page shows). Everything is
// served from here: no CDN, works offline, and the page fits the Content-Security-Policy
// (its script and style are files of this service, no inline script).
import Router from '@koa/router';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ProblemError } from '../../service/problems.js';

/** The built page: <dist>/app, from <dist>/src/http/routes/app-page.js. */
const PAGE_DIR = fileURLToPath(new URL('../../../app/', import.meta.url));

const ASSETS: Record<string, string> = {
  'main.js': 'text/javascript; charset=utf-8',
  'main.js.map': 'application/json; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

function load(name: string): Buffer | undefined {
  const path = PAGE_DIR + name;
  return existsSync(path) ? readFileSync(path) : undefined;
}

export function appRoutes(router: Router): void {
  const page = load('index.html');
  const assets = new Map(Object.keys(ASSETS).flatMap((name) => (load(name) ? [[name, load(name)!] as const] : [])));
  router.get('/app', (ctx) => {
    if (!page) throw new ProblemError('not-found', 'The page at /app is not built; run npm run build.');
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = page;
  });
  router.get('/app/assets/:file', (ctx) => {
    const file = ctx.params.file ?? '';
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    const body = assets.get(file);
    if (!type || !body) throw new ProblemError('not-found', `There is no page asset '${file}'.`);
    ctx.type = type;
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = body;
  });
}
