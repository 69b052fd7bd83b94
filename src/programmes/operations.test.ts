/**
 * What the control plane does with programmes (operations.ts) refuses its input in words of its own,
 * naming the field; the control plane says where the input was.
 */
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../domain/errors.js';
import { createTestSandbox } from '../testing/harness.js';

describe('creating a programme', () => {
  it('refuses a clock it cannot read in words of its own, which the control plane says were the body', async () => {
    const sb = createTestSandbox();
    let refusal: unknown;
    try {
      sb.deps.programmes.create({ clock: 'yesterday' });
    } catch (error) {
      refusal = error;
    }
    const message = 'must be an ISO 8601 date or date-time (e.g. 2026-01-01T09:00:00Z) or "now"';
    const errors = [{ path: 'clock', message }];
    expect(refusal).toBeInstanceOf(SandboxError);
    expect(refusal).toMatchObject({ code: 'invalid_request', detail: `clock ${message}, got "yesterday"`, errors });
    const res = await sb.json('POST', '/_sandbox/programmes', { token: false, body: { clock: 'yesterday' } });
    expect(res.body).toMatchObject({
      status: 400,
      code: 'invalid_request',
      detail: `invalid body: clock ${message}, got "yesterday"`,
      errors,
    });
    expect(sb.deps.programmes.list()).toHaveLength(1);
  });
});
