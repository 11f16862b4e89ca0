// The tuner's explanation: what it measured last, what it changes now and why, and which instructions it follows.
// Every time it reports is the attempt's own figure, as the session's table shows it (the sdk's figureText); the
// figure its search compares points by is said to be that, where it is another.
import { attemptFigure, bestAttempt, figureText } from '@kernelforge/sdk';
import type { AgentAttemptView } from '../types.js';
import type { Tried } from './points.js';
import type { Choice } from './search.js';
import type { Variant } from './space.js';
import { FOLLOWABLE, type Steering } from './steer.js';

/** `history`: the session's earlier attempts (the session's best is picked from them by the product's own rule). */
export function explainChoice(
  variant: Variant,
  choice: Choice,
  tried: Tried[],
  steering: Steering,
  history: readonly AgentAttemptView[] = [],
): string {
  const lines: string[] = [`Tuner (an honest parameter search over ${variant.about}; not an LLM).`];
  const last = tried[tried.length - 1];
  const top = tried
    .filter((t) => t.outcome === 'ok' && t.time !== null)
    .sort((a, b) => (a.time ?? 0) - (b.time ?? 0))[0];
  const best = bestAttempt({ generation_attempts: history });
  const bestFigure = best ? attemptFigure(best) : undefined;
  if (last) {
    const what = last.change
      ? `${last.change.param} ${last.change.from}→${last.change.to}`
      : last.fromKey
        ? 'several parameters changed'
        : 'the starting point';
    if (last.outcome === 'ok' && last.figure) {
      const rel = bestFigure && best?.attempt_number === last.attempt ? ', the best so far' : '';
      lines.push(`Last: attempt ${last.attempt} (${what}) ran in ${figureText(last.figure)}${rel}.`);
    } else if (last.outcome === 'bad') {
      lines.push(
        `Last: attempt ${last.attempt} (${what}) failed (${last.verdict}); that point is marked bad and the search continues from the best measured point.`,
      );
    } else lines.push(`Last: attempt ${last.attempt} (${what}) has no measurement; it counts as tried.`);
  }
  if (best && bestFigure)
    lines.push(`Best so far: attempt ${best.attempt_number}, ${figureText(bestFigure)}: the session's lowest time.`);
  // The search's own best point is chosen by another figure when the points' figures are paired: say which.
  if (top?.atReference && top.attempt !== best?.attempt_number && top.figure?.speedup !== undefined)
    lines.push(
      `The search compares points by their speedup over the baseline timed beside each (the machine's speed drifts between minutes, the speedup holds), and by that attempt ${top.attempt} leads (${top.figure.speedup.toFixed(2)}x): it moves from there.`,
    );
  const change = choice.moves.length
    ? choice.moves.map((m) => `${m.param} ${m.from}→${m.to}`).join(', ')
    : 'the starting parameters';
  lines.push(`Now: ${change}, because ${choice.reason}.`);
  const fits = variant.params.filter((p) => p.fit);
  const c = variant.constants;
  if (tried.length === 0 && c && fits.length > 0) {
    const regs = Number(c.VW) > 0 ? `${c.VREGS} vector registers of ${c.VW} floats` : 'vector width unknown';
    lines.push(
      `Fitted to this device (${c.ISA}: ${regs}, L1d ${c.L1D_KIB} KiB, L2 ${c.L2_KIB} KiB, L3 ${c.L3_KIB} KiB): ${fits
        .map((p) => `${p.name}=${p.start}`)
        .join(' ')}.`,
    );
  }
  for (const pin of steering.pins) lines.push(`Following '${pin.because}': ${pin.param} held at ${pin.value}.`);
  for (const push of steering.pushes)
    lines.push(
      `Following '${push.because}': only ${push.direction > 0 ? 'larger' : 'smaller'} ${push.tags.join('/')} parameters than before it.`,
    );
  for (const text of steering.unfollowed) {
    lines.push(
      `Cannot follow '${text}': the tuner only moves its parameters and none of them maps onto that. It can follow ${FOLLOWABLE}; pick an LLM agent (openai or anthropic) for anything else.`,
    );
  }
  lines.push(`Parameters: ${choice.key}.`);
  return lines.join('\n');
}
