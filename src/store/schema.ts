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
  jobs: {
    id: string;
    user_id: string;
    status: string;
    created_at: string;
    started_at: string | null;
    finished_at: string | null;
    heartbeat_at: string | null;
    /** 'json' (input: the body) or 'csv' (input: volunteers.csv, input2: shifts.csv). */
    kind: string;
    input: Uint8Array;
    input2: Uint8Array | null;
    /** JSON: the CSV upload's text fields (timezone, rule fields); {} for JSON. */
    fields: string;
    /** JSON: the query options, as sent (callback_url aside). */
    options: string;
    callback_url: string | null;
    demanded_slots: number;
    /** Incremented by every claim: the fence a worker's writes are conditioned on. */
    run: Generated<number>;
    /** Times a worker died while solving it. */
    crashes: Generated<number>;
    worker: string | null;
    queue_id: string | null;
    cancel_requested: Generated<number>;
    progress: string | null;
    result: string | null;
    error: string | null;
  };
}
