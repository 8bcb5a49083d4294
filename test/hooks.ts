// Mocha root hooks: open what the whole run shares, and release it at the end.
import { closeShared, openSharedStore } from './helpers/app.js';

export const mochaHooks = {
  async beforeAll(): Promise<void> {
    await openSharedStore();
  },
  async afterAll(): Promise<void> {
    await closeShared();
  },
};
