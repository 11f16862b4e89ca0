// Checks a form makes before sending, each worded to be shown under its own field.
import { MAX_ATTEMPTS_PER_INSTRUCTION } from '@kernelforge/sdk';

/** Why an attempts count cannot be sent (a whole number from 1 to the maximum), or null when it can. */
export function attemptsError(value: string): string | null {
  const t = value.trim();
  const n = Number(t);
  if (t === '' || !Number.isInteger(n) || n < 1 || n > MAX_ATTEMPTS_PER_INSTRUCTION)
    return `Enter a whole number from 1 to ${MAX_ATTEMPTS_PER_INSTRUCTION}.`;
  return null;
}

/** The one catalogue name that `typed` is plainly meant as ('relu' or '19_relu' -> '19_ReLU'), else undefined. */
export function closestProblemName(typed: string, names: readonly string[]): string | undefined {
  const t = typed
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (t.length < 3) return undefined;
  const only = (hits: string[]) => (hits.length === 1 ? hits[0] : undefined);
  const lower = names.map((n) => [n, n.toLowerCase()] as const);
  return (
    only(lower.filter(([, l]) => l === t || l.replace(/^\d+_/, '') === t).map(([n]) => n)) ??
    only(lower.filter(([, l]) => l.endsWith(`_${t}`)).map(([n]) => n))
  );
}

/** Why a list of problem names cannot be sent (each unknown one, with the name meant where it is plain), or null. */
export function problemListError(typed: readonly string[], names: readonly string[]): string | null {
  if (typed.length === 0) return 'Enter at least one problem name.';
  const known = new Set(names);
  const unknown = typed.filter((n) => !known.has(n));
  if (unknown.length > 0)
    return `Not a problem: ${unknown
      .map((n) => {
        const meant = closestProblemName(n, names);
        return meant ? `${n} (did you mean ${meant}?)` : n;
      })
      .join(', ')}. The Problems list above names them all.`;
  const twice = typed.filter((n, i) => typed.indexOf(n) !== i);
  if (twice.length > 0) return `Listed twice: ${[...new Set(twice)].join(', ')}.`;
  return null;
}
