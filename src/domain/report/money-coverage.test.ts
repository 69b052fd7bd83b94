/**
 * The money path's coverage in the go-live report (docs/go-live.md: Coverage): the directions and
 * fee types never seen over every programme covered, whether insufficient_funds was ever met, and
 * each one never seen a skipped JUnit test case with what makes it.
 */
import { describe, expect, it } from 'vitest';
import { request } from '../../testing/report-records.js';
import { goLiveReport, type ProgrammeRecords } from './index.js';
import { junitCases, junitXml } from './junit.js';

const records = (programme: string, extra: Partial<ProgrammeRecords> = {}): ProgrammeRecords => ({
  programme,
  requests: [],
  attempts: [],
  statesReached: {},
  ...extra,
});
const report = (...programmes: ProgrammeRecords[]) => goLiveReport({ verify: 'strict', operations: [], now: 0, programmes });
const refused = request({
  at: 0,
  method: 'POST',
  path: '/v1/simulator/cards/c1/authorisation',
  status: 400,
  problem: { code: 'insufficient_funds', detail: 'insufficient funds' },
});

describe('the money coverage', () => {
  it('names the directions and fee types never seen, with what makes each, and insufficient_funds never met', () => {
    const { money } = report(records('p1', { money: { directions: ['debit'], feeTypes: ['partner'] } })).coverage;
    expect(money.directions).toEqual({
      seen: ['debit'],
      never: ['credit'],
      hints: { credit: expect.stringMatching(/^a refund: POST \/_sandbox\/simulator\/cards/) },
    });
    expect(money.feeTypes.seen).toEqual(['partner']);
    expect(money.feeTypes.never).toEqual(['service', 'network']);
    expect(money.feeTypes.hints.network).toMatch(/PUT \/_sandbox\/fees \{"network":"0.5%"\}/);
    expect(money.insufficientFunds).toEqual({ met: false, refusals: 0, hint: expect.stringMatching(/balance \{"amount":"0"\}, then authorise/) });
  });

  it('adds up over programmes: what one saw is seen; a refusal in any is met', () => {
    const { money } = report(
      records('p1', { money: { directions: ['debit'], feeTypes: ['partner', 'service'] } }),
      records('p2', { money: { directions: ['credit'], feeTypes: ['network'] }, requests: [refused, refused] }),
    ).coverage;
    expect(money.directions.never).toEqual([]);
    expect(money.feeTypes.never).toEqual([]);
    expect(money.insufficientFunds).toEqual({ met: true, refusals: 2 });
  });

  it('sees nothing of a programme whose records hold no money', () => {
    const { money } = report(records('p1')).coverage;
    expect(money.directions.never).toEqual(['debit', 'credit']);
    expect(money.feeTypes.never).toEqual(['partner', 'service', 'network']);
  });

  it('makes each one never seen a skipped JUnit test case, and none once all are seen', () => {
    const partial = report(records('p1', { money: { directions: ['debit'], feeTypes: ['partner', 'service'] } }));
    const xml = junitXml(partial);
    expect(xml).toMatch(/<testcase classname="card-sandbox.money" name="direction.credit" time="0"><skipped message="no credit transaction seen: a refund: /);
    expect(xml).toMatch(/<testcase classname="card-sandbox.money" name="fee.network" time="0"><skipped message="no network fee seen: PUT /);
    expect(xml).toMatch(/<testcase classname="card-sandbox.money" name="insufficient_funds" time="0"><skipped message="never refused insufficient_funds: /);
    expect(xml).not.toMatch(/name="direction.debit"|name="fee.partner"/);
    expect(junitCases(partial)).toBe(partial.checks.length + 3);
    expect(xml).toContain(`tests="${partial.checks.length + 3}"`);

    const whole = report(records('p1', { money: { directions: ['debit', 'credit'], feeTypes: ['partner', 'service', 'network'] }, requests: [refused] }));
    expect(junitXml(whole)).not.toContain('card-sandbox.money');
  });
});
