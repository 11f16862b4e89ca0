// Where kforge keeps its files: $XDG_CONFIG_HOME/kforge, else ~/.config/kforge.
import { homedir } from 'node:os';
import { join } from 'node:path';

export type Env = Record<string, string | undefined>;

export function configDir(env: Env): string {
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'kforge');
  return join(env.HOME || homedir(), '.config', 'kforge');
}

/** config.json: each profile's API URL, signed-in user and cached server settings (no secrets). */
export function configFile(env: Env): string {
  return join(configDir(env), 'config.json');
}

/** The token of one profile, alone in a 0600 file. */
export function credentialsFile(env: Env, profile: string): string {
  return join(configDir(env), 'credentials', profile);
}
