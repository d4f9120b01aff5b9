// GET /api/swagger (Forgejo's path): Swagger UI over the generated
// /swagger.v1.json, from the swagger-ui-dist package, served by cairn itself (no CDN).
// Its files are answered from a fixed list of names under /api/swagger/ui/<version>/, so no other
// path reaches the disk, and the package version in the path lets browsers keep them for a year.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import type { Middleware } from 'koa';
import type { Config } from '../../config.ts';

const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};
const CACHE_FOREVER = 'public, max-age=31536000, immutable';

interface Dist {
  dir: string;
  version: string;
}
let dist: Dist | null = null;
/** Where the package is installed; resolved on first use, so importing this module reads nothing. */
function swaggerUiDist(): Dist {
  if (!dist) {
    // The package's main module would load the whole bundle into Node; resolve its manifest only.
    const manifest = createRequire(import.meta.url).resolve('swagger-ui-dist/package.json');
    const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
    dist = { dir: path.dirname(manifest), version };
  }
  return dist;
}

interface Asset {
  body: Buffer;
  gzip: Buffer | null;
}
const loaded = new Map<string, Asset>();
/** The file, read once; text is also kept gzipped (the bundle: 1.7 MB, 0.46 MB gzipped). */
function asset(name: string): Asset {
  let a = loaded.get(name);
  if (!a) {
    const body = fs.readFileSync(path.join(swaggerUiDist().dir, name));
    a = { body, gzip: ASSETS[name].startsWith('text/') ? zlib.gzipSync(body, { level: 9 }) : null };
    loaded.set(name, a);
  }
  return a;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(cfg: Config, ui: string): string {
  const src = `${cfg.appSubUrl}/swagger.v1.json`;
  // The document lists `https` first, as Forgejo's does, and Swagger UI tries requests on the first
  // scheme; like Forgejo's page, put the page's own scheme first so "Try it out" reaches this server.
  // validatorUrl: null: given a `url`, Swagger UI would have validator.swagger.io fetch it for a badge.
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>cairn API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="${escapeAttr(`${ui}swagger-ui.css`)}">
<link rel="icon" type="image/png" sizes="32x32" href="${escapeAttr(`${ui}favicon-32x32.png`)}">
<link rel="icon" type="image/png" sizes="16x16" href="${escapeAttr(`${ui}favicon-16x16.png`)}">
</head><body><div id="swagger-ui" data-source="${escapeAttr(src)}"></div>
<script src="${escapeAttr(`${ui}swagger-ui-bundle.js`)}"></script>
<script>
(async () => {
  const spec = await (await fetch(document.getElementById('swagger-ui').dataset.source)).json();
  const own = location.protocol.slice(0, -1);
  if (Array.isArray(spec.schemes)) spec.schemes.sort((a, b) => (b === own) - (a === own));
  SwaggerUIBundle({
    spec, dom_id: '#swagger-ui', deepLinking: true, docExpansion: 'none', defaultModelRendering: 'model',
    validatorUrl: null, presets: [SwaggerUIBundle.presets.apis], plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  });
})();
</script></body></html>
`;
}

/** Koa middleware for the page and its files (when [api] ENABLE_SWAGGER); anything else passes through. */
export function serveSwaggerUi(cfg: Config): Middleware {
  let html: string | null = null;
  return async (ctx, next) => {
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || !cfg.API.ENABLE_SWAGGER) return next();
    if (ctx.path !== '/api/swagger' && !ctx.path.startsWith('/api/swagger/ui/')) return next();
    const { version } = swaggerUiDist();
    const dir = `/api/swagger/ui/${version}/`;
    if (ctx.path === '/api/swagger') {
      html ??= page(cfg, `${cfg.appSubUrl}${dir}`);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = html;
      return;
    }
    const name = ctx.path.startsWith(dir) ? ctx.path.slice(dir.length) : '';
    if (!Object.hasOwn(ASSETS, name)) return next();
    const a = asset(name);
    ctx.set('Cache-Control', CACHE_FOREVER);
    ctx.type = ASSETS[name];
    if (a.gzip) {
      ctx.vary('Accept-Encoding');
      if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
        ctx.set('Content-Encoding', 'gzip');
        ctx.body = a.gzip;
        return;
      }
    }
    ctx.body = a.body;
  };
}
