// An attempts count: its maximum stated beside the label, and a value out of range said under the field (never
// silently changed: 0 is not sent as 1, nor 1000 as 20).
import { MAX_ATTEMPTS_PER_INSTRUCTION } from '@kernelforge/sdk';
import { useId } from 'react';
import { attemptsError } from '../lib/formChecks';
import { controlClass } from './fields';

export function AttemptsField({
  id,
  label,
  value,
  onChange,
  showError,
}: {
  id?: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Whether to say what is wrong now (after a submit, or once the value has been edited). */
  showError: boolean;
}) {
  const fallback = useId();
  const inputId = id ?? fallback;
  const error = showError ? attemptsError(value) : null;
  return (
    <div>
      <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200">
        {label}
        <span className="ml-2 font-normal text-slate-500 dark:text-slate-400">1 to {MAX_ATTEMPTS_PER_INSTRUCTION}</span>
      </label>
      <input
        id={inputId}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_ATTEMPTS_PER_INSTRUCTION}
        step={1}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        className={`${controlClass} ${error ? 'border-rose-500 dark:border-rose-500' : ''}`}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p id={`${inputId}-error`} className="mt-1 text-sm text-rose-700 dark:text-rose-300" data-testid="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
