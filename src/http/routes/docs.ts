// GET /docs: the API documentation page, rendered in the browser by Swagger UI from
// /openapi.json. Its assets are served from node_modules (swagger-ui-dist): the service needs
// no CDN and works without internet.
import Router from '@koa/router';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SCHEMA_ID_BASE } from '../../input/schema-registry.js';
import { ProblemError } from '../../service/problems.js';

const assetDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>volunteer-scheduler API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

// Kept in a file of its own (no inline script), so a strict Content-Security-Policy can allow it.
// The schema files name each other relative to their $id (${SCHEMA_ID_BASE}...); the page
// fetches them from this service's /schemas/ instead, so it works offline and on any host.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  requestInterceptor: function (request) {
    var base = ${JSON.stringify(SCHEMA_ID_BASE)};
    if (request.url.indexOf(base) === 0) request.url = window.location.origin + '/schemas/' + request.url.slice(base.length);
    return request;
  },
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
  validatorUrl: null,
});
`;

export function docsRoutes(router: Router): void {
  router.get('/docs', (ctx) => {
    ctx.type = 'html';
    ctx.body = PAGE;
  });
  router.get('/docs/assets/init.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = INIT;
  });
  router.get('/docs/assets/:file', async (ctx) => {
    const file = ctx.params.file ?? '';
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (!type) throw new ProblemError('not-found', `There is no docs asset '${file}'.`);
    ctx.type = type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = await readFile(join(assetDir, file));
  });
}
