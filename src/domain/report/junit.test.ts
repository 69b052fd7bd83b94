/**
 * The go-live report as JUnit XML (docs/go-live.md: In CI), read back with fast-xml-parser as CI
 * reporters read it: the suite's counts, time and timestamp, a test case per check by its stable id,
 * a failure's message what failed, and skipped ones with their reason.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect, it } from 'vitest';
import { attempt, write } from '../../testing/report-records.js';
import { goLiveReport } from './index.js';
import { junitXml } from './junit.js';

interface Case {
  classname: string;
  name: string;
  time: string;
  properties?: { property: { name: string; value: string } };
  failure?: { message: string; type: string; '#text': string };
  skipped?: { message: string };
}
interface Suite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  time: string;
  timestamp: string;
  testcase: Case[];
}

const read = (xml: string) => {
  expect(XMLValidator.validate(xml)).toBe(true);
  return (new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as { testsuites: Suite & { testsuite: Suite } }).testsuites;
};

const K = '00000000-0000-4000-8000-000000000001';
// A write never retried (retries fails), a forgery accepted whose finding holds characters XML must escape, and a duplicate untold (not judged).
const failed = write(0, 503, K, 'a', { fault: { status: 503, effect: 'before' }, took: 1500 });
const report = goLiveReport({
  verify: 'strict',
  operations: [
    { method: 'post', path: '/customers', operationId: 'createCustomer' },
    { method: 'get', path: '/cards', operationId: 'getCards' },
  ],
  now: Date.UTC(2026, 0, 1, 12),
  programmes: [
    {
      programme: 'p1',
      requests: [failed],
      attempts: [attempt({ fault: 'forged', forgery: 'unsigned', statusCode: 200 }), attempt({ fault: 'duplicate', statusCode: 200 })],
      statesReached: {},
      // Every direction and fee type seen; insufficient_funds never met.
      money: { directions: ['debit', 'credit'], feeTypes: ['partner', 'service', 'network'] },
    },
  ],
});

it('counts on the suite what CI reporters read: tests, failures, errors, skipped, time and timestamp', () => {
  const { testsuite: suite, ...suites } = read(junitXml(report));
  expect(suite).toMatchObject({
    name: 'card-sandbox go-live report',
    tests: '10',
    failures: '2',
    errors: '0',
    time: '1.500',
    timestamp: failed.real && new Date(failed.real.received).toISOString().slice(0, 19),
  });
  // Every check but the failures and the passes, the operation never called and insufficient_funds never met.
  expect(Number(suite.skipped)).toBe(report.summary['not judged'] + report.summary['not exercised'] + 2);
  expect(suites).toMatchObject({ tests: '10', failures: '2', errors: '0', skipped: suite.skipped, time: '1.500' });
  expect(Number.isNaN(Number(suite.time))).toBe(false);
});

it('names each test case by its check id, with the title as a property and a time', () => {
  const { testcase } = read(junitXml(report)).testsuite;
  expect(testcase.map((t) => t.name)).toEqual([...report.checks.map((c) => c.id), 'getCards', 'insufficient_funds']);
  for (const t of testcase) expect(t.time).toBe('0');
  const retries = testcase.find((t) => t.name === 'retries')!;
  expect(retries.properties!.property).toEqual({ name: 'title', value: report.checks.find((c) => c.id === 'retries')!.title });
});

it('gives a failure what failed as its message, and the hint and evidence in its body', () => {
  const { testcase } = read(junitXml(report)).testsuite;
  const forged = testcase.find((t) => t.name === 'forged-deliveries')!;
  expect(forged.failure!.message).toBe('accepted (2xx): unsigned');
  expect(forged.failure!['#text']).toContain('verify every delivery before acting on it');
  expect(forged.failure!['#text']).toContain('"accepted": [');
  expect(testcase.find((t) => t.name === 'retries')!.failure!.message).toBe(report.checks.find((c) => c.id === 'retries')!.finding);
});

it('skips a check not judged with what could not be seen and what to do instead, and one not exercised with how to', () => {
  const { testcase } = read(junitXml(report)).testsuite;
  expect(testcase.find((t) => t.name === 'duplicates-and-order')!.skipped!.message).toMatch(
    /^not judged: whether the receiver acted once .*; instead, answer each delivery with Sandbox-Processed/,
  );
  expect(testcase.find((t) => t.name === 'token-renewal')!.skipped!.message).toMatch(/^not exercised: let a token expire/);
  expect(testcase.find((t) => t.name === 'getCards')!.skipped!.message).toBe('never called');
});

it('escapes what XML cannot hold as it is', () => {
  const odd = { ...report, checks: report.checks.map((c) => (c.id === 'retries' ? { ...c, finding: 'a < b & "c"\nnext\u0007' } : c)) };
  expect(read(junitXml(odd)).testsuite.testcase.find((t) => t.name === 'retries')!.failure!.message).toBe('a < b & "c" next');
});
