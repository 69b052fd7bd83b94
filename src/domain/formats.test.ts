import { describe, expect, it } from 'vitest';
import { callbackUrlProblem, MAX_TEXT_LENGTH } from './formats.js';

describe('callbackUrlProblem', () => {
  it.each(['https://example.test/hook', 'http://127.0.0.1:3000/webhooks?x=1', 'HTTPS://EXAMPLE.TEST'])('takes %s', (url) => {
    expect(callbackUrlProblem(url)).toBeUndefined();
  });

  it.each([
    ['', 'must be an absolute URL starting with http:// or https://'],
    ['ftp://example.test', 'must be an absolute URL starting with http:// or https://'],
    ['/relative/path', 'must be an absolute URL starting with http:// or https://'],
    ['https:///no-host', 'must be an absolute URL starting with http:// or https://'],
    ['http://exa mple.test', 'is not a valid URL'],
    ['https://example.test/a b', 'must not contain spaces'],
    [`https://example.test/${'a'.repeat(MAX_TEXT_LENGTH)}`, `must be at most ${MAX_TEXT_LENGTH} characters`],
  ])('refuses %j: %s', (url, problem) => {
    expect(callbackUrlProblem(url)).toBe(problem);
  });
});
