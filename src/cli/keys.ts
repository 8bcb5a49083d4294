// Operator commands for API keys, against the configured database (DATABASE_URL):
// `keys issue` prints the complete key alone on stdout (messages go to stderr), `keys revoke`,
// `keys list` (never prints signatures) and `keys set-quota`.
import { parseArgs } from 'node:util';
import { formatKey, USER_ID } from '../auth/api-keys.js';
import { loadConfig } from '../config/config.js';
import { KeyStore } from '../store/key-store.js';

export const KEYS_HELP = `Usage: volunteer-scheduler keys <command> [options]

Commands (against the database in DATABASE_URL; default sqlite:./data/scheduler.db):
  issue --user ID --name NAME --description TEXT [--quota N]
                 Issue a key (or a new key, invalidating the old one) and print it alone on stdout.
                 ID is 1-64 letters, digits, '_' or '-'; the quota defaults to DEFAULT_DAILY_QUOTA.
  revoke --user ID          Revoke the user's key.
  list                      List users, names, descriptions, quotas and states (no signatures).
  set-quota --user ID --quota N
                            Set the user's daily quota.
`;

export class KeysUsageError extends Error {}

export interface KeysIo {
  out(text: string): void;
  err(text: string): void;
}

function quotaOf(text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > 1e9) throw new KeysUsageError(`--quota is '${text}'; give a whole number of requests per day, such as 1000`);
  return Number(text);
}

function userOf(text: string | undefined): string {
  if (text === undefined) throw new KeysUsageError('--user is required');
  if (!USER_ID.test(text)) throw new KeysUsageError(`--user '${text}' is not a valid user id: use 1-64 letters, digits, '_' or '-'`);
  return text;
}

export async function runKeys(args: string[], io: KeysIo, now: () => Date = () => new Date()): Promise<number> {
  const [command, ...rest] = args;
  if (command === undefined || command === '--help' || command === '-h') {
    io.out(KEYS_HELP);
    return command === undefined ? 2 : 0;
  }
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { user: { type: 'string' }, name: { type: 'string' }, description: { type: 'string' }, quota: { type: 'string' }, help: { type: 'boolean' } },
    }) as unknown as { values: Record<string, string | undefined> });
  } catch (e) {
    throw new KeysUsageError((e as Error).message);
  }
  if (values.help) {
    io.out(KEYS_HELP);
    return 0;
  }
  const config = loadConfig();
  const run = async (body: (store: KeyStore) => Promise<number>): Promise<number> => {
    const store = await KeyStore.open(config.databaseUrl);
    try {
      return await body(store);
    } finally {
      await store.close();
    }
  };
  switch (command) {
    case 'issue': {
      const user = userOf(values.user);
      if (!values.name?.trim()) throw new KeysUsageError('--name is required: who the key is for');
      if (!values.description?.trim()) throw new KeysUsageError('--description is required: what the key is used for');
      const quota = quotaOf(values.quota, config.defaultDailyQuota);
      return run(async (store) => {
        const secret = config.schedulerSecret ?? (await store.sharedSecret());
        const record = await store.issue(user, values.name!.trim(), values.description!.trim(), quota, now());
        io.err(`Issued a key for '${user}' (${record.name}), daily quota ${quota}. Any earlier key of this user no longer works.\n`);
        io.out(`${formatKey(secret, user, record.nonce)}\n`);
        return 0;
      });
    }
    case 'revoke': {
      const user = userOf(values.user);
      return run(async (store) => {
        if (!(await store.revoke(user, now()))) {
          io.err(`volunteer-scheduler: no active key for user '${user}'\n`);
          return 1;
        }
        io.err(`Revoked the key of '${user}'.\n`);
        return 0;
      });
    }
    case 'set-quota': {
      const user = userOf(values.user);
      if (values.quota === undefined) throw new KeysUsageError('--quota is required');
      const quota = quotaOf(values.quota, 0);
      return run(async (store) => {
        if (!(await store.setQuota(user, quota))) {
          io.err(`volunteer-scheduler: no key for user '${user}'\n`);
          return 1;
        }
        io.err(`The daily quota of '${user}' is now ${quota}.\n`);
        return 0;
      });
    }
    case 'list':
      return run(async (store) => {
        const rows = await store.list();
        io.out(`${['user', 'name', 'description', 'quota', 'issued', 'state'].join('\t')}\n`);
        for (const r of rows)
          io.out(`${[r.userId, r.name, r.description, r.quota, r.createdAt, r.revokedAt ? `revoked ${r.revokedAt}` : 'active'].join('\t')}\n`);
        return 0;
      });
    default:
      throw new KeysUsageError(`unknown keys command '${command}'`);
  }
}
