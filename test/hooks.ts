// Mocha root hooks: release what the whole run shares.
import { closePool } from './helpers/app.js';

export const mochaHooks = {
  async afterAll(): Promise<void> {
    await closePool();
  },
};
