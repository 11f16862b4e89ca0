// The default error view (spec section 2): 'Something went wrong!' with a Show Error / Hide Error toggle.
import { useId, useState } from 'react';
import { errorHelp } from '../lib/errorHelp';
import { AppLink } from './AppLink';
import { Button, buttonClass } from './Button';
import { WayBack } from './WayBack';

export function DefaultErrorView({ error }: { error: unknown }) {
  const [shown, setShown] = useState(false);
  const id = useId();
  const message = error instanceof Error ? error.message : String(error);
  const help = errorHelp(error);
  return (
    <div
      role="alert"
      className="mx-auto my-10 max-w-xl rounded-lg border border-rose-200 bg-rose-50 p-5 dark:border-rose-900 dark:bg-rose-950/40"
    >
      <p className="font-semibold text-rose-800 dark:text-rose-200">Something went wrong!</p>
      {help ? (
        <div data-testid="error-help" className="mt-2 text-sm text-slate-800 dark:text-slate-200">
          <p>{help.text}</p>
          <AppLink href={help.href} className={`${buttonClass('primary', 'sm')} mt-3`}>
            {help.link}
          </AppLink>
        </div>
      ) : null}
      <Button
        size="sm"
        className={help ? 'mt-3 ml-2' : 'mt-3'}
        aria-expanded={shown}
        aria-controls={id}
        onClick={() => setShown((s) => !s)}
      >
        {shown ? 'Hide Error' : 'Show Error'}
      </Button>
      {shown ? (
        <pre
          id={id}
          className="mt-3 overflow-auto rounded bg-white p-3 text-sm whitespace-pre-wrap text-rose-900 dark:bg-slate-900 dark:text-rose-200"
        >
          {message}
        </pre>
      ) : null}
      {help ? null : <WayBack />}
    </div>
  );
}
