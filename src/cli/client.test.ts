import { describe, expect, it } from 'vitest';
import { ClientUsageError, resolveClientOptions } from './client.js';

describe('resolveClientOptions', () => {
  const none = () => [];
  it('takes the flag, then CARD_SANDBOX_URL, then the default', () => {
    expect(resolveClientOptions({}, {}, none)).toEqual({ url: 'http://127.0.0.1:4242' });
    expect(resolveClientOptions({}, { CARD_SANDBOX_URL: 'http://localhost:5000' })).toEqual({ url: 'http://localhost:5000' });
    expect(resolveClientOptions({ url: 'http://[::1]:7000/' }, { CARD_SANDBOX_URL: 'http://localhost:5000' })).toEqual({ url: 'http://[::1]:7000' });
  });

  it('takes the port as start does: --port, then CARD_SANDBOX_PORT, on CARD_SANDBOX_HOST when it names one', () => {
    expect(resolveClientOptions({ port: '5000' }, { CARD_SANDBOX_URL: 'http://localhost:6000' }).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_PORT: '5000' }).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_URL: 'http://localhost:6000', CARD_SANDBOX_PORT: '5000' }).url).toBe('http://localhost:6000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_PORT: '5000', CARD_SANDBOX_HOST: '0.0.0.0' }).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_PORT: '5000', CARD_SANDBOX_HOST: '::1' }).url).toBe('http://[::1]:5000');
    expect(() => resolveClientOptions({ port: 'http' }, {})).toThrow(/--port must be a port from 1 to 65535, got "http"/);
    expect(() => resolveClientOptions({}, { CARD_SANDBOX_PORT: '70000' })).toThrow(/CARD_SANDBOX_PORT must be a port/);
  });

  it('without a URL or port, finds the one sandbox running on this machine', () => {
    const one = () => [{ pid: 1, url: 'http://127.0.0.1:5000' }];
    expect(resolveClientOptions({}, {}, one).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({}, { CARD_SANDBOX_PORT: '0' }, one).url).toBe('http://127.0.0.1:5000');
    expect(resolveClientOptions({ url: 'http://h:1' }, {}, one).url).toBe('http://h:1');
    const two = (url: string) => () => [
      { pid: 1, url },
      { pid: 2, url: 'http://127.0.0.1:5000' },
    ];
    expect(resolveClientOptions({}, {}, two('http://127.0.0.1:4242')).url).toBe('http://127.0.0.1:4242');
    expect(() => resolveClientOptions({}, {}, two('http://127.0.0.1:6000'))).toThrow(
      '2 sandboxes are running (http://127.0.0.1:6000, http://127.0.0.1:5000): say which with --url',
    );
  });

  it('accepts the API or control plane URL the banner prints', () => {
    expect(resolveClientOptions({ url: 'http://127.0.0.1:4242/v1' }, {}).url).toBe('http://127.0.0.1:4242');
    expect(resolveClientOptions({ url: 'http://127.0.0.1:4242/_sandbox/' }, {}).url).toBe('http://127.0.0.1:4242');
    expect(resolveClientOptions({ url: 'https://sandbox.test/team-a' }, {}).url).toBe('https://sandbox.test/team-a');
  });

  it('takes the admin token from the flag or CARD_SANDBOX_ADMIN_TOKEN', () => {
    expect(resolveClientOptions({}, { CARD_SANDBOX_ADMIN_TOKEN: 'env' }, none).adminToken).toBe('env');
    expect(resolveClientOptions({ adminToken: 'flag' }, { CARD_SANDBOX_ADMIN_TOKEN: 'env' }, none).adminToken).toBe('flag');
  });

  it.each(['localhost:4242', 'ftp://127.0.0.1', 'not a url'])('refuses --url %s', (url) => {
    expect(() => resolveClientOptions({ url }, {})).toThrow(ClientUsageError);
  });
});
