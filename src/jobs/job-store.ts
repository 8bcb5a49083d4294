// The jobs table (CONTRACT.md section 12): the one record of every job, shared by every API
// process and worker on the database. The queue (pg-boss, or the in-process queue) only says
// which job to run next; who runs it, its progress, its result and its end are here. Every
// write a worker makes is fenced by the job's `run`, the number its claim was given: a worker
// that was given up for dead and comes back can no longer write, so a job has one result.
import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { StoreDatabase } from '../store/database.js';
import type { Schema } from '../store/schema.js';

export const JOB_STATUSES = ['queued', 'solving', 'completed', 'failed', 'cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const ACTIVE_STATUSES: readonly JobStatus[] = ['queued', 'solving'];
export const isFinal = (status: string): boolean => status === 'completed' || status === 'failed' || status === 'cancelled';

/** How far a job has come, as GET /api/jobs/<id> shows it. */
export interface JobProgress {
  phase: string;
  elapsed_s: number;
  filled_slots: number;
  demanded_slots: number;
  bound: number | null;
}

export interface JobError {
  code: string;
  message: string;
}

/** What a job is asked to do: the input as sent, and the options. */
export type JobInput =
  | { kind: 'json'; body: Uint8Array; options: Record<string, string> }
  | { kind: 'csv'; volunteers: Uint8Array; shifts: Uint8Array; fields: Record<string, string | string[] | undefined>; options: Record<string, string> };

export type JobRow = Selectable<Schema['jobs']>;
/** A job's row without its input and result (the columns a status read needs). */
export type JobSummary = Omit<JobRow, 'input' | 'input2' | 'result'>;

/** What a claim gives the worker: the fence for its writes, and the input. */
export interface Claim {
  run: number;
  input: JobInput;
  createdAt: string;
  callbackUrl: string | null;
  demandedSlots: number;
}

export type SubmitOutcome = { ok: true; id: string; createdAt: string } | { ok: false; active: number };

const SUMMARY_COLUMNS = [
  'id',
  'user_id',
  'status',
  'created_at',
  'started_at',
  'finished_at',
  'heartbeat_at',
  'kind',
  'fields',
  'options',
  'callback_url',
  'demanded_slots',
  'run',
  'crashes',
  'worker',
  'queue_id',
  'cancel_requested',
  'progress',
  'error',
] as const;

const iso = (d: Date): string => d.toISOString();

export class JobStore {
  private readonly db: Kysely<Schema>;

  constructor(private readonly store: StoreDatabase) {
    this.db = store.db;
  }

  get dialect(): StoreDatabase['dialect'] {
    return this.store.dialect;
  }

  /**
   * Records a queued job unless the user already has `maxActive` queued or solving: the count
   * and the insert are one transaction holding the user's key row (PostgreSQL: FOR UPDATE;
   * SQLite: one writer at a time), so concurrent submits cannot pass the limit together.
   */
  async submit(userId: string, input: JobInput, meta: { callbackUrl?: string; demandedSlots: number; maxActive: number; now: Date }): Promise<SubmitOutcome> {
    const id = randomUUID();
    const createdAt = iso(meta.now);
    return await this.db.transaction().execute(async (tx) => {
      if (this.store.dialect === 'postgres') await sql`select 1 from api_keys where user_id = ${userId} for update`.execute(tx);
      else
        await tx
          .updateTable('api_keys')
          .set({ quota: sql`quota` })
          .where('user_id', '=', userId)
          .execute();
      const active = await tx
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .where('status', 'in', ACTIVE_STATUSES)
        .executeTakeFirstOrThrow();
      if (Number(active.n) >= meta.maxActive) return { ok: false as const, active: Number(active.n) };
      await tx
        .insertInto('jobs')
        .values({
          id,
          user_id: userId,
          status: 'queued',
          created_at: createdAt,
          started_at: null,
          finished_at: null,
          heartbeat_at: null,
          kind: input.kind,
          input: input.kind === 'json' ? input.body : input.volunteers,
          input2: input.kind === 'csv' ? input.shifts : null,
          fields: JSON.stringify(input.kind === 'csv' ? input.fields : {}),
          options: JSON.stringify(input.options),
          callback_url: meta.callbackUrl ?? null,
          demanded_slots: meta.demandedSlots,
          worker: null,
          queue_id: null,
          progress: null,
          result: null,
          error: null,
        })
        .execute();
      return { ok: true as const, id, createdAt };
    });
  }

  /** Remembers the queue's id of the job's entry (pg-boss: to retry or drop it). */
  async setQueueId(id: string, queueId: string): Promise<void> {
    await this.db.updateTable('jobs').set({ queue_id: queueId }).where('id', '=', id).execute();
  }

  /** Drops a job whose queue entry could not be written (the submit is answered 503). */
  async discard(id: string): Promise<void> {
    await this.db.deleteFrom('jobs').where('id', '=', id).where('status', '=', 'queued').execute();
  }

  /** A job of the user (undefined for another user's: they are told 404 alike). */
  async get(id: string, userId: string): Promise<JobSummary | undefined> {
    return await this.db.selectFrom('jobs').select(SUMMARY_COLUMNS).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Several jobs by id, whoever owns them (the event streams' watcher checks ownership first). */
  async many(ids: readonly string[]): Promise<JobSummary[]> {
    if (ids.length === 0) return [];
    return await this.db.selectFrom('jobs').select(SUMMARY_COLUMNS).where('id', 'in', ids).execute();
  }

  async result(id: string, userId: string): Promise<string | null | undefined> {
    const row = await this.db.selectFrom('jobs').select('result').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return row === undefined ? undefined : row.result;
  }

  /** The input of a job (the exports of a result re-read it for names and the time zone). */
  async input(id: string, userId: string): Promise<JobInput | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .select(['kind', 'input', 'input2', 'fields', 'options'])
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row && toInput(row);
  }

  /** The user's jobs, most recent first. */
  async list(userId: string, limit: number, status?: JobStatus): Promise<JobSummary[]> {
    let q = this.db.selectFrom('jobs').select(SUMMARY_COLUMNS).where('user_id', '=', userId);
    if (status !== undefined) q = q.where('status', '=', status);
    return await q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /**
   * Takes a queued job for a worker: status solving, a new run number. Undefined when the job
   * is gone, cancelled, or already taken (a duplicate delivery), so the worker skips it.
   */
  async claim(id: string, worker: string, now: Date): Promise<Claim | undefined> {
    const at = iso(now);
    const row = await this.db
      .updateTable('jobs')
      .set({
        status: 'solving',
        run: sql`run + 1`,
        worker,
        started_at: sql`coalesce(started_at, ${at})`,
        heartbeat_at: at,
        progress: null,
        cancel_requested: 0,
      })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .returning(['run', 'kind', 'input', 'input2', 'fields', 'options', 'created_at', 'callback_url', 'demanded_slots'])
      .executeTakeFirst();
    if (!row) return undefined;
    return { run: row.run, input: toInput(row), createdAt: row.created_at, callbackUrl: row.callback_url, demandedSlots: row.demanded_slots };
  }

  /**
   * The worker is alive: returns whether a cancel was asked, or 'lost' when the job is no longer
   * this run's (given up for dead and handed to another, or deleted).
   */
  async heartbeat(id: string, run: number, now: Date, progress?: JobProgress): Promise<{ cancel: boolean } | 'lost'> {
    const row = await this.db
      .updateTable('jobs')
      .set({ heartbeat_at: iso(now), ...(progress ? { progress: JSON.stringify(progress) } : {}) })
      .where('id', '=', id)
      .where('run', '=', run)
      .where('status', '=', 'solving')
      .returning('cancel_requested')
      .executeTakeFirst();
    return row ? { cancel: row.cancel_requested === 1 } : 'lost';
  }

  /** Ends this run's job; false when the run no longer holds it (nothing is written then). */
  async finish(
    id: string,
    run: number,
    end: { status: 'completed' | 'cancelled' | 'failed'; result?: string; error?: JobError; progress?: JobProgress; now: Date },
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({
        status: end.status,
        finished_at: iso(end.now),
        heartbeat_at: null,
        result: end.result ?? null,
        error: end.error ? JSON.stringify(end.error) : null,
        ...(end.progress ? { progress: JSON.stringify(end.progress) } : {}),
      })
      .where('id', '=', id)
      .where('run', '=', run)
      .where('status', '=', 'solving')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** A worker shutting down gives its job back, unfinished: queued again, not counted as a crash. */
  async handBack(id: string, run: number): Promise<boolean> {
    const r = await this.db
      .updateTable('jobs')
      .set({ status: 'queued', worker: null, heartbeat_at: null, progress: null })
      .where('id', '=', id)
      .where('run', '=', run)
      .where('status', '=', 'solving')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /**
   * Cancels a job of the user: a queued one at once (it never runs), a solving one by a flag its
   * worker reads within a second. Returns the job after, or undefined when it is not the user's.
   */
  async cancel(id: string, userId: string, now: Date): Promise<{ job: JobSummary; now: 'cancelled' | 'requested' | 'ended' } | undefined> {
    const queued = await this.db
      .updateTable('jobs')
      .set({ status: 'cancelled', finished_at: iso(now), cancel_requested: 1 })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    let outcome: 'cancelled' | 'requested' | 'ended' = 'ended';
    if (Number(queued.numUpdatedRows) === 1) outcome = 'cancelled';
    else {
      const solving = await this.db
        .updateTable('jobs')
        .set({ cancel_requested: 1 })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('status', '=', 'solving')
        .executeTakeFirst();
      if (Number(solving.numUpdatedRows) === 1) outcome = 'requested';
    }
    const job = await this.get(id, userId);
    return job && { job, now: outcome };
  }

  /** Solving jobs whose worker has not been heard from since `cutoff`. */
  async stale(cutoff: Date): Promise<Array<Pick<JobRow, 'id' | 'run' | 'crashes' | 'queue_id' | 'cancel_requested' | 'worker'>>> {
    return await this.db
      .selectFrom('jobs')
      .select(['id', 'run', 'crashes', 'queue_id', 'cancel_requested', 'worker'])
      .where('status', '=', 'solving')
      .where('heartbeat_at', '<', iso(cutoff))
      .execute();
  }

  /**
   * A run whose worker died: queued again (counted as a crash), or, past `maxCrashes` or when a
   * cancel was asked, ended. False when the run no longer holds the job.
   */
  async giveUp(
    id: string,
    run: number,
    end: { requeue: true } | { requeue: false; status: 'failed' | 'cancelled'; error?: JobError; now: Date },
  ): Promise<boolean> {
    const set = end.requeue
      ? { status: 'queued', worker: null, heartbeat_at: null, progress: null, crashes: sql<number>`crashes + 1` }
      : {
          status: end.status,
          finished_at: iso(end.now),
          heartbeat_at: null,
          crashes: sql<number>`crashes + 1`,
          error: end.error ? JSON.stringify(end.error) : null,
        };
    const r = await this.db.updateTable('jobs').set(set).where('id', '=', id).where('run', '=', run).where('status', '=', 'solving').executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  /** Queued jobs, oldest first (the in-process queue takes them up again at start). */
  async queued(): Promise<string[]> {
    const rows = await this.db.selectFrom('jobs').select('id').where('status', '=', 'queued').orderBy('created_at').execute();
    return rows.map((r) => r.id);
  }

  /** Jobs by status, for the metrics. */
  async countByStatus(): Promise<Record<JobStatus, number>> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
    for (const r of rows) if ((JOB_STATUSES as readonly string[]).includes(r.status)) counts[r.status as JobStatus] = Number(r.n);
    return counts;
  }

  /** Deletes jobs that ended more than `hours` ago; returns how many. */
  async prune(now: Date, hours: number): Promise<number> {
    const cutoff = iso(new Date(now.getTime() - hours * 3_600_000));
    const r = await this.db.deleteFrom('jobs').where('finished_at', '<', cutoff).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}

function toInput(row: Pick<JobRow, 'kind' | 'input' | 'input2' | 'fields' | 'options'>): JobInput {
  const options = JSON.parse(row.options) as Record<string, string>;
  if (row.kind === 'csv') {
    return {
      kind: 'csv',
      volunteers: new Uint8Array(row.input),
      shifts: new Uint8Array(row.input2 ?? new Uint8Array()),
      fields: JSON.parse(row.fields) as Record<string, string | string[] | undefined>,
      options,
    };
  }
  return { kind: 'json', body: new Uint8Array(row.input), options };
}
