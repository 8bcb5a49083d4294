// The job's callback (CONTRACT.md section 12): when a job ends, a POST of {id, status} to the
// callback_url given at submit. Only hosts listed in WEBHOOK_ALLOWED_HOSTS are ever called (the
// list is checked at submit and again before sending), redirects are not followed, and the body
// is signed: X-Scheduler-Signature is sha256=HEX, the HMAC-SHA256 under the service secret of
// `<X-Scheduler-Timestamp>.<body>`, so the receiver can check it came from this service and is
// fresh. Three tries (after 1 s and 5 s); a receiver that never answers 2xx is logged.
import { createHmac } from 'node:crypto';
import type { Logger } from '../logging/logger.js';

export const SIGNATURE_HEADER = 'X-Scheduler-Signature';
export const TIMESTAMP_HEADER = 'X-Scheduler-Timestamp';
const TRIES_WAIT_MS = [0, 1000, 5000];
const TIMEOUT_MS = 5000;

/** The host part an allowlist entry is matched against: host, or host:port when a port is written. */
export function allowedUrl(url: string, allowed: readonly string[]): { ok: true; url: URL } | { ok: false; why: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, why: 'is not an absolute URL; give one such as https://hooks.example.org/schedule-done' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return { ok: false, why: `uses ${parsed.protocol.slice(0, 20)}; use an https:// (or http://) URL` };
  if (parsed.username !== '' || parsed.password !== '')
    return { ok: false, why: 'carries a user name or password; put credentials in the receiver, not in the URL' };
  if (allowed.length === 0)
    return { ok: false, why: 'cannot be used: this service calls no callback hosts (the operator lists them in WEBHOOK_ALLOWED_HOSTS)' };
  const host = parsed.hostname.toLowerCase();
  const hostPort = parsed.port === '' ? host : `${host}:${parsed.port}`;
  if (!allowed.some((a) => a === host || a === hostPort)) {
    return {
      ok: false,
      why: `names host '${hostPort.slice(0, 80)}', which is not among the hosts this service calls (WEBHOOK_ALLOWED_HOSTS: ${allowed.slice(0, 5).join(', ')})`,
    };
  }
  return { ok: true, url: parsed };
}

export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export async function sendCallback(
  url: string,
  payload: { id: string; status: string },
  o: { secret: string; allowed: readonly string[]; logger: Logger; fetchImpl?: typeof fetch },
): Promise<boolean> {
  const checked = allowedUrl(url, o.allowed);
  if (!checked.ok) {
    o.logger.warn({ why: checked.why }, 'job callback not sent');
    return false;
  }
  const body = JSON.stringify(payload);
  for (const [i, wait] of TRIES_WAIT_MS.entries()) {
    if (wait > 0) await new Promise((r) => setTimeout(r, wait).unref());
    const timestamp = String(Math.floor(Date.now() / 1000));
    try {
      const res = await (o.fetchImpl ?? fetch)(checked.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: { 'Content-Type': 'application/json', [SIGNATURE_HEADER]: signature(o.secret, timestamp, body), [TIMESTAMP_HEADER]: timestamp },
        body,
      });
      await res.body?.cancel();
      if (res.status >= 200 && res.status < 300) return true;
      o.logger.warn({ status: res.status, try: i + 1 }, 'job callback answered with an error status');
    } catch (err) {
      o.logger.warn({ err, try: i + 1 }, 'job callback failed');
    }
  }
  return false;
}
