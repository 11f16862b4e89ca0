// An inline result under a form: an error (announced) or a success note.
export function FormMessage({
  error,
  success,
}: {
  error?: string | null | undefined;
  success?: string | null | undefined;
}) {
  if (error) {
    return (
      <p
        role="alert"
        className="rounded-md bg-rose-50 px-3 py-2 text-sm text-rose-800 dark:bg-rose-950/50 dark:text-rose-200"
      >
        {error}
      </p>
    );
  }
  if (success) {
    return (
      <p
        role="status"
        className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-200"
      >
        {success}
      </p>
    );
  }
  return null;
}
