// POST /api/recommendations through the app: the ranked candidates of a published schedule
// (test/fixtures/requests/recommendations.json: locks, previous assignments, wishes and rules
// chosen so that each kind of entry appears), replacements, the answer with no candidate, every
// 400 with its pointer, and the quota, key and media-type handling shared with the other POSTs.
import { expect } from 'chai';
import { fixture, testApp } from '../helpers/app.js';
import { expectSchema } from '../helpers/schema-assert.js';

type Json = Record<string, any>;
const request = (): Json => fixture('requests/recommendations.json');
const ask = (fields: Json): Json => ({ request: request(), ...fields });

describe('POST /api/recommendations', function () {
  this.timeout(30_000);

  it('ranks who could take a slot: no move first, preferred, not avoided, fewest hours; then one move, then two', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-am' }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    expectSchema('recommendation-result', res.body);
    expect(Object.keys(res.body)).to.deep.equal(['shift_id', 'group', 'open_slots', 'candidates', 'reasons', 'warnings']);
    expect(res.body).to.include({ shift_id: 'sat-am', group: 'kitchen' });
    expect(res.body.open_slots).to.deep.equal({ kitchen: 1 });
    // v2 prefers the shift; v10 and v3 differ by hours (4 against 8); v4 avoids it; v7 and v5 need moves.
    expect(res.body.candidates.map((c: Json) => c.volunteer_id)).to.deep.equal(['v2', 'v10', 'v3', 'v4', 'v7', 'v5']);
    expect(res.body.candidates.map((c: Json) => c.moves.length)).to.deep.equal([0, 0, 0, 0, 1, 2]);
    expect(res.body.candidates[0]).to.include({ name: 'Ben Ode', group: 'kitchen', hours_after: 4, preferred: true, avoided: false });
    expect(res.body.candidates[0].reasons).to.deep.equal([
      "Ben Ode (v2) is in group 'kitchen', free 2026-06-06 08:00-12:00 UTC and would have 4 of 8 hours.",
      "'sat-am' is among their preferred shifts.",
    ]);
    expect(res.body.candidates[2].hours_after).to.equal(8);
    expect(res.body.candidates[3]).to.include({ volunteer_id: 'v4', avoided: true });
    expect(res.body.reasons).to.deep.equal([]);
  });

  it('answers the OpenAPI examples with the responses the document shows', async () => {
    const { request: http, anonymous } = testApp();
    const operation = (await anonymous.get('/openapi.json')).body.paths['/api/recommendations'].post;
    const asked = operation.requestBody.content['application/json'].examples;
    const shown = operation.responses['200'].content['application/json'].examples;
    expect((await http.post('/api/recommendations').send(asked.open.value)).body).to.deep.equal(shown.open.value);
    expect((await http.post('/api/recommendations').send({ ...asked.open.value, shift_id: 'sat-pm' })).body).to.deep.equal(shown.full.value);
    const replace = await http.post('/api/recommendations').send(asked.replace.value);
    expect(replace.status).to.equal(200);
    expectSchema('recommendation-result', replace.body);
  });

  it('moves: a volunteer leaves an overlapping shift that another takes over, or leaves a lower-priority one short', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-am' }));
    const byId = new Map<string, Json>(res.body.candidates.map((c: Json) => [c.volunteer_id, c]));
    expect(byId.get('v5')!.moves).to.deep.equal([
      { volunteer_id: 'v5', from_shift_id: 'sat-mid', to_shift_id: null },
      { volunteer_id: 'v2', from_shift_id: null, to_shift_id: 'sat-mid' },
    ]);
    expect(byId.get('v5')!.reasons).to.have.length(3);
    expect(byId.get('v5')!.reasons[1]).to.equal(
      "Eve Moss (v5) leaves 'sat-mid' (2026-06-06 10:00-14:00 UTC) to be free: Eve Moss (v5) is in 'sat-mid' 2026-06-06 10:00-14:00 UTC, which overlaps.",
    );
    // Nobody else drives: sat-early (priority 1, below sat-am's 2) is left one short, and the sentence says so.
    expect(byId.get('v7')!.moves).to.deep.equal([{ volunteer_id: 'v7', from_shift_id: 'sat-early', to_shift_id: null }]);
    expect(byId.get('v7')!.reasons.join(' ')).to.include("'sat-early' (priority 1, lower than the 2 of 'sat-am') is left one short in group 'driver'");
    // Locked into an overlapping shift (v8) or unavailable (v6, v9): never a candidate.
    for (const id of ['v8', 'v6', 'v9', 'v1']) expect(byId.has(id), id).to.equal(false);
  });

  it('offers no one-move entry when the shift left would be of the same or a higher priority', async () => {
    const { request: http } = testApp();
    const body = ask({ shift_id: 'sat-am' });
    body.request.unassigned_shifts[2].priority = 2;
    const res = await http.post('/api/recommendations').send(body);
    expect(res.body.candidates.map((c: Json) => c.volunteer_id)).to.deep.equal(['v2', 'v10', 'v3', 'v4', 'v5']);
  });

  it('limit keeps the best entries', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-am', limit: 2 }));
    expect(res.body.candidates.map((c: Json) => c.volunteer_id)).to.deep.equal(['v2', 'v10']);
  });

  it('warns about a previous assignment that no longer fits beside those before it', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-am' }));
    expect(res.body.warnings).to.deep.equal([
      {
        code: 'previous_dropped',
        message:
          "The previous assignment of Dee Lind (v4) to 'sat-mid' is left out of the schedule as it stands: the slots of group 'kitchen' in 'sat-mid' (2026-06-06 10:00-14:00 UTC) are all taken by locked assignments and previous assignments listed before it.",
        pointer: '/request/previous_assignments/4',
        id: 'v4',
      },
    ]);
  });

  it('replace_volunteer_id: the candidates are for their slot, and they are not among them', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-mid', replace_volunteer_id: 'v5' }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expectSchema('recommendation-result', res.body);
    expect(res.body.replaced).to.deep.equal({ volunteer_id: 'v5', group: 'kitchen' });
    expect(res.body.open_slots).to.deep.equal({ kitchen: 1 });
    const ids = res.body.candidates.map((c: Json) => c.volunteer_id);
    expect(ids).to.include('v6').and.not.include('v5');
    expect(ids.slice(0, 4)).to.deep.equal(['v2', 'v4', 'v6', 'v10']);
  });

  it('replaces a locked volunteer when asked', async () => {
    const { request: http } = testApp();
    const body = ask({ shift_id: 'sat-lock', replace_volunteer_id: 'v8' });
    const res = await http.post('/api/recommendations').send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.replaced).to.deep.equal({ volunteer_id: 'v8', group: 'bar' });
    // Hal was the only bar volunteer: nobody else can take the slot.
    expect(res.body.candidates).to.deep.equal([]);
    expect(res.body.reasons).to.deep.equal(["No other volunteer belongs to group 'bar'."]);
  });

  it('no candidate: 200 with an empty list and the reasons per rule', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-bar' }));
    expect(res.status).to.equal(200);
    expectSchema('recommendation-result', res.body);
    expect(res.body.candidates).to.deep.equal([]);
    expect(res.body.reasons).to.deep.equal([
      "The only volunteer of group 'bar' cannot take the open slot of 'sat-bar' (2026-06-06 08:30-10:30 UTC):",
      "Hal Voss (v8) is locked into 'sat-lock' 2026-06-06 07:00-11:00 UTC, which overlaps.",
    ]);
  });

  it('no open slot: 200 saying every slot is filled and how to ask about a replacement', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/recommendations').send(ask({ shift_id: 'sun-am' }));
    expect(res.status).to.equal(200);
    expect(res.body.open_slots).to.deep.equal({ kitchen: 0 });
    expect(res.body.candidates).to.deep.equal([]);
    expect(res.body.reasons).to.deep.equal([
      "The only slot of group 'kitchen' in 'sun-am' is filled; name replace_volunteer_id to ask who could replace someone.",
    ]);
  });

  it('counts the volunteers each rule keeps out and writes times in the request zone', async () => {
    const { request: http } = testApp();
    const body = ask({ shift_id: 'sat-mid', replace_volunteer_id: 'v5' });
    body.request.timezone = 'America/Chicago';
    // Everyone but Ana, Cy and Eve (replaced) is away then; Ana is on sat-am (overlapping), Cy has no hours left.
    for (const v of body.request.volunteers)
      if (!['v1', 'v3', 'v5'].includes(v.id)) v.unavailable = [{ start: '2026-06-06T00:00:00Z', end: '2026-06-07T00:00:00Z' }];
    // Eve (replaced) is away during sat-am, so she cannot take over Ana's place there either.
    body.request.volunteers[4].unavailable = [{ start: '2026-06-06T08:00:00Z', end: '2026-06-06T10:00:00Z' }];
    body.request.volunteers[2].max_hours = 4;
    // Cy's 4 hours are a locked shift, which no recommendation moves.
    body.request.current_assignments.push({ shift_id: 'sun-am', volunteer_id: 'v3' });
    const res = await http.post('/api/recommendations').send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.candidates).to.deep.equal([]);
    expect(res.body.reasons[0]).to.equal(
      "None of the 9 volunteers of group 'kitchen' can take the open slot of 'sat-mid' (2026-06-06 05:00-09:00 CDT): 7 are unavailable then, 1 is in an overlapping shift, 1 has too few hours left.",
    );
    expect(res.body.reasons).to.include('Cy Park (v3) has 4 of 4 hours; this shift needs 4 more.');
  });

  describe('400 invalid-request, each error with its pointer', () => {
    const errorsOf = async (body: unknown): Promise<Json[]> => {
      const { request: http } = testApp();
      const res = await http.post('/api/recommendations').send(body as object);
      expect(res.status, JSON.stringify(res.body)).to.equal(400);
      expect(res.headers['content-type']).to.match(/^application\/problem\+json/);
      expect(res.body.type).to.equal('/problems/invalid-request');
      expectSchema('problem-details', res.body);
      return res.body.errors;
    };
    const pointers = (errors: Json[]): string[] => errors.map((e) => e.pointer);

    it('a body that is not an object', async () => {
      expect(await errorsOf([1, 2])).to.deep.equal([
        {
          pointer: '',
          code: 'invalid_type',
          message: 'The body must be a JSON object such as {"request": {...a POST /api/schedule body...}, "shift_id": "sat-am"}, not an array.',
        },
      ]);
    });

    it('request and shift_id missing', async () => {
      const errors = await errorsOf({});
      expect(errors.map((e) => [e.pointer, e.code])).to.deep.equal([
        ['/request', 'required'],
        ['/shift_id', 'required'],
      ]);
    });

    it('request not an object, shift_id empty', async () => {
      const errors = await errorsOf({ request: 'x', shift_id: '' });
      expect(errors.map((e) => [e.pointer, e.code])).to.deep.equal([
        ['/request', 'invalid_type'],
        ['/shift_id', 'empty_string'],
      ]);
    });

    for (const [limit, code] of [
      [0, 'out_of_range'],
      [101, 'out_of_range'],
      [2.5, 'not_integer'],
      ['3', 'invalid_type'],
    ] as const) {
      it(`limit ${JSON.stringify(limit)}: ${code}`, async () => {
        const errors = await errorsOf(ask({ shift_id: 'sat-am', limit }));
        expect(errors.map((e) => [e.pointer, e.code])).to.deep.equal([['/limit', code]]);
        expect(errors[0]!.message).to.match(/^limit must be a whole number from 1 to 100/);
      });
    }

    it('the request member as /api/schedule validates it, under /request', async () => {
      const body = ask({ shift_id: 'sat-am' });
      body.request.volunteers[3].max_hours = null;
      body.request.unassigned_shifts[1].start = '2026-06-06T10:00:00';
      const errors = await errorsOf(body);
      expect(pointers(errors)).to.deep.equal(['/request/unassigned_shifts/1/start', '/request/volunteers/3/max_hours']);
      expect(errors[1]!.message).to.include('use 999 for unlimited');
      const { request: http } = testApp();
      const validation = await http.post('/api/validate').send(body.request);
      expect(errors.map((e) => e.message)).to.deep.equal(validation.body.errors.map((e: Json) => e.message));
    });

    it('shift_id not a shift of the request, with a did-you-mean, listed with the other errors', async () => {
      const errors = await errorsOf(ask({ shift_id: 'sat-ma', limit: 0 }));
      expect(errors).to.deep.equal([
        { pointer: '/limit', code: 'out_of_range', message: 'limit must be a whole number from 1 to 100 (default 10), not 0.' },
        { pointer: '/shift_id', code: 'unknown_shift', message: "shift_id 'sat-ma' is not a shift of the request; did you mean 'sat-am'?" },
      ]);
    });

    it('group not required by the shift', async () => {
      expect(await errorsOf(ask({ shift_id: 'sat-am', group: 'kitchn' }))).to.deep.equal([
        {
          pointer: '/group',
          code: 'group_not_required',
          message: "Shift 'sat-am' requires no volunteer of group 'kitchn'; did you mean 'kitchen'? It requires 'kitchen' (2).",
        },
      ]);
    });

    it('replace_volunteer_id not on the shift, saying who is', async () => {
      expect(await errorsOf(ask({ shift_id: 'sat-am', replace_volunteer_id: 'v2' }))).to.deep.equal([
        {
          pointer: '/replace_volunteer_id',
          code: 'not_on_shift',
          message: "replace_volunteer_id 'v2' is not on 'sat-am' (locked or previous). On 'sat-am' in the schedule as it stands is Ana Ruiz (v1).",
        },
      ]);
    });

    it('group other than the replaced volunteer fills', async () => {
      const body = ask({ shift_id: 'sat-am', replace_volunteer_id: 'v1', group: 'kitchen' });
      body.request.unassigned_shifts[0].required_groups = { kitchen: 2, bar: 1 };
      const errors = await errorsOf({ ...body, group: 'bar' });
      expect(errors.map((e) => [e.pointer, e.code])).to.deep.equal([['/group', 'group_mismatch']]);
    });
  });

  it('warns about unknown top-level properties, with a did-you-mean', async () => {
    const { request: http } = testApp();
    const res = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-am', limt: 3 }));
    expect(res.status).to.equal(200);
    expect(res.body.warnings[0]).to.deep.equal({
      code: 'unknown_property',
      message: "Property 'limt' is not part of a recommendation request and is ignored; did you mean 'limit'?",
      pointer: '/limt',
    });
  });

  it('415 for a body that is not JSON, 413 past the JSON body limit', async () => {
    const { request: http } = testApp({ MAX_JSON_BODY_BYTES: '1kB' });
    const text = await http.post('/api/recommendations').set('Content-Type', 'text/plain').send('shift_id=sat-am');
    expect(text.status).to.equal(415);
    expect(text.body.type).to.equal('/problems/unsupported-media-type');
    const big = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-am' }));
    expect(big.status).to.equal(413);
    expect(big.body.limit).to.deep.equal({ name: 'MAX_JSON_BODY_BYTES', value: 1024 });
  });

  it('401 without a key', async () => {
    const { anonymous } = testApp();
    const res = await anonymous.post('/api/recommendations').send(ask({ shift_id: 'sat-am' }));
    expect(res.status).to.equal(401);
    expect(res.headers['www-authenticate']).to.match(/^Bearer/);
  });

  it('counts against the daily quota, a 400 too, and is recorded in the usage history', async () => {
    const { request: http } = testApp();
    const first = await http.post('/api/recommendations').send(ask({ shift_id: 'sat-am' }));
    const second = await http.post('/api/recommendations').send(ask({ shift_id: 'nope' }));
    expect(second.status).to.equal(400);
    expect(Number(second.headers['ratelimit-remaining'])).to.equal(Number(first.headers['ratelimit-remaining']) - 1);
    const usage = await http.get('/api/usage?limit=5');
    expect(usage.body.history.slice(0, 2).map((h: Json) => [h.endpoint, h.status])).to.deep.equal([
      ['/api/recommendations', 400],
      ['/api/recommendations', 200],
    ]);
  });
});
