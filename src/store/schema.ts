// The tables, as Kysely sees them.
import type { Generated } from 'kysely';

export interface Schema {
  settings: { key: string; value: string };
  api_keys: {
    user_id: string;
    name: string;
    description: string;
    nonce: string;
    quota: number;
    created_at: string;
    revoked_at: string | null;
  };
  usage_counters: { user_id: string; period: string; count: number };
  usage_history: {
    id: Generated<number>;
    user_id: string;
    timestamp: string;
    method: string;
    endpoint: string;
    status: number;
    duration_ms: number;
    request_id: string;
  };
}
