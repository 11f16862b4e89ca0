// Following a session until it stops or goes idle: an Ink view on a terminal, lines in a pipe, JSON at the end.
import type { AgentSession, KernelforgeClient } from '@kernelforge/sdk';
import type { CommandContext } from '../../core/context.js';
import { ExitCode } from '../../core/exit-codes.js';
import { colorStatus, colorVerdict, formatMs, formatSpeedup } from '../../output/format.js';
import { followSession } from '../../watch/follow.js';
import {
  applyWatchEvent,
  attemptTime,
  horizonLine,
  initialWatchState,
  isSessionDone,
  type WatchState,
} from '../../watch/session-state.js';

export async function followUntilDone(
  ctx: CommandContext,
  client: KernelforgeClient,
  session: AgentSession,
): Promise<ExitCode> {
  const { output } = ctx;
  const controller = new AbortController();
  const pollMs = Number(ctx.env.KFORGE_WATCH_POLL_MS) || 5000;
  const events = followSession(client, session.id, { signal: controller.signal, pollMs });
  let state = initialWatchState(session);
  try {
    if (output.interactive) {
      const { renderSessionWatch } = await import('../../ui/render.js');
      const result = await renderSessionWatch(ctx.io, state, events);
      if (!result || result.reason === 'left') {
        output.info(
          `Left the view; session ${session.id} keeps running. Stop it with \`kforge sessions stop ${session.id}\`.`,
        );
        return ExitCode.ok;
      }
      state = result.state;
    } else if (!isSessionDone(state.status)) {
      if (!output.json) printInitial(ctx, state);
      for await (const event of events) {
        const next = applyWatchEvent(state, event);
        if (!output.json) printChanges(ctx, state, next);
        state = next;
        if (isSessionDone(state.status)) break;
      }
    }
  } finally {
    controller.abort();
  }
  const final = await client.sessions.get(session.id);
  if (output.json) output.printJson(final);
  else printSummary(ctx, final);
  return ExitCode.ok;
}

function attemptLine(ctx: CommandContext, attempt: WatchState['attempts'][number]): string {
  const { style } = ctx.output;
  const parts = [`#${attempt.attempt_number}`, colorStatus(style, attempt.status)];
  const evaluation = attempt.evaluation_state;
  if (evaluation) {
    parts.push(colorVerdict(style, evaluation.verdict));
    const time = attemptTime(attempt);
    if (time !== undefined) parts.push(formatMs(time), formatSpeedup(evaluation.benchmarking_result?.speedup));
  }
  if (attempt.status === 'failed' && attempt.error) parts.push(`(${attempt.error})`);
  return parts.join(' ');
}

function printInitial(ctx: CommandContext, state: WatchState): void {
  ctx.output.line(`session ${state.sessionId} ${state.problemName} on ${state.device}: ${state.status}`);
  for (const attempt of state.attempts) ctx.output.line(attemptLine(ctx, attempt));
}

function printChanges(ctx: CommandContext, before: WatchState, after: WatchState): void {
  for (const attempt of after.attempts) {
    const old = before.attempts.find((a) => a.id === attempt.id);
    const evaluated = old?.evaluation_state == null && attempt.evaluation_state != null;
    // Each status change arrives as the whole attempt (`completed` with its verdict): one line per change.
    if (!old || old.status !== attempt.status || evaluated) ctx.output.line(attemptLine(ctx, attempt));
  }
  // The queue position when it moves (not the estimate, which would print a line every poll).
  const queue = after.progress?.queue ? horizonLine(after) : undefined;
  if (queue && queue !== (before.progress?.queue ? horizonLine(before) : undefined)) ctx.output.line(queue);
  if (before.status !== after.status) ctx.output.line(`session ${after.status}`);
}

function printSummary(ctx: CommandContext, session: AgentSession): void {
  const best = session.best_attempt;
  const time = best ? attemptTime(best) : undefined;
  if (best && best.status === 'completed' && time !== undefined) {
    ctx.output.info(
      `Session ${session.status}. Best: attempt #${best.attempt_number}, ${formatMs(time)} (${formatSpeedup(
        best.evaluation_state?.benchmarking_result?.speedup,
      )}). Its source: \`kforge attempts show ${session.id} --best\`.`,
    );
  } else {
    ctx.output.info(`Session ${session.status}; no attempt was accepted yet.`);
  }
}
