// `kforge tokens create NAME`: a new API token, printed once.
import { TOKEN_SCOPE_PRESETS, TOKEN_SCOPES, type TokenScope } from '@kernelforge/sdk';
import { Command, InvalidArgumentError } from 'commander';
import { type Runtime, examples, handle, positiveInt } from '../../core/command.js';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';

interface CreateOptions {
  expiresInDays?: number;
  scope?: TokenScope[];
}

/** `--scope ci`, `--scope read,submit` or `--scope read --scope submit`: presets and scope names, accumulated. */
function scopeList(value: string, previous: TokenScope[] = []): TokenScope[] {
  const out = new Set(previous);
  for (const part of value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    if (part in TOKEN_SCOPE_PRESETS)
      for (const s of TOKEN_SCOPE_PRESETS[part as keyof typeof TOKEN_SCOPE_PRESETS]) out.add(s);
    else if ((TOKEN_SCOPES as readonly string[]).includes(part)) out.add(part as TokenScope);
    else
      throw new InvalidArgumentError(
        `Unknown scope '${part}': use ${Object.keys(TOKEN_SCOPE_PRESETS).join(' or ')}, or scopes from ${TOKEN_SCOPES.join(', ')}.`,
      );
  }
  return TOKEN_SCOPES.filter((s) => out.has(s));
}

export function tokensCreateCommand(runtime: Runtime): Command {
  const command = new Command('create')
    .description('create an API token (shown only this once) for CI or another machine')
    .argument('<name>', 'what it is for, e.g. "github-actions"')
    .option('--expires-in-days <days>', 'it stops working after this many days (default: never)', positiveInt)
    .option(
      '--scope <scopes>',
      `what it may do: ci (read, submit), full (everything), or scopes from ${TOKEN_SCOPES.join(', ')}; repeatable (default: full)`,
      scopeList,
    );
  examples(command, [
    ['kforge tokens create github-actions --scope ci --expires-in-days 90', 'a token for CI: submit and read only'],
    ['kforge tokens create laptop --json | jq -r .token', 'only the token'],
  ]);
  return handle<[string], CreateOptions>(
    runtime,
    command,
    async (ctx: CommandContext, [name], options): Promise<ExitCode> => {
      const client = await ctx.client();
      const token = await client.tokens.create({
        name,
        ...(options.expiresInDays ? { expires_in_days: options.expiresInDays } : {}),
        ...(options.scope ? { scopes: options.scope } : {}),
      });
      const { output } = ctx;
      if (output.json) {
        output.printJson(token);
        return ExitCode.ok;
      }
      output.line(token.token);
      output.success(
        `Created token "${token.name}" (${token.id}), scopes: ${token.scopes.join(', ')}. Copy it now: it is not shown again.`,
      );
      output.info('Use it with `kforge login --token ...` or KFORGE_TOKEN in CI.');
      return ExitCode.ok;
    },
  );
}
