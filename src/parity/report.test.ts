import { XMLParser } from 'fast-xml-parser';
import { expect, test } from 'vitest';
import { junitXml, parityReport, shown, tableRows } from './report.js';
import type { SideResult, StepResult } from './run.js';
import type { Step } from './step.js';

// The report (docs/parity.md: The report): its JSON document, the terminal's rows, and JUnit XML that
// a JUnit reader takes.
const side = (status: number | undefined, none?: string): SideResult => ({
  answer: { ...(status !== undefined && { status }), ...(none && { none }), ms: 5 },
  tracks: [],
});
const result = (step: Step, differences: StepResult['differences'], upstream = side(200), local = side(200)): StepResult => ({
  step,
  upstream,
  local,
  differences,
  startedAt: new Date('2026-03-01T09:00:00Z'),
  ms: 1_250,
});
const steps: Step[] = [
  { id: 'list-cards', operationId: 'getCards', does: '' },
  { id: 'get-card', operationId: 'getCard', does: '', params: { cardId: 'card-3' } },
  { id: 'issue-card-3', operationId: 'simulateIssueCard', does: '', params: { cardId: 'card-3' } },
  { id: 'delete-card-3', operationId: 'deleteCard', does: '', params: { cardId: 'card-3' } },
];
const results = [
  result(steps[0]!, [{ kind: 'order', where: 'body', upstream: ['<card-2>', '<card-1>'], local: ['<card-1>', '<card-2>'] }]),
  result(steps[1]!, []),
  result(steps[2]!, [], side(undefined, 'not run: no card-3'), side(undefined, 'not run: no card-3')),
  result(steps[3]!, [{ kind: 'status', where: 'status', upstream: 'no answer: ECONNRESET', local: 204 }], side(undefined, 'no answer: ECONNRESET'), side(204)),
];
const report = parityReport('https://api.example.com/v1', 'http://127.0.0.1:4242/v1', results);

test('the JSON document: the two services, each step with its operation and differences, and the summary', () => {
  expect(report).toEqual({
    upstream: 'https://api.example.com/v1',
    local: 'http://127.0.0.1:4242/v1',
    steps: [
      { id: 'list-cards', operationId: 'getCards', method: 'GET', path: '/v1/cards', differences: results[0]!.differences },
      { id: 'get-card', operationId: 'getCard', method: 'GET', path: '/v1/cards/{cardId}', differences: [] },
      { id: 'issue-card-3', operationId: 'simulateIssueCard', method: 'PATCH', path: '/v1/simulator/cards/{cardId}/issue', differences: [] },
      { id: 'delete-card-3', operationId: 'deleteCard', method: 'DELETE', path: '/v1/cards/{cardId}', differences: results[3]!.differences },
    ],
    summary: { steps: 4, differing: 2 },
  });
});

test('the table: one row per step the same, one per difference', () => {
  expect(tableRows(report).map((r) => r.cells)).toEqual([
    ['list-cards', 'GET /v1/cards', 'order', 'body', '<card-2>, <card-1>', '<card-1>, <card-2>'],
    ['get-card', 'GET /v1/cards/{cardId}', 'same', '', '', ''],
    ['issue-card-3', 'PATCH /v1/simulator/cards/{cardId}/issue', 'same', '', '', ''],
    ['delete-card-3', 'DELETE /v1/cards/{cardId}', 'status', 'status', 'no answer: ECONNRESET', '204'],
  ]);
});

test('values shown to people: seconds, arrows, a dash for nothing, long text cut', () => {
  expect(shown('timing', 17_040)).toBe('17.0 s');
  expect(shown('state-sequence', ['pending', 'active'])).toBe('pending → active');
  expect(shown('missing-field', null)).toBe('—');
  expect(shown('enum-value', true)).toBe('true');
  expect(shown('type', 'x'.repeat(80))).toHaveLength(60);
});

test('JUnit: a suite with counts, time and timestamp, a case per step: failed, passed, skipped or in error', () => {
  const text = junitXml({ ...report, upstream: 'https://api.example.com/v1?a=1&b=<2>' }, results, new Date('2026-03-01T09:00:00.500Z'));
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(text) as {
    testsuites: Record<string, string> & {
      testsuite: Record<string, unknown> & {
        properties: { property: { name: string; value: string }[] };
        testcase: (Record<string, string> & { failure?: Record<string, string>; skipped?: Record<string, string>; error?: Record<string, string> })[];
      };
    };
  };
  const suites = parsed.testsuites;
  expect(suites).toMatchObject({ name: 'card-sandbox parity', tests: '4', failures: '1', errors: '1', skipped: '1', time: '5.000' });
  const suite = suites.testsuite;
  expect(suite).toMatchObject({
    name: 'card-sandbox parity',
    tests: '4',
    failures: '1',
    errors: '1',
    skipped: '1',
    time: '5.000',
    timestamp: '2026-03-01T09:00:00',
  });
  expect(suite.properties.property).toEqual([
    { name: 'upstream', value: 'https://api.example.com/v1?a=1&b=<2>' },
    { name: 'local', value: 'http://127.0.0.1:4242/v1' },
  ]);
  const [failed, passed, skipped, broken] = suite.testcase;
  expect(failed).toMatchObject({ classname: 'card-sandbox.parity', name: 'list-cards: GET /v1/cards', time: '1.250' });
  expect(failed!.failure).toMatchObject({
    type: 'parity',
    message: '1 difference: order',
    '#text': 'order at body: upstream <card-2>, <card-1>, local <card-1>, <card-2>',
  });
  expect(passed).toEqual({ classname: 'card-sandbox.parity', name: 'get-card: GET /v1/cards/{cardId}', time: '1.250' });
  expect(skipped!.skipped).toEqual({ message: 'not run: no card-3' });
  expect(broken!.error).toEqual({ message: 'upstream: no answer: ECONNRESET; local: 204' });
});
