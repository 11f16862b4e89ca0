// The loading wrapper: a spinner while loading, 'Something went wrong: {status text}' with the detail on error,
// and a way back.
import { ApiError } from '@kernelforge/sdk';
import type { ReactNode } from 'react';
import { Spinner } from './Spinner';
import { WayBack } from './WayBack';

export function queryErrorText(error: unknown): { title: string; detail: string } {
  if (error instanceof ApiError) {
    return {
      title: `Something went wrong: ${error.statusText || String(error.status)}`,
      detail: error.detail ?? 'Unknown error',
    };
  }
  const message = error instanceof Error ? error.message : '';
  return { title: `Something went wrong: ${message || 'Network error'}`, detail: 'Unknown error' };
}

export function QueryError({ error, wayBack = true }: { error: unknown; wayBack?: boolean }) {
  const { title, detail } = queryErrorText(error);
  return (
    <div
      role="alert"
      className="my-6 rounded-lg border border-rose-200 bg-rose-50 p-4 text-sm dark:border-rose-900 dark:bg-rose-950/40"
    >
      <p className="font-semibold text-rose-800 dark:text-rose-200">{title}</p>
      <p className="mt-1 text-rose-700 wrap-anywhere dark:text-rose-300">{detail}</p>
      {wayBack ? <WayBack /> : null}
    </div>
  );
}

export function QueryState<T>({
  data,
  error,
  isLoading,
  label,
  children,
}: {
  data: T | undefined;
  error: unknown;
  isLoading?: boolean;
  label?: string;
  children: (data: T) => ReactNode;
}) {
  if (data !== undefined) return <>{children(data)}</>;
  if (error) return <QueryError error={error} />;
  return isLoading === false ? null : <Spinner {...(label ? { label } : {})} />;
}
