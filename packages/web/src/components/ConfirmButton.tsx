// A button whose action waits for a second, explicit yes: the question opens in place with Confirm and Cancel.
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { Button } from './Button';

type Variant = 'primary' | 'secondary' | 'danger' | 'ghost';

export function ConfirmButton({
  children,
  question,
  confirmLabel,
  onConfirm,
  variant = 'secondary',
  size = 'md',
  disabled,
  title,
  'aria-label': ariaLabel,
}: {
  children: ReactNode;
  /** What will happen, asked as a question. */
  question: ReactNode;
  confirmLabel: string;
  onConfirm: () => void | Promise<void>;
  variant?: Variant;
  size?: 'sm' | 'md';
  disabled?: boolean | undefined;
  title?: string | undefined;
  'aria-label'?: string | undefined;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  const cancel = () => {
    setAsking(false);
    openerRef.current?.focus();
  };
  if (!asking)
    return (
      <Button
        ref={openerRef}
        variant={variant}
        size={size}
        disabled={disabled}
        title={title}
        aria-label={ariaLabel}
        aria-haspopup="dialog"
        onClick={() => setAsking(true)}
      >
        {children}
      </Button>
    );
  return (
    <div
      role="alertdialog"
      aria-labelledby={id}
      data-testid="confirm"
      onKeyDown={(e) => {
        if (e.key === 'Escape') cancel();
      }}
      className="flex flex-wrap items-center gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-left text-sm dark:border-amber-800 dark:bg-amber-950/50"
    >
      <span id={id} className="text-amber-950 dark:text-amber-100">
        {question}
      </span>
      <span className="flex gap-2">
        <Button
          ref={confirmRef}
          size="sm"
          variant={variant === 'danger' ? 'danger' : 'primary'}
          onClick={() => {
            setAsking(false);
            void onConfirm();
          }}
        >
          {confirmLabel}
        </Button>
        <Button size="sm" onClick={cancel}>
          Cancel
        </Button>
      </span>
    </div>
  );
}
