// API keys of version 2.1: <user_id>.<signature>, where the signature is the base64url (no
// padding) HMAC-SHA256, under the service secret, of a string binding the version, the user id
// and a random nonce kept server-side. Issuing a new key (a new nonce) or revoking the user
// invalidates the old one. Signatures are compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const KEY_VERSION = '2.1';
export const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export function sign(secret: string, userId: string, nonce: string): string {
  return createHmac('sha256', secret).update(`${KEY_VERSION}\n${userId}\n${nonce}`).digest('base64url');
}

export function formatKey(secret: string, userId: string, nonce: string): string {
  return `${userId}.${sign(secret, userId, nonce)}`;
}

export type ParsedKey = { ok: true; userId: string; signature: string } | { ok: false };

/** Splits a key into its two parts; anything else (one part, an empty part, a trimmed signature) is malformed. */
export function parseKey(key: string): ParsedKey {
  const parts = key.split('.');
  if (parts.length !== 2) return { ok: false };
  const [userId, signature] = parts as [string, string];
  if (!USER_ID.test(userId) || !SIGNATURE.test(signature)) return { ok: false };
  return { ok: true, userId, signature };
}

export function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
