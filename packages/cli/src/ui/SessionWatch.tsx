// The live view of `kforge sessions watch`: attempts as they run, and the agent's streamed text.
import { bestAttempt } from '@kernelforge/sdk';
import { Box, Text, useApp, useInput, useStdin } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { formatMs, formatSpeedup } from '../output/format.js';
import {
  applyWatchEvent,
  attemptTime,
  currentStream,
  evaluationLine,
  horizonLine,
  isSessionDone,
  type WatchEvent,
  type WatchState,
} from '../watch/session-state.js';

export interface WatchResult {
  /** done: the session stopped or went idle; left: the user pressed q. */
  reason: 'done' | 'left';
  state: WatchState;
}

export interface SessionWatchProps {
  initial: WatchState;
  events: AsyncIterable<WatchEvent>;
  /** Lines of the agent's text to show (default 8). */
  streamLines?: number;
  /** Told the result just before the screen exits (the entry reads it from waitUntilExit too). */
  onExit?: (result: WatchResult) => void;
}

export function SessionWatch({ initial, events, streamLines = 8, onExit }: SessionWatchProps) {
  const { exit } = useApp();
  const { isRawModeSupported } = useStdin();
  const [state, setState] = useState(initial);
  const latest = useRef(initial);

  useEffect(() => {
    let cancelled = false;
    if (isSessionDone(initial.status)) return;
    void (async () => {
      try {
        for await (const event of events) {
          if (cancelled) return;
          latest.current = applyWatchEvent(latest.current, event);
          setState(latest.current);
          if (isSessionDone(latest.current.status)) return;
        }
      } catch (error) {
        if (!cancelled) exit(error instanceof Error ? error : new Error(String(error)));
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [events, exit, initial]);

  // Exit after the final state has rendered, so the last frame on screen is the finished session.
  useEffect(() => {
    if (!isSessionDone(state.status)) return;
    const result: WatchResult = { reason: 'done', state };
    onExit?.(result);
    exit(result);
  }, [state, exit, onExit]);

  useInput(
    (input) => {
      if (input !== 'q') return;
      const result: WatchResult = { reason: 'left', state: latest.current };
      onExit?.(result);
      exit(result);
    },
    { isActive: isRawModeSupported === true },
  );

  return <SessionView state={state} streamLines={streamLines} />;
}

export function SessionView({ state, streamLines = 8 }: { state: WatchState; streamLines?: number }) {
  const best = bestOf(state);
  const stream = currentStream(state);
  const tail = stream ? stream.text.split('\n').slice(-streamLines) : [];
  const horizon = horizonLine(state);
  const evaluation = evaluationLine(state);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{state.name}</Text>
        <Text dimColor>
          {' '}
          · {state.problemName} on {state.device} ·{' '}
        </Text>
        <Text color={state.status === 'active' ? 'cyan' : state.status === 'stopped' ? 'red' : 'green'}>
          {state.status}
        </Text>
      </Text>
      <Box marginTop={1} flexDirection="column">
        <Box>
          <Text bold>{pad('#', 5)}</Text>
          <Text bold>{pad('STATUS', 12)}</Text>
          <Text bold>{pad('VERDICT', 18)}</Text>
          <Text bold>{pad('TIME', 11)}</Text>
          <Text bold>SPEEDUP</Text>
        </Box>
        {state.attempts.length === 0 ? <Text dimColor>no attempts yet</Text> : null}
        {state.attempts.map((attempt) => {
          const verdict = attempt.evaluation_state?.verdict;
          return (
            <Box key={attempt.id}>
              <Text>{pad(`${attempt.attempt_number}${attempt.id === best ? '*' : ''}`, 5)}</Text>
              <Text color={statusColor(attempt.status)}>{pad(attempt.status, 12)}</Text>
              <Text color={verdict === 'accepted' ? 'green' : verdict ? 'red' : 'gray'}>
                {pad(verdict ?? (attempt.status === 'failed' ? 'failed' : '-'), 18)}
              </Text>
              <Text>{pad(formatMs(attemptTime(attempt)), 11)}</Text>
              <Text>{formatSpeedup(attempt.evaluation_state?.benchmarking_result?.speedup)}</Text>
            </Box>
          );
        })}
      </Box>
      {evaluation ? (
        <Box marginTop={1}>
          <Text color="cyan">{evaluation}</Text>
        </Box>
      ) : null}
      {horizon ? (
        <Box marginTop={evaluation ? 0 : 1}>
          <Text color="cyan">{horizon}</Text>
        </Box>
      ) : null}
      {stream ? (
        <Box marginTop={1} flexDirection="column">
          <Text dimColor>agent · attempt #{stream.attempt?.attempt_number ?? '?'}</Text>
          {tail.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of a text tail have no identity of their own.
            <Text key={i}>{line}</Text>
          ))}
        </Box>
      ) : null}
      <Box marginTop={1}>
        <Text dimColor>
          {isSessionDone(state.status) ? `session ${state.status}` : 'q to leave · the session keeps running'}
        </Text>
      </Box>
    </Box>
  );
}

function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text.padEnd(width);
}

function statusColor(status: string): string {
  if (status === 'completed') return 'green';
  if (status === 'failed' || status === 'stopped') return 'red';
  if (status === 'generating' || status === 'evaluating') return 'cyan';
  return 'gray';
}

/** The best attempt by the spec's rule, marked only once one has completed. */
function bestOf(state: WatchState): string | undefined {
  const best = bestAttempt({ generation_attempts: state.attempts });
  return best?.status === 'completed' ? best.id : undefined;
}
