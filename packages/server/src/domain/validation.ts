// AppContext checks that zod cannot make alone (does this device, this agent exist?), answered as FastAPI-shaped 422s.
import type { Device, Problem } from '@kernelforge/sdk';
import { agentsConfigFrom, listAgents } from '../agents/index.js';
import { invalidInput as invalid, LimitError } from '../errors.js';
import type { AppContext } from '../context.js';

/** The device, known to some runner and able to run the problem's backends. */
export async function requireDevice(
  ctx: AppContext,
  id: string,
  problem: Pick<Problem, 'backends' | 'name'> & Partial<Pick<Problem, 'kind'>>,
): Promise<Device> {
  const device = await resolveDevice(ctx, id);
  if (!problem.backends.includes(device.kind)) {
    throw invalid(['body', 'device'], `Problem '${problem.name}' does not run on ${device.kind} devices`);
  }
  // A pytorch problem on a device whose runner cannot run it (no PyTorch, or one without CUDA on a GPU): its reason.
  const off = problem.kind === 'pytorch' ? device.unavailable?.find((u) => u.kind === 'pytorch') : undefined;
  if (off) throw invalid(['body', 'device'], `Problem '${problem.name}' cannot run on ${device.id}: ${off.reason}`);
  return device;
}

/** The device an id names (its own id, or a generic one such as `cpu-x86_64` that names one device), else a 422
    listing the known devices, or the ones a generic id could mean. */
export async function resolveDevice(ctx: AppContext, id: string): Promise<Device> {
  const { device, ambiguous, devices } = await ctx.devices.resolve(id);
  if (device) return device;
  if (ambiguous)
    throw invalid(
      ['body', 'device'],
      `Device '${id}' could mean ${ambiguous.map((d) => d.id).join(', ')}: name one of them`,
    );
  const known = devices.map((d) => d.id).join(', ') || '(none: start a runner)';
  throw invalid(['body', 'device'], `Unknown device '${id}'. Known devices: ${known}`);
}

/** The agent choice, defaulting to the configured LLM provider or else the tuner. */
export function resolveAgent(
  ctx: AppContext,
  choice: { provider: string; model?: string | null | undefined } | undefined,
) {
  const offered = listAgents(agentsConfigFrom(ctx.config));
  const provider = choice?.provider ?? ctx.config.llm.provider ?? offered[0]?.provider ?? 'tuner';
  const entry = offered.find((a) => a.provider === provider);
  if (!entry) {
    throw invalid(
      ['body', 'agent', 'provider'],
      `Unknown agent '${provider}'. Offered: ${offered.map((a) => a.provider).join(', ')}`,
    );
  }
  return { provider, model: choice?.model ?? entry.default_model ?? null };
}

/**
 * Per-user daily quota: 429 with Retry-After (seconds until the oldest counted item leaves the window). `needed`
 * items at once (a sweep's sessions) are refused up front when they would pass it, saying by how much.
 */
export async function enforceDailyQuota(
  ctx: AppContext,
  what: 'sessions' | 'submissions',
  userId: string,
  needed = 1,
): Promise<void> {
  const table = what === 'sessions' ? 'agent_sessions' : 'submissions';
  const owner = what === 'sessions' ? 'owner_id' : 'user_id';
  // Test runs ("Run tests") have their own quota (enforceTestRunLimits): only ranked submissions count here.
  const only = what === 'submissions' ? "AND purpose = 'submit'" : '';
  const limit = ctx.config.dailyLimits[what];
  const [row] = await ctx.db.query<{ n: number; oldest: Date | null }>(
    `SELECT count(*)::int AS n, min(created_at) AS oldest FROM ${table}
     WHERE ${owner} = $1 AND created_at > now() - interval '1 day' ${only}`,
    [userId],
  );
  const used = row?.n ?? 0;
  if (used + needed <= limit) return;
  const retry = row?.oldest
    ? Math.max(1, Math.ceil((new Date(row.oldest).getTime() + 86_400_000 - Date.now()) / 1000))
    : 3600;
  const detail =
    needed === 1
      ? `Daily limit of ${limit} ${what} reached`
      : `This needs ${needed} ${what}, but the daily limit of ${limit} leaves ${Math.max(0, limit - used)} (${used} used in the last 24 hours): ${used + needed - limit} over the limit`;
  throw new LimitError(detail, retry);
}

/** The device ids a `?device=` filter matches: the id as given (results kept under it, a device no runner serves
    now included) and the device it names today (a generic `cpu-x86_64` names the one x86-64 cpu device). */
export async function deviceIds(ctx: AppContext, id: string): Promise<string[]> {
  const named = (await ctx.devices.resolve(id)).device?.id;
  return named && named !== id ? [id, named] : [id];
}
