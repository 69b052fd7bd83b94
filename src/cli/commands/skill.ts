/**
 * `skill [--install [dir]]`: the agent skill shipped in the package (SKILL.md, docs/agents.md: Coding
 * agents) printed, or written where a coding agent looks for skills: `<dir>/card-sandbox/SKILL.md`.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../../kernel/files.js';
import { packagePath } from '../../kernel/paths.js';
import { command } from '../command.js';
import type { Io } from '../io.js';

/** Claude Code's project skills; other agents take --install <their folder>. */
export const DEFAULT_SKILLS_DIR = '.claude/skills';

/**
 * Makes `dir` and its missing parents one at a time, from the nearest that exists: each failure is
 * said at once, naming the folder. (Node's recursive mkdir can loop for ever on some special file
 * systems, such as a path below /proc/self.)
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    let isFolder: boolean;
    try {
      isFolder = statSync(at).isDirectory();
    } catch {
      missing.unshift(at);
      const parent = dirname(at);
      if (parent === at) break;
      at = parent;
      continue;
    }
    if (!isFolder) throw new Error(`cannot install the skill in ${dir}: ${at} is not a folder`);
    break;
  }
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST' && statSync(folder).isDirectory()) continue;
      throw new Error(`cannot install the skill in ${dir}: cannot make ${folder} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
  }
}

export function skill(io: Io, installDir?: string): void {
  const text = readFileSync(packagePath('SKILL.md'), 'utf8');
  if (installDir === undefined) return io.out(text.trimEnd());
  const dir = resolve(installDir, 'card-sandbox');
  makeFolders(dir);
  const file = join(dir, 'SKILL.md');
  try {
    writeFileAtomicSync(file, text);
  } catch (error) {
    throw new Error(`cannot install the skill in ${dir}: cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  io.out(`${io.color.green('✓')} wrote ${file}`);
}

export const skillCommand = command<{ install?: string | true }>({
  name: 'skill',
  description: 'Print the agent skill for card-sandbox (SKILL.md), or install it where your coding agent looks for skills',
  examples: ['skill', 'skill --install', 'skill --install ~/.claude/skills'],
  client: false,
  options: [{ flags: '--install [dir]', description: 'write <dir>/card-sandbox/SKILL.md (default .claude/skills)' }],
  action: ({ io }, flags) => skill(io, flags.install === true ? DEFAULT_SKILLS_DIR : flags.install),
});
