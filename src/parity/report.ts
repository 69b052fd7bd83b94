/**
 * What a parity run reports (docs/parity.md: The report): the JSON document `--json` prints and
 * `--out` writes, the rows of the terminal's table, and JUnit XML with one test case per step. Pure.
 */
import { operationOf, type Step } from './step.js';
import type { Difference } from './difference.js';
import type { StepResult } from './run.js';

export interface StepReport {
  id: string;
  operationId: string;
  method: string;
  path: string;
  differences: Difference[];
}

export interface ParityReport {
  upstream: string;
  local: string;
  steps: StepReport[];
  summary: { steps: number; differing: number };
}

export const stepHeader = (step: Step) => {
  const op = operationOf(step.operationId);
  return { id: step.id, operationId: step.operationId, method: op.method, path: op.path };
};

export function parityReport(upstream: string, local: string, results: readonly StepResult[]): ParityReport {
  const steps = results.map((r) => ({ ...stepHeader(r.step), differences: r.differences }));
  return { upstream, local, steps, summary: { steps: steps.length, differing: steps.filter((s) => s.differences.length > 0).length } };
}

/** A difference's value for people: ms as seconds, sequences with arrows, nothing as a dash. */
export function shown(kind: Difference['kind'], value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (kind === 'timing' && typeof value === 'number') return `${(value / 1000).toFixed(1)} s`;
  if (Array.isArray(value)) return value.join(kind === 'state-sequence' ? ' → ' : ', ');
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** The table's rows: a step the same on both sides in one row, a differing step in one row per difference. */
export function tableRows(report: ParityReport): { same: boolean; cells: string[] }[] {
  return report.steps.flatMap((s): { same: boolean; cells: string[] }[] => {
    const operation = `${s.method} ${s.path}`;
    if (s.differences.length === 0) return [{ same: true, cells: [s.id, operation, 'same', '', '', ''] }];
    return s.differences.map((d, i) => ({
      same: false,
      cells: [i === 0 ? s.id : '', i === 0 ? operation : '', d.kind, d.where, shown(d.kind, d.upstream), shown(d.kind, d.local)],
    }));
  });
}

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const seconds = (ms: number) => (ms / 1000).toFixed(3);

/** Why a step has no test outcome: neither service was asked (a value it needs is missing on both), or one of them did not answer. */
function outcome(result: StepResult): 'skipped' | 'error' | undefined {
  const [u, l] = [result.upstream.answer.none, result.local.answer.none];
  if (u?.startsWith('not run') && l?.startsWith('not run')) return 'skipped';
  if (u?.startsWith('no answer') || l?.startsWith('no answer')) return 'error';
  return undefined;
}

/** JUnit XML: a suite for the run, a test case per step, failing with its differences. */
export function junitXml(report: ParityReport, results: readonly StepResult[], startedAt: Date): string {
  let [failures, errors, skipped, total] = [0, 0, 0, 0];
  const cases = results.map((r, i) => {
    const step = report.steps[i]!;
    total += r.ms;
    const name = `${step.id}: ${step.method} ${step.path}`;
    const kind = outcome(r);
    let body = '';
    if (kind === 'skipped') {
      skipped++;
      body = `<skipped message="${xml(r.upstream.answer.none!)}"/>`;
    } else if (kind === 'error') {
      errors++;
      body = `<error message="${xml(`upstream: ${r.upstream.answer.none ?? r.upstream.answer.status}; local: ${r.local.answer.none ?? r.local.answer.status}`)}"/>`;
    } else if (step.differences.length > 0) {
      failures++;
      const lines = step.differences.map((d) => `${d.kind} at ${d.where}: upstream ${shown(d.kind, d.upstream)}, local ${shown(d.kind, d.local)}`);
      body = `<failure type="parity" message="${xml(`${step.differences.length} difference${step.differences.length === 1 ? '' : 's'}: ${step.differences.map((d) => d.kind).join(', ')}`)}">${xml(lines.join('\n'))}</failure>`;
    }
    return `    <testcase classname="card-sandbox.parity" name="${xml(name)}" time="${seconds(r.ms)}">${body}</testcase>`;
  });
  const counts = `tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${seconds(total)}"`;
  const properties = `    <properties>\n      <property name="upstream" value="${xml(report.upstream)}"/>\n      <property name="local" value="${xml(report.local)}"/>\n    </properties>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="card-sandbox parity" ${counts}>`,
    `  <testsuite name="card-sandbox parity" ${counts} timestamp="${startedAt.toISOString().slice(0, 19)}">`,
    properties,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
