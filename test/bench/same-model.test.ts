// The side-by-side harness (bench/same-model.ts, bench/cpsat.ts) measures CBC and CP-SAT on our
// models; its figures are only worth the table if they are right. Here it drives HiGHS (LP text,
// as CBC reads it) and solvers that find nothing, on instances whose optimum the engine proves,
// and checks the MPModelRequest CP-SAT is given. CBC and CP-SAT themselves are never run by npm test.
import { expect } from 'chai';
import { modelRequest } from '../../bench/cpsat.js';
import { generatedInstance } from '../../bench/generate.js';
import { solveSameModel, type LevelSolver, type LevelTask, type SolverRun, type StartEntry } from '../../bench/same-model.js';
import { loadHighs } from '../../src/engine/backends/highs-backend.js';
import { MipModel } from '../../src/engine/mip-model.js';
import { solve } from '../helpers/engine.js';

type HighsSolution = { Status: string; ObjectiveValue: number; Columns: Record<string, { Primal: number }> };
type HighsSolve = (lp: string, options: Record<string, unknown>) => HighsSolution;

/** HiGHS on each level's LP text, to optimality: what CBC does with time to spare. */
async function highsSolver(): Promise<LevelSolver> {
  const highs = (await loadHighs()) as unknown as { solve: HighsSolve };
  return (task: LevelTask): Promise<SolverRun> => {
    const started = performance.now();
    const r = highs.solve(task.model.toLpText(task.objective, task.held), { time_limit: 60, mip_rel_gap: 0, mip_abs_gap: 0 });
    const names = task.model.colNames;
    const optimal = r.Status === 'Optimal';
    return Promise.resolve({
      status: r.Status,
      objective: optimal ? r.ObjectiveValue : null,
      bound: optimal ? r.ObjectiveValue : null,
      value: (col) => r.Columns[names[col]!]?.Primal ?? 0,
      ms: performance.now() - started,
      peakMb: 0,
    });
  };
}

const nothing = (task: LevelTask): Promise<SolverRun> =>
  Promise.resolve({ status: `none (${task.name})`, objective: null, bound: null, value: () => 0, ms: 1, peakMb: 0 });

describe('bench: another solver on our models, level by level', function () {
  this.timeout(120_000);
  const festival = generatedInstance('festival-50x30')!.request;

  it('a solver that proves every level reports the optimum the engine proves (85 slots, 29 fully staffed, 2,860 squared hours)', async () => {
    const figures = await solveSameModel(festival, 60, await highsSolver());
    expect(figures).to.include({ filled: 85, bound: 85, fullyStaffed: 29, sumSquares: 2860, unsolved: 0, kept: 0, problems: 0 });
    expect(figures.sumSquaresBound).to.be.closeTo(2860, 1e-3);
    expect(figures.statuses.every((s) => s.endsWith(':Optimal'))).to.equal(true, figures.statuses.join(', '));
  });

  it('coverage with no schedule ends a subproblem: nothing filled, its demand as the bound, no sum-of-squares bound', async () => {
    const figures = await solveSameModel(festival, 10, nothing);
    const demanded = festival.unassigned_shifts.reduce((t, s) => t + Object.values(s.required_groups).reduce((a, b) => a + b, 0), 0);
    expect(figures.filled).to.equal(0);
    expect(figures.bound).to.equal(demanded);
    expect(figures.unsolved).to.be.greaterThan(0);
    expect(figures.kept).to.equal(0);
    expect(Number.isNaN(figures.sumSquaresBound)).to.equal(true);
    expect(figures.statuses.every((s) => s.startsWith('cover:'))).to.equal(true);
  });

  it('a later level with no schedule keeps the level before’s, held at its value, and fairness still runs on it', async () => {
    const highs = await highsSolver();
    const staffingFails: LevelSolver = (task) => (task.name.endsWith('-staff') ? nothing(task) : highs(task));
    const figures = await solveSameModel(festival, 60, staffingFails);
    expect(figures.kept).to.be.greaterThan(0);
    expect(figures).to.include({ filled: 85, bound: 85, unsolved: 0, problems: 0 });
    // Fairness ran, with the kept schedule's staffing held, in every subproblem that has candidates.
    expect(figures.statuses.filter((s) => s.startsWith('fair:')).every((s) => s === 'fair:Optimal')).to.equal(true, figures.statuses.join(', '));
    expect(figures.sumSquaresBound).to.be.closeTo(figures.sumSquares, 1e-3);
  });

  it('with a start schedule, every subproblem starts from it: a solver that keeps its hint reports the engine’s own figures', async () => {
    const { result } = await solve(festival);
    const start = (result.roster as StartEntry[]).map(({ volunteer_id, shift_id, group }) => ({ volunteer_id, shift_id, group }));
    const hours = new Map<string, number>();
    for (const s of festival.unassigned_shifts) hours.set(s.id, (Date.parse(s.end) - Date.parse(s.start)) / 3_600_000);
    let squares = 0;
    for (const v of Object.values(result.volunteers as Record<string, { assigned_hours: number }>)) squares += v.assigned_hours ** 2;
    // Returns its hint as its solution: the figures are then those of the schedule it started from.
    const keepsHint: LevelSolver = (task) =>
      Promise.resolve({
        status: 'hint',
        objective: task.objective.costs.reduce((t, c, j) => t + c * task.hint[j]!, 0),
        bound: null,
        value: (col) => task.hint[col] ?? 0,
        ms: 1,
        peakMb: 0,
      });
    const figures = await solveSameModel(festival, 10, keepsHint, start);
    const subproblems = figures.statuses.filter((s) => s.startsWith('fair:')).length;
    expect(subproblems).to.be.greaterThan(1);
    expect(figures.started).to.equal(subproblems);
    expect(figures).to.include({ filled: 85, fullyStaffed: result.summary.fully_staffed_shifts, sumSquares: squares, problems: 0 });
    // A start that breaks a rule (one volunteer on every shift of their group) is not taken: the greedy fill is.
    const v = festival.volunteers[0]!;
    const broken = festival.unassigned_shifts.filter((s) => v.group in s.required_groups).map((s) => ({ volunteer_id: v.id, shift_id: s.id, group: v.group }));
    const fallback = await solveSameModel(festival, 10, keepsHint, broken);
    expect(fallback.started).to.equal(subproblems - 1);
    expect(fallback.problems).to.equal(0);
  });

  it('hands CP-SAT the model with the held rows’ bounds, free rows left out, and a complete hint', () => {
    const model = new MipModel();
    model.addCol('x_a', 0, 1, true);
    model.addCol('h_a', 0, 8, false);
    model.addRow('one', -Infinity, 1, [0, 1], [1, 0.5]);
    model.addRow('free', -Infinity, Infinity, [0], 1);
    model.addRow('hold', 0, Infinity, [0], 1);
    const task: LevelTask = {
      name: 's0-cover0',
      model,
      objective: { sense: 'max', costs: Float64Array.from([1, 0]) },
      held: new Map([[2, [1, Infinity]]]),
      seconds: 2.5,
      hint: Float64Array.from([1, 0]),
    };
    const request = modelRequest(task, 2) as { model: Record<string, unknown> } & Record<string, unknown>;
    expect(request).to.include({ solverType: 14, solverTimeLimitSeconds: 2.5, solverSpecificParameters: 'num_workers:2' });
    expect(request.model.maximize).to.equal(true);
    expect(request.model.variable).to.deep.equal([
      { name: 'x_a', lowerBound: 0, upperBound: 1, isInteger: true, objectiveCoefficient: 1 },
      { name: 'h_a', lowerBound: 0, upperBound: 8, isInteger: false, objectiveCoefficient: 0 },
    ]);
    expect(request.model.constraint).to.deep.equal([
      { name: 'one', varIndex: [0, 1], coefficient: [1, 0.5], lowerBound: -Infinity, upperBound: 1 },
      { name: 'hold', varIndex: [0], coefficient: [1], lowerBound: 1, upperBound: Infinity },
    ]);
    expect(request.model.solutionHint).to.deep.equal({ varIndex: [0, 1], varValue: [1, 0] });
  });
});
