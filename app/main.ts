// The coordinator's page at /app: a key, the two CSV exports (or a JSON request) and a time zone
// in; the schedule run as a background job (POST /api/jobs) whose progress is shown while it
// solves and which can be cancelled (the best schedule so far is kept); then the schedule out as
// a timeline, hours per volunteer, the reasons beside every empty slot, and the job's CSV and
// iCalendar exports (GET /api/jobs/<id>/result with Accept) to download. Plain DOM: every name
// and sentence from the service is set as text (textContent, createTextNode), never as HTML, and
// the page runs under the service's Content-Security-Policy (no inline script). The key goes in
// the Authorization header only, so the progress stream is read with fetch(), not EventSource.

interface RosterEntry {
  shift_id: string;
  group: string | null;
  volunteer_id: string;
  locked: boolean;
  start: string;
  end: string;
}
interface Conflict {
  shift_id: string;
  group: string;
  reasons: string[];
  required: number;
  assigned: number;
  missing: number;
  /** Only counted: the service writes each as a sentence at the end of reasons. */
  suggestions: unknown[];
}
interface ScheduleResult {
  unfilled_shifts: string[];
  fairness_score: number;
  conflicts: Conflict[];
  volunteers: Record<string, { assigned_hours: number; assigned_shifts: string[] }>;
  warnings: Array<{ code: string; message: string }>;
  roster: RosterEntry[];
  /** Only when the request re-planned a published schedule (previous assignments). */
  changes?: {
    kept: number;
    dropped: Array<{ shift_id: string; volunteer_id: string; message: string }>;
    added: Array<{ shift_id: string; volunteer_id: string }>;
  };
}
interface Problem {
  title?: string;
  detail?: string;
  /** CSV problems also say where: the file, its row and column. */
  errors?: Array<{ message?: string; file?: string; row?: number; column?: string }>;
}

/** A wall-clock time in the chosen zone. */
interface Wall {
  day: string;
  minutes: number;
  label: string;
}
interface Slot {
  volunteerId: string | null;
  locked: boolean;
  /** New since the published schedule (re-planning): the volunteer must be told. */
  added?: boolean;
  conflict?: Conflict;
}
interface ShiftView {
  id: string;
  group: string;
  start: Wall;
  end: Wall;
  slots: Slot[];
}

/** What one run sends to POST /api/jobs. */
interface RunRequest {
  query: string;
  body: () => BodyInit;
  headers: Record<string, string>;
}

/** A job as GET /api/jobs/<id> and its event stream show it. */
interface Job {
  id: string;
  status: 'queued' | 'solving' | 'completed' | 'failed' | 'cancelled';
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress?: { phase: string; elapsed_s: number; filled_slots: number; demanded_slots: number; bound: number | null };
  error?: { code?: string; message?: string };
  cancel_requested?: boolean;
  links?: { self: string; result: string; events: string };
}

const NO_GROUP = '(no group)';

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing`);
  return found as T;
}

/** An element with attributes and children; strings become text nodes (never HTML). */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return node;
}

function clear(node: HTMLElement): void {
  node.replaceChildren();
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

// ---- time ----

function zones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  const all = intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : [];
  return all.includes('UTC') ? all : ['UTC', ...all];
}

function validZone(zone: string): boolean {
  if (!/^[A-Za-z]/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function clockLabel(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = String(minutes % 60).padStart(2, '0');
  return `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? 'AM' : 'PM'}`;
}

function wallFromParts(year: number, month: number, day: number, minutes: number): Wall {
  const iso = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return { day: iso, minutes, label: clockLabel(minutes) };
}

/** A UTC instant (RFC 3339) as the wall clock of `zone`. */
function wallOf(iso: string, zone: string): Wall {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? '0');
  return wallFromParts(part('year'), part('month'), part('day'), part('hour') * 60 + part('minute'));
}

/** A CSV export time, `M/D/YYYY h:mm AM`, already in the zone. */
function wallOfCsv(text: string): Wall | undefined {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4}) (\d{1,2}):(\d{2}) (AM|PM)$/.exec(text.trim());
  if (!m) return undefined;
  const hour = (Number(m[4]) % 12) + (m[6] === 'PM' ? 12 : 0);
  return wallFromParts(Number(m[3]), Number(m[1]), Number(m[2]), hour * 60 + Number(m[5]));
}

function dayHeading(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1)).toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

// ---- CSV export (as the service writes it) ----

/** Reads the service's CSV export: BOM, CRLF, quoted cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const s = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** The export guards cells against formulas with a leading apostrophe; the page shows the name as written. */
function unguard(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

// ---- sentences ----

function fairnessInWords(score: number): string {
  const word = score === 0 ? 'perfectly even' : score < 0.05 ? 'very even' : score < 0.15 ? 'fairly even' : score < 0.4 ? 'somewhat uneven' : 'uneven';
  return `Hours are spread ${word} (fairness score ${score}; 0 means everyone has the same hours, higher means less even).`;
}

// ---- state ----

const state: {
  names: Map<string, string>;
  result?: ScheduleResult;
  /** The job whose schedule is shown (its result gives the downloads). */
  jobId?: string;
  zone: string;
  /** The CSV export's bytes, as the service sent them (BOM included). */
  csv?: ArrayBuffer;
  /** The job being followed now, and whether Cancel was pressed. */
  running?: { id: string; cancelling: boolean };
} = { names: new Map(), zone: 'UTC' };

/** A volunteer's name; with the id beside it when another volunteer has the same name. */
function nameOf(id: string): string {
  const name = state.names.get(id) ?? id;
  if (name === id) return name;
  let same = 0;
  for (const other of state.names.values()) if (other === name) same++;
  return same > 1 ? `${name} (${id})` : name;
}

/** The live region: said aloud when a run changes state, never on every progress tick. */
function setStatus(text: string, busy = false): void {
  const status = byId('status');
  if (status.textContent !== text) status.textContent = text;
  status.classList.toggle('busy', busy);
}

function showError(problem: Problem | string): void {
  const box = byId('error');
  clear(box);
  if (typeof problem === 'string') {
    box.append(el('p', {}, problem));
    return;
  }
  box.append(el('p', {}, el('strong', {}, problem.title ?? 'The service refused the request'), `: ${problem.detail ?? ''}`));
  const where = (e: NonNullable<Problem['errors']>[number]): string => {
    const at = [
      e.file === 'volunteers' ? 'Volunteers file' : e.file === 'shifts' ? 'Shifts file' : '',
      e.row !== undefined ? `row ${e.row}` : '',
      e.column ?? '',
    ].filter(Boolean);
    return at.length > 0 ? `${at.join(', ')}: ` : '';
  };
  const list = (problem.errors ?? []).slice(0, 20).map((e) => el('li', {}, `${where(e)}${e.message ?? ''}`));
  if (list.length > 0) box.append(el('ul', {}, ...list));
}

async function readProblem(response: Response): Promise<Problem> {
  try {
    return (await response.json()) as Problem;
  } catch {
    return { title: `HTTP ${response.status}`, detail: response.statusText };
  }
}

function key(): string {
  return byId<HTMLInputElement>('api-key').value.trim();
}

function file(id: string): File | undefined {
  return byId<HTMLInputElement>(id).files?.[0];
}

function source(): 'csv' | 'json' {
  return document.querySelector<HTMLInputElement>('input[name="source"]:checked')?.value === 'json' ? 'json' : 'csv';
}

async function buildRequest(zone: string): Promise<RunRequest | string> {
  const limit = byId<HTMLSelectElement>('time-limit').value;
  const query = `?timezone=${encodeURIComponent(zone)}${limit === '' ? '' : `&time_limit=${encodeURIComponent(limit)}`}`;
  if (source() === 'csv') {
    const volunteers = file('volunteers-file');
    const shifts = file('shifts-file');
    if (!volunteers || !shifts) return 'Choose both files: the volunteers export and the shifts export.';
    const minRest = byId<HTMLInputElement>('min-rest').value.trim();
    const maxPerDay = byId<HTMLInputElement>('max-per-day').value.trim();
    return {
      query,
      headers: {},
      body: () => {
        const form = new FormData();
        form.append('volunteers', volunteers, volunteers.name);
        form.append('shifts', shifts, shifts.name);
        form.append('timezone', zone);
        if (minRest !== '') form.append('min_rest_hours', minRest);
        if (maxPerDay !== '') form.append('max_shifts_per_day', maxPerDay);
        return form;
      },
    };
  }
  const json = file('request-file');
  if (!json) return 'Choose the JSON request file.';
  const text = await json.text();
  try {
    const parsed = JSON.parse(text) as { volunteers?: Array<{ id?: unknown; name?: unknown }> };
    for (const v of parsed.volunteers ?? []) if (typeof v.id === 'string' && typeof v.name === 'string') state.names.set(v.id, v.name);
  } catch {
    return 'The JSON file is not valid JSON.';
  }
  return { query, headers: { 'Content-Type': 'application/json' }, body: () => text };
}

/** A request to the service with the key, in the Authorization header only. */
function api(path: string, init: RequestInit & { accept?: string } = {}): Promise<Response> {
  const { accept, headers, ...rest } = init;
  return fetch(path, {
    ...rest,
    headers: { ...(headers as Record<string, string> | undefined), Authorization: `Bearer ${key()}`, Accept: accept ?? 'application/json' },
  });
}

/** A job's result in a format (JSON, or the CSV or iCalendar export), the times in the run's zone. */
function jobResult(id: string, zone: string, accept: string): Promise<Response> {
  return api(`/api/jobs/${encodeURIComponent(id)}/result?timezone=${encodeURIComponent(zone)}`, { accept });
}

const seconds = (s: number): string => `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;

// ---- progress ----

const PHASES: Record<string, string> = {
  queued: 'Waiting for a free solver',
  preparing: 'Reading your data',
  solving: 'Starting the search',
  greedy: 'Finding a first schedule',
  augment: 'Filling more slots by moving people around',
  coverage_lp: 'Working out how many slots can be filled',
  coverage_rins: 'Filling as many slots as possible',
  coverage: 'Filling as many slots as possible',
  coverage_lns: 'Filling more slots, one part of the roster at a time',
  staffing_moves: 'Staffing shifts fully by moving people around',
  staffing_lp: 'Working out how many shifts can be fully staffed',
  staffing_rins: 'Staffing as many shifts fully as possible',
  staffing: 'Staffing as many shifts fully as possible',
  staffing_lns: 'Staffing more shifts fully, one part of the roster at a time',
  wishes: "Moving people to honour volunteers' wishes",
  previous_lp: 'Working out how much of the published schedule can stay',
  previous: 'Keeping as much of the published schedule as possible',
  avoided_lp: 'Working out how few avoided shifts can be given',
  avoided_rins: 'Giving as few people as possible shifts they asked to avoid',
  avoided: 'Giving as few people as possible shifts they asked to avoid',
  avoided_lns: 'Giving fewer people shifts they asked to avoid, one part of the roster at a time',
  short_lp: 'Working out how close everyone can come to their hoped-for hours',
  short_rins: 'Bringing people up to the hours they hoped to give',
  short: 'Bringing people up to the hours they hoped to give',
  short_lns: 'Bringing people up to their hoped-for hours, one part of the roster at a time',
  preferred_lp: 'Working out how many preferred shifts can be given',
  preferred_rins: 'Giving people the shifts they asked for',
  preferred: 'Giving people the shifts they asked for',
  preferred_lns: 'Giving people the shifts they asked for, one part of the roster at a time',
  balance: 'Evening out the hours',
  fairness_lp: 'Working out the fairest spread of hours',
  fairness: 'Spreading the hours fairly',
  fairness_rins: 'Spreading the hours fairly',
  fairness_lns: 'Spreading the hours fairly, one part of the roster at a time',
  fairness_kicks: 'Spreading the hours fairly by trying other arrangements',
  done: 'Finished',
  completed: 'Finished',
  cancelled: 'Cancelled',
  failed: 'Stopped on an error',
};

function phaseInWords(job: Job): string {
  if (job.status === 'solving' && job.cancel_requested) return 'Cancelling: keeping the best schedule found so far';
  if (job.status === 'cancelled') return 'Cancelled';
  if (job.status === 'failed') return PHASES.failed!;
  const phase = job.status === 'queued' ? 'queued' : (job.progress?.phase ?? job.status);
  return PHASES[phase] ?? phase.replace(/_/g, ' ');
}

/** The job's state as one sentence for the live region: it changes only with the status. */
function statusInWords(job: Job): string {
  if (job.status === 'queued') return 'Your schedule is queued; it starts when a solver is free.';
  if (job.status === 'solving') {
    return job.cancel_requested || state.running?.cancelling
      ? 'Cancelling; the best schedule found so far is kept…'
      : 'Solving your schedule. You can cancel it and keep the best schedule found so far.';
  }
  return '';
}

const isFinal = (job: Job): boolean => job.status === 'completed' || job.status === 'failed' || job.status === 'cancelled';

/** Elapsed seconds: the solver's count at the last event, carried on by this page's clock. */
const clock = { elapsed: 0, at: 0, ticking: false };

function showElapsed(): void {
  const s = clock.elapsed + (clock.ticking ? (Date.now() - clock.at) / 1000 : 0);
  byId('job-elapsed').textContent = clock.ticking ? `${Math.floor(s)} s` : s > 0 ? seconds(s) : '–';
}

function showJob(job: Job): void {
  byId('job').hidden = false;
  const bar = byId<HTMLProgressElement>('job-bar');
  const p = job.progress;
  const demanded = p?.demanded_slots ?? 0;
  if (job.status === 'queued' || !p) {
    bar.removeAttribute('value');
    byId('job-filled').textContent = demanded > 0 ? `None of ${plural(demanded, 'slot')} filled yet` : 'Not started yet';
  } else {
    bar.max = Math.max(1, demanded);
    bar.value = Math.min(p.filled_slots, bar.max);
    byId('job-filled').textContent = `${p.filled_slots} of ${plural(demanded, 'slot')} filled`;
  }
  byId('job-phase').textContent = phaseInWords(job);
  // The proven bound, while the search runs. After the end the last bound sent can be stale
  // (the final count is the result's), and one below the slots filled is no bound at all.
  const bound = byId('job-bound');
  bound.parentElement!.hidden = isFinal(job);
  bound.textContent =
    p && p.bound !== null && job.status === 'solving' && p.bound >= p.filled_slots
      ? p.bound >= demanded
        ? 'every slot can be filled (proven)'
        : `at most ${p.bound} of ${plural(demanded, 'slot')} can be filled (proven)`
      : 'not known yet';
  // The service counts anew only when the progress changes (a poll may bring an old count):
  // while solving, the time shown never goes back.
  const shown = clock.elapsed + (clock.ticking ? (Date.now() - clock.at) / 1000 : 0);
  clock.elapsed = p && job.status !== 'queued' ? (job.status === 'solving' ? Math.max(p.elapsed_s, shown) : p.elapsed_s) : 0;
  clock.at = Date.now();
  clock.ticking = job.status === 'solving';
  showElapsed();
  const cancel = byId<HTMLButtonElement>('cancel');
  const final = job.status !== 'queued' && job.status !== 'solving';
  cancel.hidden = final;
  byId('cancel-help').hidden = final;
  if (job.cancel_requested) cancel.disabled = true;
  if (!final) setStatus(statusInWords(job), true);
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => window.setTimeout(resolve, ms));

/** How long the event stream may stay silent (the service sends a comment every 15 s). */
const STREAM_SILENCE_MS = 40_000;

/**
 * Follows a job on its event stream (text/event-stream read with fetch, since the key goes in a
 * header): every `progress` event is shown, the `end` event gives the final job. Undefined when
 * the stream broke or ended early; the caller then polls.
 */
async function streamJob(id: string, onJob: (job: Job) => void): Promise<Job | undefined> {
  const abort = new AbortController();
  let silence = window.setTimeout(() => {
    abort.abort();
  }, STREAM_SILENCE_MS);
  try {
    const response = await api(`/api/jobs/${encodeURIComponent(id)}/events`, { accept: 'text/event-stream', signal: abort.signal });
    if (!response.ok || !response.body) return undefined;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let event = 'message';
    let data: string[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return undefined;
      window.clearTimeout(silence);
      silence = window.setTimeout(() => {
        abort.abort();
      }, STREAM_SILENCE_MS);
      buffer += value;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const raw of lines) {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (line === '') {
          if (data.length > 0 && (event === 'progress' || event === 'end')) {
            const job = JSON.parse(data.join('\n')) as Job;
            onJob(job);
            if (event === 'end' || isFinal(job)) {
              void reader.cancel().catch(() => undefined);
              return job;
            }
          }
          event = 'message';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
    }
  } catch {
    return undefined;
  } finally {
    window.clearTimeout(silence);
    abort.abort();
  }
}

/** Follows a job by reading it once a second; gives up after two minutes without an answer. */
async function pollJob(id: string, onJob: (job: Job) => void): Promise<Job> {
  let failingSince: number | undefined;
  for (let pause = 1000; ;) {
    try {
      const response = await api(`/api/jobs/${encodeURIComponent(id)}`);
      if (!response.ok) throw Object.assign(new Error(), { problem: await readProblem(response), status: response.status });
      failingSince = undefined;
      pause = 1000;
      const job = (await response.json()) as Job;
      onJob(job);
      if (isFinal(job)) return job;
    } catch (e) {
      const status = (e as { status?: number }).status;
      // A refusal (the job is gone, the key no longer valid) will not change by asking again.
      if (status !== undefined && status >= 400 && status < 500 && status !== 429) throw e;
      failingSince ??= Date.now();
      if (Date.now() - failingSince > 120_000) throw e;
      pause = Math.min(pause * 2, 8000);
    }
    await wait(pause);
  }
}

async function cancelJob(): Promise<void> {
  const running = state.running;
  if (!running || running.cancelling) return;
  running.cancelling = true;
  byId<HTMLButtonElement>('cancel').disabled = true;
  setStatus('Cancelling; the best schedule found so far is kept…', true);
  try {
    const response = await api(`/api/jobs/${encodeURIComponent(running.id)}`, { method: 'DELETE' });
    // 409: it ended meanwhile; its end arrives on the stream like any other.
    if (!response.ok && response.status !== 409) {
      showError(await readProblem(response));
      running.cancelling = false;
      byId<HTMLButtonElement>('cancel').disabled = false;
    }
  } catch (e) {
    showError(`The service could not be reached to cancel: ${e instanceof Error ? e.message : String(e)}`);
    running.cancelling = false;
    byId<HTMLButtonElement>('cancel').disabled = false;
  }
}

// ---- a run ----

async function run(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (state.running) return;
  clear(byId('error'));
  const zone = byId<HTMLInputElement>('time-zone').value.trim() || 'UTC';
  if (key() === '') {
    showError('Enter your API key first.');
    byId('api-key').focus();
    return;
  }
  if (!validZone(zone)) {
    showError(`"${zone}" is not a time zone name; pick one from the list, such as America/Chicago or UTC.`);
    byId('time-zone').focus();
    return;
  }
  state.names = new Map();
  const request = await buildRequest(zone);
  if (typeof request === 'string') {
    showError(request);
    return;
  }
  const button = byId<HTMLButtonElement>('run');
  button.disabled = true;
  byId('results').hidden = true;
  byId('job').hidden = true;
  const started = Date.now();
  const timer = window.setInterval(showElapsed, 1000);
  setStatus('Sending your data…', true);
  try {
    const submitted = await api(`/api/jobs${request.query}`, { method: 'POST', headers: request.headers, body: request.body() });
    if (submitted.status !== 202) {
      showError(await readProblem(submitted));
      setStatus('');
      return;
    }
    const job = (await submitted.json()) as Job;
    state.running = { id: job.id, cancelling: false };
    byId<HTMLButtonElement>('cancel').disabled = false;
    showJob({ ...job, started_at: null, finished_at: null });
    byId('cancel').focus();
    const onJob = (j: Job): void => {
      if (state.running?.id === j.id) showJob(j);
    };
    const ended = (await streamJob(job.id, onJob)) ?? (await pollJob(job.id, onJob));
    await finish(ended, zone, started);
  } catch (e) {
    const problem = (e as { problem?: Problem }).problem;
    if (problem) showError(problem);
    else showError(`The service could not be reached: ${e instanceof Error ? e.message : String(e)}`);
    setStatus('');
  } finally {
    window.clearInterval(timer);
    clock.ticking = false;
    state.running = undefined;
    const cancel = byId('cancel');
    const hadFocus = document.activeElement === cancel || document.activeElement === document.body;
    cancel.hidden = true;
    byId('cancel-help').hidden = true;
    button.disabled = false;
    // Without a schedule to move to (an error, a cancel before the start), the keyboard is
    // given back the button that runs again.
    if (hadFocus && byId('results').hidden) button.focus();
  }
}

/** A job has ended: its schedule shown (completed, or kept at a cancel), or why there is none. */
async function finish(job: Job, zone: string, started: number): Promise<void> {
  const took = seconds((Date.now() - started) / 1000);
  if (job.status === 'failed') {
    showError({ title: 'The schedule could not be made', detail: job.error?.message ?? 'the job failed without saying why.' });
    setStatus('The job failed; nothing was scheduled.');
    return;
  }
  setStatus(job.status === 'cancelled' ? 'Cancelled; fetching the schedule kept…' : 'Solved; preparing the roster…', true);
  const response = await jobResult(job.id, zone, 'application/json');
  if (!response.ok) {
    const problem = await readProblem(response);
    if (job.status === 'cancelled' && response.status === 409) {
      setStatus('Cancelled before the search started: there is no schedule.');
      return;
    }
    showError(problem);
    setStatus('');
    return;
  }
  const result = (await response.json()) as ScheduleResult;
  // The CSV export of the same result (no second solve): the roster for the download, the names
  // of the volunteers (CSV uploads), and the times of the shifts nobody could be found for.
  const csvResponse = await jobResult(job.id, zone, 'text/csv');
  if (!csvResponse.ok) {
    showError(await readProblem(csvResponse));
    setStatus('');
    return;
  }
  state.csv = await csvResponse.arrayBuffer();
  state.result = result;
  state.jobId = job.id;
  state.zone = zone;
  const note = byId('result-note');
  note.hidden = job.status !== 'cancelled';
  note.textContent =
    job.status === 'cancelled'
      ? 'You cancelled this run: this is the best schedule found before it stopped. A full run may fill more slots or spread the hours more evenly.'
      : '';
  render(result, parseCsv(new TextDecoder().decode(state.csv)));
  setStatus(job.status === 'cancelled' ? `Cancelled after ${took}; the best schedule found is shown.` : `Done in ${took}.`);
  byId('results-title').focus();
}

// ---- rendering ----

function buildShifts(result: ScheduleResult, csvRows: string[][]): ShiftView[] {
  const views = new Map<string, ShiftView>();
  const view = (shiftId: string, group: string, start: Wall, end: Wall): ShiftView => {
    const k = `${shiftId}\u0000${group}`;
    let v = views.get(k);
    if (!v) {
      v = { id: shiftId, group, start, end, slots: [] };
      views.set(k, v);
    }
    return v;
  };
  const times = new Map<string, { start: Wall; end: Wall }>();
  for (const row of csvRows.slice(1)) {
    const [shiftId, start, end, , volunteerId, name] = row.map(unguard);
    const s = wallOfCsv(start ?? '');
    const e = wallOfCsv(end ?? '');
    if (shiftId !== undefined && s && e) times.set(shiftId, { start: s, end: e });
    if (volunteerId && name && !state.names.has(volunteerId)) state.names.set(volunteerId, name);
  }
  const added = new Set((result.changes?.added ?? []).map((a) => `${a.shift_id}\u0000${a.volunteer_id}`));
  for (const entry of result.roster) {
    const v = view(entry.shift_id, entry.group ?? NO_GROUP, wallOf(entry.start, state.zone), wallOf(entry.end, state.zone));
    v.slots.push({ volunteerId: entry.volunteer_id, locked: entry.locked, added: added.has(`${entry.shift_id}\u0000${entry.volunteer_id}`) });
    times.set(entry.shift_id, { start: v.start, end: v.end });
  }
  for (const conflict of result.conflicts) {
    const t = times.get(conflict.shift_id) ?? { start: wallFromParts(1970, 1, 1, 0), end: wallFromParts(1970, 1, 1, 0) };
    const v = view(conflict.shift_id, conflict.group, t.start, t.end);
    for (let i = 0; i < conflict.missing; i++) v.slots.push({ volunteerId: null, locked: false, conflict });
  }
  return [...views.values()].sort((a, b) => a.start.day.localeCompare(b.start.day) || a.start.minutes - b.start.minutes);
}

function slotItem(slot: Slot, shift: ShiftView, index: number): HTMLLIElement {
  if (slot.volunteerId !== null) {
    const item = el('li', { class: slot.locked ? 'slot filled locked' : 'slot filled' }, el('span', { class: 'name' }, nameOf(slot.volunteerId)));
    if (slot.locked) item.append(' ', el('span', { class: 'badge' }, 'Locked'));
    if (slot.added) item.append(' ', el('span', { class: 'badge' }, 'New'));
    return item;
  }
  const conflict = slot.conflict;
  const item = el('li', { class: 'slot empty' }, el('span', { class: 'name' }, 'Empty slot'));
  if (conflict) {
    const details = el('details', { class: 'why', id: `why-${shift.id}-${shift.group}-${index}`.replace(/[^A-Za-z0-9_-]/g, '_') });
    // The service ends the reasons with one sentence per suggestion, in the suggestions' order.
    const fills = conflict.suggestions.length < conflict.reasons.length ? conflict.suggestions.length : 0;
    const why = conflict.reasons.slice(0, conflict.reasons.length - fills);
    details.append(el('summary', {}, 'Why is it empty?'));
    details.append(el('p', { class: 'why-head' }, `${conflict.assigned} of ${conflict.required} ${conflict.group} slots filled. Why:`));
    details.append(el('ul', { class: 'reasons' }, ...why.map((r) => el('li', {}, r))));
    if (fills > 0) {
      details.append(el('p', { class: 'why-head' }, 'What would fill it:'));
      details.append(el('ul', { class: 'suggestions' }, ...conflict.reasons.slice(-fills).map((r) => el('li', {}, r))));
    } else {
      details.append(el('p', {}, 'No single change was found that fills it.'));
    }
    item.append(details);
  }
  return item;
}

function shiftCard(shift: ShiftView): HTMLElement {
  const card = el('article', { class: 'shift', 'aria-label': `${shift.id}, ${shift.group}` });
  const bar = el('div', { class: 'bar', 'aria-hidden': 'true' }, el('span', { class: 'bar-fill' }));
  const fill = bar.firstElementChild as HTMLElement;
  const startMin = shift.start.minutes;
  const endMin = shift.end.day === shift.start.day ? shift.end.minutes : 24 * 60;
  fill.style.left = `${(startMin / 1440) * 100}%`;
  fill.style.width = `${Math.max(1, ((endMin - startMin) / 1440) * 100)}%`;
  const empty = shift.slots.filter((s) => s.volunteerId === null).length;
  card.append(
    el('h5', {}, shift.id),
    el('p', { class: 'time' }, `${shift.start.label} – ${shift.end.label}${shift.end.day !== shift.start.day ? ' (next day)' : ''}`),
    bar,
    el('ul', { class: 'slots', 'aria-label': `${plural(shift.slots.length, 'slot')}, ${empty} empty` }, ...shift.slots.map((s, i) => slotItem(s, shift, i))),
  );
  if (empty > 0) card.classList.add('has-empty');
  return card;
}

function renderTimeline(shifts: ShiftView[]): void {
  const timeline = byId('timeline');
  clear(timeline);
  const days = [...new Set(shifts.map((s) => s.start.day))].sort();
  const groups = [...new Set(shifts.map((s) => s.group))];
  const table = el('table', { class: 'grid' });
  table.append(el('caption', {}, `Shifts by group (rows) and day (columns), times in ${state.zone}`));
  table.append(el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Group'), ...days.map((d) => el('th', { scope: 'col' }, dayHeading(d))))));
  const body = el('tbody');
  for (const group of groups) {
    const row = el('tr', {}, el('th', { scope: 'row' }, group));
    for (const day of days) {
      const cell = el('td');
      for (const shift of shifts.filter((s) => s.group === group && s.start.day === day)) cell.append(shiftCard(shift));
      row.append(cell);
    }
    body.append(row);
  }
  table.append(body);
  timeline.append(table);
}

function renderVolunteers(result: ScheduleResult): void {
  const table = byId('volunteers');
  clear(table);
  const entries = Object.entries(result.volunteers).sort((a, b) => b[1].assigned_hours - a[1].assigned_hours || nameOf(a[0]).localeCompare(nameOf(b[0])));
  const most = Math.max(1, ...entries.map(([, v]) => v.assigned_hours));
  table.append(el('caption', {}, 'Assigned hours of every volunteer, most first'));
  table.append(
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Volunteer'), el('th', { scope: 'col' }, 'Hours'), el('th', { scope: 'col' }, 'Shifts'))),
  );
  const body = el('tbody');
  for (const [id, v] of entries) {
    const fill = el('span', { class: 'hours-fill' });
    fill.style.width = `${(v.assigned_hours / most) * 100}%`;
    body.append(
      el(
        'tr',
        {},
        el('th', { scope: 'row' }, nameOf(id)),
        el(
          'td',
          { class: 'hours' },
          el('span', { class: 'hours-bar', 'aria-hidden': 'true' }, fill),
          el('span', { class: 'hours-text' }, `${v.assigned_hours} h`),
        ),
        el('td', {}, String(v.assigned_shifts.length)),
      ),
    );
  }
  table.append(body);
  byId('fairness').textContent = fairnessInWords(result.fairness_score);
}

function renderRosterTable(csvRows: string[][]): void {
  const table = byId('roster');
  clear(table);
  const [header, ...rows] = csvRows;
  if (!header) return;
  table.append(el('caption', {}, `Every slot, in shift order, times in ${state.zone}`));
  table.append(el('thead', {}, el('tr', {}, ...header.map((h) => el('th', { scope: 'col' }, h)))));
  table.append(
    el('tbody', {}, ...rows.map((r) => el('tr', r[5] === 'UNFILLED' && r[4] === '' ? { class: 'unfilled' } : {}, ...r.map((c) => el('td', {}, unguard(c)))))),
  );
}

function render(result: ScheduleResult, csvRows: string[][]): void {
  const shifts = buildShifts(result, csvRows);
  const slots = shifts.reduce((n, s) => n + s.slots.length, 0);
  const empty = result.conflicts.reduce((n, c) => n + c.missing, 0);
  byId('summary').textContent =
    `${slots - empty} of ${plural(slots, 'slot')} filled` +
    (empty === 0
      ? '; every shift is fully staffed.'
      : `; ${plural(empty, 'slot')} in ${plural(result.unfilled_shifts.length, 'shift')} stay empty (see “Why is it empty?” beside each).`);
  if (result.changes) {
    const { kept, dropped, added } = result.changes;
    byId('summary').textContent +=
      ` Against the published schedule: ${plural(kept, 'assignment')} kept, ${added.length} new (marked New) and ${dropped.length} dropped; the people concerned need telling (the roster below says who).`;
  }
  const warnings = byId('warnings');
  clear(warnings);
  for (const w of result.warnings) warnings.append(el('li', {}, w.message));
  renderTimeline(shifts);
  renderVolunteers(result);
  renderRosterTable(csvRows);
  byId('results').hidden = false;
}

// ---- downloads ----

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = el('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}

/** The calendar: the shown job's result as iCalendar (no second solve). */
async function downloadCalendar(): Promise<void> {
  if (state.jobId === undefined) return;
  clear(byId('error'));
  setStatus('Preparing the calendar…', true);
  try {
    const response = await jobResult(state.jobId, state.zone, 'text/calendar');
    if (!response.ok) {
      showError(await readProblem(response));
      setStatus('');
      return;
    }
    save(await response.blob(), 'roster.ics');
    setStatus('The calendar is downloaded.');
  } catch (e) {
    showError(`The service could not be reached: ${e instanceof Error ? e.message : String(e)}`);
    setStatus('');
  }
}

// ---- wiring ----

function wireDrop(zone: HTMLElement): void {
  const input = document.getElementById(zone.dataset.drop ?? '') as HTMLInputElement | null;
  if (!input) return;
  zone.addEventListener('dragover', (e) => {
    e.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => {
    zone.classList.remove('over');
  });
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    if (e.dataTransfer && e.dataTransfer.files.length > 0) input.files = e.dataTransfer.files;
  });
}

function start(): void {
  const list = byId('time-zones');
  for (const zone of zones()) list.append(el('option', { value: zone }));
  const zoneInput = byId<HTMLInputElement>('time-zone');
  zoneInput.value = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  for (const radio of document.querySelectorAll<HTMLInputElement>('input[name="source"]')) {
    radio.addEventListener('change', () => {
      const json = source() === 'json';
      byId('csv-inputs').hidden = json;
      byId('csv-rules').hidden = json;
      byId('json-inputs').hidden = !json;
    });
  }
  byId<HTMLInputElement>('request-file').addEventListener('change', () => {
    void file('request-file')
      ?.text()
      .then((text) => {
        const zone = (JSON.parse(text) as { timezone?: unknown }).timezone;
        if (typeof zone === 'string') zoneInput.value = zone;
      })
      .catch(() => undefined);
  });
  for (const zone of document.querySelectorAll<HTMLElement>('[data-drop]')) wireDrop(zone);
  byId<HTMLFormElement>('run-form').addEventListener('submit', (e) => void run(e));
  byId('download-csv').addEventListener('click', () => {
    if (state.csv !== undefined) save(new Blob([state.csv], { type: 'text/csv;charset=utf-8' }), 'roster.csv');
  });
  byId('download-ics').addEventListener('click', () => void downloadCalendar());
  byId('cancel').addEventListener('click', () => void cancelJob());
  byId('print').addEventListener('click', () => {
    window.print();
  });
  byId('results-title').setAttribute('tabindex', '-1');
}

start();
