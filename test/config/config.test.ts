// Configuration from the environment: defaults, every variable read, every bad value named,
// and the documented settings table kept equal to what the loader really reads.
import { expect } from 'chai';
import { availableParallelism } from 'node:os';
import { ConfigError, loadConfig, settings } from '../../src/config/config.js';

/** A valid value for every documented variable (the reads test checks it covers them all). */
const VALID_ENV: Record<string, string> = {
  PORT: '9000',
  HOST: '127.0.0.1',
  DATABASE_URL: 'postgres://u@127.0.0.1:5432/db',
  SCHEDULER_SECRET: 's'.repeat(40),
  DEFAULT_DAILY_QUOTA: '50',
  SOLVE_TIME_LIMIT_DEFAULT: '2.5',
  SOLVE_TIME_LIMIT_MAX: '30',
  SOLVER_WORKERS: '3',
  MAX_JSON_BODY_BYTES: '512kB',
  MAX_CSV_FILE_BYTES: '2MB',
  MAX_VOLUNTEERS: '100',
  MAX_SHIFTS: '200',
  MAX_LOCKED_ASSIGNMENTS: '300',
  MAX_CANDIDATE_PAIRS: '400',
  MAX_STRING_LENGTH: '500',
  MAX_GROUPS_PER_SHIFT: '6',
  SOLVE_QUEUE_MAX: '7',
  INPUT_WORKERS: '3',
  INPUT_QUEUE_MAX: '9',
  HTTP_HEADERS_TIMEOUT: '4',
  HTTP_REQUEST_TIMEOUT: '40',
  HTTP_KEEP_ALIVE_TIMEOUT: '2.5',
  MAX_CONNECTIONS: '250',
  USAGE_HISTORY_DAYS: '30',
  USAGE_HISTORY_MAX_PER_KEY: '5000',
  CORS_ORIGINS: 'https://rota.example.org',
  LOG_LEVEL: 'DEBUG',
  JOB_WORKERS: '0',
  JOB_TIME_LIMIT_MAX: '900',
  JOB_RETENTION_HOURS: '48',
  MAX_ACTIVE_JOBS_PER_USER: '5',
  WEBHOOK_ALLOWED_HOSTS: 'hooks.example.org, Hooks.Example.net:8443',
  JOB_STALE_SECONDS: '20',
  JOB_SHUTDOWN_GRACE_SECONDS: '45',
  WORKER_METRICS_PORT: '9464',
  JOB_MAX_VOLUNTEERS: '1000',
  JOB_MAX_SHIFTS: '150',
  JOB_MAX_LOCKED_ASSIGNMENTS: '600',
  JOB_MAX_CANDIDATE_PAIRS: '4000',
};

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).to.be.instanceOf(ConfigError);
    return (e as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('has the contract defaults when the environment is empty', () => {
    const c = loadConfig({});
    expect(c).to.deep.include({
      port: 8080,
      host: '0.0.0.0',
      databaseUrl: 'sqlite:./data/scheduler.db',
      schedulerSecret: undefined,
      defaultDailyQuota: 1000,
      solveTimeLimitDefault: 10,
      solveTimeLimitMax: 60,
      logLevel: 'info',
      solverWorkers: availableParallelism(),
    });
    expect(c.limits).to.deep.equal({
      maxJsonBodyBytes: 10485760,
      maxCsvFileBytes: 10485760,
      maxVolunteers: 10000,
      maxShifts: 10000,
      maxLockedAssignments: 50000,
      maxCandidatePairs: 5000000,
      maxStringLength: 1000,
      maxGroupsPerShift: 100,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig(VALID_ENV);
    expect(c).to.deep.equal({
      port: 9000,
      host: '127.0.0.1',
      databaseUrl: 'postgres://u@127.0.0.1:5432/db',
      schedulerSecret: 's'.repeat(40),
      defaultDailyQuota: 50,
      solveTimeLimitDefault: 2.5,
      solveTimeLimitMax: 30,
      solverWorkers: 3,
      solveQueueMax: 7,
      inputWorkers: 3,
      inputQueueMax: 9,
      http: { headersTimeoutS: 4, requestTimeoutS: 40, keepAliveTimeoutS: 2.5, maxConnections: 250 },
      usageHistoryDays: 30,
      usageHistoryMaxPerKey: 5000,
      corsOrigins: ['https://rota.example.org'],
      logLevel: 'debug',
      limits: {
        maxJsonBodyBytes: 524288,
        maxCsvFileBytes: 2097152,
        maxVolunteers: 100,
        maxShifts: 200,
        maxLockedAssignments: 300,
        maxCandidatePairs: 400,
        maxStringLength: 500,
        maxGroupsPerShift: 6,
      },
      jobs: {
        workers: 0,
        timeLimitMax: 900,
        retentionHours: 48,
        maxActivePerUser: 5,
        webhookAllowedHosts: ['hooks.example.org', 'hooks.example.net:8443'],
        staleS: 20,
        shutdownGraceS: 45,
        workerMetricsPort: 9464,
        // A job takes at least what a request takes: JOB_MAX_SHIFTS 150 is under MAX_SHIFTS 200.
        limits: {
          maxJsonBodyBytes: 524288,
          maxCsvFileBytes: 2097152,
          maxVolunteers: 1000,
          maxShifts: 200,
          maxLockedAssignments: 600,
          maxCandidatePairs: 4000,
          maxStringLength: 500,
          maxGroupsPerShift: 6,
        },
      },
    });
  });

  const bad: Array<[string, Record<string, string>, string]> = [
    [
      'a callback host written as a URL',
      { WEBHOOK_ALLOWED_HOSTS: 'https://hooks.example.org/x' },
      "WEBHOOK_ALLOWED_HOSTS has 'https://hooks.example.org/x'; each entry is a host name, such as hooks.example.org or hooks.example.org:8443 (no scheme, no path).",
    ],
    [
      'a job time limit below the default time limit',
      { JOB_TIME_LIMIT_MAX: '5' },
      'JOB_TIME_LIMIT_MAX (5) is below SOLVE_TIME_LIMIT_DEFAULT (10); a job without time_limit runs for the default, so the maximum must not be lower.',
    ],
    ['a negative number of job workers', { JOB_WORKERS: '-1' }, "JOB_WORKERS is '-1'; expected a whole number from 0 to 64."],
    ['a port that is not a number', { PORT: 'eighty' }, "PORT is 'eighty'; expected a whole number from 0 to 65535."],
    ['a port out of range', { PORT: '70000' }, "PORT is '70000'; expected a whole number from 0 to 65535."],
    [
      'an unknown database scheme',
      { DATABASE_URL: 'mysql://root:pw@x/db' },
      'DATABASE_URL must start with sqlite: or postgres://, such as sqlite:./data/scheduler.db or postgres://user@127.0.0.1:5432/scheduler.',
    ],
    [
      'a sqlite URL without a path',
      { DATABASE_URL: 'sqlite:' },
      "DATABASE_URL is 'sqlite:'; a sqlite URL needs a file path, such as sqlite:./data/scheduler.db.",
    ],
    [
      'a short secret',
      { SCHEDULER_SECRET: 'short' },
      'SCHEDULER_SECRET is 5 characters long; use at least 32 random characters (for example: openssl rand -base64 48).',
    ],
    ['a zero quota', { DEFAULT_DAILY_QUOTA: '0' }, "DEFAULT_DAILY_QUOTA is '0'; expected a whole number from 1 to 1000000000."],
    [
      'a negative time limit',
      { SOLVE_TIME_LIMIT_DEFAULT: '-1' },
      "SOLVE_TIME_LIMIT_DEFAULT is '-1'; expected a number of seconds above 0 and at most 3600, such as 10.",
    ],
    [
      'a default above the maximum',
      { SOLVE_TIME_LIMIT_DEFAULT: '90', SOLVE_TIME_LIMIT_MAX: '60' },
      'SOLVE_TIME_LIMIT_DEFAULT (90) is above SOLVE_TIME_LIMIT_MAX (60); the default must not exceed the maximum.',
    ],
    ['zero workers', { SOLVER_WORKERS: '0' }, "SOLVER_WORKERS is '0'; expected a whole number from 1 to 64."],
    [
      'a size with an unknown unit',
      { MAX_JSON_BODY_BYTES: '10 parsecs' },
      "MAX_JSON_BODY_BYTES is '10 parsecs'; expected a size from 1kB to 1GB, in bytes or with a kB/MB/GB suffix, such as 10MB.",
    ],
    ['a fractional count', { MAX_VOLUNTEERS: '1.5' }, "MAX_VOLUNTEERS is '1.5'; expected a whole number from 1 to 1000000."],
    ['an unknown log level', { LOG_LEVEL: 'loud' }, "LOG_LEVEL is 'loud'; expected one of fatal, error, warn, info, debug, trace, silent."],
    [
      'a CORS entry that is not an origin',
      { CORS_ORIGINS: 'https://ok.example.org, rota.example.org/app' },
      "CORS_ORIGINS has 'rota.example.org/app'; each entry must be an origin such as https://rota.example.org (scheme, host and port only).",
    ],
  ];
  for (const [what, env, message] of bad) {
    it(`stops on ${what}`, () => {
      expect(problemsOf(env)).to.deep.equal([message]);
    });
  }

  it('lists every bad value at once', () => {
    const problems = problemsOf({ PORT: 'x', LOG_LEVEL: 'y', MAX_SHIFTS: '-2' });
    expect(problems).to.have.length(3);
    expect(new ConfigError(problems).message).to.match(/^Invalid configuration:\n {2}- /);
  });

  it('never echoes a database URL that may carry a password', () => {
    expect(problemsOf({ DATABASE_URL: 'mysql://root:hunter2@x/db' }).join(' ')).to.not.include('hunter2');
  });

  it('documents every variable it reads, and reads every variable it documents', () => {
    // Which names loadConfig really looks up, seen through an environment that records reads:
    // once empty (every default path) and once with every documented name set to a valid value.
    const read = new Set<string>();
    const recording = (values: Record<string, string>): Record<string, string | undefined> =>
      new Proxy(values, {
        get(target, name) {
          if (typeof name === 'string') read.add(name);
          return target[name as string];
        },
      });
    loadConfig(recording({}));
    loadConfig(recording(VALID_ENV));
    expect(Object.keys(VALID_ENV), 'VALID_ENV sets every documented variable').to.have.members(settings.map((s) => s.name));
    expect([...read]).to.have.members(settings.map((s) => s.name));
  });
});

describe('README', () => {
  it('documents every configuration variable', async () => {
    const { readFileSync } = await import('node:fs');
    const path = await import('node:path');
    const { packageRoot } = await import('../../src/package-root.js');
    const readme = readFileSync(path.join(packageRoot, 'README.md'), 'utf8');
    for (const s of settings) expect(readme, s.name).to.include(`| \`${s.name}\` | ${s.default.replace(/\|/g, '\\|')} |`);
  });
});
