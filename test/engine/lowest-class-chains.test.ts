// Before the lowest priority class's LP, the augmenting chains and trades of the construction run
// again (levels.ts chainsForLowestClass): the classes above were solved without that class's
// pairs in their MIPs, so it starts below what the chains reach. On a clock that stands still
// (nothing ends on the clock), the phase comes once, after every phase of the classes above and
// before the lowest class's own; its schedule is the one before it through improveCoverage and
// the greedy fill (the chains, trades and fill for the lowest class alone), filling more of the lowest class and no fewer of any class above; its note says
// what it gained; and a subproblem of one class has no such phase. (The refusal of a schedule that
// moves a slot out of a class above is not exercised: on this roster the chains' schedule is taken.)
import { expect } from 'chai';
import { Budget } from '../../src/engine/budget.js';
import { prepare } from '../../src/engine/candidates.js';
import { chronologicalShifts, filledByClass, greedyFill } from '../../src/engine/greedy.js';
import { improveCoverage } from '../../src/engine/local-search.js';
import { solveSubproblem } from '../../src/engine/solve-subproblem.js';
import { highsOnce, incumbentRecorder, largest, scarceWithRules } from '../helpers/engine.js';
import { festival } from '../../bench/generate.js';

describe('engine: the augmenting chains again before the lowest priority class', function () {
  this.timeout(120_000);

  it('run once, between the classes above and the lowest class, and fill more of it and no fewer of any class above', async () => {
    const sub = scarceWithRules();
    const p = prepare(sub);
    const lowest = p.classes.length - 1;
    expect(lowest, 'several priority classes').to.be.greaterThan(1);
    const priority = p.classes[lowest]!;
    const { incumbents, onIncumbent } = incumbentRecorder(sub, p);
    const t0 = Date.now();
    const frozen = (): Budget => new Budget(t0 + 60_000, () => t0);
    const result = solveSubproblem(sub, { backend: await highsOnce(), budget: frozen(), onIncumbent });
    const phases = result.diagnostics.phases;
    const chains = phases.filter((ph) => ph.name === 'augment');
    expect(chains.map((ph) => ph.priority)).to.deep.equal([undefined, priority], "the construction's chains, then the lowest class's");
    const at = phases.indexOf(chains[1]!);
    expect(
      phases.slice(0, at).some((ph) => ph.priority === priority),
      'no phase of the lowest class before it',
    ).to.equal(false);
    expect(
      phases.slice(at + 1).every((ph) => ph.priority === undefined || ph.priority === priority),
      'no phase of a class above after it',
    ).to.equal(true);
    expect(phases[at + 1]!.name, 'the lowest class LP follows').to.equal('coverage_lp');
    // Its schedule: the one before, through the chains (a frozen clock: they end on their own).
    const found = incumbents.findIndex((inc, i) => i > 0 && inc.phase === 'augment');
    expect(found, 'the chains found a better schedule').to.be.greaterThan(0);
    const before = incumbents[found - 1]!.x;
    const expected = greedyFill(
      p,
      improveCoverage(p, before, frozen(), { onlyClass: lowest }),
      chronologicalShifts(p).filter((slot) => p.slotClass[slot] === lowest),
    );
    expect(Array.from(incumbents[found]!.x)).to.deep.equal(Array.from(expected));
    const [was, now] = [filledByClass(p, before), filledByClass(p, expected)];
    expect(now[lowest]!).to.be.greaterThan(was[lowest]!);
    now.slice(0, lowest).forEach((n, k) => expect(n, `class index ${k}`).to.be.at.least(was[k]!));
    expect(chains[1]!.note).to.equal(`the augmenting chains before the lowest class's LP: +${now[lowest]! - was[lowest]!}`);
    expect(chains[1]!.objective, "the lowest class's slots after it").to.equal(now[lowest]);
  });

  it('do not run where the shifts have one priority', async () => {
    const request = festival({ seed: 41, volunteers: 30, shifts: 60, days: 2, groups: 2, demand: 1.5 });
    const sub = largest(request);
    expect(prepare(sub).classes).to.have.length(1);
    const t0 = Date.now();
    const result = solveSubproblem(sub, { backend: await highsOnce(), budget: new Budget(t0 + 60_000, () => t0) });
    const phases = result.diagnostics.phases;
    // Coverage went past its construction (where the lowest class's chains would run), then no second augment.
    expect(phases.find((ph) => ph.name === 'augment')!.status, 'the construction leaves coverage unproven').to.not.equal('optimal');
    expect(phases.some((ph) => ph.name === 'coverage_lp')).to.equal(true);
    expect(phases.filter((ph) => ph.name === 'augment')).to.have.length(1);
  });
});
