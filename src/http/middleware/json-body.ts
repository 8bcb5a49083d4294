// Reads a JSON request's bytes, undecoded, into ctx.state.body; the parsing itself is part of
// the *prepare* step, which runs on an input worker. Each way the reading can fail gets a
// precise problem: no body (400 invalid-json), not JSON or not UTF-8 (415), an unknown
// Content-Encoding (415), corrupt compressed data (400 invalid-encoding), over the size limit
// (413 naming MAX_JSON_BODY_BYTES, counted after decompression, so a compression bomb stops at
// the limit), a body shorter or longer than its Content-Length, or a client gone mid-body (400).
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { Middleware } from 'koa';
import inflate from 'inflation';
import getRawBody from 'raw-body';
import { overLimit, ProblemError } from '../../service/problems.js';

declare module 'koa' {
  interface DefaultState {
    /** The request body's bytes, read by jsonBody (decompressed, not parsed). */
    body?: Buffer;
  }
}

interface BodyError {
  status?: number;
  type?: string;
  message?: string;
  /** Set on errors raised while decompressing. */
  decoding?: boolean;
}

function hasBody(headers: IncomingMessage['headers']): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** The request as a stream of its decoded bytes; errors of the decoder are marked. */
function decoded(req: IncomingMessage, encoding: string): Readable {
  let stream: Readable;
  try {
    // inflation reads 'encoding' (its typings still name the option 'gzip').
    stream = inflate(req, { encoding } as inflate.Options);
  } catch {
    throw new ProblemError(
      'unsupported-media-type',
      `Content-Encoding '${encoding.slice(0, 40)}' is not supported; send the body uncompressed, or as gzip, deflate or br.`,
    );
  }
  if (stream === req) return stream;
  stream.on('error', (err: BodyError) => {
    err.decoding = true;
  });
  // A client that leaves mid-body ends the request stream, not the decoder's: end both.
  req.on('close', () => {
    if (!req.complete) stream.destroy(Object.assign(new Error('request aborted'), { type: 'request.aborted' }));
  });
  return stream;
}

function readError(thrown: unknown, encoding: string, maxBytes: number): ProblemError | undefined {
  const err = thrown as BodyError;
  if (err.type === 'entity.too.large' || err.status === 413) return jsonTooLarge(undefined, maxBytes);
  if (err.type === 'request.aborted') return new ProblemError('invalid-json', 'The request was aborted before the whole body arrived.');
  if (err.type === 'request.size.invalid') return new ProblemError('invalid-json', 'The body is shorter or longer than its Content-Length header says.');
  if (err.decoding) {
    return new ProblemError(
      'invalid-encoding',
      `The body could not be decompressed as its Content-Encoding '${encoding.slice(0, 40)}' says (${(err.message ?? 'corrupt data').slice(0, 120)}); send it uncompressed, or compress it again.`,
    );
  }
  return undefined;
}

export function jsonBody(maxBytes: number): Middleware {
  return async (ctx, next) => {
    if (!hasBody(ctx.req.headers)) {
      throw new ProblemError(
        'invalid-json',
        'The request body is empty; send a JSON object with volunteers and unassigned_shifts, with Content-Type: application/json.',
      );
    }
    if (!ctx.is('application/json')) {
      const sent = ctx.get('Content-Type') || 'no Content-Type';
      throw new ProblemError('unsupported-media-type', `This endpoint takes Content-Type: application/json; the request sent ${sent.slice(0, 100)}.`);
    }
    const charset = (ctx.request.charset || 'utf-8').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new ProblemError('unsupported-media-type', `The body's charset '${charset.slice(0, 40)}' is not supported; send UTF-8 JSON.`);
    }
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > maxBytes) throw jsonTooLarge(declared, maxBytes);
    const encoding = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();
    const stream = decoded(ctx.req, encoding);
    try {
      ctx.state.body = await getRawBody(stream, { limit: maxBytes, ...(stream === ctx.req && declared > 0 ? { length: declared } : {}) });
    } catch (thrown) {
      throw readError(thrown, encoding, maxBytes) ?? thrown;
    }
    await next();
  };
}

function jsonTooLarge(found: number | undefined, maxBytes: number): ProblemError {
  return overLimit(
    'The JSON body',
    found === undefined ? 'over the limit' : `${found.toLocaleString('en-US')} bytes`,
    'MAX_JSON_BODY_BYTES',
    maxBytes,
    'bytes',
  );
}
