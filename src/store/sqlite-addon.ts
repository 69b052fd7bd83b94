/**
 * Where SQLite's native addon comes from. The package carries better-sqlite3's JavaScript inside
 * its bundles and its prebuilt Node-API addons, one for each platform it supports, in
 * dist/prebuilds/, so that installing card-sandbox gives npm no native package to build (README:
 * Quick start). better-sqlite3 takes the file through its `nativeBinding` option. Run from the
 * sources (tests without a build), the better-sqlite3 package in node_modules finds its own.
 */
import { existsSync, readFileSync } from 'node:fs';
import { packagePath } from '../kernel/paths.js';

/** The platforms dist/prebuilds/ holds an addon for, as better-sqlite3 names them. */
export const PREBUILT_TARGETS = [
  'linux-x64',
  'linux-arm64',
  'linuxmusl-x64',
  'linuxmusl-arm64',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64',
  'win32-arm64',
] as const;

/** Whether this process runs on musl libc (Alpine): the loader mapped into it says so. */
function isMusl(): boolean {
  try {
    return /\/ld-musl-[^/\s]*\.so/.test(readFileSync('/proc/self/maps', 'latin1'));
  } catch {
    const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
    return report.header?.glibcVersionRuntime === undefined;
  }
}

export function addonTarget(platform: string = process.platform, arch: string = process.arch, musl: () => boolean = isMusl): string {
  return `${platform === 'linux' && musl() ? 'linuxmusl' : platform}-${arch}`;
}

/** The addon file to load, or undefined when better-sqlite3's own package is there to find one. */
export function nativeBinding(): string | undefined {
  const dir = packagePath('dist', 'prebuilds');
  if (!existsSync(dir)) return undefined;
  const target = addonTarget();
  const file = packagePath('dist', 'prebuilds', `${target}.node`);
  if (!existsSync(file)) {
    throw new Error(`card-sandbox ships SQLite for ${PREBUILT_TARGETS.join(', ')}; this machine is ${target}`);
  }
  return file;
}
