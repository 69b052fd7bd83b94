import { expect, test } from 'vitest';
import { addonTarget, PREBUILT_TARGETS } from './sqlite-addon.js';

// The addon the package loads is named as better-sqlite3 names its prebuilds (README: Quick start).
test('the addon target is the platform and architecture, musl Linux apart', () => {
  expect(addonTarget('linux', 'x64', () => false)).toBe('linux-x64');
  expect(addonTarget('linux', 'arm64', () => true)).toBe('linuxmusl-arm64');
  expect(addonTarget('darwin', 'arm64', () => true)).toBe('darwin-arm64');
  expect(addonTarget('win32', 'x64', () => false)).toBe('win32-x64');
  expect(PREBUILT_TARGETS).toContain(addonTarget());
});
