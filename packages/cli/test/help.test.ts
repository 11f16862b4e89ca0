// Every command's help, complete with examples, kept as snapshots (run in-process: help needs no server).
import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import type { CliIO } from '../src/core/context.js';
import { run } from '../src/run.js';

async function runInProcess(args: string[]) {
  const stdout = Object.assign(new PassThrough(), { isTTY: false, columns: 100 });
  const stderr = Object.assign(new PassThrough(), { isTTY: false, columns: 100 });
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const io = {
    env: { HOME: '/nonexistent', XDG_CONFIG_HOME: '/nonexistent' },
    stdout,
    stderr,
    stdin: new PassThrough(),
  } as unknown as CliIO;
  const code = await run(args, io, { telemetry: false });
  return { code, stdout: out, stderr: err };
}

const LEAVES = [
  ['login'],
  ['logout'],
  ['whoami'],
  ['problems', 'list'],
  ['problems', 'show'],
  ['devices'],
  ['sessions', 'start'],
  ['sessions', 'custom'],
  ['sessions', 'list'],
  ['sessions', 'show'],
  ['sessions', 'watch'],
  ['sessions', 'stop'],
  ['sessions', 'delete'],
  ['sessions', 'restore'],
  ['sessions', 'rename'],
  ['instruct'],
  ['attempts', 'show'],
  ['submit'],
  ['test'],
  ['submissions'],
  ['submissions', 'show'],
  ['leaderboard'],
  ['sweep', 'start'],
  ['sweep', 'show'],
  ['sweep', 'compare'],
  ['sweep', 'list'],
  ['tokens', 'list'],
  ['tokens', 'create'],
  ['tokens', 'revoke'],
];
const GROUPS = [['sessions'], ['problems'], ['attempts'], ['tokens'], ['sweep']];

describe('help', () => {
  test('kforge --help lists every command, the exit codes, the environment and examples', async () => {
    const { code, stdout } = await runInProcess(['--help']);
    expect(code).toBe(0);
    for (const section of ['Commands:', 'Exit codes:', 'Environment:', 'Examples:']) expect(stdout).toContain(section);
    expect(stdout).toMatchSnapshot();
  });

  test.each(LEAVES.map((words) => [words.join(' '), words] as const))(
    'kforge %s --help has a description, --json and examples',
    async (_name, words) => {
      const { code, stdout } = await runInProcess([...words, '--help']);
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: kforge ${words.join(' ')}`));
      expect(stdout).toContain('--json');
      expect(stdout).toMatch(/Examples:\n {2}# .+\n {2}\$ kforge /);
      expect(stdout).toMatchSnapshot();
    },
  );

  test.each(GROUPS)('kforge %s --help lists its commands', async (group) => {
    const { code, stdout } = await runInProcess([group, '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Commands:');
    expect(stdout).toMatchSnapshot();
  });

  test('a group without a command shows its help and exits 2', async () => {
    const { code, stderr } = await runInProcess(['sessions']);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: kforge sessions');
  });

  test('--version prints the version', async () => {
    const { code, stdout } = await runInProcess(['--version']);
    expect(code).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
