// Structured JSON logs (pino). Request bodies and credentials are never logged: the access
// log carries method, path without query string, status, duration and request id only, and
// the redaction list below is a second guard should a header object ever be logged.
import { pino, type Logger } from 'pino';
import type { LogLevel } from '../config/config.js';

export type { Logger };

export const REDACTED_PATHS = ['req.headers.authorization', 'headers.authorization', 'authorization', 'key', 'secret', 'body', 'request.body', 'err.body'];

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    base: { service: 'volunteer-scheduler' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}
