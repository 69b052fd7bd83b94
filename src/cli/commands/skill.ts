/**
 * `skill [--install [dir]]`: the agent skill shipped in the package (SKILL.md, docs/agents.md: Coding
 * agents) printed, or written where a coding agent looks for skills: `<dir>/card-sandbox/SKILL.md`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { packagePath } from '../../kernel/paths.js';
import { command } from '../command.js';
import type { Io } from '../io.js';

/** Claude Code's project skills; other agents take --install <their folder>. */
export const DEFAULT_SKILLS_DIR = '.claude/skills';

export function skill(io: Io, installDir?: string): void {
  const text = readFileSync(packagePath('SKILL.md'), 'utf8');
  if (installDir === undefined) return io.out(text.trimEnd());
  const dir = resolve(installDir, 'card-sandbox');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), text);
  io.out(`${io.color.green('✓')} wrote ${join(dir, 'SKILL.md')}`);
}

export const skillCommand = command<{ install?: string | true }>({
  name: 'skill',
  description: 'Print the agent skill for card-sandbox (SKILL.md), or install it where your coding agent looks for skills',
  examples: ['skill', 'skill --install', 'skill --install ~/.claude/skills'],
  client: false,
  options: [{ flags: '--install [dir]', description: 'write <dir>/card-sandbox/SKILL.md (default .claude/skills)' }],
  action: ({ io }, flags) => skill(io, flags.install === true ? DEFAULT_SKILLS_DIR : flags.install),
});
