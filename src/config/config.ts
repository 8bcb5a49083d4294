// Service configuration: read once from the environment and checked at start. A bad value
// stops the start with a message naming the variable, what was found and what is accepted.
import { availableParallelism } from 'node:os';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Limits {
  /** Largest JSON body in bytes. */
  maxJsonBodyBytes: number;
  /** Largest CSV file in bytes. */
  maxCsvFileBytes: number;
  maxVolunteers: number;
  maxShifts: number;
  maxLockedAssignments: number;
  /** Most (volunteer, shift) pairs the engine considers in one request (memory and time bound). */
  maxCandidatePairs: number;
  /** Longest id, name or group name, in characters. */
  maxStringLength: number;
  /** Most groups in one shift's required_groups. */
  maxGroupsPerShift: number;
}

export interface Config {
  port: number;
  host: string;
  /** `sqlite:<path>` or `postgres://...`. */
  databaseUrl: string;
  /** HMAC secret for API keys; undefined means generated once and kept in the database. */
  schedulerSecret: string | undefined;
  defaultDailyQuota: number;
  solveTimeLimitDefault: number;
  solveTimeLimitMax: number;
  solverWorkers: number;
  limits: Limits;
  /** Scheduling requests that may wait for a solver beyond those being solved; more get 503 at once. */
  solveQueueMax: number;
  /** Input worker threads (parsing and validation off the event loop). */
  inputWorkers: number;
  /** Requests that may wait for an input worker; more get 503 at once. */
  inputQueueMax: number;
  /** HTTP server timeouts (seconds) and the cap on open connections. */
  http: { headersTimeoutS: number; requestTimeoutS: number; keepAliveTimeoutS: number; maxConnections: number };
  /** Usage history rows are deleted after this many days. */
  usageHistoryDays: number;
  /** At most this many of a key's newest history rows are kept. */
  usageHistoryMaxPerKey: number;
  /** Browser origins allowed by CORS; empty means CORS is off. */
  corsOrigins: string[];
  logLevel: LogLevel;
  /** Background jobs (CONTRACT.md section 12). */
  jobs: JobsConfig;
}

export interface JobsConfig {
  /** Jobs this process solves at once (serve: 0 answers HTTP only; the worker command needs 1 or more). */
  workers: number;
  /** Largest time_limit of a job, in seconds. */
  timeLimitMax: number;
  /** Hours a job is kept after it ends. */
  retentionHours: number;
  /** Queued or solving jobs one user may have; more get 429. */
  maxActivePerUser: number;
  /** Hosts (host or host:port, lowercase) a callback_url may name. */
  webhookAllowedHosts: string[];
  /** Seconds without a heartbeat after which a solving job's worker is taken for dead. */
  staleS: number;
  /** Seconds a worker asked to stop (SIGTERM) lets its jobs finish before handing them back. */
  shutdownGraceS: number;
  /** The worker command's port for GET /metrics and /healthz (0: none). */
  workerMetricsPort: number;
  /** A job's limits: the request limits with larger counts (JOB_MAX_*), for rosters too large to solve while a client waits. */
  limits: Limits;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** One environment variable: its default (as the user would write it) and its meaning. */
export interface Setting {
  name: string;
  default: string;
  description: string;
}

/** Every variable the service reads, documented in one place (the README table follows it). */
export const settings: readonly Setting[] = [
  { name: 'PORT', default: '8080', description: 'TCP port to listen on (0-65535; 0 picks a free port).' },
  { name: 'HOST', default: '0.0.0.0', description: 'Address to listen on.' },
  {
    name: 'DATABASE_URL',
    default: 'sqlite:./data/scheduler.db',
    description: '`sqlite:<path>` (file created with its folder) or `postgres://user@host:port/db`.',
  },
  { name: 'SCHEDULER_SECRET', default: '(generated once, kept in the database)', description: 'HMAC secret for API keys; at least 32 characters.' },
  { name: 'DEFAULT_DAILY_QUOTA', default: '1000', description: 'Daily request quota of a newly issued key (whole number >= 1).' },
  { name: 'SOLVE_TIME_LIMIT_DEFAULT', default: '10', description: 'Solve budget in seconds when a request gives no `time_limit`.' },
  { name: 'SOLVE_TIME_LIMIT_MAX', default: '60', description: 'Largest `time_limit` a request may ask for, in seconds.' },
  { name: 'SOLVER_WORKERS', default: '(number of cores)', description: 'Solver worker threads (1-64).' },
  { name: 'MAX_JSON_BODY_BYTES', default: '10MB', description: 'Largest JSON body; bytes, or with a kB/MB suffix.' },
  { name: 'MAX_CSV_FILE_BYTES', default: '10MB', description: 'Largest CSV file; bytes, or with a kB/MB suffix.' },
  { name: 'MAX_VOLUNTEERS', default: '10000', description: 'Most volunteers in one request.' },
  { name: 'MAX_SHIFTS', default: '10000', description: 'Most shifts in one request.' },
  { name: 'MAX_LOCKED_ASSIGNMENTS', default: '50000', description: 'Most current_assignments in one request (and, separately, most previous_assignments).' },
  {
    name: 'MAX_CANDIDATE_PAIRS',
    default: '5000000',
    description: "Most (volunteer, shift) pairs of the same group in one request: the size of the engine's model, which bounds its memory and time.",
  },
  { name: 'MAX_STRING_LENGTH', default: '1000', description: 'Longest id, name or group name, in characters.' },
  { name: 'MAX_GROUPS_PER_SHIFT', default: '100', description: "Most groups in one shift's required_groups." },
  {
    name: 'SOLVE_QUEUE_MAX',
    default: '32',
    description: 'Scheduling requests that may wait beyond the ones being solved (one per solver worker); past that, 503 overloaded with Retry-After at once.',
  },
  {
    name: 'INPUT_WORKERS',
    default: '(number of cores, at most 4)',
    description: 'Threads that parse and validate request bodies and CSV files, off the event loop (1-64).',
  },
  {
    name: 'INPUT_QUEUE_MAX',
    default: '64',
    description: 'Requests that may wait for an input thread (at least 1); past that, 503 overloaded with Retry-After at once.',
  },
  {
    name: 'HTTP_HEADERS_TIMEOUT',
    default: '10',
    description: 'Seconds a client has to send the request headers; a slower client is disconnected (408 if it can still be told).',
  },
  {
    name: 'HTTP_REQUEST_TIMEOUT',
    default: '60',
    description: 'Seconds a client has to send the whole request, body included; the solve that follows is not counted.',
  },
  { name: 'HTTP_KEEP_ALIVE_TIMEOUT', default: '5', description: 'Seconds an idle keep-alive connection stays open.' },
  { name: 'MAX_CONNECTIONS', default: '1000', description: 'Open connections the server accepts at once; more are closed on arrival.' },
  { name: 'USAGE_HISTORY_DAYS', default: '90', description: 'Days usage history is kept; older rows are deleted at start and every hour.' },
  {
    name: 'USAGE_HISTORY_MAX_PER_KEY',
    default: '100000',
    description: "Most usage history rows kept per key (the newest); a key's flood of calls cannot grow the database without bound.",
  },
  {
    name: 'CORS_ORIGINS',
    default: '(empty: CORS off)',
    description: 'Comma-separated browser origins allowed to call the API, such as https://rota.example.org.',
  },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug, trace or silent.' },
  {
    name: 'JOB_WORKERS',
    default: '1',
    description:
      'Jobs (POST /api/jobs) this process solves at once, on its solver workers (0-64). serve with 0 only answers HTTP and leaves jobs to `volunteer-scheduler worker` processes (PostgreSQL); the worker command needs at least 1.',
  },
  { name: 'JOB_TIME_LIMIT_MAX', default: '600', description: 'Largest `time_limit` a job may ask for, in seconds (above it: capped with a warning).' },
  { name: 'JOB_RETENTION_HOURS', default: '168', description: 'Hours a job and its result are kept after it ends; then deleted (checked hourly).' },
  { name: 'MAX_ACTIVE_JOBS_PER_USER', default: '20', description: "Queued or solving jobs one key's user may have; one more is 429." },
  {
    name: 'WEBHOOK_ALLOWED_HOSTS',
    default: '(empty: no callbacks)',
    description:
      "Comma-separated hosts (host or host:port) a job's `callback_url` may name; any other URL is a 400, so the service cannot be pointed at an internal address.",
  },
  {
    name: 'JOB_STALE_SECONDS',
    default: '15',
    description:
      "Seconds without a heartbeat (workers send two a second) after which a solving job's worker is taken for dead and the job is queued again (once; a second loss fails it).",
  },
  {
    name: 'JOB_SHUTDOWN_GRACE_SECONDS',
    default: '30',
    description: 'On SIGTERM, seconds a worker lets its running jobs finish; jobs still running then are handed back to the queue.',
  },
  {
    name: 'JOB_MAX_VOLUNTEERS',
    default: '20000',
    description: 'Most volunteers in one job (at least MAX_VOLUNTEERS is always allowed); a larger synchronous request is told it may be submitted as a job.',
  },
  { name: 'JOB_MAX_SHIFTS', default: '50000', description: 'Most shifts in one job (at least MAX_SHIFTS), such as a year-long roster.' },
  {
    name: 'JOB_MAX_LOCKED_ASSIGNMENTS',
    default: '200000',
    description: 'Most current_assignments (and previous_assignments) in one job (at least MAX_LOCKED_ASSIGNMENTS).',
  },
  {
    name: 'JOB_MAX_CANDIDATE_PAIRS',
    default: '10000000',
    description:
      "Most (volunteer, shift) pairs of the same group in one job (at least MAX_CANDIDATE_PAIRS): the engine's model size, which bounds a worker's memory.",
  },
  {
    name: 'WORKER_METRICS_PORT',
    default: '0 (none)',
    description: 'The worker command serves GET /metrics and GET /healthz on this port (0: no HTTP at all).',
  },
];

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  private raw(name: string): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problems.push(`${name} is '${value}'; expected a whole number from ${min} to ${max}.`);
      return fallback;
    }
    return Number(value);
  }

  seconds(name: string, fallback: number, max = 3600): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > max) {
      this.problems.push(`${name} is '${value}'; expected a number of seconds above 0 and at most ${max}, such as 10.`);
      return fallback;
    }
    return n;
  }

  bytes(name: string, fallback: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value);
    const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match?.[2] ?? 'b').toLowerCase() as 'b'];
    const n = match ? Math.floor(Number(match[1]) * unit) : NaN;
    if (!(n >= 1024) || n > 1024 ** 3) {
      this.problems.push(`${name} is '${value}'; expected a size from 1kB to 1GB, in bytes or with a kB/MB/GB suffix, such as 10MB.`);
      return fallback;
    }
    return n;
  }
}

/** WEBHOOK_ALLOWED_HOSTS: host names (or host:port), lowercase; a URL or a path is refused. */
function webhookHosts(r: Reader): string[] {
  const hosts = r
    .string('WEBHOOK_ALLOWED_HOSTS', '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '');
  for (const host of hosts) {
    if (!/^[a-z0-9.-]+(:\d{1,5})?$|^\[[0-9a-f:.]+\](:\d{1,5})?$/.test(host)) {
      r.problems.push(
        `WEBHOOK_ALLOWED_HOSTS has '${host.slice(0, 80)}'; each entry is a host name, such as hooks.example.org or hooks.example.org:8443 (no scheme, no path).`,
      );
    }
  }
  return hosts;
}

function checkDatabaseUrl(url: string, problems: string[]): void {
  if (url.startsWith('sqlite:')) {
    if (url.slice('sqlite:'.length).trim() === '')
      problems.push(`DATABASE_URL is '${url}'; a sqlite URL needs a file path, such as sqlite:./data/scheduler.db.`);
    return;
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    try {
      new URL(url);
    } catch {
      problems.push(`DATABASE_URL is not a valid PostgreSQL URL; expected postgres://user@host:5432/database.`);
    }
    return;
  }
  // Never echo the value: a database URL may carry a password.
  problems.push(`DATABASE_URL must start with sqlite: or postgres://, such as sqlite:./data/scheduler.db or postgres://user@127.0.0.1:5432/scheduler.`);
}

/** Reads and checks the whole configuration; throws ConfigError listing every bad value. */
export function loadConfig(env: Env = process.env): Config {
  const r = new Reader(env);
  const databaseUrl = r.string('DATABASE_URL', 'sqlite:./data/scheduler.db');
  checkDatabaseUrl(databaseUrl, r.problems);

  const secret = env.SCHEDULER_SECRET;
  if (secret !== undefined && secret !== '' && secret.length < 32) {
    r.problems.push(`SCHEDULER_SECRET is ${secret.length} characters long; use at least 32 random characters (for example: openssl rand -base64 48).`);
  }

  const logLevel = r.string('LOG_LEVEL', 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevel)) {
    r.problems.push(`LOG_LEVEL is '${logLevel}'; expected one of ${LOG_LEVELS.join(', ')}.`);
  }

  const solveTimeLimitMax = r.seconds('SOLVE_TIME_LIMIT_MAX', 60);
  const solveTimeLimitDefault = r.seconds('SOLVE_TIME_LIMIT_DEFAULT', 10);
  const http = {
    headersTimeoutS: r.seconds('HTTP_HEADERS_TIMEOUT', 10),
    requestTimeoutS: r.seconds('HTTP_REQUEST_TIMEOUT', 60),
    keepAliveTimeoutS: r.seconds('HTTP_KEEP_ALIVE_TIMEOUT', 5),
    maxConnections: r.integer('MAX_CONNECTIONS', 1000, 1, 1_000_000),
  };
  if (http.headersTimeoutS > http.requestTimeoutS) {
    r.problems.push(
      `HTTP_HEADERS_TIMEOUT (${http.headersTimeoutS}) is above HTTP_REQUEST_TIMEOUT (${http.requestTimeoutS}); the headers are part of the request, so their time cannot exceed the whole request's.`,
    );
  }
  if (solveTimeLimitDefault > solveTimeLimitMax) {
    r.problems.push(
      `SOLVE_TIME_LIMIT_DEFAULT (${solveTimeLimitDefault}) is above SOLVE_TIME_LIMIT_MAX (${solveTimeLimitMax}); the default must not exceed the maximum.`,
    );
  }

  const corsOrigins = r
    .string('CORS_ORIGINS', '')
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '');
  for (const origin of corsOrigins) {
    let ok = false;
    try {
      ok = new URL(origin).origin === origin;
    } catch {
      ok = false;
    }
    if (!ok) r.problems.push(`CORS_ORIGINS has '${origin}'; each entry must be an origin such as https://rota.example.org (scheme, host and port only).`);
  }

  const limits: Limits = {
    maxJsonBodyBytes: r.bytes('MAX_JSON_BODY_BYTES', 10 * 1024 * 1024),
    maxCsvFileBytes: r.bytes('MAX_CSV_FILE_BYTES', 10 * 1024 * 1024),
    maxVolunteers: r.integer('MAX_VOLUNTEERS', 10_000, 1, 1_000_000),
    maxShifts: r.integer('MAX_SHIFTS', 10_000, 1, 1_000_000),
    maxLockedAssignments: r.integer('MAX_LOCKED_ASSIGNMENTS', 50_000, 0, 10_000_000),
    maxCandidatePairs: r.integer('MAX_CANDIDATE_PAIRS', 5_000_000, 1, 100_000_000),
    maxStringLength: r.integer('MAX_STRING_LENGTH', 1000, 200, 1_000_000),
    maxGroupsPerShift: r.integer('MAX_GROUPS_PER_SHIFT', 100, 1, 100_000),
  };
  const config: Config = {
    port: r.integer('PORT', 8080, 0, 65535),
    host: r.string('HOST', '0.0.0.0'),
    databaseUrl,
    schedulerSecret: secret === undefined || secret === '' ? undefined : secret,
    defaultDailyQuota: r.integer('DEFAULT_DAILY_QUOTA', 1000, 1, 1_000_000_000),
    solveTimeLimitDefault,
    solveTimeLimitMax,
    solverWorkers: r.integer('SOLVER_WORKERS', Math.max(1, availableParallelism()), 1, 64),
    limits,
    solveQueueMax: r.integer('SOLVE_QUEUE_MAX', 32, 0, 10_000),
    inputWorkers: r.integer('INPUT_WORKERS', Math.max(1, Math.min(4, availableParallelism())), 1, 64),
    inputQueueMax: r.integer('INPUT_QUEUE_MAX', 64, 1, 10_000),
    http,
    usageHistoryDays: r.integer('USAGE_HISTORY_DAYS', 90, 1, 36_500),
    usageHistoryMaxPerKey: r.integer('USAGE_HISTORY_MAX_PER_KEY', 100_000, 1_000, 100_000_000),
    corsOrigins,
    logLevel: logLevel as LogLevel,
    jobs: {
      workers: r.integer('JOB_WORKERS', 1, 0, 64),
      timeLimitMax: r.seconds('JOB_TIME_LIMIT_MAX', 600, 24 * 3600),
      retentionHours: r.integer('JOB_RETENTION_HOURS', 168, 1, 24 * 365 * 10),
      maxActivePerUser: r.integer('MAX_ACTIVE_JOBS_PER_USER', 20, 1, 1_000_000),
      webhookAllowedHosts: webhookHosts(r),
      staleS: r.integer('JOB_STALE_SECONDS', 15, 3, 3600),
      shutdownGraceS: r.integer('JOB_SHUTDOWN_GRACE_SECONDS', 30, 0, 3600),
      workerMetricsPort: r.integer('WORKER_METRICS_PORT', 0, 0, 65535),
      // A job takes at least what a synchronous request takes.
      limits: {
        ...limits,
        maxVolunteers: Math.max(limits.maxVolunteers, r.integer('JOB_MAX_VOLUNTEERS', 20_000, 1, 10_000_000)),
        maxShifts: Math.max(limits.maxShifts, r.integer('JOB_MAX_SHIFTS', 50_000, 1, 10_000_000)),
        maxLockedAssignments: Math.max(limits.maxLockedAssignments, r.integer('JOB_MAX_LOCKED_ASSIGNMENTS', 200_000, 0, 100_000_000)),
        maxCandidatePairs: Math.max(limits.maxCandidatePairs, r.integer('JOB_MAX_CANDIDATE_PAIRS', 10_000_000, 1, 1_000_000_000)),
      },
    },
  };
  if (config.jobs.timeLimitMax < solveTimeLimitDefault) {
    r.problems.push(
      `JOB_TIME_LIMIT_MAX (${config.jobs.timeLimitMax}) is below SOLVE_TIME_LIMIT_DEFAULT (${solveTimeLimitDefault}); a job without time_limit runs for the default, so the maximum must not be lower.`,
    );
  }
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}
