// The schedule command's progress lines, driven by a hand-turned clock: a line once a second
// while solving (none for a solve that ends within the first second), and a closing line.
import { expect } from 'chai';
import { ProgressLine, type ProgressClock } from '../../src/cli/main.js';

/** A clock the test moves: `second()` advances it by one second and fires the tick. */
function handClock(): ProgressClock & { second(): void; stopped: boolean } {
  let now = 1_000_000;
  let tick: (() => void) | undefined;
  const clock = {
    stopped: false,
    now: () => now,
    everySecond: (t: () => void) => {
      tick = t;
      return { stop: () => void (clock.stopped = true) };
    },
    second: () => {
      now += 1000;
      tick?.();
    },
  };
  return clock;
}

function progressWith(clock: ProgressClock): { progress: ProgressLine; lines: string[] } {
  const lines: string[] = [];
  const progress = new ProgressLine({ out: () => {}, err: (text: string) => lines.push(text) }, clock);
  return { progress, lines };
}

describe('volunteer-scheduler schedule: progress lines', () => {
  it('prints nothing for a solve that ends within the first second, and stops its tick', () => {
    const clock = handClock();
    const { progress, lines } = progressWith(clock);
    progress.update({ groupsDone: 1, groupsRunning: 0, filled: 3 });
    progress.stop();
    expect(lines).to.deep.equal([]);
    expect(clock.stopped).to.equal(true);
  });

  it('prints a line each second with groups done, running and slots filled, then a done line', () => {
    const clock = handClock();
    const { progress, lines } = progressWith(clock);
    progress.update({ groupsDone: 0, groupsRunning: 2, filled: 2 });
    clock.second();
    progress.update({ groupsDone: 1, groupsRunning: 1, filled: 5 });
    clock.second();
    progress.update({ groupsDone: 2, groupsRunning: 0, filled: 9 });
    progress.stop();
    progress.stop();
    expect(lines).to.deep.equal([
      '[1.0 s] solving: 0 groups done, 2 running, 2 slots filled so far by new assignments\n',
      '[2.0 s] solving: 1 group done, 1 running, 5 slots filled so far by new assignments\n',
      '[2.0 s] done: 2 groups done, 0 running, 9 slots filled so far by new assignments\n',
    ]);
  });
});
