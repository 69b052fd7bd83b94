/**
 * The go-live report's money coverage read from a programme's own world (docs/go-live.md:
 * Coverage): the directions and fee types its transactions showed, and an authorisation refused
 * insufficient_funds through /v1, in the report's JSON and in the text `card-sandbox report` prints.
 */
import { describe, expect, it } from 'vitest';
import { createTestSandbox } from '../testing/harness.js';
import { cliContext } from '../testing/cli.js';
import { payments, SECOND } from '../testing/payments.js';
import { issuedCard } from '../testing/world.js';
import { report } from './commands/report.js';

describe('the report on the money an integration handled', () => {
  it('names what it never saw, then counts what it met', async () => {
    const sb = createTestSandbox();
    const p = payments(sb);
    const card = await issuedCard(sb, { currencies: ['EUR'] });
    const control = (method: string, path: string, body?: unknown) => sb.json(method, `/_sandbox${path}`, { token: false, body });
    const money = async () => (await control('GET', '/report')).body.coverage.money;

    await control('PUT', '/fees', { partner: '0.5%' });
    await p.authorise(card.cardId, { amount: '20', currency: 'EUR', capture: true });
    await p.advance(3 * SECOND);
    const before = await money();
    expect(before.directions).toMatchObject({ seen: ['debit'], never: ['credit'] });
    expect(before.feeTypes).toMatchObject({ seen: ['partner'], never: ['service', 'network'] });
    expect(before.insufficientFunds).toMatchObject({ met: false, refusals: 0 });

    const text = cliContext(sb);
    await report(text).catch(() => undefined);
    expect(text.stdout()).toContain('Transactions: debit (never: credit)');
    expect(text.stdout()).toContain('Fee types: partner (never: service, network)');
    expect(text.stdout()).toMatch(/insufficient_funds: never met \(an authorisation beyond what the account has available/);
    // Each state never reached is named with what reaches it, as the JSON's hints say.
    const { states } = (await control('GET', '/report')).body.coverage;
    const cards = states.find((s: { resource: string }) => s.resource === 'card');
    expect(cards.never).toContain('blocked');
    expect(text.stdout()).toContain(`    blocked: ${cards.hints.blocked}\n`);

    await control('PUT', `/simulator/accounts/${card.accountId}/balance`, { amount: '0' });
    expect((await p.authorise(card.cardId, { amount: '1', currency: 'EUR' })).body.code).toBe('insufficient_funds');
    await control('PUT', `/simulator/accounts/${card.accountId}/balance`, { amount: '100' });
    await control('POST', `/simulator/cards/${card.cardId}/refund`, { amount: '5', currency: 'EUR' });
    const after = await money();
    expect(after.directions.never).toEqual([]);
    expect(after.insufficientFunds).toEqual({ met: true, refusals: 1 });

    const again = cliContext(sb);
    await report(again).catch(() => undefined);
    expect(again.stdout()).toContain('Transactions: debit, credit\n');
    expect(again.stdout()).toContain('insufficient_funds: met (1 refusal)');
  });
});
