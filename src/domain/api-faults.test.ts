import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packagePath } from '../kernel/paths.js';
import { seededRandom } from '../kernel/ids.js';
import { API_FAULT_FIELD_NAMES, API_FAULT_FIELDS, API_FAULT_FLAGS, API_FAULT_OUTCOMES, answeredBefore, outcomeOf } from './api-fault-kinds.js';
import { ApiFaultsBody, ApiFaultsShown, parseApiFaultsJson, parseFaultHeader } from './api-faults.js';
import { latencyMs, matches, operationFinder, pickRule, unmetRules, type ApiRequest, type DeclaredOperation } from './api-fault-matching.js';
import { ApiFaultView, faultView, ruleView } from '../wire/api-faults.js';
import { faultText } from '../wire/fault-text.js';

const request = (method: string, path: string, operationId?: string): ApiRequest => ({ method, path, operationId });
const rules = (body: unknown) => ApiFaultsBody.parse(body).rules;
const errorsOf = (body: unknown) => ApiFaultsBody.safeParse(body).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('the rules PUT /_sandbox/api/faults takes', () => {
  it('keeps each rule in its normal form: times counted down, rate 1 and effect before unless given, 429 with Retry-After', () => {
    const [a, b, c] = rules({
      rules: [
        { status: 503, times: 2 },
        { match: { method: 'post', path: '/v1/customers' }, status: 429, rate: 0.5 },
        { latency: '100ms-2s', retryAfter: 'PT3S', status: 503, effect: 'after' },
      ],
    });
    expect(a).toEqual({ match: {}, fault: { status: 503, effect: 'before' }, rate: 1, times: 2, remaining: 2 });
    expect(b).toEqual({ match: { method: 'POST', path: '/v1/customers' }, fault: { status: 429, retryAfterSeconds: 1, effect: 'before' }, rate: 0.5 });
    expect(c!.fault).toEqual({ latency: { minMs: 100, maxMs: 2000 }, status: 503, retryAfterSeconds: 3, effect: 'after' });
    expect(ruleView(c!, 4)).toEqual({ match: {}, latency: '100ms-2s', status: 503, retryAfter: 3, effect: 'after', rate: 1, hits: 4 });
  });

  it.each([
    [{}, 'rules: must be a list of rules'],
    [{ rules: [{}] }, 'rules.0: a fault needs latency, status, reset or expireToken'],
    [{ rules: [{ status: 404 }] }, 'rules.0.status: must be one of 500, 502, 503, 504, 429'],
    [{ rules: [{ status: 503, reset: true }] }, 'rules.0: give one of status, reset and expireToken, not status and reset'],
    [{ rules: [{ latency: '2s', retryAfter: 3 }] }, 'rules.0.retryAfter: goes with a status (429 or 503)'],
    [{ rules: [{ expireToken: true, effect: 'after' }] }, 'rules.0.effect: an expired token is refused before the request does anything: leave effect out'],
    [{ rules: [{ latency: '2m' }] }, 'rules.0.latency: must be at most 1m'],
    [{ rules: [{ latency: 'soon' }] }, 'rules.0.latency: must be a duration or a range of two, such as 5s or 2s-30s'],
    [{ rules: [{ status: 503, rate: 2 }] }, 'rules.0.rate: must be a probability from 0 to 1'],
    [{ rules: [{ status: 503, times: 0 }] }, 'rules.0.times: must be from 1 to 10000'],
    [{ rules: [{ status: 503, match: { path: 'cards' } }] }, 'rules.0.match.path: must be a path starting with /, such as /v1/cards/{cardId}'],
    [{ rules: [{ status: 503, match: { verb: 'GET' } }] }, 'rules.0.match: Unrecognized key: "verb"'],
    [{ rules: [], seed: -1 }, 'seed: must be an integer from 0 to 4294967295'],
  ])('refuses %j', (body, error) => {
    expect(errorsOf(body)).toContain(error);
  });

  it('reads --api-faults as JSON, saying where it is wrong', () => {
    expect(parseApiFaultsJson('{"rules":[{"status":503}]}')).toEqual({ faults: { rules: [{ match: {}, fault: { status: 503, effect: 'before' }, rate: 1 }] } });
    expect(parseApiFaultsJson('{"rules":')).toEqual({ errors: [{ path: 'api faults', message: expect.stringContaining('is not JSON') }] });
    expect(parseApiFaultsJson('{"rules":[{"status":404}]}')).toEqual({
      errors: [{ path: 'rules.0.status', message: 'must be one of 500, 502, 503, 504, 429' }],
    });
  });
});

describe('the rules as shown, read back (a snapshot keeps them so)', () => {
  it('are the rules they show, with what each had left and had faulted', () => {
    const kept = ApiFaultsBody.parse({
      rules: [
        { status: 503, times: 3 },
        { match: { method: 'post' }, latency: '100ms-2s', status: 429, retryAfter: 'PT3S', rate: 0.5 },
      ],
      seed: 7,
    });
    kept.rules[0]!.remaining = 1;
    const shown = { rules: kept.rules.map((rule, i) => ruleView(rule, [2, 5][i]!)), seed: 7 };
    expect(ApiFaultsShown.parse(JSON.parse(JSON.stringify(shown)))).toEqual({ rules: kept, hits: [2, 5] });
  });

  it.each([
    [{ rules: [{ status: 404, effect: 'before', rate: 1, hits: 0 }] }, 'rules.0.status: must be one of 500, 502, 503, 504, 429'],
    [{ rules: [{ status: 503, effect: 'before', rate: 1, times: 2, remaining: 3, hits: 0 }] }, 'rules.0.remaining: must be a whole number up to times (2)'],
    [{ rules: [{ status: 503, effect: 'before', rate: 1, remaining: 3, hits: 0 }] }, 'rules.0.remaining: goes with times'],
    [{ rules: [{ status: 503, effect: 'before', rate: 1 }] }, 'rules.0.hits: must be a whole number'],
  ])('refuses %j', (shown, error) => {
    expect(ApiFaultsShown.safeParse(shown).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toContain(error);
  });
});

describe('the Sandbox-Fault header', () => {
  it.each([
    ['status=503', { status: 503, effect: 'before' }],
    ['latency=2s', { latency: { minMs: 2000, maxMs: 2000 }, effect: 'before' }],
    ['reset', { reset: true, effect: 'before' }],
    ['status=429; retry-after=3', { status: 429, retryAfterSeconds: 3, effect: 'before' }],
    ['status=503, effect=after, latency=100ms-300ms', { status: 503, latency: { minMs: 100, maxMs: 300 }, effect: 'after' }],
    ['expire-token', { expireToken: true, effect: 'before' }],
  ])('%s', (header, fault) => {
    expect(parseFaultHeader(header)).toEqual({ fault });
  });

  it.each([
    ['status=404', 'status'],
    ['teapot', 'teapot'],
    ['status', 'status'],
    ['effect=after', 'faults'],
    ['status=503; reset', 'faults'],
  ])('refuses %s, naming %s', (header, path) => {
    const parsed = parseFaultHeader(header);
    expect('errors' in parsed && parsed.errors.map((e) => e.path)).toContain(path);
  });
});

describe('the fields a fault is made of (api-fault-kinds.ts)', () => {
  const page = readFileSync(packagePath('docs/api-faults.md'), 'utf8');
  const headerParagraph = page.slice(page.indexOf('**One request at a time.**')).split('\n\n')[0]!;

  it.each(API_FAULT_FIELD_NAMES)('%s is in the manual, as a field of a rule and a name of the Sandbox-Fault header', (field) => {
    expect(page).toContain(`\`${field}`);
    expect(headerParagraph).toMatch(new RegExp(`(\`|; |, )${API_FAULT_FIELDS[field].header}[=\`]`));
  });

  it.each(API_FAULT_OUTCOMES)('outcome %s has its row in the manual’s table of what the client gets', (outcome) => {
    expect(page).toMatch(new RegExp(`^\\| \`${outcome}[:\`]`, 'm'));
  });

  it.each(API_FAULT_FLAGS)('flag %s is given by its name alone in the header, shown as true and written by its name', (flag) => {
    const parsed = parseFaultHeader(API_FAULT_FIELDS[flag].header);
    expect(parsed).toEqual({ fault: { [flag]: true, effect: 'before' } });
    const view = faultView((parsed as { fault: Parameters<typeof faultView>[0] }).fault);
    expect(ApiFaultView.parse(view)).toEqual({ [flag]: true, effect: 'before' });
    expect(faultText(view)).toBe(`${API_FAULT_FIELDS[flag].header} effect=before`);
  });

  it('reads an outcome as answered by the lab, before the request’s work unless effect is after; latency alone answers nothing', () => {
    expect(outcomeOf({ latency: '2s', effect: 'before' })).toBeUndefined();
    expect(answeredBefore({ latency: '2s', effect: 'before' })).toBe(false);
    expect(outcomeOf({ status: 503, effect: 'after' })).toBe('status');
    expect(answeredBefore({ status: 503, effect: 'after' })).toBe(false);
    expect(answeredBefore({ reset: true, effect: 'before' })).toBe(true);
    expect(answeredBefore({ expireToken: true, effect: 'after' })).toBe(true);
  });
});

describe('which rule a request meets', () => {
  it('matches on method, a path template or a concrete path (with or without /v1), and operationId', () => {
    const card = request('GET', '/v1/cards/6f1c', 'getCard');
    expect(matches({}, card)).toBe(true);
    expect(matches({ method: 'GET', path: '/v1/cards/{cardId}' }, card)).toBe(true);
    expect(matches({ path: '/cards/{cardId}' }, card)).toBe(true);
    expect(matches({ path: '/v1/cards/6f1c' }, card)).toBe(true);
    expect(matches({ path: '/v1/cards' }, card)).toBe(false);
    expect(matches({ path: '/v1/cards/{cardId}/transactions' }, card)).toBe(false);
    expect(matches({ method: 'POST' }, card)).toBe(false);
    expect(matches({ operationId: 'getCard' }, card)).toBe(true);
    expect(matches({ operationId: 'listCards' }, card)).toBe(false);
  });

  it('is the first rule, in order, that matches, has times left and wins its draw', () => {
    const list = rules({ rules: [{ match: { method: 'POST' }, status: 503, times: 1 }, { status: 502, rate: 0.5 }, { status: 500 }] });
    const post = request('POST', '/v1/customers');
    expect(pickRule(list, post, () => 0.9)).toBe(0);
    list[0]!.remaining = 0;
    expect(pickRule(list, post, () => 0.9)).toBe(2);
    expect(pickRule(list, post, () => 0.1)).toBe(1);
    expect(pickRule([], post, () => 0)).toBeUndefined();
  });

  it('draws only for a rule whose rate is below 1, so a seed gives the same faults for the same requests', () => {
    const list = rules({ rules: [{ status: 503, rate: 0.3 }] });
    const run = () => {
      const random = seededRandom(7);
      return Array.from({ length: 20 }, () => pickRule(list, request('GET', '/v1/customers'), random.float));
    };
    expect(run()).toEqual(run());
    expect(run()).toContain(0);
    expect(run()).toContain(undefined);
    let draws = 0;
    pickRule(rules({ rules: [{ status: 503 }] }), request('GET', '/v1/customers'), () => (draws++, 0));
    expect(draws).toBe(0);
  });

  it('finds the operation a concrete path is', () => {
    const find = operationFinder([
      { method: 'get', path: '/cards/{cardId}', operationId: 'getCard' },
      { method: 'get', path: '/cards/{cardId}/transactions', operationId: 'getCardTransactions' },
    ]);
    expect(find('GET', '/v1/cards/abc')).toBe('getCard');
    expect(find('GET', '/v1/cards/abc/transactions')).toBe('getCardTransactions');
    expect(find('POST', '/v1/cards/abc')).toBeUndefined();
  });

  it('waits the low end of a latency range, or a draw within it', () => {
    expect(latencyMs({ minMs: 300, maxMs: 300 }, () => 0.5)).toBe(300);
    expect(latencyMs({ minMs: 100, maxMs: 2000 }, () => 0.5)).toBe(1050);
    expect(faultText({ latency: '2s', status: 429, retryAfter: 3, effect: 'before' })).toBe('latency=2s status=429 retry-after=3 effect=before');
  });
});

describe('rules no request can meet', () => {
  const token: DeclaredOperation = { method: 'post', path: '/auth/token', operationId: 'getToken' };
  const faulted: DeclaredOperation[] = [
    { method: 'get', path: '/customers', operationId: 'getCustomers' },
    { method: 'post', path: '/customers', operationId: 'createCustomer' },
    { method: 'get', path: '/cards/{cardId}', operationId: 'getCard' },
    { method: 'get', path: '/cards/{cardId}/transactions', operationId: 'getCardTransactions' },
  ];
  const unmet = (...matches: object[]) =>
    unmetRules(rules({ rules: matches.map((match) => ({ match, status: 503 })) }), faulted, [token, ...faulted]).map((e) => `${e.path}: ${e.message}`);

  it('lets through every match some operation meets: none, a template under any name, a concrete path, with or without /v1', () => {
    expect(
      unmet(
        {},
        { method: 'POST' },
        { path: '/v1/cards/{id}' },
        { path: '/cards/{cardId}/transactions' },
        { path: '/v1/cards/6f1c' },
        { method: 'GET', path: '/v1/customers/' },
        { operationId: 'getCard', path: '/v1/cards/{cardId}' },
      ),
    ).toEqual([]);
  });

  it('names the field no operation has, or the combination none has', () => {
    expect(
      unmet(
        { operationId: 'createCustomers' },
        { path: '/v1/customer' },
        { path: '/v1/cards/6f1c/freeze' },
        { method: 'PATCH' },
        { method: 'POST', path: '/v1/cards/{cardId}' },
        { operationId: 'getCard', method: 'POST' },
      ),
    ).toEqual([
      'rules.0.match.operationId: is not an operationId of /openapi.json',
      'rules.1.match.path: is the path of no /v1 operation',
      'rules.2.match.path: is the path of no /v1 operation',
      'rules.3.match.method: is the method of no /v1 operation',
      'rules.4.match: no /v1 operation has this method, path and operationId together',
      'rules.5.match: no /v1 operation has this method, path and operationId together',
    ]);
  });

  it('refuses a match only the token route meets, which is answered before the lab', () => {
    expect(unmet({ operationId: 'getToken' }, { path: '/v1/auth/token' })).toEqual([
      'rules.0.match: meets only POST /v1/auth/token, which is answered before the lab and never faulted; to test token renewal, use expireToken',
      'rules.1.match: meets only POST /v1/auth/token, which is answered before the lab and never faulted; to test token renewal, use expireToken',
    ]);
  });
});
