// Reads a JSON request body with koa-body and turns each way it can fail into a precise
// problem: no body (400 invalid-json), a body that is not JSON (415), over the size limit
// (413 naming MAX_JSON_BODY_BYTES), a syntax error or a forbidden __proto__ key (400
// invalid-json with the parser's message and position).
import type { Middleware } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import { overLimit, ProblemError } from '../problems.js';

interface BodyError {
  status?: number;
  code?: string;
  type?: string;
  message?: string;
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

export function jsonBody(maxBytes: number): Middleware {
  const parse = koaBody({
    json: true,
    jsonStrict: false,
    jsonLimit: maxBytes,
    urlencoded: false,
    text: false,
    multipart: false,
    parsedMethods: [HttpMethodEnum.POST],
  });
  return async (ctx, next) => {
    if (!hasBody(ctx.req.headers)) {
      throw new ProblemError('invalid-json', 'The request body is empty; send a JSON object with volunteers and unassigned_shifts, with Content-Type: application/json.');
    }
    if (!ctx.is('application/json')) {
      const sent = ctx.get('Content-Type') || 'no Content-Type';
      throw new ProblemError('unsupported-media-type', `This endpoint takes Content-Type: application/json; the request sent ${sent}.`);
    }
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > maxBytes) throw jsonTooLarge(declared, maxBytes);
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (thrown) {
      const err = thrown as BodyError;
      if (err.status === 413 || err.type === 'entity.too.large') throw jsonTooLarge(undefined, maxBytes);
      if (err.status === 415) throw new ProblemError('unsupported-media-type', `The body's charset or Content-Encoding is not supported (${err.message ?? 'unknown'}); send UTF-8 JSON, optionally gzip or deflate encoded.`);
      if (typeof err.code === 'string' && err.code.startsWith('Z_')) {
        throw new ProblemError('invalid-json', `The body could not be decompressed as its Content-Encoding says (${err.message ?? err.code}); send it uncompressed or as valid gzip/deflate.`);
      }
      if (err.type === 'request.aborted') throw new ProblemError('invalid-json', 'The request was aborted before the whole body arrived.');
      if (err.status === 400 && err.type === 'request.size.invalid') throw new ProblemError('invalid-json', 'The body is shorter or longer than its Content-Length header says.');
      if (err instanceof SyntaxError || err.status === 400) {
        throw new ProblemError('invalid-json', `The body is not valid JSON: ${err.message ?? 'syntax error'}. Check for trailing commas, single quotes and unquoted keys; keys named __proto__ are not accepted.`);
      }
      throw thrown;
    }
    if (parsed && ctx.request.body === '') {
      throw new ProblemError('invalid-json', 'The request body is empty; send a JSON object with volunteers and unassigned_shifts.');
    }
    await next();
  };
}

function jsonTooLarge(found: number | undefined, maxBytes: number): ProblemError {
  return overLimit('The JSON body', found === undefined ? 'over the limit' : `${found.toLocaleString('en-US')} bytes`, 'MAX_JSON_BODY_BYTES', maxBytes, 'bytes');
}
