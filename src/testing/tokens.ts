/** Tokens for the default credentials and another API key, for tests of /v1/auth. Not shipped. */
import { DEFAULT_API_KEY, DEFAULT_API_SECRET } from '../config/index.js';
import type { TestSandbox } from './harness.js';

export const OTHER_KEY = '2b9e7c51-3f0a-4d8e-9c61-5a7b8d9e0f12';

export async function tokenFor(sandbox: TestSandbox, apiKey = DEFAULT_API_KEY, apiSecret = DEFAULT_API_SECRET) {
  return sandbox.json('POST', '/v1/auth/token', { token: false, body: { apiKey, apiSecret } });
}

export const chainsWith = (sandbox: TestSandbox, token: string | false) => sandbox.json('GET', '/v1/chains', { token });
