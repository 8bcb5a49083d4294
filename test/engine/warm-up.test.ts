// The solver workers' warm-up (src/engine/warm-up.ts): the festival group a worker solves once
// the service listens takes the steps it is there to warm, its schedule keeps every rule, and its
// rounds run one to a turn of the event loop until the first job stops them.
import { expect } from 'chai';
import { Budget } from '../../src/engine/budget.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import { decompose } from '../../src/engine/subproblem.js';
import { festivalWarmUpRounds, runBetweenTurns, warmUpFestivalGroup } from '../../src/engine/warm-up.js';
import { normalizeRequest } from '../../src/input/problem.js';
import { checkSchedule } from '../helpers/schedule-checker.js';
import { highsOnce, solve } from '../helpers/engine.js';

describe('engine: the workers warm-up', () => {
  it('the festival group takes every step of a group solved with the backend, and its schedule keeps every rule', async () => {
    const request = warmUpFestivalGroup();
    expect(request).to.deep.equal(warmUpFestivalGroup());
    const [sub, ...others] = decompose(normalizeRequest(request));
    expect(others).to.have.length(0);
    const result = solveSubproblem(structuredClone(sub!), { backend: await highsOnce(), budget: new Budget(Date.now() + 10_000) });
    const steps = result.diagnostics.phases.map((ph) => ph.name);
    // Greedy short of the bound, so the chains and coverage's LP and RINS run; then staffing's LP,
    // the bound by kind, the kicks, the bound by slot and the window it guides.
    const greedy = result.diagnostics.phases[0]!;
    expect(greedy.name).to.equal('greedy');
    expect(greedy.objective).to.be.lessThan(greedy.bound!);
    for (const step of ['augment', 'coverage_lp', 'coverage_rins', 'staffing_lp', 'balance', 'fairness_kicks', 'fairness_lns'])
      expect(steps, JSON.stringify(steps)).to.include(step);
    expect(
      steps.filter((name) => name === 'fairness_bound'),
      JSON.stringify(steps),
    ).to.have.length(2);
    expect(result.diagnostics.time_limited).to.equal(false);
    const { result: answer } = await solve(request);
    expect(checkSchedule(request, answer)).to.deep.equal([]);
  });

  it('festivalWarmUpRounds gives that many rounds, each the same solve, ended on its own', async () => {
    const rounds = festivalWarmUpRounds(await highsOnce(), { rounds: 2 });
    expect(rounds).to.have.length(2);
    const [first, second] = rounds.map((round) => round());
    for (const results of [first!, second!]) {
      expect(results).to.have.length(1);
      expect(results[0]!.diagnostics.time_limited).to.equal(false);
      expect(results[0]!.filled).to.be.greaterThan(0);
    }
    expect(second![0]!.assignments).to.deep.equal(first![0]!.assignments);
  });

  it('a round ends at its next time check once told to stop, and the rounds after it do nothing', async () => {
    const backend = await highsOnce();
    const [full] = festivalWarmUpRounds(backend, { rounds: 1 }).map((round) => round());
    expect(full![0]!.diagnostics.phases.map((ph) => ph.name)).to.include('fairness_lns');
    // Stopped after a few time checks: the solve ends early, with the steps before it.
    let checks = 0;
    const [cut, after] = festivalWarmUpRounds(backend, { stop: () => ++checks > 5, rounds: 2 }).map((round) => round());
    const steps = cut![0]!.diagnostics.phases.map((ph) => ph.name);
    expect(steps, JSON.stringify(steps)).to.not.include('fairness_lns');
    expect(cut![0]!.diagnostics.phases.map((ph) => ph.status)).to.include('cancelled');
    expect(full![0]!.diagnostics.phases.map((ph) => ph.status)).to.not.include('cancelled');
    expect(after).to.deep.equal([]);
  });

  it('runs its rounds one to a turn of the event loop, and a stop drops the rest', async () => {
    const ran: number[] = [];
    const rounds = [0, 1, 2, 3, 4].map((k) => () => void ran.push(k));
    const all = runBetweenTurns(rounds);
    // Nothing runs in the turn that starts them: a message already waiting is handled first.
    expect(ran).to.deep.equal([]);
    await all.done;
    expect(ran).to.deep.equal([0, 1, 2, 3, 4]);

    ran.length = 0;
    const stopped = runBetweenTurns(rounds);
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    stopped.stop();
    await stopped.done;
    expect(ran.length).to.be.within(1, 2);
    expect(ran).to.deep.equal([0, 1].slice(0, ran.length));
  });

  it('a round that throws ends the rounds, and nothing escapes', async () => {
    const ran: number[] = [];
    const failing = runBetweenTurns([
      () => void ran.push(0),
      () => {
        throw new Error('a failed warm-up solve');
      },
      () => void ran.push(2),
    ]);
    await failing.done;
    expect(ran).to.deep.equal([0]);
  });
});
