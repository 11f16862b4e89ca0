// A new instruction for the agent, with how many attempts it may make.
import { DEFAULT_MAX_ATTEMPTS, errorMessage } from '@kernelforge/sdk';
import { type FormEvent, useId, useState } from 'react';
import { toast } from 'sonner';
import { attemptsError } from '../lib/formChecks';
import { AttemptsField } from './AttemptsField';
import { Button } from './Button';
import { TextArea } from './fields';
import { FormMessage } from './FormMessage';

export function NewInstructionForm({
  onSubmit,
  disabled,
}: {
  onSubmit: (text: string, attempts: number) => Promise<unknown>;
  disabled?: boolean;
}) {
  const [text, setText] = useState('');
  const [attempts, setAttempts] = useState(String(DEFAULT_MAX_ATTEMPTS));
  const [checkAttempts, setCheckAttempts] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const attemptsId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    if (attemptsError(attempts)) {
      setCheckAttempts(true);
      document.getElementById(attemptsId)?.focus();
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await onSubmit(text.trim(), Number(attempts));
      toast.success('Instruction sent');
      setText('');
    } catch (error) {
      setFailure(errorMessage(error, 'Failed to send the instruction'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-3" aria-label="New instruction">
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
          <AttemptsField
            id={attemptsId}
            label="Attempts"
            value={attempts}
            showError={checkAttempts}
            onChange={(v) => {
              setAttempts(v);
              setCheckAttempts(true);
            }}
          />
        </div>
        <Button type="submit" variant="primary" disabled={busy || disabled || !text.trim()}>
          {busy ? 'Sending…' : 'Send instruction'}
        </Button>
      </div>
      <FormMessage error={failure} />
    </form>
  );
}
