// A user's own reference (CustomProblemInput) as an sdk Problem, built by the runner's own rules so both sides agree.
import { customProblemDefinition, toPublicProblem } from '@kernelforge/runner';
import type { CustomProblemInput, Problem } from '@kernelforge/sdk';
import { InvalidInputError } from '../../errors.js';

/** A private problem name for a custom session (never on a leaderboard). */
export function customProblemName(sessionName: string): string {
  const slug = sessionName
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 60);
  return `custom_${slug || 'problem'}`;
}

/** The public view of a custom problem; a reference the runner would refuse is a 422 now, not a failed job later. */
export function customToProblem(name: string, input: CustomProblemInput): Problem {
  try {
    return toPublicProblem(customProblemDefinition(name, input));
  } catch (err) {
    throw new InvalidInputError([
      { loc: ['body', 'problem'], msg: err instanceof Error ? err.message : String(err), type: 'value_error' },
    ]);
  }
}
