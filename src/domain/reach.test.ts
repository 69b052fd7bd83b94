import { describe, expect, it } from 'vitest';
import { goLiveReport } from './report/index.js';
import { REACHED_BY, STATUSES } from './reach.js';
import { RESOURCE_TYPES } from './outbox.js';

describe('REACHED_BY', () => {
  it('says how every status of every resource is reached, and nothing else', () => {
    for (const resource of RESOURCE_TYPES) expect(Object.keys(REACHED_BY[resource]).sort(), resource).toEqual([...STATUSES[resource]].sort());
  });
});

describe("the go-live report's coverage", () => {
  it('names, for each state never reached, the control that reaches it', () => {
    const report = goLiveReport({
      verify: 'strict',
      operations: [],
      now: 0,
      programmes: [{ programme: 'p1', requests: [], attempts: [], statesReached: { transaction: ['processing', 'processed'], card: ['issuing', 'active'] } }],
    });
    const transaction = report.coverage.states.find((s) => s.resource === 'transaction')!;
    expect(transaction.never).toEqual(['reversing', 'reversed']);
    expect(Object.keys(transaction.hints)).toEqual(['reversing', 'reversed']);
    expect(transaction.hints.reversing).toMatch(/POST \/_sandbox\/simulator\/transactions\/\{id\}\/reverse .*card-sandbox reverse/);
    const card = report.coverage.states.find((s) => s.resource === 'card')!;
    expect(card.hints.blocked).toMatch(/\/_sandbox\/simulator\/cards\/\{id\}\/block/);
    expect(card.hints).not.toHaveProperty('active');
    const account = report.coverage.states.find((s) => s.resource === 'account')!;
    expect(account.hints.failed).toMatch(/fail-account/);
  });
});
