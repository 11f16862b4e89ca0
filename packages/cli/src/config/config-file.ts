// config.json: profiles and their non-secret state; tokens live in separate 0600 files (see paths.ts).
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface CachedSettings {
  /** The server the settings came from. */
  api_url: string;
  posthog_key: string | null;
  posthog_host: string | null;
  fetched_at: string;
}

export interface ProfileEntry {
  api_url?: string;
  user?: { id: string; email: string };
  settings?: CachedSettings;
}

export interface ConfigData {
  /** A random id for usage events, so they never carry who you are. */
  anonymous_id?: string;
  profiles: Record<string, ProfileEntry>;
}

export async function readConfig(file: string): Promise<ConfigData> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const data = parsed as Partial<ConfigData>;
      const profiles = data.profiles && typeof data.profiles === 'object' ? data.profiles : {};
      return { ...data, profiles };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
  }
  return { profiles: {} };
}

/** Writes atomically (temp file + rename), 0600 like the credentials. */
export async function writeConfig(file: string, data: ConfigData): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}

/** Reads, changes and writes one profile's entry. */
export async function updateProfile(
  file: string,
  profile: string,
  change: (entry: ProfileEntry) => ProfileEntry,
): Promise<ConfigData> {
  const data = await readConfig(file);
  data.profiles[profile] = change(data.profiles[profile] ?? {});
  await writeConfig(file, data);
  return data;
}

export async function anonymousId(file: string): Promise<string> {
  const data = await readConfig(file);
  if (data.anonymous_id) return data.anonymous_id;
  data.anonymous_id = randomUUID();
  await writeConfig(file, data);
  return data.anonymous_id;
}
