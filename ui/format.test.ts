/** How the page writes times and reads the instant typed into "advance to" (ui/format.ts). */
import { describe, expect, it } from 'vitest';
import { instantFrom, statusText, statusTone, toneOf, when, withoutBase } from './format.js';
import { href, parseHash } from './route.js';

describe('instantFrom', () => {
  it.each([
    ['2029-05-01', '2029-05-01T00:00:00Z'],
    [' 2029-05-01 12:30 ', '2029-05-01T12:30Z'],
    ['2029-05-01T12:30:15.5', '2029-05-01T12:30:15.5Z'],
    ['2029-05-01T12:30:00+02:00', '2029-05-01T12:30:00+02:00'],
    ['2029-05-01 12:30:00z', '2029-05-01T12:30:00z'],
  ])('reads %j as %s (UTC unless it says otherwise)', (typed, instant) => expect(instantFrom(typed)).toBe(instant));

  it.each(['tomorrow', '2029-5-1', '01/05/2029', ''])('refuses %j', (typed) => expect(instantFrom(typed)).toBeUndefined());
});

describe('when and toneOf', () => {
  it('writes sandbox time plainly, and colours states by what they mean', () => {
    expect(when('2026-03-01T09:00:00.123Z')).toBe('2026-03-01 09:00:00');
    expect(when(undefined)).toBe('');
    expect(withoutBase('the signature does not verify with key "k". The signature base the sandbox computed:\n"@method": GET')).toBe(
      'the signature does not verify with key "k"',
    );
    expect(withoutBase('keyid "k" is not a registered signing key')).toBe('keyid "k" is not a registered signing key');
    expect([toneOf('active'), toneOf('issuing'), toneOf('discarded'), toneOf('terminated'), toneOf('something new')]).toEqual([
      'ok',
      'wait',
      'bad',
      'off',
      'info',
    ]);
  });
});

describe('a request status', () => {
  it('shows a connection closed without an answer (0) as such, and as broken', () => {
    expect([200, 304, 422, 503, 0].map((s) => [statusText(s), statusTone(s)])).toEqual([
      ['200', 'ok'],
      ['304', 'info'],
      ['422', 'bad'],
      ['503', 'bad'],
      ['no answer', 'bad'],
    ]);
  });
});

describe('the route in the hash', () => {
  it('names the view, the selected item and the programme, and falls back to the overview', () => {
    expect(parseHash('#/events/e1?programme=p1&failing=1')).toEqual({ view: 'events', id: 'e1', query: { programme: 'p1', failing: '1' } });
    expect(parseHash('')).toEqual({ view: 'overview', query: {} });
    expect(parseHash('#/nowhere')).toEqual({ view: 'overview', query: {} });
    expect(href('world', 'c 1', {}, 'p1')).toBe('#/world/c%201?programme=p1');
    expect(href('requests', undefined, { failed: '1' }, 'default')).toBe('#/requests?failed=1');
  });
});
