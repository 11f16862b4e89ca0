// Why only the tuner is offered (no LLM provider configured) and what it is, beside the Agent and Model fields.
export function AgentOfferNote({ providers }: { providers: readonly string[] }) {
  if (providers.some((p) => p !== 'tuner')) return null;
  return (
    <p className="text-xs text-slate-600 dark:text-slate-400" data-testid="agent-offer-note">
      Only the built-in tuner is offered: it searches a fixed space of kernel variants, so it has no model to choose.
      LLM agents appear here once this server's operator sets <code className="font-mono">KFORGE_LLM_PROVIDER</code>{' '}
      (openai or anthropic), <code className="font-mono">KFORGE_LLM_API_KEY</code> and{' '}
      <code className="font-mono">KFORGE_LLM_MODEL</code>.
    </p>
  );
}
