// `/tokens/` ('User API Tokens'): list with scopes, create (full or CI scope; the token shown once, with a copy button), revoke.
import { type CreatedApiToken, TOKEN_SCOPE_PRESETS, type TokenScopePreset } from '@kernelforge/sdk';
import { type FormEvent, useState } from 'react';
import { Button } from '../components/Button';
import { Card } from '../components/Card';
import { ConfirmButton } from '../components/ConfirmButton';
import { CopyButton } from '../components/CopyButton';
import { DataTable } from '../components/DataTable';
import { EmptyState } from '../components/EmptyState';
import { SelectField, TextField } from '../components/fields';
import { PageHeader } from '../components/PageHeader';
import { QueryState } from '../components/QueryState';
import { useAction } from '../hooks/useAction';
import { useTokenMutations, useTokens } from '../hooks/useTokens';
import { formatDate } from '../lib/format';

/** One shell line that points the CLI at this server and signs it in (`kforge` reads both variables). */
function exportLine(token: string): string {
  return `export KFORGE_API_URL=${window.location.origin} KFORGE_TOKEN=${token}`;
}

export default function TokensPage() {
  const tokens = useTokens();
  const tokenActions = useTokenMutations();
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
        tokenActions.create({
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
  }

  async function revoke(id: string) {
    await run(() => tokenActions.revoke(id), 'Failed to revoke the token', 'Token revoked');
    if (created?.id === id) setCreated(null);
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
                  <DataTable
                    rows={list.data}
                    rowKey={(t) => t.id}
                    rowTestId="token-row"
                    columns={[
                      { id: 'name', header: 'Name', wide: true, className: 'font-medium', cell: (t) => t.name },
                      { id: 'token', header: 'Token', className: 'font-mono text-xs', cell: (t) => `${t.prefix}…` },
                      {
                        id: 'scopes',
                        header: 'Scopes',
                        className: 'text-xs',
                        testId: 'token-scopes',
                        cell: (t) => t.scopes.join(', '),
                      },
                      { id: 'created', header: 'Created', className: 'text-xs', cell: (t) => formatDate(t.created_at) },
                      {
                        id: 'last-used',
                        header: 'Last used',
                        className: 'text-xs',
                        cell: (t) => (t.last_used_at ? formatDate(t.last_used_at) : 'never'),
                      },
                      {
                        id: 'expires',
                        header: 'Expires',
                        className: 'text-xs',
                        cell: (t) => (t.expires_at ? formatDate(t.expires_at) : 'never'),
                      },
                      {
                        id: 'actions',
                        srHeader: 'Actions',
                        wide: true,
                        className: 'md:text-right',
                        cell: (t) => (
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
                        ),
                      },
                    ]}
                  />
                </div>
              )
            }
          </QueryState>
        </Card>
      </div>
    </>
  );
}
