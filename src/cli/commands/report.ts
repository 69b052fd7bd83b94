/**
 * `report [--all | --programme <id>,<id>] [--json] [--junit <file>]`: the go-live report
 * (docs/go-live.md: Before you go live) — each check with its verdict, what was found, what could not
 * be judged and a hint, then the coverage — of one programme, of a list, or of every programme a
 * test run made (`--all`); with --junit, the same as JUnit XML for CI (domain/report/junit.ts),
 * saying where it wrote it. Exits 1 when a check fails; a file it cannot write is bad usage (exit 2),
 * not a failed check.
 */
import { z } from 'zod';
import { writeFileAtomic } from '../../kernel/files.js';
import type { Report } from '../../client/control.generated.js';
import { junitCases, junitXml } from '../../domain/report/junit.js';
import { ClientUsageError, CommandFailed, type Client, type CommandContext } from '../client.js';
import { command, tool } from '../command.js';
import { count } from '../../domain/words.js';

export interface ReportOptions {
  junit?: string | undefined;
  /** Every programme together. */
  all?: boolean | undefined;
  /** Programme ids separated by commas. */
  programmes?: string | undefined;
}

/** What `report --json` prints: the report of the programme in use, or of `programmes` (`all`, or ids separated by commas). */
export const goLiveReport = (client: Client, programmes?: string): Promise<Report> => client.getReport(programmes === undefined ? {} : { programmes });

/** Prints the report (and writes it as JUnit XML to `junit`); a failed check fails the command (exit 1) once it is printed. */
export async function report({ client, io, json }: CommandContext, options: ReportOptions = {}): Promise<void> {
  const programmes = options.all ? 'all' : options.programmes;
  const answer = await goLiveReport(client, programmes);
  const { junit } = options;
  if (junit !== undefined) {
    try {
      await writeFileAtomic(junit, junitXml(answer));
    } catch (error) {
      throw new ClientUsageError(`cannot write --junit ${junit}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  if (json) io.json(answer);
  else {
    const c = io.color;
    const marks = { pass: c.green('✓ pass'), fail: c.red('✗ fail'), 'not judged': c.yellow('? not judged'), 'not exercised': c.dim('– not exercised') };
    if (programmes !== undefined) io.out(c.dim(`Programmes: ${answer.programmes.length ? answer.programmes.join(', ') : 'none with requests or deliveries'}`));
    for (const check of answer.checks) {
      io.out(`${marks[check.status]}  ${check.id}  ${check.title}`);
      if (check.status !== 'not exercised') io.out(`    ${check.finding}`);
      for (const n of check.notJudged ?? []) io.out(`    ${c.yellow('not judged:')} ${n.what} — ${n.why}`);
      if (check.status !== 'pass' && check.hint) io.out(`    ${c.dim(check.hint)}`);
      if (check.status === 'fail') io.out(`    ${c.dim(JSON.stringify(check.evidence))}`);
    }
    const { operations, neverCalled, states, webhooks } = answer.coverage;
    io.out('');
    io.out(
      `Operations called: ${operations.length - neverCalled.length} of ${operations.length}${neverCalled.length ? c.dim(` (never: ${neverCalled.join(', ')})`) : ''}`,
    );
    for (const s of states) {
      io.out(`States of ${s.resource}: ${s.reached.join(', ') || 'none'}${s.never.length ? c.dim(` (never: ${s.never.join(', ')})`) : ''}`);
      for (const state of s.never) io.out(c.dim(`    ${state}: ${s.hints[state]}`));
    }
    for (const w of webhooks)
      io.out(
        `Webhooks ${w.type}: ${count(w.attempts, 'attempt')}, answered ${Object.entries(w.answers)
          .map(([k, v]) => `${k}×${v}`)
          .join(', ')}`,
      );
    const { directions, feeTypes, insufficientFunds } = answer.coverage.money;
    io.out(`Transactions: ${directions.seen.join(', ') || 'none'}${directions.never.length ? c.dim(` (never: ${directions.never.join(', ')})`) : ''}`);
    io.out(`Fee types: ${feeTypes.seen.join(', ') || 'none'}${feeTypes.never.length ? c.dim(` (never: ${feeTypes.never.join(', ')})`) : ''}`);
    io.out(
      insufficientFunds.met
        ? `insufficient_funds: met (${count(insufficientFunds.refusals, 'refusal')})`
        : `insufficient_funds: never met ${c.dim(`(${insufficientFunds.hint})`)}`,
    );
    const { summary } = answer;
    io.out(`\nChecks: ${summary.pass} pass, ${summary.fail} fail, ${summary['not judged']} not judged, ${summary['not exercised']} not exercised`);
  }
  if (junit !== undefined) {
    const cases = junitCases(answer);
    // On stderr with --json, so that stdout stays the report's JSON.
    (json ? io.err : io.out)(`${io.color.green('✓')} wrote ${count(cases, 'test case')} as JUnit XML to ${junit}`);
  }
  if (answer.summary.fail > 0) throw new CommandFailed(`${answer.summary.fail} check${answer.summary.fail === 1 ? '' : 's'} failed`);
}

export const reportCommand = command<{ junit?: string; all?: boolean }>({
  name: 'report',
  description: 'The go-live report: what your client and receiver did right, wrong and never tried (exit 1 when a check fails)',
  examples: ['report', 'report --all --junit go-live.xml', 'report --programme <id>,<id>', 'report --json'],
  options: [
    {
      flags: '--junit <file>',
      description: 'also write it as JUnit XML: a test case per check, per operation never called and per direction, fee type or refusal never met',
    },
    {
      flags: '--all',
      description: 'every programme together, those deleted since the sandbox started too (a whole test run); --programme takes a list as well',
    },
  ],
  // --programme names the programmes reported on (a list), not the one the client acts on.
  action: (local, flags) =>
    local.run({ ...flags, programme: undefined }, (ctx) => report(ctx, { junit: flags.junit, all: flags.all, programmes: flags.programme })),
  tool: tool({
    description:
      "The go-live report: each check (signatures, idempotency keys, retries, token renewal, the receiver's answers, forged deliveries, duplicates, request shapes) as pass, fail, not judged (what the sandbox could not see, and what to do instead) or not exercised, with what was found, evidence and a hint, and the coverage of operations, states and webhooks.",
    input: {
      programmes: z
        .string()
        .optional()
        .describe("'all' for every programme of a test run, or programme ids separated by commas; the programme in use by default"),
    },
    data: (client, { programmes }) => goLiveReport(client, programmes),
  }),
});
