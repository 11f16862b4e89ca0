// The tuner's explanation: what it measured last, what it changes now and why, and which instructions it follows.
import type { Tried } from './points.js';
import type { Choice } from './search.js';
import type { Variant } from './space.js';
import { FOLLOWABLE, type Steering } from './steer.js';

const ms = (t: number) => `${t.toPrecision(3)} ms`;

export function explainChoice(variant: Variant, choice: Choice, tried: Tried[], steering: Steering): string {
  const lines: string[] = [`Tuner (an honest parameter search over ${variant.about}; not an LLM).`];
  const last = tried[tried.length - 1];
  const top = tried
    .filter((t) => t.outcome === 'ok' && t.time !== null)
    .sort((a, b) => (a.time ?? 0) - (b.time ?? 0))[0];
  if (last) {
    const what = last.change
      ? `${last.change.param} ${last.change.from}→${last.change.to}`
      : last.fromKey
        ? 'several parameters changed'
        : 'the starting point';
    if (last.outcome === 'ok' && last.time !== null) {
      const rel =
        top && top !== last && top.time !== null
          ? `, ${Math.round((last.time / top.time - 1) * 100)}% slower than the best`
          : ', the best so far';
      lines.push(`Last: attempt ${last.attempt} (${what}) ran in ${ms(last.time)}${rel}.`);
    } else if (last.outcome === 'bad') {
      lines.push(
        `Last: attempt ${last.attempt} (${what}) failed (${last.verdict}); that point is marked bad and the search continues from the best measured point.`,
      );
    } else lines.push(`Last: attempt ${last.attempt} (${what}) has no measurement; it counts as tried.`);
  }
  if (top?.time != null) {
    const speed = top.speedup != null ? `, ${top.speedup.toFixed(2)}x the reference` : '';
    lines.push(`Best so far: ${ms(top.time)} (attempt ${top.attempt}${speed}).`);
  }
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
