// The volunteer-scheduler command line: `serve` runs the HTTP service; `validate FILE` checks a
// request file as POST /api/validate would. Every command has --help; a failing command
// exits non-zero with its message on stderr.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, settings } from '../config/config.js';
import { ProblemError } from '../service/problems.js';
import { serve } from '../http/server.js';
import { KEYS_HELP, KeysUsageError, runKeys } from './keys.js';
import { loadSchemas } from '../input/schema-registry.js';
import { validateRequest } from '../service/prepare.js';
import { createScheduler, type SolveProgress } from '../engine/scheduler.js';
import { parseScheduleOptions } from '../service/options.js';
import { scheduleCsv, scheduleRequest } from '../service/schedule-service.js';

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
       volunteer-scheduler schedule --volunteers V.csv --shifts S.csv [--timezone ZONE] [options]

Reads FILE (a JSON schedule request; '-' reads standard input), or the two CSV exports
(Start/End read as wall-clock times in ZONE, an IANA name; default UTC), schedules it with the
same engine as POST /api/schedule and POST /api/schedule/csv, and prints the result JSON on
stdout. Exits 0 with a schedule, 1 when the input is invalid (the errors go to stderr), 2 when
a file cannot be read.

Options: --time-limit SECONDS, --solver highs|jslp, --debug true|lp
A solve longer than a second prints a progress line on stderr every second.
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
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { positionals, values } = parsed;
  const csv = values.volunteers !== undefined || values.shifts !== undefined;
  if (csv && (values.volunteers === undefined || values.shifts === undefined)) throw new UsageError('schedule needs both --volunteers and --shifts');
  if (csv ? positionals.length !== 0 : positionals.length !== 1) throw new UsageError('schedule takes one JSON FILE, or --volunteers and --shifts');
  const config = loadConfig();
  const query: Record<string, string> = {};
  if (values['time-limit'] !== undefined) query.time_limit = values['time-limit'];
  if (values.solver !== undefined) query.solver = values.solver;
  if (values.debug !== undefined) query.debug = values.debug;
  const call = parseScheduleOptions(query, config, loadSchemas());
  const readBytes = (file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  const input = csv ? { volunteers: readBytes(values.volunteers!), shifts: readBytes(values.shifts!) } : { body: readJson(positionals[0]!) };
  const scheduler = createScheduler({ workers: config.solverWorkers });
  let progress: ProgressLine | undefined;
  try {
    await scheduler.ready();
    const line = new ProgressLine(io);
    progress = line;
    const deps = { schemas: loadSchemas(), limits: config.limits, scheduler };
    const withProgress = {
      ...call,
      onProgress: (p: SolveProgress) => {
        line.update(p);
      },
    };
    const answer =
      'body' in input
        ? await scheduleRequest(input.body, withProgress, deps, 2)
        : await scheduleCsv(input.volunteers, input.shifts, values.timezone ?? 'UTC', withProgress, deps, 2);
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
      case 'serve':
        if (rest.length > 0) throw new UsageError(`serve takes no arguments (found ${rest.join(' ')}); configure it with environment variables`);
        await serve();
        return 0;
      case 'validate':
        return runValidate(rest, io);
      case 'schedule':
        return await runSchedule(rest, io);
      case 'keys':
        return await runKeys(rest, io);
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (e) {
    if (e instanceof KeysUsageError) {
      io.err(`volunteer-scheduler: ${e.message}\n${KEYS_HELP}`);
      return 2;
    }
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
      const entries = (e.extras.errors ?? []).map((x) => `  ${'file' in x ? x.file : x.pointer || '(query)'}: ${x.message}\n`).join('');
      io.err(`volunteer-scheduler: ${e.detail}\n${entries}`);
      return 1;
    }
    throw e;
  }
}
