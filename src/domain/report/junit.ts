/**
 * The go-live report as JUnit XML (docs/go-live.md: In CI), the form CI reporters read: one test suite
 * with `tests`, `failures`, `errors`, `skipped`, `time` (the span of the requests it judged, in
 * seconds) and `timestamp`; a test case per check named by its stable id, its title a property, a
 * failure's message what failed and its body the hint and the evidence; a check not judged or not
 * exercised skipped with the reason; and a skipped test case per operation never called, per
 * transaction direction and fee type never seen, and for insufficient_funds never met.
 */
import type { Report } from './types.js';

/** Text as an element holds it: escaped, without the characters XML 1.0 cannot hold at all. */
const text = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // eslint-disable-next-line no-control-regex -- these are the characters XML 1.0 cannot hold
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
/** An attribute's value: one line, as a reporter shows a message (a parser would fold its line breaks anyway). */
const xml = (value: string) => text(value.replace(/\s*\n\s*/g, ' '));

const SUITE = 'card-sandbox go-live report';
const seconds = (ms: number) => (Math.max(ms, 0) / 1000).toFixed(3);

/**
 * What the integration never tried, each a skipped test case: an operation never called, a
 * transaction direction or fee type never seen, no authorisation ever refused insufficient_funds.
 */
function untried({ coverage }: Report): { classname: string; name: string; message: string }[] {
  const { directions, feeTypes, insufficientFunds } = coverage.money;
  return [
    ...coverage.neverCalled.map((name) => ({ classname: 'card-sandbox.operations', name, message: 'never called' })),
    ...directions.never.map((d) => ({ classname: 'card-sandbox.money', name: `direction.${d}`, message: `no ${d} transaction seen: ${directions.hints[d]}` })),
    ...feeTypes.never.map((t) => ({ classname: 'card-sandbox.money', name: `fee.${t}`, message: `no ${t} fee seen: ${feeTypes.hints[t]}` })),
    ...(insufficientFunds.met
      ? []
      : [{ classname: 'card-sandbox.money', name: 'insufficient_funds', message: `never refused insufficient_funds: ${insufficientFunds.hint}` }]),
  ];
}

/** How many test cases the JUnit form of `report` holds. */
export const junitCases = (report: Report): number => report.checks.length + untried(report).length;

export function junitXml(report: Report): string {
  const skippedCases = untried(report);
  const cases = [
    ...report.checks.map((c) => {
      const properties = `<properties><property name="title" value="${xml(c.title)}"/></properties>`;
      const body =
        c.status === 'fail'
          ? `<failure message="${xml(c.finding)}" type="${xml(c.id)}">${text(`${c.hint ?? ''}\n\n${JSON.stringify(c.evidence, null, 2)}`)}</failure>`
          : c.status === 'not judged'
            ? `<skipped message="${xml(`not judged: ${(c.notJudged ?? []).map((n) => `${n.what}: ${n.why}; instead, ${n.instead}`).join(' / ')}`)}"/>`
            : c.status === 'not exercised'
              ? `<skipped message="${xml(`not exercised${c.hint ? `: ${c.hint}` : ''}`)}"/>`
              : '';
      return `    <testcase classname="card-sandbox.checks" name="${xml(c.id)}" time="0">${properties}${body}</testcase>`;
    }),
    ...skippedCases.map((u) => `    <testcase classname="${u.classname}" name="${xml(u.name)}" time="0"><skipped message="${xml(u.message)}"/></testcase>`),
  ];
  const tests = report.checks.length + skippedCases.length;
  const skipped = report.summary['not judged'] + report.summary['not exercised'] + skippedCases.length;
  const time = report.span ? seconds(Date.parse(report.span.to) - Date.parse(report.span.from)) : '0.000';
  // JUnit's timestamp is a local date-time without a zone: UTC's, here.
  const timestamp = (report.span?.from ?? report.generatedAt).slice(0, 19);
  const counts = `tests="${tests}" failures="${report.summary.fail}" errors="0" skipped="${skipped}" time="${time}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${SUITE}" ${counts}>`,
    `  <testsuite name="${SUITE}" ${counts} timestamp="${timestamp}">`,
    `    <properties><property name="programmes" value="${xml(report.programmes.join(','))}"/><property name="generatedAt" value="${xml(report.generatedAt)}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
