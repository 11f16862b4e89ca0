// What every command handler gets: the resolved configuration, the output, and a lazily built sdk client.
import type { KernelforgeClient } from '@kernelforge/sdk';
import { type ResolvedConfig, resolveConfig } from '../config/resolve.js';
import { createFetch } from '../http/proxy-fetch.js';
import { Output, outputMode, type WritableLike } from '../output/output.js';
import { NotSignedInError } from './errors.js';
import { VERSION } from './version.js';

export type Env = Record<string, string | undefined>;

export interface ReadableLike {
  isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
  on(event: string, listener: (...args: never[]) => void): unknown;
  [Symbol.asyncIterator](): AsyncIterator<unknown>;
}

export interface CliIO {
  env: Env;
  stdout: WritableLike & NodeJS.WritableStream;
  stderr: WritableLike & NodeJS.WritableStream;
  stdin: NodeJS.ReadStream | (ReadableLike & NodeJS.ReadableStream);
}

export interface GlobalOptions {
  json?: boolean;
  profile?: string;
  apiUrl?: string;
}

export type Sdk = typeof import('@kernelforge/sdk');

export interface CommandContext {
  readonly io: CliIO;
  readonly env: Env;
  /** `sessions list`, `submit`, ...: the command's full name. */
  readonly commandName: string;
  readonly config: ResolvedConfig;
  readonly output: Output;
  /** The sdk module, loaded on first use (it is kept out of `kforge --help`). */
  sdk(): Promise<Sdk>;
  /** An sdk client for the resolved server; with `auth` (the default) it refuses to start without a token. */
  client(options?: { auth?: boolean; token?: string }): Promise<KernelforgeClient>;
}

export function createOutput(io: CliIO, options: GlobalOptions): Output {
  return new Output(outputMode(Boolean(options.json), io.stdout, io.env), io.stdout, io.stderr, io.env);
}

export async function createContext(io: CliIO, commandName: string, options: GlobalOptions): Promise<CommandContext> {
  const config = await resolveConfig(
    { ...(options.profile ? { profile: options.profile } : {}), ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}) },
    io.env,
  );
  const output = createOutput(io, options);
  let sdk: Promise<Sdk> | undefined;
  const loadSdk = () => {
    sdk ??= import('@kernelforge/sdk');
    return sdk;
  };
  return {
    io,
    env: io.env,
    commandName,
    config,
    output,
    sdk: loadSdk,
    async client({ auth = true, token } = {}) {
      const bearer = token ?? config.token;
      if (auth && !bearer) throw new NotSignedInError();
      const [{ createClient }, fetch] = await Promise.all([loadSdk(), createFetch(io.env)]);
      return createClient({
        baseUrl: config.apiUrl,
        ...(bearer ? { token: bearer } : {}),
        fetch,
        userAgent: `kforge-cli/${VERSION}`,
      });
    },
  };
}
