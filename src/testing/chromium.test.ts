import { expect, it } from 'vitest';
import { browserTestsLeftOut } from './chromium.js';

// `npm test` on a machine without Chromium passes, saying what it left out; CI never does.
it('leaves the browser tests out only without a Chromium and outside CI', () => {
  const none = () => false;
  expect(browserTestsLeftOut({}, none)).toMatch(
    /^the inspector's browser tests .* are left out: no Chromium at \/usr\/bin\/chromium\. To run them: apt-get install -y chromium/,
  );
  expect(browserTestsLeftOut({ CARD_SANDBOX_CHROMIUM: '/opt/chrome' }, none)).toContain('no Chromium at /opt/chrome');
  expect(browserTestsLeftOut({ CI: 'true' }, none)).toBeUndefined();
  expect(browserTestsLeftOut({}, () => true)).toBeUndefined();
});
