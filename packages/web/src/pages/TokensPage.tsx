// `/tokens/` ('User API Tokens'): list with scopes, create (full or CI scope; the token shown once, with a copy button), revoke.
import { type CreatedApiToken, TOKEN_SCOPE_PRESETS, type TokenScopePreset } from '@kernelforge/sdk';
import { type FormEvent, useState } from 'react';
import { useSWRConfig } from 'swr';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { ConfirmButton } from '../components/ConfirmButton';
import { CopyButton } from '../components/CopyButton';
import { EmptyState } from '../components/EmptyState';
import { SelectField, TextField } from '../components/fields';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { keys } from '../hooks/keys';
import { useAction } from '../hooks/useAction';
import { useTokens } from '../hooks/useTokens';
import { api } from '../lib/client';
import { formatDate } from '../lib/format';
import { stacked } from '../lib/stackedTable';

/** One shell line that points the CLI at this server and signs it in (`kforge` reads both variables). */
function exportLine(token: string): string {
  return `export KFORGE_API_URL=${window.location.origin} KFORGE_TOKEN=${token}`;
}

export default function TokensPage() {
  const tokens = useTokens();
  const { mutate } = useSWRConfig();
  const { busy, run } = useAction();
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const [preset, setPreset] = useState<TokenScopePreset>('full');
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  async function create(event: FormEvent) {
    event.preventDefault();
    const expires = Number(days);
    const token = await run(
      () =>
        api().tokens.create({
          name: name.trim(),
          scopes: [...TOKEN_SCOPE_PRESETS[preset]],
          ...(days && expires > 0 ? { expires_in_days: expires } : {}),
        }),
      'Failed to create the token',
    );
    if (!token) return;
    setCreated(token);
    setName('');
    setDays('');
    void mutate(keys.tokens);
  }

  async function revoke(id: string) {
    await run(() => api().tokens.revoke(id), 'Failed to revoke the token', 'Token revoked');
    if (created?.id === id) setCreated(null);
    void mutate(keys.tokens);
  }

  return (
    <>
      <PageHeader
        title="User API Tokens"
        subtitle="Tokens let the kforge CLI and your scripts act as you. Keep them secret."
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card title="New token">
          <form onSubmit={create} className="space-y-4" aria-label="Create a token">
            <TextField
              id="token-name"
              label="Name"
              value={name}
              required
              maxLength={100}
              onChange={(e) => setName(e.target.value)}
              placeholder="e.g. laptop CLI"
            />
            <TextField
              label="Expires in days"
              hint="optional"
              type="number"
              min={1}
              max={3650}
              value={days}
              onChange={(e) => setDays(e.target.value)}
            />
            <SelectField label="Access" value={preset} onChange={(e) => setPreset(e.target.value as TokenScopePreset)}>
              <option value="full">Full: sessions, submissions and tokens</option>
              <option value="ci">CI: submit and read only</option>
            </SelectField>
            <Button type="submit" variant="primary" disabled={busy || !name.trim()}>
              Create token
            </Button>
          </form>
          {created ? (
            <div
              role="status"
              className="mt-4 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm dark:border-emerald-800 dark:bg-emerald-950/40"
            >
              <p className="font-medium text-emerald-900 dark:text-emerald-100">
                Copy your token now: it will not be shown again.
              </p>
              <code
                data-testid="new-token"
                className="mt-2 block rounded bg-white p-2 font-mono text-xs break-all text-slate-900 dark:bg-slate-900 dark:text-slate-100"
              >
                {created.token}
              </code>
              <div className="mt-2">
                <CopyButton text={created.token} label="Copy token" />
              </div>
              <p className="mt-3 text-emerald-900 dark:text-emerald-100">For the CLI and scripts:</p>
              <code
                data-testid="export-line"
                className="mt-1 block rounded bg-white p-2 font-mono text-xs break-all text-slate-900 dark:bg-slate-900 dark:text-slate-100"
              >
                {exportLine(created.token)}
              </code>
              <div className="mt-2">
                <CopyButton text={exportLine(created.token)} label="Copy export line" />
              </div>
            </div>
          ) : null}
        </Card>
        <Card title="Your tokens" className="lg:col-span-2">
          <QueryState data={tokens.data} error={tokens.error}>
            {(list) =>
              list.data.length === 0 ? (
                <EmptyState
                  icon="tokens"
                  title="No token yet"
                  action={{ label: 'Create a token', focus: 'token-name' }}
                >
                  A token lets the kforge CLI and your scripts start sessions and submit as you.
                </EmptyState>
              ) : (
                <div>
                  <table className={stacked.table}>
                    <thead className={stacked.thead}>
                      <tr>
                        <th className={stacked.th}>Name</th>
                        <th className={stacked.th}>Token</th>
                        <th className={stacked.th}>Scopes</th>
                        <th className={stacked.th}>Created</th>
                        <th className={stacked.th}>Last used</th>
                        <th className={stacked.th}>Expires</th>
                        <th className={stacked.th}>
                          <span className="sr-only">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody className={stacked.tbody}>
                      {list.data.map((t) => (
                        <tr key={t.id} data-testid="token-row" className={stacked.row}>
                          <td className={`${stacked.cell} ${stacked.wide} font-medium`}>{t.name}</td>
                          <td data-label="Token" className={`${stacked.cell} font-mono text-xs`}>
                            {t.prefix}…
                          </td>
                          <td data-label="Scopes" className={`${stacked.cell} text-xs`} data-testid="token-scopes">
                            {t.scopes.join(', ')}
                          </td>
                          <td data-label="Created" className={`${stacked.cell} text-xs`}>
                            {formatDate(t.created_at)}
                          </td>
                          <td data-label="Last used" className={`${stacked.cell} text-xs`}>
                            {t.last_used_at ? formatDate(t.last_used_at) : 'never'}
                          </td>
                          <td data-label="Expires" className={`${stacked.cell} text-xs`}>
                            {t.expires_at ? formatDate(t.expires_at) : 'never'}
                          </td>
                          <td className={`${stacked.cell} ${stacked.wide} md:text-right`}>
                            <ConfirmButton
                              size="sm"
                              variant="danger"
                              disabled={busy}
                              aria-label={`Revoke ${t.name}`}
                              question={`Revoke “${t.name}”? Scripts using it stop working at once.`}
                              confirmLabel="Revoke token"
                              onConfirm={() => revoke(t.id)}
                            >
                              Revoke
                            </ConfirmButton>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )
            }
          </QueryState>
        </Card>
      </div>
    </>
  );
}
