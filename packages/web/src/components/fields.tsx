// Labelled form controls: a label is always tied to its control.
import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from 'react';

export const controlClass =
  'block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100';

function Label({ htmlFor, children, hint }: { htmlFor: string; children: ReactNode; hint?: ReactNode }) {
  return (
    <label htmlFor={htmlFor} className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200">
      {children}
      {hint ? <span className="ml-2 font-normal text-slate-500 dark:text-slate-400">{hint}</span> : null}
    </label>
  );
}

export function TextField({
  label,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: ReactNode; hint?: ReactNode }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={props.id ?? id} hint={hint}>
        {label}
      </Label>
      <input id={id} className={controlClass} {...props} />
    </div>
  );
}

export function TextArea({
  label,
  hint,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: ReactNode; hint?: ReactNode }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={props.id ?? id} hint={hint}>
        {label}
      </Label>
      <textarea id={id} className={controlClass} {...props} />
    </div>
  );
}

export function SelectField({
  label,
  hint,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: ReactNode; hint?: ReactNode }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={props.id ?? id} hint={hint}>
        {label}
      </Label>
      <select id={id} className={controlClass} {...props}>
        {children}
      </select>
    </div>
  );
}
