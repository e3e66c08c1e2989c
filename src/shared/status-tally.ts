/**
 * A summary card's counts by status: the total over every status counted, then one count per
 * status named, in the order named (a status nobody is in counts 0).
 */
export function statusTally<S extends string>(
  counted: readonly { status: string; n: number }[],
  statuses: readonly S[],
): { total: number } & Record<S, number> {
  const tally = { total: counted.reduce((n, r) => n + r.n, 0) } as { total: number } & Record<S, number>;
  for (const s of statuses) (tally as Record<string, number>)[s] = counted.find((r) => r.status === s)?.n ?? 0;
  return tally;
}
