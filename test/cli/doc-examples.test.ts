import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, lims, limsInProcess, setUpLab, tempDir } from './helpers.js';

afterAll(cleanup);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The fenced code blocks of README.md and docs/*.md, as an operator copies them. */
function documentedBlocks(): { where: string; text: string }[] {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return files.flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => ({
      where: file,
      text: m[1]!,
    })),
  );
}

/** The `$ lims ...` lines of a command's --help "Examples:". */
async function helpExamples(args: string[]): Promise<{ where: string; text: string }> {
  const r = await limsInProcess([...args, '--help']);
  const lines = r.stdout.split('\n').filter((l) => /^\s*\$ /.test(l));
  return { where: `lims ${args.join(' ')} --help`, text: lines.map((l) => l.replace(/^\s*\$ /, '')).join('\n') };
}

/** Shell words of one command line: quotes, backslash line continuations, VAR=value prefixes. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g;
  let current = '';
  let last = -1;
  for (const m of line.matchAll(re)) {
    const piece = m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3]!;
    if (m.index === last) current += piece;
    else {
      if (last !== -1) words.push(current);
      current = piece;
    }
    last = m.index + m[0].length;
  }
  if (last !== -1) words.push(current);
  return words;
}

interface Example {
  where: string;
  line: string;
  env: Record<string, string>;
  /** The command after the program name, without --data-dir / --database-url (the test gives its own). */
  args: string[];
}

/** Every documented command line that sets a password: `lims setup` and `lims user add`. */
function examples(blocks: { where: string; text: string }[]): Example[] {
  const found: Example[] = [];
  for (const block of blocks) {
    for (const line of block.text.replace(/\\\n\s*/g, '').split('\n')) {
      if (!/--admin-password|LIMS_ADMIN_PASSWORD=|user add .*--password/.test(line)) continue;
      // A command line, not the error a bad one prints ("lims: --admin-password: ...").
      if (!/(^|\s)(lims|\S*bin\/lims\.js) /.test(line)) continue;
      const words = shellWords(line.trim());
      const env: Record<string, string> = {};
      while (words[0] && /^[A-Z_]+=/.test(words[0])) {
        const [k, ...v] = words.shift()!.split('=');
        env[k!] = v.join('=');
      }
      // `sudo -u lims -H lims ...`: the program, not the user it runs as.
      const program = words.findIndex((w, i) => (w === 'lims' && words[i - 1] !== '-u') || w.endsWith('bin/lims.js'));
      expect(program, `${block.where}: "${line}" names no lims program`).toBeGreaterThanOrEqual(0);
      const rest = words.slice(program + 1);
      const args: string[] = [];
      for (let i = 0; i < rest.length; i++) {
        if (rest[i] === '--data-dir' || rest[i] === '--database-url') i++;
        else args.push(rest[i]!);
      }
      found.push({ where: block.where, line, env, args });
    }
  }
  return found;
}

describe('documented password examples', () => {
  it('every documented lims setup and lims user add example with a password works as written', async () => {
    const blocks = [...documentedBlocks(), await helpExamples(['setup']), await helpExamples(['user', 'add'])];
    const all = examples(blocks);
    const setups = all.filter((e) => e.args.includes('setup'));
    const userAdds = all.filter((e) => e.args[0] === 'user');
    // README, docs/cli.md (two), docs/deployment.md (two) and setup --help; docs/cli.md and user add --help.
    expect(setups.length).toBeGreaterThanOrEqual(5);
    expect(userAdds.length).toBeGreaterThanOrEqual(2);
    expect(all.some((e) => e.where === 'lims setup --help')).toBe(true);

    for (const e of setups) {
      const dir = tempDir();
      const r = await lims(['--data-dir', dir, ...e.args], { env: e.env });
      expect({ example: `${e.where}: ${e.line}`, code: r.code, stderr: r.stderr }).toEqual({
        example: `${e.where}: ${e.line}`,
        code: 0,
        stderr: '',
      });
    }
    const lab = tempDir();
    await setUpLab(lab);
    for (const [n, e] of userAdds.entries()) {
      // Each example adds the same person: a number in front of the email keeps them apart.
      const args = e.args.map((a, i) => (e.args[i - 1] === '--email' ? `${n}-${a}` : a));
      const r = await limsInProcess(['--data-dir', lab, ...args]);
      expect({ example: `${e.where}: ${e.line}`, code: r.code, stderr: r.stderr }).toEqual({
        example: `${e.where}: ${e.line}`,
        code: 0,
        stderr: '',
      });
    }
  });
});
