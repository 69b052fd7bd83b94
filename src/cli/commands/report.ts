/**
 * `report [--json] [--junit <file>]`: the go-live report (docs/go-live.md: Before you go live) — each check
 * with its verdict and a hint, then the coverage — and, with --junit, the same as JUnit XML for CI:
 * one test case per check and per operation never called (skipped). Exits 1 when a check fails.
 */
import { writeFileAtomic } from '../../kernel/files.js';
import type { Report } from '../../client/control.generated.js';
import { CommandFailed, type Client, type CommandContext } from '../client.js';
import { command } from '../command.js';

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function junitXml(report: Report): string {
  const cases = [
    ...report.checks.map((c) => {
      const body =
        c.status === 'fail'
          ? `<failure message="${xml(c.hint ?? c.title)}">${xml(JSON.stringify(c.evidence, null, 2))}</failure>`
          : c.status === 'not exercised'
            ? `<skipped message="${xml(`not exercised${c.hint ? `: ${c.hint}` : ''}`)}"/>`
            : '';
      return `    <testcase classname="card-sandbox.checks" name="${xml(c.title)}">${body}</testcase>`;
    }),
    ...report.coverage.neverCalled.map(
      (id) => `    <testcase classname="card-sandbox.operations" name="${xml(id)}"><skipped message="never called"/></testcase>`,
    ),
  ];
  const total = report.checks.length + report.coverage.neverCalled.length;
  const skipped = report.summary['not exercised'] + report.coverage.neverCalled.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="card-sandbox go-live report" tests="${total}" failures="${report.summary.fail}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>\n</testsuites>\n`;
}

/** What `report --json` prints. */
export const goLiveReport = (client: Client): Promise<Report> => client.getReport();

/** Prints the report (and writes it as JUnit XML to `junit`); a failed check fails the command (exit 1) once it is printed. */
export async function report({ client, io, json }: CommandContext, junit?: string): Promise<void> {
  const answer = await goLiveReport(client);
  if (junit !== undefined) await writeFileAtomic(junit, junitXml(answer));
  if (json) io.json(answer);
  else {
    const c = io.color;
    for (const check of answer.checks) {
      const mark = check.status === 'pass' ? c.green('✓ pass') : check.status === 'fail' ? c.red('✗ fail') : c.dim('– not exercised');
      io.out(`${mark}  ${check.title}`);
      if (check.status !== 'pass' && check.hint) io.out(`    ${c.dim(check.hint)}`);
      if (check.status === 'fail') io.out(`    ${c.dim(JSON.stringify(check.evidence))}`);
    }
    const { operations, neverCalled, states, webhooks } = answer.coverage;
    io.out('');
    io.out(
      `Operations called: ${operations.length - neverCalled.length} of ${operations.length}${neverCalled.length ? c.dim(` (never: ${neverCalled.join(', ')})`) : ''}`,
    );
    for (const s of states)
      io.out(`States of ${s.resource}: ${s.reached.join(', ') || 'none'}${s.never.length ? c.dim(` (never: ${s.never.join(', ')})`) : ''}`);
    for (const w of webhooks)
      io.out(
        `Webhooks ${w.type}: ${w.attempts} attempts, answered ${Object.entries(w.answers)
          .map(([k, v]) => `${k}×${v}`)
          .join(', ')}`,
      );
    io.out(`\nChecks: ${answer.summary.pass} pass, ${answer.summary.fail} fail, ${answer.summary['not exercised']} not exercised`);
  }
  if (answer.summary.fail > 0) throw new CommandFailed(`${answer.summary.fail} check${answer.summary.fail === 1 ? '' : 's'} failed`);
}

export const reportCommand = command<{ junit?: string }>({
  name: 'report',
  description: 'The go-live report: what your client and receiver did right, wrong and never tried (exit 1 when a check fails)',
  examples: ['report', 'report --junit go-live.xml', 'report --json'],
  options: [{ flags: '--junit <file>', description: 'also write it as JUnit XML: a test case per check and per operation never called' }],
  run: (flags) => (ctx) => report(ctx, flags.junit),
  tool: {
    description:
      "The go-live report: each check (signatures, idempotency keys, retries, token renewal, the receiver's answers, forged deliveries, duplicates, request shapes) as pass, fail or not exercised with evidence and a hint, and the coverage of operations, states and webhooks.",
    input: {},
    data: (client) => goLiveReport(client),
  },
});
