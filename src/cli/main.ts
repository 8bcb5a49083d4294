// The volunteer-scheduler command line: `serve` runs the HTTP service; `validate FILE` checks a
// request file as POST /api/validate would; `schedule` solves a request without a server. Every
// command has --help; a failing command exits non-zero with its message on stderr. A command
// loads only what it uses: the HTTP service (Koa, the database drivers) for serve, the key
// store for keys, and for schedule the solver it needs, in this thread for a small request.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { ConfigError, loadConfig, settings } from '../config/config.js';
import { ProblemError } from '../service/problems.js';
import type { CsvError, FieldError } from '../types/schema-types.js';
import { loadSchemas } from '../input/schema-registry.js';
import { prepareCsv, prepareRequest, validateRequest } from '../service/prepare.js';
import { createScheduler, type Scheduler, type SolveProgress } from '../engine/scheduler.js';
import { parseScheduleOptions } from '../service/options.js';
import { IN_THREAD_MAX_SIZE, inThreadScheduler, problemSize, schedulePrepared } from '../service/schedule-service.js';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

const processIo: Io = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

const USAGE = `Usage: volunteer-scheduler <command> [options]

Commands:
  serve            Start the HTTP service (reads its configuration from the environment)
  worker           Solve background jobs only, from the PostgreSQL queue the API processes fill
  validate FILE    Check a request file (JSON) as POST /api/validate does; exits 1 if invalid
  schedule FILE    Schedule a request file (JSON) as POST /api/schedule does, without a server
  keys ...         Issue, revoke, list API keys and set quotas (operator commands)

Run 'volunteer-scheduler <command> --help' for a command's options.
`;

const HELP: Record<string, string> = {
  serve: `Usage: volunteer-scheduler serve

Starts the HTTP service on HOST:PORT. Configuration comes from environment variables:
${settings.map((s) => `  ${s.name.padEnd(26)} ${s.description} Default: ${s.default}`).join('\n')}
`,
  schedule: `Usage: volunteer-scheduler schedule FILE [options]
       volunteer-scheduler schedule --volunteers V.csv --shifts S.csv [--timezone ZONE]
                                    [--min-rest-hours H] [--max-shifts-per-day N] [options]

Reads FILE (a JSON schedule request; '-' reads standard input), or the two CSV exports
(Start/End read as wall-clock times in ZONE, an IANA name; default UTC; --min-rest-hours and
--max-shifts-per-day are the upload's rules, as the text fields min_rest_hours and
max_shifts_per_day of POST /api/schedule/csv), schedules it with the
same engine as POST /api/schedule and POST /api/schedule/csv, and prints the result JSON on
stdout. Exits 0 with a schedule; 1 when the request, or the value of --time-limit, --solver or
--debug, is invalid (the errors go to stderr); 2 when a file cannot be read or the arguments are
wrong (a missing or unknown option, a --pool other than auto, yes or no). Ctrl-C (SIGINT) stops
it at once, printing nothing.

Options: --time-limit SECONDS, --solver highs|jslp, --debug true|lp, --pool auto|yes|no

Where it solves (--pool auto, the default): a request of size ${IN_THREAD_MAX_SIZE.toLocaleString('en-US')} or less is solved in this
thread, where no worker pool starts and the solver compiles only the code the solve runs: the
examples answer in about a second or less. The size is the engine's own measure: it solves each
group (or groups joined by volunteers who can fill several) on its own, and the size sums each
part's volunteers times its slot kinds (a shift's headcount of one group): the JSON example is
30, the CSV example 600, 60 volunteers in 3 groups on 60 shifts 1,200. A larger request starts
the pool of SOLVER_WORKERS solver threads, as the service does: 2.5 s or more to compile the
solver, then faster code on every core. --pool no or yes forces either; a request solved within
its time limit gets the same schedule, byte for byte, either way, unless a solver phase is cut
short by the clock (the engine stops a MIP that finds nothing better for 0.3 s; this thread runs
slower code, so a rule-heavy request past the threshold can end such a phase sooner here). With
--debug, a line on stderr says where it solved, and the size.
A pooled solve longer than a second prints a progress line on stderr every second.
`,
  worker: `Usage: volunteer-scheduler worker

Runs a solver-only process: it takes jobs (POST /api/jobs) from the PostgreSQL queue that the
API processes ('serve') fill, solves JOB_WORKERS of them at a time on SOLVER_WORKERS threads, and
answers no API request. Any number of workers and API processes share one DATABASE_URL, which
must be PostgreSQL (with the SQLite default, serve solves jobs itself). Run serve with
JOB_WORKERS=0 to keep the API processes from solving. WORKER_METRICS_PORT serves GET /metrics
and GET /healthz. SIGTERM or Ctrl-C stops it: running jobs get JOB_SHUTDOWN_GRACE_SECONDS to
finish, then are handed back to the queue; it exits 0. Exits 2 on a bad configuration.
It reads the same environment variables as serve.
`,
  validate: `Usage: volunteer-scheduler validate FILE

Reads FILE (a JSON schedule request; '-' reads standard input) and prints the validation
result (valid, errors, warnings, summary) as JSON on stdout. Exits 0 when valid, 1 when not,
2 when the file cannot be read or is not JSON.
`,
};

class UsageError extends Error {}

function readInput(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function readJson(file: string): unknown {
  const text = readInput(file);
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
}

function runValidate(args: string[], io: Io): number {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError('validate takes exactly one FILE');
  const body = readJson(positionals[0]!);
  const result = validateRequest(body, { schemas: loadSchemas(), limits: loadConfig().limits });
  io.out(`${JSON.stringify(result, null, 2)}\n`);
  return result.valid ? 0 : 1;
}

async function runSchedule(args: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'time-limit': { type: 'string' },
        solver: { type: 'string' },
        debug: { type: 'string' },
        volunteers: { type: 'string' },
        shifts: { type: 'string' },
        timezone: { type: 'string' },
        'min-rest-hours': { type: 'string' },
        'max-shifts-per-day': { type: 'string' },
        pool: { type: 'string' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { positionals, values } = parsed;
  const csv = values.volunteers !== undefined || values.shifts !== undefined;
  if (csv && (values.volunteers === undefined || values.shifts === undefined)) throw new UsageError('schedule needs both --volunteers and --shifts');
  if (csv ? positionals.length !== 0 : positionals.length !== 1) throw new UsageError('schedule takes one JSON FILE, or --volunteers and --shifts');
  const ruleFlags = { min_rest_hours: values['min-rest-hours'], max_shifts_per_day: values['max-shifts-per-day'] };
  if (!csv && (ruleFlags.min_rest_hours !== undefined || ruleFlags.max_shifts_per_day !== undefined)) {
    throw new UsageError('--min-rest-hours and --max-shifts-per-day go with --volunteers and --shifts; a JSON request carries them in its rules');
  }
  const pool = values.pool ?? 'auto';
  if (pool !== 'auto' && pool !== 'yes' && pool !== 'no') throw new UsageError(`--pool is '${pool}'; use auto (the default), yes or no`);
  const config = loadConfig();
  const schemas = loadSchemas();
  const query: Record<string, string> = {};
  if (values['time-limit'] !== undefined) query.time_limit = values['time-limit'];
  if (values.solver !== undefined) query.solver = values.solver;
  if (values.debug !== undefined) query.debug = values.debug;
  const call = parseScheduleOptions(query, config, schemas);
  const readBytes = (file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  const deps = { schemas, limits: config.limits };
  // Prepared in this thread, before any solver loads: an invalid request exits at once.
  const prepared = csv
    ? prepareCsv(readBytes(values.volunteers!), readBytes(values.shifts!), values.timezone ?? 'UTC', deps, {
        ...(ruleFlags.min_rest_hours === undefined ? {} : { min_rest_hours: ruleFlags.min_rest_hours }),
        ...(ruleFlags.max_shifts_per_day === undefined ? {} : { max_shifts_per_day: ruleFlags.max_shifts_per_day }),
      })
    : prepareRequest(readJson(positionals[0]!), [], deps);
  const size = problemSize(prepared.problem);
  const inThread = pool === 'no' || (pool === 'auto' && size <= IN_THREAD_MAX_SIZE);
  if (call.debug !== 'off') {
    const where = inThread ? 'in this thread' : `on ${config.solverWorkers} solver worker thread${config.solverWorkers === 1 ? '' : 's'}`;
    const why = pool === 'auto' ? `the pool starts above ${IN_THREAD_MAX_SIZE.toLocaleString('en-US')}` : `--pool ${pool}`;
    io.err(`volunteer-scheduler: size ${size.toLocaleString('en-US')}, solving ${where} (${why})\n`);
  }
  if (inThread) {
    // HiGHS runs as V8's baseline tier compiles it, and is never recompiled by the optimizing
    // tier: a small solve ends before a recompiled function pays back, and the process cannot
    // exit before every recompilation under way has finished (measured on the 60 x 60 food bank:
    // the exit came 1.2-1.9 s after the result was printed; 3.5 s start to exit, 1.4 s without).
    setFlagsFromString('--no-wasm-dynamic-tiering');
    setFlagsFromString('--no-wasm-tier-up');
  }
  const scheduler: Scheduler = inThread ? await inThreadScheduler(call.backend) : createScheduler({ workers: config.solverWorkers });
  let progress: ProgressLine | undefined;
  try {
    await scheduler.ready();
    const line = new ProgressLine(io);
    progress = line;
    const withProgress = {
      ...call,
      onProgress: (p: SolveProgress) => {
        line.update(p);
      },
    };
    const answer = await schedulePrepared(prepared, withProgress, { ...deps, scheduler }, 2);
    const { subproblems } = answer.output;
    line.update({ groupsDone: subproblems.length, groupsRunning: 0, filled: subproblems.reduce((t, s) => t + s.filled, 0) });
    line.stop();
    io.out(`${answer.json}\n`);
    return 0;
  } finally {
    progress?.stop();
    await scheduler.close();
  }
}

/** When progress lines fall due: the time now, and a tick every second until stopped (injectable for tests). */
export interface ProgressClock {
  now(): number;
  everySecond(tick: () => void): { stop(): void };
}

const systemClock: ProgressClock = {
  now: () => Date.now(),
  everySecond: (tick) => {
    const timer = setInterval(tick, 1000).unref();
    return {
      stop: () => {
        clearInterval(timer);
      },
    };
  },
};

/**
 * A progress line on stderr, once a second, for solves that take longer than one: the phase,
 * the groups done and running, and the slots filled so far by the best schedules found.
 */
export class ProgressLine {
  private readonly begun: number;
  private latest: Pick<SolveProgress, 'groupsDone' | 'groupsRunning' | 'filled'> = { groupsDone: 0, groupsRunning: 0, filled: 0 };
  private timer: { stop(): void } | undefined;
  private printed = false;

  constructor(
    private readonly io: Io,
    private readonly clock: ProgressClock = systemClock,
  ) {
    this.begun = clock.now();
    this.timer = clock.everySecond(() => {
      this.print('solving');
    });
  }

  update(progress: Pick<SolveProgress, 'groupsDone' | 'groupsRunning' | 'filled'>): void {
    this.latest = progress;
  }

  private print(phase: string): void {
    const seconds = ((this.clock.now() - this.begun) / 1000).toFixed(1);
    const { groupsDone: done, groupsRunning: running, filled } = this.latest;
    this.io.err(`[${seconds} s] ${phase}: ${done} group${done === 1 ? '' : 's'} done, ${running} running, ${filled} slots filled so far by new assignments\n`);
    this.printed = true;
  }

  stop(): void {
    if (!this.timer) return;
    this.timer.stop();
    this.timer = undefined;
    if (this.printed) this.print('done');
  }
}

/** Runs the CLI; returns the exit code (serve never returns while the service runs). */
export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if ((rest.includes('--help') || rest.includes('-h')) && command !== 'keys') {
    const help = HELP[command];
    if (help) {
      io.out(help);
      return 0;
    }
  }
  try {
    switch (command) {
      case 'serve': {
        if (rest.length > 0) throw new UsageError(`serve takes no arguments (found ${rest.join(' ')}); configure it with environment variables`);
        const { serve } = await import('../http/server.js');
        await serve();
        return 0;
      }
      case 'worker': {
        if (rest.length > 0) throw new UsageError(`worker takes no arguments (found ${rest.join(' ')}); configure it with environment variables`);
        const worker = await import('./worker.js');
        try {
          await worker.runWorker();
        } catch (e) {
          if (!(e instanceof worker.WorkerSetupError)) throw e;
          io.err(`volunteer-scheduler: ${e.message}\n`);
          return 2;
        }
        return 0;
      }
      case 'validate':
        return runValidate(rest, io);
      case 'schedule':
        return await runSchedule(rest, io);
      case 'keys': {
        const keys = await import('./keys.js');
        try {
          return await keys.runKeys(rest, io);
        } catch (e) {
          if (!(e instanceof keys.KeysUsageError)) throw e;
          io.err(`volunteer-scheduler: ${e.message}\n${keys.KEYS_HELP}`);
          return 2;
        }
      }
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`volunteer-scheduler: ${e.message}\n${e.message.startsWith('unknown command') ? USAGE : ''}`);
      return 2;
    }
    if (e instanceof ConfigError) {
      io.err(`volunteer-scheduler: ${e.message}\n`);
      return 2;
    }
    if (e instanceof ProblemError) {
      // A CSV error names its file; a field error its pointer, empty for the query string.
      const where = (x: CsvError | FieldError): string =>
        'file' in x
          ? [x.file, x.row === undefined ? undefined : `row ${x.row}`, x.column, x.id === undefined ? undefined : `id ${x.id}`, x.code]
              .filter((p) => p !== undefined)
              .join(', ')
          : x.pointer || '(query)';
      const entries = (e.extras.errors ?? []).map((x) => `  ${where(x)}: ${x.message}\n`).join('');
      io.err(`volunteer-scheduler: ${e.detail}\n${entries}`);
      return 1;
    }
    throw e;
  }
}
