// A new instruction for the agent, with how many attempts it may make.
import { DEFAULT_MAX_ATTEMPTS, MAX_ATTEMPTS_PER_INSTRUCTION } from '@kernelforge/sdk';
import { type FormEvent, useState } from 'react';
import { useAction } from '../hooks/useAction';
import { Button } from './Button';
import { TextArea, TextField } from './fields';

export function NewInstructionForm({
  onSubmit,
  disabled,
}: {
  onSubmit: (text: string, attempts: number) => Promise<unknown>;
  disabled?: boolean;
}) {
  const [text, setText] = useState('');
  const [attempts, setAttempts] = useState(DEFAULT_MAX_ATTEMPTS);
  const { busy, run } = useAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    const done = await run(
      async () => {
        await onSubmit(text.trim(), attempts);
        return true;
      },
      'Failed to send the instruction',
      'Instruction sent',
    );
    if (done) setText('');
  }

  return (
    <form onSubmit={submit} className="space-y-3" aria-label="New instruction">
      <TextArea
        id="new-instruction"
        label="New instruction"
        rows={3}
        value={text}
        maxLength={10_000}
        required
        onChange={(e) => setText(e.target.value)}
        placeholder="e.g. Try a tiled version with 64×64 blocks."
      />
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-40">
          <TextField
            label="Attempts"
            type="number"
            min={1}
            max={MAX_ATTEMPTS_PER_INSTRUCTION}
            value={attempts}
            onChange={(e) =>
              setAttempts(Math.max(1, Math.min(MAX_ATTEMPTS_PER_INSTRUCTION, Number(e.target.value) || 1)))
            }
          />
        </div>
        <Button type="submit" variant="primary" disabled={busy || disabled || !text.trim()}>
          {busy ? 'Sending…' : 'Send instruction'}
        </Button>
      </div>
    </form>
  );
}
