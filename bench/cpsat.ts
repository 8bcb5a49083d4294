// CP-SAT (OR-Tools 9.15, compiled to WebAssembly: the npm package or-tools-wasm) on the models our
// engine builds, level by level (bench/same-model.ts). Installed on demand into .cache/ (about
// 320 MB, never a dependency of the service or of npm test) the first time it is needed.
// Each level goes to CP-SAT as an MPModelRequest (solver SAT_INTEGER_PROGRAMMING, CP-SAT's own
// reading of a MIP: continuous columns are scaled by CP-SAT), with the schedule of the level
// before (or the greedy fill, for the first) as its solution hint.
//
// Run by bench/cbc.ts in a child process per instance, so that its peak memory is CP-SAT's:
//   node dist/bench/cpsat.js [--start roster.json] <generated name | request.json> <seconds>
// With --start (a schedule as bench/solve-one.ts --roster writes it), CP-SAT starts from that
// schedule instead of the greedy fill: it is asked to improve on it, level by level.
// prints one JSON line of SameModelFigures.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { requestFor } from './generate.js';
import { solveSameModel, type LevelSolver, type LevelTask, type SolverRun, type StartEntry } from './same-model.js';

/** The or-tools-wasm release used (OR-Tools 9.15). */
export const OR_TOOLS_WASM = 'or-tools-wasm@0.9.1';
const root = fileURLToPath(new URL('../..', import.meta.url));
const cacheDir = join(root, '.cache', 'or-tools-wasm');
const entry = join(cacheDir, 'node_modules', 'or-tools-wasm', 'build', 'javascript', 'node', 'mp-solver.js');
/** MPModelRequest.SolverType SAT_INTEGER_PROGRAMMING (linear_solver.proto). */
const SAT_INTEGER_PROGRAMMING = 14;

/** Installs or-tools-wasm into .cache/ from the npm registry when it is not there; false when that fails. */
export function ensureOrTools(): boolean {
  if (existsSync(entry)) return true;
  mkdirSync(cacheDir, { recursive: true });
  console.error(`CP-SAT is not installed: npm install ${OR_TOOLS_WASM} into ${cacheDir}`);
  const install = spawnSync('npm', ['install', '--prefix', cacheDir, '--no-audit', '--no-fund', '--ignore-scripts', OR_TOOLS_WASM], { stdio: 'inherit' });
  if (install.status !== 0 || !existsSync(entry)) {
    console.error(`could not install ${OR_TOOLS_WASM} (the npm registry must be reachable)`);
    return false;
  }
  return true;
}

interface MpSolverModule {
  MPSolver: {
    solveModelRequest(request: Record<string, unknown>, options?: { numThreads?: number }): Promise<{ response: Record<string, unknown> }>;
  };
}

/** The process's peak resident memory so far, in MB (as bench/solve-one.ts measures ours). */
const peakMb = (): number => Math.round(process.resourceUsage().maxRSS / 1024);

/** One level as an MPModelRequest: the model's columns and rows, `held` replacing the bounds of the rows it names. */
export function modelRequest(task: LevelTask, threads: number): Record<string, unknown> {
  const { model, objective, held, seconds, hint } = task;
  const variable = model.colNames.map((name, j) => ({
    name,
    lowerBound: model.colLower[j]!,
    upperBound: model.colUpper[j]!,
    isInteger: model.colInteger[j]!,
    objectiveCoefficient: objective.costs[j] ?? 0,
  }));
  const starts = model.rowStarts;
  const constraint: Array<Record<string, unknown>> = [];
  for (let r = 0; r < model.numRows; r++) {
    const [lo, up] = held.get(r) ?? [model.rowLower[r]!, model.rowUpper[r]!];
    if (lo === -Infinity && up === Infinity) continue;
    constraint.push({
      name: model.rowNames[r]!,
      varIndex: Array.from(model.indices.subarray(starts[r], starts[r + 1])),
      coefficient: Array.from(model.values.subarray(starts[r], starts[r + 1])),
      lowerBound: lo,
      upperBound: up,
    });
  }
  return {
    model: {
      name: task.name,
      maximize: objective.sense === 'max',
      variable,
      constraint,
      solutionHint: { varIndex: Array.from(hint, (_, j) => j), varValue: Array.from(hint) },
    },
    solverType: SAT_INTEGER_PROGRAMMING,
    solverTimeLimitSeconds: Math.max(0.1, seconds),
    solverSpecificParameters: `num_workers:${threads}`,
    enableInternalSolverOutput: process.env.CPSAT_LOG === '1',
  };
}

/** CP-SAT as the level solver of bench/same-model.ts. */
export async function cpsatSolver(): Promise<LevelSolver> {
  const { MPSolver } = (await import(pathToFileURL(entry).href)) as MpSolverModule;
  const threads = availableParallelism();
  return async (task: LevelTask): Promise<SolverRun> => {
    const started = performance.now();
    const { response } = await MPSolver.solveModelRequest(modelRequest(task, threads), { numThreads: threads });
    const ms = performance.now() - started;
    const status = (typeof response.status === 'string' ? response.status : 'unknown').replace(/^MPSOLVER_/, '');
    const values = (response.variableValue as number[] | undefined) ?? [];
    const found = values.length > 0 && (status === 'OPTIMAL' || status === 'FEASIBLE');
    const bound = typeof response.bestObjectiveBound === 'number' && Number.isFinite(response.bestObjectiveBound) ? response.bestObjectiveBound : null;
    return {
      status,
      objective: found ? Number(response.objectiveValue) : null,
      bound: found ? bound : null,
      value: (col) => values[col] ?? 0,
      ms,
      peakMb: peakMb(),
    };
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { start: { type: 'string' } } });
  const [spec, limit = '300'] = positionals;
  if (!spec) throw new Error('usage: cpsat [--start roster.json] <generated name | request.json> [seconds]');
  if (!ensureOrTools()) process.exit(2);
  const start = values.start ? (JSON.parse(readFileSync(values.start, 'utf8')) as StartEntry[]) : undefined;
  const figures = await solveSameModel(requestFor(spec), Number(limit), await cpsatSolver(), start);
  console.log(JSON.stringify(figures));
  // The WebAssembly runtime keeps worker threads alive.
  process.exit(0);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
