// `/admin/outbox`: the mails the server would send (sign-up, sign-in links), kept when no SMTP server is configured.
import { useOutbox } from '../../hooks/useOutbox';
import { formatDate } from '../../lib/format';
import { Card } from '../Card';
import { QueryState } from '../QueryState';
import { AdminEmpty } from './AdminEmpty';

export function AdminOutbox() {
  const mails = useOutbox();
  return (
    <Card title="Mail outbox">
      <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
        Without an SMTP server the mails the server would send (sign-up, sign-in links) are kept here, newest first.
      </p>
      <QueryState data={mails.data} error={mails.error} label="Loading mail…">
        {(page) =>
          page.data.length === 0 ? (
            <AdminEmpty text="No mail kept: none was sent yet, or mail goes out through SMTP." />
          ) : (
            page.data.map((m) => (
              <details
                key={m.id}
                className="border-t border-slate-100 py-2 text-sm dark:border-slate-800"
                data-testid="mail"
              >
                <summary className="cursor-pointer">
                  <span className="font-medium break-all">{m.to}</span> · {m.subject}{' '}
                  <span className="text-xs text-slate-500 dark:text-slate-400">{formatDate(m.created_at)}</span>
                </summary>
                <pre className="mt-2 overflow-x-auto rounded bg-slate-50 p-3 text-xs whitespace-pre-wrap break-all dark:bg-slate-950">
                  {m.text}
                </pre>
              </details>
            ))
          )
        }
      </QueryState>
    </Card>
  );
}
