// The built-in problem catalogue, loaded once from problems/ by the runner's loader; public views never carry ranked sizes.
import { type Catalogue as Definitions, loadCatalogue, toPublicProblem } from '@kernelforge/runner';
import { existsSync } from 'node:fs';
import type { Problem } from '@kernelforge/sdk';
import { HttpError } from '../http/errors.js';

export class Catalogue {
  private loaded: Promise<Definitions> | null = null;

  constructor(private readonly dir: string) {}

  /** Full definitions (hidden ranked sizes included): for the runner only, never for a response. */
  definitions(): Promise<Definitions> {
    // A missing problems/ folder is an empty catalogue, not a crash (a bare install can still run custom sessions).
    this.loaded ??= Promise.resolve().then(() => (existsSync(this.dir) ? loadCatalogue(this.dir) : new Map()));
    return this.loaded;
  }

  async list(): Promise<Problem[]> {
    return [...(await this.definitions()).values()].map(toPublicProblem).sort(byLevelThenName);
  }

  async find(name: string): Promise<Problem | undefined> {
    const def = (await this.definitions()).get(name);
    return def ? toPublicProblem(def) : undefined;
  }

  /** The public problem, or a 404 whose detail lists the names that exist. */
  async require(name: string): Promise<Problem> {
    const found = await this.find(name);
    if (found) return found;
    const names = [...(await this.definitions()).keys()].sort();
    throw new HttpError(404, `Problem '${name}' not found. Known problems: ${names.join(', ') || '(none)'}`);
  }
}

function byLevelThenName(a: Problem, b: Problem): number {
  return a.level - b.level || a.name.localeCompare(b.name, 'en', { numeric: true });
}
