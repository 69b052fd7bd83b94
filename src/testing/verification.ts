/** A sandbox with the probe routes and a registered signing key, in a verify mode, for tests of request verification. Not shipped. */
import type { Verify } from '../config/index.js';
import { createTestSandbox } from './harness.js';
import { mountProbeRoutes } from './probe-routes.js';
import { newSigningKey, registerSigningKey } from './signer.js';

/** A body the probe routes take. */
export const BODY = { name: 'widget', size: 3 };

export async function setUp(verify: Verify) {
  const sandbox = createTestSandbox({ verify });
  const probes = mountProbeRoutes(sandbox);
  const key = newSigningKey();
  await registerSigningKey(sandbox, key);
  return { sandbox, probes, key };
}
