/** The API fault lab's commands in-process: `api-faults set|show|clear`, and a refused request. */
import { expect, it } from 'vitest';
import { cliContext } from '../../testing/cli.js';
import { createTestSandbox } from '../../testing/harness.js';
import { ClientUsageError } from '../client.js';
import { ApiError } from '../../client/operations.js';
import { clearApiFaults, setApiFaults, showApiFaults } from './api-faults.js';

it('sets the rules (a body or a list), shows them as a table, and clears them', async () => {
  const sb = createTestSandbox();
  const set = cliContext(sb);
  await setApiFaults(set, '[{"match":{"method":"POST","path":"/v1/customers"},"status":503,"times":2},{"latency":"100ms-2s","rate":0.5}]');
  expect(
    set
      .stdout()
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/)),
  ).toEqual([
    ['#', 'MATCH', 'FAULT', 'RATE', 'LEFT', 'HITS'],
    ['1', 'POST /v1/customers', 'status=503 effect=before', '1', '2/2', '0'],
    ['2', 'every request', 'latency=100ms-2s effect=before', '0.5', '∞', '0'],
    [''],
  ]);
  const shown = cliContext(sb, { json: true });
  await showApiFaults(shown);
  expect(JSON.parse(shown.stdout())).toMatchObject({ rules: [{ status: 503, remaining: 2 }, { latency: '100ms-2s' }] });
  const withSeed = cliContext(sb);
  await setApiFaults(withSeed, '{"rules":[{"status":429,"retryAfter":3}],"seed":7}');
  expect(withSeed.stdout()).toContain('status=429 retry-after=3 effect=before');
  expect(withSeed.stdout()).toContain('seed 7');
  const cleared = cliContext(sb);
  await clearApiFaults(cleared);
  expect(cleared.stdout()).toBe('✓ no API faults\n');
  const none = cliContext(sb);
  await showApiFaults(none);
  expect(none.stdout()).toBe('no API faults\n');
});

it('refuses text that is not JSON before asking the sandbox, and passes on what the sandbox refuses', async () => {
  const sb = createTestSandbox();
  await expect(setApiFaults(cliContext(sb), 'status=503')).rejects.toThrow(ClientUsageError);
  await expect(setApiFaults(cliContext(sb), '[{"status":404}]')).rejects.toThrow(ApiError);
  expect(sb.deps.services.apiFaults.view()).toEqual({ rules: [] });
});
