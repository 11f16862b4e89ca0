// Secrets from files: for every setting X (EnvSchema), X_FILE names a file holding its value (Docker and Kubernetes
// secrets, systemd's LoadCredential=), read once at start. Setting both X and X_FILE is refused: one of them would be
// silently ignored.
import { readFileSync } from 'node:fs';
import { EnvSchema, StartupError } from './config.js';

/** `env` with each X_FILE of a known setting X read into X (one trailing newline dropped); X_FILE itself is removed. */
export function withSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of Object.keys(EnvSchema.shape)) {
    const file = env[`${name}_FILE`];
    if (file === undefined || file.trim() === '') continue;
    if (env[name] !== undefined && env[name]?.trim() !== '')
      throw new StartupError(`both ${name} and ${name}_FILE are set: keep one`);
    let value: string;
    try {
      value = readFileSync(file, 'utf8');
    } catch (error) {
      throw new StartupError(`${name}_FILE=${file} cannot be read: ${(error as Error).message}`);
    }
    out[name] = value.replace(/\r?\n$/, '');
    delete out[`${name}_FILE`];
  }
  return out;
}
